import XCTest
import CSDL2
import TesseraTesting
@testable import Render2D

/// The real renderer through SDL's offscreen driver, asserting on pixels read back.
final class RendererTests: XCTestCase {
    func testRectsTextAndClipLandWhereExpectedInOneDrawCall() throws {
        try onMain {
            let h = try Harness(width: 320, height: 200)
            let bg = h.ui.theme.background
            let clip = Rect(x: 20, y: 100, width: 60, height: 40)
            h.frame { ui in
                ui.drawList.addRect(Rect(x: 10, y: 10, width: 40, height: 30), color: .red)
                ui.font.draw("Hello", at: Point(100, 10), color: .black, into: &ui.drawList)
                ui.drawList.pushClip(clip)
                ui.font.draw(
                    "Clipped text that runs far past its clip", at: Point(20, 110), color: .black, into: &ui.drawList)
                ui.drawList.popClip()
            }
            let px = h.pixels
            XCTAssertEqual(px.width, 320)
            XCTAssertEqual(px.pixel(x: 30, y: 25), Color.red)
            XCTAssertEqual(px.pixel(x: 60, y: 25), bg)
            XCTAssertGreaterThan(
                h.countPixels(in: Rect(x: 100, y: 10, width: 60, height: 20), differingFrom: bg), 40, "text drew")
            XCTAssertGreaterThan(h.countPixels(in: clip, differingFrom: bg), 40, "text inside the clip drew")
            XCTAssertEqual(
                h.countPixels(in: Rect(x: 80, y: 100, width: 240, height: 40), differingFrom: bg), 0,
                "nothing past the clip")
            XCTAssertEqual(h.host.window.renderer.stats.drawCalls, 1, "background, rects and text: one batch")
            XCTAssertEqual(h.host.window.renderer.name, "opengl")
        }
    }

    func testTexturesCreateUpdateDrawWithTintAndDestroy() throws {
        try onMain {
            let h = try Harness(width: 200, height: 100)
            let renderer = h.host.window.renderer
            let texture = try renderer.makeTexture(
                width: 2, height: 2, pixels: PixelBuffer(width: 2, height: 2, color: .white))
            XCTAssertEqual(renderer.textureSize(texture)?.width, 2)
            try renderer.updateTexture(
                texture, x: 0, y: 0, pixels: PixelBuffer(width: 2, height: 2, color: Color(r: 0, g: 255, b: 0)))
            h.frame { ui in
                ui.drawList.addImage(
                    texture, in: Rect(x: 10, y: 10, width: 40, height: 40), tint: Color(r: 255, g: 255, b: 0))
            }
            XCTAssertEqual(
                h.pixels.pixel(x: 30, y: 30), Color(r: 0, g: 255, b: 0), "green modulated by yellow stays green")
            let live = renderer.liveTextureCount
            renderer.destroyTexture(texture)
            XCTAssertEqual(renderer.liveTextureCount, live - 1)
            h.frame { ui in ui.drawList.addImage(texture, in: Rect(x: 10, y: 10, width: 40, height: 40)) }
            XCTAssertEqual(h.pixels.pixel(x: 30, y: 30), h.ui.theme.background, "a destroyed texture draws nothing")
        }
    }

    func testOpaqueTexturesDrawWithoutBlendingWhereverTheyAreNotFaded() throws {
        try onMain {
            let h = try Harness(width: 200, height: 100)
            let renderer = h.host.window.renderer
            let blue = PixelBuffer(width: 2, height: 2, color: .blue)
            let photo = try renderer.makeTexture(width: 2, height: 2, pixels: blue, opaque: blue.isOpaque)
            let glass = try renderer.makeTexture(
                width: 2, height: 2, pixels: PixelBuffer(width: 2, height: 2, color: Color.blue.opacity(0.5)))
            h.frame { ui in
                ui.drawList.addRect(Rect(x: 0, y: 0, width: 200, height: 100), color: .red)
                // Faded first, then at full opacity: each draw keeps its own blend mode.
                ui.drawList.addImage(
                    photo, in: Rect(x: 10, y: 10, width: 40, height: 40), tint: Color.white.opacity(0.5))
                ui.drawList.addRect(Rect(x: 0, y: 90, width: 10, height: 10), color: .red)
                ui.drawList.addImage(photo, in: Rect(x: 60, y: 10, width: 40, height: 40))
                ui.drawList.addImage(glass, in: Rect(x: 110, y: 10, width: 40, height: 40))
            }
            let px = h.pixels
            func isPurple(_ c: Color) -> Bool {  // half blue over red
                let (red, blue) = (Color.red, Color.blue)
                return abs(Int(c.r) - (Int(red.r) + Int(blue.r)) / 2) < 4
                    && abs(Int(c.g) - (Int(red.g) + Int(blue.g)) / 2) < 4
                    && abs(Int(c.b) - (Int(red.b) + Int(blue.b)) / 2) < 4
            }
            XCTAssertTrue(
                isPurple(px.pixel(x: 30, y: 30)),
                "the faded photo blends with the red beneath: \(px.pixel(x: 30, y: 30))")
            XCTAssertEqual(px.pixel(x: 80, y: 30), .blue)
            XCTAssertTrue(isPurple(px.pixel(x: 130, y: 30)), "a translucent texture blends: \(px.pixel(x: 130, y: 30))")
            XCTAssertEqual(renderer.stats.opaqueDraws, 1, "only the photo at full opacity is drawn without blending")
        }
    }

