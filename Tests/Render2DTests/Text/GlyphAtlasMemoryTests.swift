import Glibc
import XCTest
import TesseraTesting
@testable import Render2D

/// An atlas page is 4 MB; what it holds of a table's text is a few shelves of glyphs.
final class GlyphAtlasMemoryTests: XCTestCase {

    /// Bytes of `pixels` backed by memory now, counted a system page at a time (`mincore`).
    private static func residentBytes(_ pixels: PagePixels) -> Int {
        let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = GlyphAtlas.pageSize * GlyphAtlas.pageSize * 4
        var resident = [UInt8](repeating: 0, count: (length + pageBytes - 1) / pageBytes)
        XCTAssertEqual(mincore(pixels.bytes, length, &resident), 0)
        return resident.reduce(0) { $0 + Int($1 & 1) } * pageBytes
    }

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
            XCTAssertLessThan(Self.residentBytes(atlas.pages[0].pixels), 256 * 1024)
        }
    }
}
