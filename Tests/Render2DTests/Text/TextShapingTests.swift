import XCTest
import TesseraTesting
@testable import Render2D
import Imaging
import DemoSupport

/// Shaping (HarfBuzz), bidirectional order (FriBidi), carets and truncation in any
/// direction. The expected glyphs are HarfBuzz's own output (`hb-shape --no-glyph-names`,
/// HarfBuzz 6.0) for the same font files.
final class TextShapingTests: XCTestCase {
    private static let devanagariFont = "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"

    private static func glyphs(_ line: ShapedLine) -> [String] {
        line.glyphs.map { "\($0.glyph)=\($0.cluster)" }
    }

    /// A tab, a newline or U+0001 in a file name shows as a symbol of its own, not an empty box.
    func testControlCharactersShowAsTheirSymbols() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 15)
            let notdef = font.layOut("a\u{10FFFC}b").glyphs[1]
            for (control, symbol) in [("\t", 0x2409), ("\n", 0x240A), ("\u{1}", 0x2401), ("\u{7F}", 0x2421)] {
                let line = font.layOut("a" + control + "b")
                XCTAssertEqual(line.scalars, [0x61, UInt32(symbol), 0x62], "\(symbol)")
                XCTAssertEqual(line.glyphs.count, 3)
                XCTAssertNotEqual(line.glyphs[1].glyph, 0, "a glyph the font has")
                XCTAssertNotEqual(line.glyphs[1].glyph, notdef.glyph)
                XCTAssertGreaterThan(line.glyphs[1].advance, 3, "it takes room: it is seen")
            }
        }
    }

    func testShapingMatchesHarfBuzzForLigaturesArabicJoiningAndDevanagariConjuncts() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 15)
            // hb-shape DejaVuSans.ttf "office": [o=0|uniFB03=1|c=4|e=5], the ffi ligature.
            XCTAssertEqual(Self.glyphs(font.shape("office")), ["82=0", "5044=1", "70=4", "72=5"])
            // hb-shape DejaVuSans.ttf "سلام": [uni0645=3|uniFEFC=1|uniFEB3=0]: meem final, the
            // lam-alef ligature, seen initial; right to left, so visual order runs backwards.
            let arabic = font.shape("سلام")
            XCTAssertEqual(Self.glyphs(arabic), ["1390=3", "5366=1", "5293=0"])
            XCTAssertTrue(arabic.glyphs.allSatisfy(\.rightToLeft))
            // hb-shape NotoSansDevanagari-Regular.ttf "क्षि": [ivowelsign06deva=0|kassadeva=0]:
            // the conjunct k+virama+ss as one glyph, the i sign moved before it.
            if FileManager.default.fileExists(atPath: Self.devanagariFont) {
                let devanagari = font.shape("क्षि")
                XCTAssertEqual(
                    font.faces[devanagari.glyphs[0].face].path, Self.devanagariFont, "fontconfig's pick for Devanagari")
                XCTAssertEqual(Self.glyphs(devanagari), ["610=0", "179=0"])
            }
        }
    }

    func testPlainASCIILinesAreLaidOutExactlyAsHarfBuzzShapesThem() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            var rng = SplitMix64(seed: 7)
            let alphabet = Array("AVTWYLkaeoyrv.,-_ 0123456789IMGjpgfil()[]'\"ABCDEFGHJKNOPQRSUXZbcdhmnqstuwxz")
            for (size, bold) in [(15.0, false), (13.0, true), (31.0, false)] {
                let font = library.font(size: size, weight: bold ? .bold : .regular)
                var simple = 0
                for _ in 0..<300 {
                    let text = String(
                        (0..<(1 + rng.next(below: 24))).map { _ in alphabet[rng.next(below: alphabet.count)] })
                    let shaped = font.shape(text)
                    guard let fast = font.simpleLine(text) else {
                        XCTAssertNotEqual(
                            shaped.glyphs.count, text.count, "only lines with a substituted pair are shaped: \(text)")
                        continue
                    }
                    simple += 1
                    XCTAssertEqual(fast.glyphs.map(\.glyph), shaped.glyphs.map(\.glyph), text)
                    XCTAssertEqual(fast.glyphs.map(\.cluster), shaped.glyphs.map(\.cluster), text)
                    for (f, s) in zip(fast.glyphs, shaped.glyphs) {
                        XCTAssertEqual(f.pen, s.pen, accuracy: 0.001, text)
                        XCTAssertEqual(f.advance, s.advance, accuracy: 0.001, text)
                    }
                    XCTAssertEqual(fast.advance, shaped.advance, accuracy: 0.001, text)
                }
                XCTAssertGreaterThan(simple, 100, "most plain lines take the tables")
            }
            let font = library.font(size: 15)
            XCTAssertNil(font.simpleLine("office"), "the ffi ligature is shaped")
            XCTAssertNil(font.simpleLine("café"), "non-ASCII is shaped")
            XCTAssertNotNil(font.simpleLine("IMG_0001.jpg"))
        }
    }

    func testKerningAndLigaturesNarrowTheLine() {
        onMain {
            let font = try! FontLibrary(atlas: GlyphAtlas()).font(size: 30)
            XCTAssertLessThan(font.measure("AV"), font.measure("A") + font.measure("V"), "GPOS kerning")
            XCTAssertEqual(font.shape("ffi").glyphs.count, 1, "one ligature glyph")
            XCTAssertEqual(font.caretOffsets("ffi").count, 4, "still a caret stop per character")
        }
    }

    func testBidiPutsRightToLeftRunsInVisualOrder() {
        onMain {
            XCTAssertEqual(BidiLevels.of(Array("ab אב".unicodeScalars.map(\.value))).levels, [0, 0, 0, 1, 1])
            let hebrew = BidiLevels.of(Array("אב 12".unicodeScalars.map(\.value)))
            XCTAssertEqual(hebrew.levels, [1, 1, 1, 2, 2], "numbers in RTL text")
            XCTAssertTrue(hebrew.rightToLeft)
            XCTAssertEqual(BidiLevels.visualOrder(runLevels: [0, 1, 0]), [0, 1, 2])
            XCTAssertEqual(BidiLevels.visualOrder(runLevels: [1, 2, 1]), [2, 1, 0])
            XCTAssertEqual(BidiLevels.visualOrder(runLevels: [0, 1, 2, 1, 0]), [0, 3, 2, 1, 4])

            let font = try! FontLibrary(atlas: GlyphAtlas()).font(size: 15)
            // "ab אבג cd": the Hebrew word is drawn right to left between the Latin ones.
            let line = font.shape("ab אבג cd")
            XCTAssertEqual(line.glyphs.map(\.cluster), [0, 1, 2, 5, 4, 3, 6, 7, 8])
            // An RTL paragraph: the Latin word, logically last, is drawn at the left end.
            let rtl = font.shape("שלום abc")
            XCTAssertEqual(rtl.glyphs.map(\.cluster), [5, 6, 7, 4, 3, 2, 1, 0])
            XCTAssertEqual(font.shape("abc").glyphs.map(\.cluster), [0, 1, 2], "plain LTR untouched")
        }
    }

    func testCaretsAndSelectionFollowLogicalOrderAcrossADirectionChange() {
        onMain {
            let font = try! FontLibrary(atlas: GlyphAtlas()).font(size: 20)
            let text = "ab אבג"
            let layout = font.caretLayout(text)
            XCTAssertEqual(layout.caretCount, 7)
            let x = (0..<layout.caretCount).map { layout.x(atCaret: $0) }
            XCTAssertLessThan(x[0], x[1])
            XCTAssertLessThan(x[1], x[2])
            // Into the Hebrew word the caret jumps to its right end, then walks left.
            XCTAssertEqual(x[3], layout.width, accuracy: 0.5, "before א: the right edge of the line")
            XCTAssertGreaterThan(x[3], x[4])
            XCTAssertGreaterThan(x[4], x[5])
            XCTAssertGreaterThan(x[5], x[6])
            // Clicking just inside the character after a caret (in reading order) finds that caret;
            // the end is inside ג's left half (just right of it, the space's end is caret 3).
            for i in 0..<layout.caretCount {
                XCTAssertEqual(layout.caret(atX: x[i] + ((3...5).contains(i) ? -0.5 : 0.5)), i, "caret \(i)")
            }
            // Selecting "b א" (logical 1..<4) shows two pieces: b and the space, and א at the far right.
            let spans = layout.selectionSpans(1..<4)
            XCTAssertEqual(spans.count, 2, "\(spans)")
            XCTAssertEqual(spans.last!.upperBound, layout.width, accuracy: 0.5)
            XCTAssertEqual(layout.selectionSpans(0..<6).count, 1, "all of it is one span")
            // Past the ends: the reading order's start and end, by the paragraph's direction.
            XCTAssertEqual(layout.caret(atX: layout.width + 20), 6)
            XCTAssertEqual(layout.caret(atX: -5), 0)
            let rtl = font.caretLayout("שלום ab")
            XCTAssertTrue(rtl.isRightToLeft)
            XCTAssertEqual(rtl.caret(atX: rtl.width + 20), 0)
            XCTAssertEqual(rtl.caret(atX: -5), 7)
        }
    }

    func testRightToLeftTruncationKeepsTheStartAndPutsTheEllipsisAtTheLeft() {
        onMain {
            let font = try! FontLibrary(atlas: GlyphAtlas()).font(size: 15)
            let text = "שורה ארוכה מימין לשמאל שנחתכת בשלוש נקודות"
            for width in [60.0, 120, 200] {
                let cut = font.truncated(text, toWidth: width)
                XCTAssertTrue(cut.hasSuffix("…"), cut)
                XCTAssertTrue(text.hasPrefix(String(cut.dropLast()).trimmingCharacters(in: .whitespaces)), cut)
                XCTAssertLessThanOrEqual(font.measure(cut), width)
                let line = font.shape(cut)
                XCTAssertEqual(
                    line.glyphs.first?.cluster, cut.unicodeScalars.count - 1, "the ellipsis is drawn leftmost")
            }
            // Arabic: the cut is at a character boundary and what is kept is shaped again.
            let arabic = font.truncated("معرض الصور العائلية الكبير", toWidth: 70)
            XCTAssertTrue(arabic.hasSuffix("…") && font.measure(arabic) <= 70, arabic)
        }
    }

    func testColorEmojiComeFromTheColorFont() throws {
        try onMain {
            let library = try FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 20)
            guard let path = library.fallback.path(for: 0x1F305), path.contains("Color") else {
                throw XCTSkip("no color emoji font installed (scripts/install-deps.sh installs fonts-noto-color-emoji)")
            }
            let line = font.shape("🌅")
            XCTAssertEqual(font.faces[line.glyphs[0].face].path, path)
            XCTAssertEqual(
                Double(line.advance) / font.scale, 20 * 1.2, accuracy: 6,
                "scaled from the bitmap strike to the font's size")
            // A family (ZWJ sequence) is one glyph of one face.
            XCTAssertEqual(font.shape("👨‍👩‍👧").glyphs.count, 1)
        }
    }
}
