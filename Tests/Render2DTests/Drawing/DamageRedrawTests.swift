import XCTest
import TesseraTesting
@testable import Render2D

/// Redrawing only the damage, through the real renderer: each small-change frame must be the
/// same pixels as the frame drawn whole, and must draw only its region.
final class DamageRedrawTests: XCTestCase {
    /// A window's worth of things: text, a translucent panel over a hover highlight, a
    /// thumbnail, clipped text, a rounded button and the caret of a field.
    private struct Scene {
        var hovered = 0
        var caretShown = true
        /// Seen through a window that scrolls: everything moves with it.
        var offset = 0.0

        @MainActor func draw(into list: inout DrawList, font: Font, thumbnail: TextureHandle) {
            for row in 0..<6 {
                let y = 30 + Double(row) * 24 + offset
                if row == hovered {
                    list.addRect(Rect(x: 10, y: y, width: 200, height: 22), color: Color(r: 200, g: 220, b: 255))
                }
                font.draw("Row \(row) of the list", at: Point(14, y + 3), color: Color.black, into: &list)
            }
            let y = offset
            list.addRect(Rect(x: 0, y: y, width: 320, height: 200), color: Color(r: 250, g: 250, b: 245, a: 200))
            list.addRect(Rect(x: 120, y: 20 + y, width: 120, height: 120), color: Color(r: 0, g: 0, b: 0, a: 60))
            list.addImage(thumbnail, in: Rect(x: 250, y: 40 + y, width: 60, height: 60))
            list.pushClip(Rect(x: 230, y: 150, width: 70, height: 30))
            font.draw("Clipped text past its edge", at: Point(232, 155 + y), color: Color.black, into: &list)
            list.popClip()
            list.addRoundedRect(Rect(x: 20, y: 175 + y, width: 80, height: 20), radius: 6, color: Color.blue)
            if caretShown { list.addRect(Rect(x: 160.5, y: 172 + y, width: 1.5, height: 18), color: Color.blue) }
        }
    }

    /// Draws `scene`, then the same frame whole (the kept frame forgotten): their pixels.
    @MainActor
    private static func damagedAndWhole(
        _ h: Harness, _ scene: Scene, thumbnail: TextureHandle
    ) -> (damaged: PixelBuffer?, stats: Renderer.Stats, whole: PixelBuffer?) {
        h.frame { scene.draw(into: &$0.drawList, font: $0.font, thumbnail: thumbnail) }
        let damaged = h.host.lastFramePixels, stats = h.host.window.renderer.stats
        h.host.window.renderer.invalidateLastFrame()
        h.frame { scene.draw(into: &$0.drawList, font: $0.font, thumbnail: thumbnail) }
        XCTAssertTrue(h.host.window.renderer.stats.fullRedraw)
        return (damaged, stats, h.host.lastFramePixels)
    }

    func testSmallChangesRedrawOnlyTheirRegionAndMatchAFullRedraw() throws {
        try onMain {
            let h = try Harness(width: 320, height: 200)
            let renderer = h.host.window.renderer
            XCTAssertTrue(renderer.redrawsOnlyDamage, "on by default")
            let thumbnail = try renderer.makeTexture(
                width: 8, height: 8, pixels: PixelBuffer(width: 8, height: 8, color: .red), opaque: true)
            var scene = Scene()
            // (A line of text drawn twice is then drawn from one composed image: the frames
            // after the second are the same commands.)
            h.frames(3) { scene.draw(into: &$0.drawList, font: $0.font, thumbnail: thumbnail) }
            XCTAssertEqual(renderer.stats.redrawnArea, 0, "an unchanged frame draws nothing again")
            XCTAssertFalse(renderer.stats.fullRedraw, "\(renderer.stats)")

            let window = 320 * 200
            scene.hovered = 3  // hover: one row's highlight goes, another's comes
            var frame = Self.damagedAndWhole(h, scene, thumbnail: thumbnail)
            XCTAssertFalse(frame.stats.fullRedraw)
            XCTAssertGreaterThan(frame.stats.redrawnArea, 0)
            XCTAssertLessThan(frame.stats.redrawnArea, window / 2)
            XCTAssertEqual(frame.damaged, frame.whole, "hover: the same pixels as a full redraw")
            XCTAssertNotEqual(frame.damaged?.pixel(x: 15, y: 30 + 3 * 24 + 1), h.ui.theme.background)

            scene.caretShown = false  // a caret blink: one tile
            frame = Self.damagedAndWhole(h, scene, thumbnail: thumbnail)
            XCTAssertFalse(frame.stats.fullRedraw)
            XCTAssertLessThanOrEqual(frame.stats.redrawnArea, 2 * 32 * 32, "the caret's tiles")
            XCTAssertEqual(frame.damaged, frame.whole, "caret: the same pixels as a full redraw")

            // A thumbnail's pixels arrive: its texture changes, the draw list does not.
            try renderer.updateTexture(thumbnail, x: 0, y: 0, pixels: PixelBuffer(width: 8, height: 8, color: .green))
            frame = Self.damagedAndWhole(h, scene, thumbnail: thumbnail)
            XCTAssertFalse(frame.stats.fullRedraw)
            XCTAssertLessThanOrEqual(frame.stats.redrawnArea, 3 * 3 * 32 * 32)
            XCTAssertEqual(frame.damaged?.pixel(x: 280, y: 70), .green)
            XCTAssertEqual(frame.damaged, frame.whole, "thumbnail: the same pixels as a full redraw")
        }
    }

    func testAWholeWindowChangeIsDrawnWholeAndThenStraightToTheWindow() throws {
        try onMain {
            let h = try Harness(width: 320, height: 200)
            let renderer = h.host.window.renderer
            let thumbnail = try renderer.makeTexture(width: 8, height: 8, pixels: PixelBuffer(width: 8, height: 8))
            var scene = Scene()
            for step in 1...4 {  // a scroll: everything moves
                scene.offset = Double(step)
                let frame = Self.damagedAndWhole(h, scene, thumbnail: thumbnail)
                XCTAssertTrue(frame.stats.fullRedraw)
                XCTAssertEqual(frame.stats.redrawnArea, 320 * 200)
                XCTAssertEqual(frame.damaged, frame.whole)
            }
            // After frames drawn straight to the window, a small change draws whole once more
            // (the kept frame is stale), and the one after it only its region.
            scene.caretShown.toggle()
            var frame = Self.damagedAndWhole(h, scene, thumbnail: thumbnail)
            XCTAssertEqual(frame.damaged, frame.whole)
            scene.caretShown.toggle()
            frame = Self.damagedAndWhole(h, scene, thumbnail: thumbnail)
            XCTAssertFalse(frame.stats.fullRedraw)
            XCTAssertLessThanOrEqual(frame.stats.redrawnArea, 2 * 2 * 32 * 32, "the caret's tiles")
            XCTAssertEqual(frame.damaged, frame.whole)
        }
    }

    func testTurningItOffDrawsEveryFrameWhole() throws {
        try onMain {
            let h = try Harness(width: 160, height: 100)
            h.host.window.renderer.redrawsOnlyDamage = false
            h.frames(2) { $0.drawList.addRect(Rect(x: 10, y: 10, width: 20, height: 20), color: .red) }
            XCTAssertTrue(h.host.window.renderer.stats.fullRedraw)
            XCTAssertEqual(h.pixels.pixel(x: 15, y: 15), .red)
        }
    }
}
