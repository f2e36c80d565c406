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

    /// Two windows drawing the same scenes: one redrawing only damage, the reference drawing
    /// every frame whole. Each has a thumbnail texture of its own.
    @MainActor
    private final class Pair {
        let h: Harness
        let reference: Harness
        let thumbnail: TextureHandle
        let referenceThumbnail: TextureHandle

        init(width: Int, height: Int) throws {
            h = try Harness(width: width, height: height)
            reference = try Harness(width: width, height: height)
            reference.host.window.renderer.redrawsOnlyDamage = false
            let red = PixelBuffer(width: 8, height: 8, color: .red)
            thumbnail = try h.host.window.renderer.makeTexture(width: 8, height: 8, pixels: red, opaque: true)
            referenceThumbnail = try reference.host.window.renderer.makeTexture(
                width: 8, height: 8, pixels: red, opaque: true)
        }

        /// A thumbnail's pixels arrive in both windows.
        func updateThumbnails(_ pixels: PixelBuffer) throws {
            try h.host.window.renderer.updateTexture(thumbnail, x: 0, y: 0, pixels: pixels)
            try reference.host.window.renderer.updateTexture(referenceThumbnail, x: 0, y: 0, pixels: pixels)
        }

        /// Draws `scene` in both: the damaged frame's pixels and stats, and the whole frame's pixels.
        func draw(_ scene: Scene) -> (damaged: PixelBuffer, stats: Renderer.Stats, whole: PixelBuffer) {
            h.frame { scene.draw(into: &$0.drawList, font: $0.font, thumbnail: self.thumbnail) }
            reference.frame { scene.draw(into: &$0.drawList, font: $0.font, thumbnail: self.referenceThumbnail) }
            XCTAssertTrue(reference.host.window.renderer.stats.fullRedraw)
            return (h.pixels, h.host.window.renderer.stats, reference.pixels)
        }
    }

    func testSmallChangesRedrawOnlyTheirRegionAndMatchAFullRedraw() throws {
        try onMain {
            let pair = try Pair(width: 320, height: 200)
            let renderer = pair.h.host.window.renderer
            XCTAssertTrue(renderer.redrawsOnlyDamage, "on by default")
            var scene = Scene()
            // (A line of text drawn twice is then drawn from one composed image: the frames
            // after the second are the same commands.)
            for _ in 0..<3 { _ = pair.draw(scene) }
            XCTAssertEqual(renderer.stats.redrawnArea, 0, "an unchanged frame draws nothing again")
            XCTAssertFalse(renderer.stats.fullRedraw)

            scene.hovered = 3  // hover: one row's highlight goes, another's comes
            var frame = pair.draw(scene)
            XCTAssertFalse(frame.stats.fullRedraw)
            XCTAssertGreaterThan(frame.stats.redrawnArea, 0)
            XCTAssertLessThan(frame.stats.redrawnArea, 320 * 200 / 2)
            XCTAssertEqual(frame.damaged, frame.whole, "hover: the same pixels as a full redraw")
            XCTAssertNotEqual(frame.damaged.pixel(x: 15, y: 30 + 3 * 24 + 1), pair.h.ui.theme.background)

            scene.caretShown = false  // a caret blink: its tiles
            frame = pair.draw(scene)
            XCTAssertFalse(frame.stats.fullRedraw)
            XCTAssertLessThanOrEqual(frame.stats.redrawnArea, 2 * 32 * 32, "the caret's tiles")
            XCTAssertEqual(frame.damaged, frame.whole, "caret: the same pixels as a full redraw")

            // A thumbnail's pixels arrive: its texture changes, the draw list does not.
            try pair.updateThumbnails(PixelBuffer(width: 8, height: 8, color: .green))
            frame = pair.draw(scene)
            XCTAssertFalse(frame.stats.fullRedraw)
            XCTAssertLessThanOrEqual(frame.stats.redrawnArea, 3 * 3 * 32 * 32)
            XCTAssertEqual(frame.damaged.pixel(x: 280, y: 70), .green)
            XCTAssertEqual(frame.damaged, frame.whole, "thumbnail: the same pixels as a full redraw")
        }
    }

    func testWhatAnOpaquePhotoHidesIsLeftOutAndThePixelsStayThoseOfAFullRedraw() throws {
        try onMain {
            // A panel, text and a translucent label under and over a photo at fractional
            // coordinates, as in a grid cell. First the photo's pixels arrive, then the panel
            // changes color around the photo: a pixel the cut panel missed would keep its old color.
            let pair = try Pair(width: 320, height: 200)
            let draw: (inout DrawList, Font, TextureHandle, Color) -> Void = { list, font, photo, panel in
                list.addRect(Rect(x: 20, y: 20, width: 200, height: 130), color: panel)
                font.draw("Hidden", at: Point(60, 70), color: .black, into: &list)
                list.addImage(photo, in: Rect(x: 40.33, y: 30.5, width: 150.87, height: 101.25))
                list.addRect(Rect(x: 40, y: 110, width: 151, height: 22), color: Color(r: 0, g: 0, b: 0, a: 115))
                font.draw("IMG_0042.JPG", at: Point(46, 113), color: .white, into: &list)
            }
            let renderer = pair.h.host.window.renderer
            @MainActor func frame(_ panel: Color, warmingUp: Bool = false) {
                pair.h.frame { draw(&$0.drawList, $0.font, pair.thumbnail, panel) }
                pair.reference.frame { draw(&$0.drawList, $0.font, pair.referenceThumbnail, panel) }
                XCTAssertTrue(warmingUp || !renderer.stats.fullRedraw)
                XCTAssertEqual(pair.h.pixels, pair.reference.pixels, "the same pixels as a full redraw")
            }
            let gray = Color(r: 240, g: 240, b: 235)
            for _ in 0..<3 { frame(gray, warmingUp: true) }
            for color in [Color.green, Color(r: 30, g: 60, b: 200)] {
                try pair.updateThumbnails(PixelBuffer(width: 8, height: 8, color: color))
                frame(gray)
                XCTAssertGreaterThanOrEqual(renderer.stats.hiddenShapes, 3, "the clear, the panel and the hidden text")
                XCTAssertEqual(pair.h.pixels.pixel(x: 100, y: 60), color)
            }
            for panel in [Color(r: 250, g: 200, b: 120), gray] {
                frame(panel)
                XCTAssertGreaterThanOrEqual(renderer.stats.hiddenShapes, 2, "the panel and the hidden text")
                XCTAssertEqual(pair.h.pixels.pixel(x: 191, y: 60), panel, "just right of the photo")
            }
        }
    }

    /// Random small changes, frame after frame (shapes between pixels moved, recolored, added,
    /// removed, clipped; rounded corners, rings, text, translucent images; texture pixels
    /// replaced): every frame redrawn only where it changed is the frame drawn whole, and most
    /// frames draw regions cut to what changed, smaller than their tiles.
    func testRandomSmallChangesRedrawnOnlyWhereTheyChangedMatchAFullRedraw() throws {
        try onMain {
            let pair = try Pair(width: 320, height: 200)
            let renderer = pair.h.host.window.renderer
            let textures = try (1...3).map { k in
                let pixels = PixelBuffer(width: 8, height: 8, color: RandomScene.colors[k])
                return (
                    try renderer.makeTexture(width: 8, height: 8, pixels: pixels, opaque: k != 3),
                    try pair.reference.host.window.renderer.makeTexture(
                        width: 8, height: 8, pixels: pixels, opaque: k != 3)
                )
            }
            var scene = RandomScene(seed: 0x2545_F491_4F6C_DD1D, fractional: true)
            var partial = 0, cutToTheChange = 0
            for frame in 0..<150 {
                if let texture = scene.change() {
                    let pixels = PixelBuffer(width: 8, height: 8, color: RandomScene.colors[frame % 6])
                    try renderer.updateTexture(textures[texture - 1].0, x: 0, y: 0, pixels: pixels)
                    try pair.reference.host.window.renderer.updateTexture(
                        textures[texture - 1].1, x: 0, y: 0, pixels: pixels)
                }
                pair.h.frame { ui in scene.draw(into: &ui.drawList, texture: { textures[$0 - 1].0 }, font: ui.font) }
                pair.reference.frame { ui in
                    scene.draw(into: &ui.drawList, texture: { textures[$0 - 1].1 }, font: ui.font)
                }
                let (damaged, whole) = (pair.h.pixels, pair.reference.pixels)
                if damaged != whole {
                    let differs = (0..<320 * 200).first {
                        damaged.pixel(x: $0 % 320, y: $0 / 320) != whole.pixel(x: $0 % 320, y: $0 / 320)
                    }
                    XCTFail(
                        "frame \(frame): pixel \(differs.map { ($0 % 320, $0 / 320) }.debugDescription) differs from a full redraw"
                    )
                }
                guard !renderer.stats.fullRedraw, renderer.stats.redrawnArea > 0 else { continue }
                partial += 1
                if renderer.stats.redrawnArea % (DamageTracker.tileSize * DamageTracker.tileSize) != 0 {
                    cutToTheChange += 1
                }
            }
            XCTAssertGreaterThan(partial, 75, "most frames redraw only their damage")
            XCTAssertGreaterThan(cutToTheChange, partial / 2, "most regions are cut to the change")
        }
    }

    func testAWholeWindowChangeIsDrawnWholeAndSmallChangesAfterItOnlyTheirRegion() throws {
        try onMain {
            let pair = try Pair(width: 320, height: 200)
            var scene = Scene()
            for step in 1...40 {  // a scroll: everything moves, frame after frame
                scene.offset = Double(step % 20)
                let frame = pair.draw(scene)
                XCTAssertTrue(frame.stats.fullRedraw)
                XCTAssertEqual(frame.stats.redrawnArea, 320 * 200)
                XCTAssertEqual(frame.damaged, frame.whole)
            }
            // Then the caret blinks, frame after frame: within sixteen frames (while the
            // scroll's frames hashed two in sixteen), frames redraw only the caret's tiles.
            var partial = 0
            for _ in 0..<20 {
                scene.caretShown.toggle()
                let frame = pair.draw(scene)
                XCTAssertEqual(frame.damaged, frame.whole)
                if !frame.stats.fullRedraw {
                    partial += 1
                    XCTAssertLessThanOrEqual(frame.stats.redrawnArea, 2 * 2 * 32 * 32, "the caret's tiles")
                }
            }
            XCTAssertGreaterThanOrEqual(partial, 20 - 16)
        }
    }

    func testAFrameDrawnWholeOnRequestDoesNotKeepTheFramesAfterItWhole() throws {
        try onMain {
            // After a scroll, every other frame is drawn whole because the GPU lost it
            // (`invalidateLastFrame`), the others blink the caret. Whatever the scroll's length,
            // the caret's frames redraw only its tiles: a forced whole frame is no sign that the
            // window keeps changing whole.
            for scrollFrames in [40, 41] {
                let pair = try Pair(width: 320, height: 200)
                let renderer = pair.h.host.window.renderer
                var scene = Scene()
                for step in 1...scrollFrames {
                    scene.offset = Double(step % 20)
                    _ = pair.draw(scene)
                }
                var partial = 0
                for _ in 0..<20 {
                    renderer.invalidateLastFrame()
                    XCTAssertTrue(pair.draw(scene).stats.fullRedraw)
                    scene.caretShown.toggle()
                    let frame = pair.draw(scene)
                    XCTAssertEqual(frame.damaged, frame.whole)
                    if !frame.stats.fullRedraw { partial += 1 }
                }
                XCTAssertGreaterThanOrEqual(partial, 18, "after \(scrollFrames) scroll frames")
            }
        }
    }

    func testWholeWindowFramesInARowHashTwoInSixteenAndAfterAPauseAlways() {
        let quick: UInt64 = 16_000_000, pause: UInt64 = 200_000_000
        XCTAssertTrue(Renderer.hashes(afterFullFrames: 0, gapNs: quick))
        XCTAssertTrue(Renderer.hashes(afterFullFrames: 1, gapNs: quick))
        let hashed = (2..<34).filter { Renderer.hashes(afterFullFrames: $0, gapNs: quick) }
        XCTAssertEqual(hashed, [14, 15, 30, 31], "pairs: the second compares with the first")
        XCTAssertTrue(Renderer.hashes(afterFullFrames: 7, gapNs: pause))
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
