import XCTest
import TesseraTesting
@testable import Render2D

/// Fonts need SDL_ttf but no window: the glyph atlas is CPU memory.
final class FontTests: XCTestCase {

    func testMeasuringIsAdditiveApartFromKerning() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 15)
            XCTAssertEqual(font.measure(""), 0)
            XCTAssertGreaterThan(font.measure("abc"), font.measure("ab"))
            XCTAssertEqual(font.measure("ab") + font.measure("cd"), font.measure("abcd"), accuracy: 1.5)
            XCTAssertLessThan(font.measure("AV"), font.measure("A") + font.measure("V"), "DejaVu kerns A-V")
            XCTAssertGreaterThan(font.lineHeight, 15)
            XCTAssertEqual(font.ascent + font.descent, font.lineHeight, accuracy: 1.5)
        }
    }

    func testTruncationFitsWithEllipsis() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 15)
            let text = "The quick brown fox jumps over the lazy dog"
            XCTAssertEqual(font.truncated(text, toWidth: 10_000), text)
            for width in [30.0, 80, 150] {
                let cut = font.truncated(text, toWidth: width)
                XCTAssertTrue(cut.hasSuffix("…"), cut)
                XCTAssertLessThanOrEqual(font.measure(cut), width)
                XCTAssertTrue(text.hasPrefix(String(cut.dropLast()).trimmingCharacters(in: .whitespaces)))
            }
            XCTAssertEqual(font.truncated(text, toWidth: 1), "", "no room even for the ellipsis")
        }
    }

    /// Head and middle cuts keep the end, or both ends, whole characters only, and fit.
    func testHeadAndMiddleTruncationKeepTheEndsAndFit() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 15)
            let path = "/photos/Trip 2024/IMG_0001.jpg"
            XCTAssertEqual(font.truncated(path, toWidth: 10_000, mode: .middle), path)
            for width in [40.0, 90, 140, 200] {
                let head = font.truncated(path, toWidth: width, mode: .head)
                XCTAssertTrue(head.hasPrefix("…"), head)
                XCTAssertTrue(path.hasSuffix(head.dropFirst()), head)
                XCTAssertLessThanOrEqual(font.measure(head), width)
                let middle = font.truncated(path, toWidth: width, mode: .middle)
                let halves = middle.split(separator: "…", omittingEmptySubsequences: false)
                XCTAssertEqual(halves.count, 2, middle)
                XCTAssertTrue(path.hasPrefix(halves[0]) && path.hasSuffix(halves[1]), middle)
                XCTAssertFalse(halves[0].isEmpty || halves[1].isEmpty, "both ends kept: \(middle)")
                XCTAssertLessThanOrEqual(font.measure(middle), width)
                XCTAssertEqual(
                    font.truncated(path, toWidth: width, mode: .tail), font.truncated(path, toWidth: width),
                    "tail is the default")
            }
            XCTAssertTrue(font.truncated(path, toWidth: 140, mode: .middle).hasSuffix(".jpg"))
            XCTAssertTrue(font.truncated(path, toWidth: 140, mode: .middle).hasPrefix("/photos"))
            // An emoji family is one character: never cut apart.
            let family = "👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧"
            for mode in [TruncationMode.head, .middle, .tail] {
                let cut = font.truncated(family, toWidth: font.measure("👨‍👩‍👧") * 3, mode: mode)
                XCTAssertTrue(cut.allSatisfy { $0 == "👨‍👩‍👧" || $0 == "…" }, "\(mode): \(cut)")
                XCTAssertEqual(font.truncated(family, toWidth: 1, mode: mode), "", "no room even for the ellipsis")
            }
            // A head cut keeps nothing of the start, not even characters of no width.
            let hidden = "\u{200B}\u{FEFF}" + path
            let head = font.truncated(hidden, toWidth: 90, mode: .head)
            XCTAssertTrue(head.hasPrefix("…"), head.unicodeScalars.map { String($0.value, radix: 16) }.description)
            XCTAssertTrue(path.hasSuffix(head.dropFirst()), head)
        }
    }

    func testUnicodeScriptsAndReplacementGlyph() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 15)
            XCTAssertGreaterThan(font.measure("Ωμέγα"), 20)
            XCTAssertGreaterThan(font.measure("Съешь"), 20)
            let replacement = font.measure("\u{FFFD}")
            let cjkFallbackInstalled = library.fallback.path(for: 0x5199) != nil
            XCTAssertTrue(font.provides("Ω"))
            XCTAssertEqual(
                font.provides("写"), cjkFallbackInstalled,
                "CJK comes from a fallback font exactly when fontconfig finds one")
            XCTAssertFalse(
                font.provides("\u{10FFFC}"),
                "a private-use plane character is in no font (Material Icons maps U+10FFFD, not this one)")
            XCTAssertEqual(
                font.measure("\u{10FFFC}"), replacement, accuracy: 0.01, "missing glyphs draw the replacement glyph")
            if !cjkFallbackInstalled {
                XCTAssertEqual(font.measure("写"), replacement, accuracy: 0.01)
            }
            XCTAssertEqual(font.caretOffsets("aé写").count, 4, "one caret stop per scalar plus the start")
        }
    }

    func testFontconfigIsAskedOnlyWhenTheFontLacksACharacter() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let font = library.font(size: 15)
            var list = DrawList()
            font.draw("Größe 12.3 MB, ½ Ω", at: .zero, color: .white, into: &list)
            XCTAssertFalse(library.fallback.isStarted, "text the primary font covers never starts fontconfig")
            _ = font.measure("写")
            XCTAssertTrue(library.fallback.isStarted, "a character the primary font lacks asks fontconfig")
        }
    }

    func testFontconfigFindsAnInstalledFontForCJKAndArabicAndNoneForAPrivateCharacter() {
        onMain {
            let fallback = FontFallback()
            let cjk = fallback.path(for: 0x5199)  // 写
            if FileManager.default.fileExists(atPath: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc") {
                XCTAssertNotNil(cjk, "fonts-noto-cjk is installed: fontconfig finds it")
                XCTAssertTrue(cjk?.contains("CJK") ?? false, "\(cjk ?? "nil")")
                // 本
                XCTAssertEqual(fallback.path(for: 0x672C), cjk, "the block's other characters come from the same font")
            }
            let arabic = fallback.path(for: 0x0627)  // ا
            XCTAssertNotNil(arabic, "DejaVu Sans, which the fonts package installs, has Arabic")
            XCTAssertNil(
                fallback.path(for: 0x10FFFC),
                "no font has this private-use character (Material Icons maps U+10FFFD, its neighbour)")
            XCTAssertEqual(fallback.path(for: 0x10FFFC), nil, "and the answer is cached")
        }
    }

    func testScaleRasterizesLargerButMeasuresInLogicalPixels() {
        onMain {
            let library = try! FontLibrary(atlas: GlyphAtlas())
            let one = library.font(size: 15, scale: 1), two = library.font(size: 15, scale: 2)
            XCTAssertEqual(two.pixelSize, 30)
            XCTAssertEqual(one.measure("Hello, world"), two.measure("Hello, world"), accuracy: 3)
        }
    }

    func testAtlasAddsPagesWhenFullAndCachesGlyphs() {
        onMain {
            let atlas = GlyphAtlas()
            let lib = try! FontLibrary(atlas: atlas)
            let huge = lib.font(size: 220)
            var list = DrawList()
            list.reset(scale: 1, solidTexture: atlas.whiteTexture, whiteUV: atlas.whiteUV)
            let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
            huge.draw(letters, at: .zero, color: .white, into: &list)
            XCTAssertGreaterThan(atlas.pageCount, 1, "220 px glyphs overflow one 1024² page")
            let rasterized = huge.glyphsRasterized
            huge.draw(letters, at: Point(0, 300), color: .white, into: &list)
            XCTAssertEqual(huge.glyphsRasterized, rasterized, "second use comes from the atlas")
            XCTAssertEqual(Set(list.commands.map(\.texture)).count, atlas.pageCount)
        }
    }

    func testAGlyphWithoutBitmapIsRasterizedOnce() {
        onMain {
            let lib = try! FontLibrary(atlas: GlyphAtlas())
            let font = lib.font(size: 15)
            _ = font.measure("a b")
            let rasterized = font.glyphsRasterized
            XCTAssertEqual(rasterized, 3, "a, the space, b")
            _ = font.measure("c d")
            XCTAssertEqual(font.glyphsRasterized, rasterized + 2, "c and d: the space (no bitmap) is known")
        }
    }
}
