import XCTest
import TesseraTesting
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport
@testable import Widgets

/// Lines of text drawn frame after frame are composed into single quads in the atlas
/// (`GlyphAtlas.composeLine`): the pixels must be those of drawing glyph by glyph.
final class ComposedLineTests: XCTestCase {
    /// Lines with kerned pairs ("AV", "To"), a ligature ("fi"), digits, punctuation, two
    /// sizes, a bold weight and two colours.
    private static let lines = (0..<24).map { i in
        [
            "AVATAR To Wa \(i)", "office fifty \(i * 37)", "IMG_\(1000 + i).jpg", "2024-05-\(10 + i) 12:\(i)",
            "Size: \(i).3 MB", "Kerning: AV Ty \(i)",
        ][i % 6]
    }

    @MainActor private static func scene(_ ui: UI) {
        for (i, line) in Self.lines.enumerated() {
            let font = ui.font(size: i % 3 == 0 ? 20 : 15, weight: i % 4 == 1 ? .bold : .regular)
            let color = i % 5 == 2 ? Color(r: 200, g: 30, b: 60) : ui.theme.text
            font.draw(
                line, at: Point(Double(i % 3) * 210 + 3.4, Double(i / 3) * 26 + 2.6), color: color, into: &ui.drawList)
        }
    }

