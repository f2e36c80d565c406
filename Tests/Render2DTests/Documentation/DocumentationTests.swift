import Foundation
import TesseraTesting
import TestSupport
import XCTest
@testable import Render2D

/// The Render2D articles' code runs offscreen, and each of their code blocks is a snippet.
final class DocumentationTests: XCTestCase {
    func testEveryCodeBlockOfTheRender2DArticlesIsACompiledSnippet() throws {
        try DocumentationSnippets.checkArticles(
            in: "Sources/Render2D/Render2D.docc",
            against: ["Tests/Render2DTests/Documentation/ArticleSnippets.swift"])
    }

    func testTheCardIsDrawnWithItsTitleInOneDrawCall() throws {
        try onMain {
            let h = try Harness(width: 240, height: 120)
            let fonts = try FontLibrary(atlas: h.host.window.renderer.atlas)
            drawCard(in: h.host.window, fonts: fonts)
            let pixels = try h.host.window.renderer.readPixels()
            XCTAssertEqual(pixels.pixel(x: 30, y: 30), Color(hex: 0x0A84FF), "the card")
            XCTAssertEqual(pixels.pixel(x: 230, y: 110), .white, "the background")
            var white = 0
            for y in 40..<80 { for x in 32..<200 where pixels.pixel(x: x, y: y) == .white { white += 1 } }
            XCTAssertGreaterThan(white, 100, "the title")
            XCTAssertEqual(h.host.window.renderer.stats.drawCalls, 1)
        }
    }

    func testALongTitleIsTruncatedToFit() throws {
        try onMain {
            let fonts = try FontLibrary(atlas: GlyphAtlas())
            XCTAssertEqual(fittedTitle("Short", width: 200, fonts: fonts), "Short")
            let long = fittedTitle(String(repeating: "Long title ", count: 20), width: 200, fonts: fonts)
            XCTAssertTrue(long.hasSuffix("…"))
            XCTAssertLessThanOrEqual(fonts.font(size: 15).measure(long), 200)
        }
    }
}