    func testLargeRectanglesAreFilledFlatAndStillBlendWhenTranslucent() throws {
        try onMain {
            let h = try Harness(width: 400, height: 300)
            let renderer = h.host.window.renderer
            var list = DrawList()
            list.reset(scale: 1, solidTexture: .none, whiteUV: .zero)
            list.addRect(Rect(x: 0, y: 0, width: 400, height: 300), color: .red)
            list.addRect(Rect(x: 0, y: 0, width: 100, height: 100), color: .green)
            XCTAssertEqual(
                list.commands.map(\.texture), [.flat, .none], "a background is flat; a 100 pt square batches with text")
            h.frame { ui in
                // Opaque, translucent, opaque, translucent, each its own draw (small rects between):
                // each flat draw keeps its own blend mode.
                let small = Rect(x: 2, y: 290, width: 4, height: 4)
                ui.drawList.addRect(Rect(x: 0, y: 0, width: 400, height: 300), color: .red)
                ui.drawList.addRect(small, color: .green)
                ui.drawList.addRect(Rect(x: 20, y: 20, width: 200, height: 200), color: Color.blue.opacity(0.5))
                ui.drawList.addRect(small, color: .green)
                ui.drawList.addRect(Rect(x: 240, y: 20, width: 140, height: 140), color: .blue)
                ui.drawList.addRect(small, color: .green)
                ui.drawList.addRect(Rect(x: 240, y: 170, width: 150, height: 120), color: Color.blue.opacity(0.5))
            }
            let px = h.pixels
            func isPurple(_ c: Color) -> Bool {  // half blue over red
                abs(Int(c.r) - (Int(Color.red.r) + Int(Color.blue.r)) / 2) < 4
                    && abs(Int(c.b) - (Int(Color.red.b) + Int(Color.blue.b)) / 2) < 4
            }
            XCTAssertEqual(px.pixel(x: 390, y: 10), .red)
            XCTAssertTrue(isPurple(px.pixel(x: 120, y: 120)), "half blue over red: \(px.pixel(x: 120, y: 120))")
            XCTAssertEqual(px.pixel(x: 300, y: 80), .blue)
            XCTAssertTrue(
                isPurple(px.pixel(x: 300, y: 240)), "blended after an opaque flat fill: \(px.pixel(x: 300, y: 240))")
            XCTAssertEqual(renderer.stats.flatDraws, 4)
        }
    }

    func testTheWindowHasNoDepthBuffer() throws {
        // Nothing is drawn with a depth test; a software GL would allocate, clear and carry
        // one through every frame (text frames took 10 % longer with SDL's default 16 bits).
        try onMain {
            let h = try Harness(width: 320, height: 200)
            h.frame { _ in }  // the renderer's context is current after a frame
            typealias GetIntegerv = @convention(c) (UInt32, UnsafeMutablePointer<Int32>) -> Void
            let address = try XCTUnwrap(SDL_GL_GetProcAddress("glGetIntegerv"))
            var bits: Int32 = -1
            unsafeBitCast(address, to: GetIntegerv.self)(0x0D56, &bits)  // GL_DEPTH_BITS
            XCTAssertEqual(bits, 0)
        }
    }

    func testOpacityIsEveryAlphaAtItsMaximum() {
        XCTAssertTrue(PixelBuffer(width: 3, height: 2, color: .green).isOpaque)
        XCTAssertTrue(PixelBuffer(width: 0, height: 0).isOpaque, "no pixel is transparent")
        var one = PixelBuffer(width: 3, height: 2, color: .green)
        one.bytes[4 * 5 + 3] = 254
        XCTAssertFalse(one.isOpaque)
        XCTAssertFalse(PixelBuffer(width: 1, height: 1, color: .clear).isOpaque)
    }

    func testScreenshotWritesAPNG() throws {
        try onMain {
            let h = try Harness(width: 64, height: 48)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-shot-\(getpid()).png")
                .path
            defer { try? FileManager.default.removeItem(atPath: path) }
            h.host.captureScreenshot(to: path)
            h.frame { ui in ui.drawList.addRect(Rect(x: 0, y: 0, width: 10, height: 10), color: .blue) }
            let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
            XCTAssertEqual(Array(data.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        }
    }
}