    /// The frame's pixels after `frames` frames of `build`, lines composed or not.
    /// Pixels that differ between two frames, and by how much at most (one channel).
    private static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (pixels: Int, most: Int) {
        precondition(a.width == b.width && a.height == b.height)
        var pixels = 0, most = 0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            let d = (0..<4).map { abs(Int(a.bytes[i + $0]) - Int(b.bytes[i + $0])) }.max()!
            if d > 0 {
                pixels += 1
                most = max(most, d)
            }
        }
        return (pixels, most)
    }

    @MainActor private static func render(composing: Bool, scale: Double = 1, frames: Int = 6, _ build: (UI) -> Void)
        throws -> (PixelBuffer, Harness)
    {
        let h = try Harness(width: 640, height: 240, scale: scale)
        h.ui.fonts.atlas.cachesLines = composing
        h.frames(frames, build)
        return (h.pixels, h)
    }

    func testComposedLinesDrawTheSamePixelsAsGlyphByGlyphInOneQuadEach() throws {
        try onMain {
            let (reference, plain) = try Self.render(composing: false, Self.scene)
            let (composed, h) = try Self.render(composing: true, Self.scene)
            XCTAssertEqual(plain.ui.fonts.atlas.linesComposed, 0)
            XCTAssertEqual(h.ui.fonts.atlas.linesComposed, Self.lines.count, "each line once, in its second frame")
            // Where two glyphs overlap, the composed alpha is rounded once rather than blended
            // twice: a step of one at most, at a few pixels.
            let d = Self.difference(composed, reference)
            XCTAssertLessThanOrEqual(d.most, 1)
            XCTAssertLessThanOrEqual(d.pixels, 10)
            // The lists' triangles (the renderer's last frame redrew nothing: it had not changed).
            let glyphTriangles = plain.ui.contentDrawList.triangleCount
            let lineTriangles = h.ui.contentDrawList.triangleCount
            XCTAssertEqual(
                lineTriangles, 2 * Self.lines.count, "one quad a line (\(glyphTriangles) triangles glyph by glyph)")
        }
    }

    func testTranslucentTextDiffersOnlyWhereKernedGlyphsOverlap() throws {
        try onMain {
            // Glyph by glyph, a pixel two overlapping glyphs cover is blended twice; a composed line
            // covers it once (a + b − ab), so translucent text can differ there, slightly.
            let build: (UI) -> Void = { ui in
                for (i, line) in Self.lines.enumerated() {
                    ui.font(size: 20).draw(
                        line, at: Point(Double(i % 3) * 210, Double(i / 3) * 26),
                        color: Color(r: 200, g: 30, b: 60, a: 140),
                        into: &ui.drawList)
                }
            }
            let (reference, _) = try Self.render(composing: false, build)
            let (composed, h) = try Self.render(composing: true, build)
            XCTAssertEqual(h.ui.fonts.atlas.linesComposed, Self.lines.count)
            let d = Self.difference(composed, reference)
            XCTAssertLessThanOrEqual(d.pixels, 20)
            XCTAssertLessThanOrEqual(d.most, 12)
        }
    }

    func testAtHiDPIScaleTheComposedLinesMatchToo() throws {
        try onMain {
            let (reference, _) = try Self.render(composing: false, scale: 1.5, Self.scene)
            let (composed, h) = try Self.render(composing: true, scale: 1.5, Self.scene)
            XCTAssertEqual(h.ui.fonts.atlas.linesComposed, Self.lines.count)
            XCTAssertEqual(Self.difference(composed, reference).pixels, 0)
        }
    }

    func testTextThatChangesEveryFrameIsNeverComposed() throws {
        try onMain {
            var n = 0
            let (_, h) = try Self.render(composing: true, frames: 10) { ui in
                n += 1
                ui.text("frame \(n)")
            }
            XCTAssertEqual(h.ui.fonts.atlas.linesComposed, 0)
        }
    }

    func testLinesComeBackAfterTheAtlasIsClearedAndStillMatch() throws {
        try onMain {
            let (reference, _) = try Self.render(composing: true, Self.scene)
            let h = try Harness(width: 640, height: 240)
            let atlas = h.ui.fonts.atlas
            h.frames(3, Self.scene)
            let composedBefore = atlas.linesComposed
            atlas.maxPages = 1
            let big = h.ui.fonts.font(size: 300)
            for scalar in 0x41...0x5A {  // large glyphs overflow page 0 into a second page
                var list = DrawList()
                big.draw(String(UnicodeScalar(UInt32(scalar))!), at: Point(0, 0), color: .black, into: &list)
            }
            XCTAssertGreaterThan(atlas.pageCount, 1)
            h.frames(3, Self.scene)
            XCTAssertEqual(atlas.generation, 1, "the atlas was cleared")
            XCTAssertEqual(atlas.linesComposed, composedBefore + Self.lines.count, "every line composed again")
            XCTAssertEqual(Self.difference(h.pixels, reference).pixels, 0)
        }
    }

    /// 400 labels that stay on screen: twice the lines page 0's line space holds. After 30
    /// frames short of room the pages grow once, every label is composed, and the pixels are
    /// those of drawing glyph by glyph; a screen whose lines fit never grows.
    func testPagesGrowOnceForAScreenOfLinesThatDoesNotFitAndDrawTheSamePixels() throws {
        try onMain {
            let labels = (0..<400).map { "Label \($0) of the screen" }
            let crowded: (UI) -> Void = { ui in
                for (i, label) in labels.enumerated() {
                    ui.font.draw(
                        label, at: Point(Double(i % 8) * 80, Double(i / 8) * 4.5), color: ui.theme.text,
                        into: &ui.drawList)
                }
            }
            let (reference, _) = try Self.render(composing: false, frames: 2, crowded)
            let h = try Harness(width: 640, height: 240)
            let atlas = h.ui.fonts.atlas
            h.frames(20, crowded)
            XCTAssertEqual(atlas.pageSide, GlyphAtlas.pageSize, "not yet: 20 frames short of room")
            h.frames(60, crowded)
            XCTAssertEqual(atlas.pageSide, GlyphAtlas.grownPageSize)
            XCTAssertEqual(atlas.generation, 1, "cleared once as it grew")
            XCTAssertGreaterThanOrEqual(atlas.linesComposed, labels.count, "every label composed on the grown page")
            XCTAssertEqual(Self.difference(h.pixels, reference).pixels, 0)
            atlas.maxPages = .max  // any setting: no overflow counting it in small pages
            atlas.evictIfFull()
            XCTAssertEqual(atlas.generation, 1)
            // A grown page counts as four of `maxPages`: with 4, a second grown page is one too many.
            atlas.maxPages = 4
            let big = h.ui.fonts.font(size: 300)
            for scalar in 0x41...0x5A {
                var list = DrawList()
                big.draw(String(UnicodeScalar(UInt32(scalar))!), at: Point(0, 0), color: .black, into: &list)
            }
            XCTAssertEqual(atlas.pageCount, 2)
            h.frame(crowded)
            XCTAssertEqual(atlas.generation, 2, "cleared: two grown pages are eight small ones")

            let (_, small) = try Self.render(composing: true, frames: 80, Self.scene)
            XCTAssertEqual(small.ui.fonts.atlas.pageSide, GlyphAtlas.pageSize, "its lines fit: no growth")
        }
    }

    func testComposingIsBudgetedPerFrameAndTheRestDrawsGlyphByGlyph() throws {
        try onMain {
            // 60 lines of about 250×18 px: more than one frame's budget of composed pixels.
            let many = (0..<60).map { "The quick brown fox number \($0) jumps" }
            let build: (UI) -> Void = { ui in
                for (i, line) in many.enumerated() {
                    ui.font(size: 15).draw(
                        line, at: Point(Double(i % 2) * 320, Double(i / 2) * 8), color: ui.theme.text,
                        into: &ui.drawList)
                }
            }
            let (reference, _) = try Self.render(composing: false, build)
            let h = try Harness(width: 640, height: 240)
            let atlas = h.ui.fonts.atlas
            h.frames(2, build)
            let firstFrame = atlas.linesComposed
            XCTAssertGreaterThan(firstFrame, 0)
            XCTAssertLessThan(firstFrame, many.count, "not all in one frame")
            XCTAssertEqual(
                Self.difference(h.pixels, reference).pixels, 0, "composed and glyph-by-glyph lines side by side")
            h.frames(10, build)
            XCTAssertEqual(atlas.linesComposed, many.count, "the rest in the frames after")
            XCTAssertEqual(Self.difference(h.pixels, reference).pixels, 0)
        }
    }

    func testLinesComposedInFramesNobodyDrawsStopAtOneFramesWorthWithoutARenderer() throws {
        try onMain {
            // Fonts need no window: an app may lay text out in frames it never draws. The lines
            // it composes wait for an upload that never comes, so composing stops at what one
            // upload holds and the text still lays out.
            let atlas = GlyphAtlas()
            let font = try FontLibrary(atlas: atlas).font(size: 15)
            let lines = (0..<200).map { "The quick brown fox number \($0) jumps" }
            for _ in 0..<40 {
                atlas.beginFrame()
                var list = DrawList()
                for line in lines { font.draw(line, at: Point(0, 0), color: .black, into: &list) }
                XCTAssertGreaterThan(list.vertexCount, 0)
            }
            XCTAssertGreaterThan(atlas.linesComposed, 0)
            // A line is about 250×18 px: seven fill a frame's 32,768 (200 would be composed over 40 frames otherwise).
            XCTAssertLessThanOrEqual(atlas.linesComposed, 10, "no more than the staging buffer holds")
        }
    }
}
