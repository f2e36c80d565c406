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

/// A new page goes to the GPU band by band, as its shelves reach it; every texel a glyph or a
/// composed line is drawn from, and every texel around them, is one the atlas uploaded (the
/// GPU's memory is undefined until then).
final class GlyphAtlasUploadTests: XCTestCase {
    /// A page as a GPU holds it: its texels, and which of them were ever uploaded.
    private struct GPUPage {
        let side: Int
        var bytes: [UInt8]
        var uploaded: [Bool]
        init(side: Int) {
            self.side = side
            bytes = [UInt8](repeating: 0, count: side * side * 4)
            uploaded = [Bool](repeating: false, count: side * side)
        }
        mutating func upload(_ block: GlyphAtlas.DirtyRect, from pixels: UnsafeRawPointer, pitch: Int) {
            for row in 0..<block.height {
                let texel = (block.y + row) * side + block.x
                for k in 0..<(block.width * 4) {
                    bytes[texel * 4 + k] = pixels.load(fromByteOffset: row * pitch + k, as: UInt8.self)
                }
                for k in 0..<block.width { uploaded[texel + k] = true }
            }
        }
        /// Whether every texel of rows `rows` was uploaded.
        func isUploaded(rows: Range<Int>) -> Bool {
            !uploaded[(rows.lowerBound * side)..<(rows.upperBound * side)].contains(false)
        }
        /// Whether no texel of rows `rows` was uploaded.
        func isUntouched(rows: Range<Int>) -> Bool {
            !uploaded[(rows.lowerBound * side)..<(rows.upperBound * side)].contains(true)
        }
    }

    func testEveryRowAGlyphOrALineLivesOnIsUploadedWholeAndNothingBelowUntilReached() {
        onMain {
            let atlas = GlyphAtlas()
            let side = atlas.pageSide
            let font = try! FontLibrary(atlas: atlas).font(size: 15)
            var gpu: [GPUPage] = []
            var uploaded = 0
            @MainActor func sync() {
                atlas.drainDirtyRects { page, block, pixels, pitch in
                    while gpu.count <= page { gpu.append(GPUPage(side: side)) }
                    gpu[page].upload(block, from: pixels, pitch: pitch)
                    uploaded += block.width * block.height
                }
            }
            atlas.beginFrame()
            var list = DrawList()
            font.draw("Tessera", at: Point(0, 0), color: .black, into: &list)
            sync()
            XCTAssertLessThan(uploaded, side * 64, "the first frame uploads a few bands, not the page")

            let lines = (0..<60).map { "Row \($0): The quick brown fox jumps over the lazy dog" }
            for _ in 0..<6 {
                atlas.beginFrame()
                list = DrawList()
                for line in lines { font.draw(line, at: Point(0, 0), color: .black, into: &list) }
                sync()
            }
            XCTAssertGreaterThan(atlas.linesComposed, 20, "lines were composed")
            XCTAssertEqual(gpu.count, 1)
            // The glyph shelves' rows, whole (glyphs, padding and what lies between), are
            // uploaded, and rows no shelf reached are not.
            let glyphRows = atlas.pages[0].shelfY + atlas.pages[0].shelfHeight
            let lineTop = side - atlas.lineRegionHeight
            XCTAssertTrue(gpu[0].isUploaded(rows: 0..<glyphRows), "every glyph row uploaded")
            XCTAssertTrue(gpu[0].isUntouched(rows: glyphRows..<lineTop), "the rows below are not yet")
            // So are the line shelves' bands, and the lines on them are the glyphs composed.
            let lineRows = atlas.lineShelvesInUse.map { $0.y + $0.height }.max()!
            XCTAssertTrue(gpu[0].isUploaded(rows: lineTop..<lineRows), "every line shelf's band uploaded")
            XCTAssertTrue(gpu[0].isUntouched(rows: lineRows..<side), "the line space below is not")
            XCTAssertTrue(
                gpu[0].bytes[(lineTop * side * 4)..<(lineRows * side * 4)].contains { $0 != 0 }, "lines drawn there")
        }
    }
}
