import XCTest
import TesseraTesting
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport
@testable import Widgets

final class GlyphAtlasEvictionTests: XCTestCase {
    func testAFullAtlasIsClearedBetweenFramesAndTextStillDraws() throws {
        try onMain {
            let h = try Harness()
            let atlas = h.ui.fonts.atlas
            atlas.maxPages = 2
            var text = "Hello"
            let build: (UI) -> Void = { ui in ui.text(text, font: ui.font(size: 24)) }
            h.frames(2, build)
            let before = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 0, width: 640, height: 60), differingFrom: h.ui.theme.background))
            // Many large glyphs fill pages: more than the budget of two.
            let big = h.ui.fonts.font(size: 200)
            for scalar in Array(0x41...0x5A) + Array(0x61...0x7A) + Array(0x391...0x3A9) + Array(0x410...0x44F) {
                var list = DrawList()
                big.draw(String(UnicodeScalar(UInt32(scalar))!), at: Point(0, 0), color: .black, into: &list)
            }
            XCTAssertGreaterThan(atlas.pageCount, 2)
            h.frames(2, build)  // the next frame starts by clearing the atlas
            XCTAssertLessThanOrEqual(atlas.pageCount, 2)
            XCTAssertEqual(atlas.generation, 1)
            let after = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 0, width: 640, height: 60), differingFrom: h.ui.theme.background))
            XCTAssertEqual(after, before, "the same text, drawn from freshly rasterized glyphs")
            text = "Hello, world"
            h.frames(2, build)
            XCTAssertGreaterThan(
                try XCTUnwrap(
                    h.inkBounds(in: Rect(x: 0, y: 0, width: 640, height: 60), differingFrom: h.ui.theme.background)
                ).width,
                before.width * 1.5)
        }
    }
}
