import XCTest
import TesseraTesting
@testable import Render2D

/// An atlas page is 4 MB; what it holds of a table's text is a few shelves of glyphs.
final class GlyphAtlasMemoryTests: XCTestCase {

    func testAPageTakesMemoryOnlyWhereItsGlyphsAreAndComposedLinesTakeNone() {
        onMain {
            let atlas = GlyphAtlas()
            let font = try! FontLibrary(atlas: atlas).font(size: 15)
            let lines = (0..<40).map { "Row \($0): The quick brown fox jumps over the lazy dog" }
            for _ in 0..<20 {
                atlas.beginFrame()
                var list = DrawList()
                for line in lines { font.draw(line, at: Point(0, 0), color: .black, into: &list) }
                atlas.drainDirtyRects { _, _, _, _ in }  // what the renderer uploads each frame
            }
            XCTAssertEqual(atlas.pageCount, 1)
            XCTAssertGreaterThan(atlas.linesComposed, 30, "lines were composed into page 0's line space")
            // Printable ASCII at 15 px: a few shelves of 4 KB rows, far from the page's 4 MB.
            XCTAssertLessThan(atlas.pages[0].pixels.residentBytes, 256 * 1024)
        }
    }
}
