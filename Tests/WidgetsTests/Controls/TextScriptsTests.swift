import XCTest
import TesseraTesting
import Render2D
import Imaging
import Profiling
import DemoSupport
@testable import Widgets

/// Text in other scripts in the real renderer: fallback fonts, color emoji, and a text
/// field editing across a change of direction.
final class TextScriptsTests: XCTestCase {

    func testArabicDevanagariAndEmojiDrawFromInstalledFontsNotAsBoxes() throws {
        try onMain {
            let h = try Harness()
            let samples = ["سلام عليكم", "नमस्ते क्षत्रिय", "🌅📷"]
            guard h.ui.fonts.fallback.path(for: 0x0915) != nil else {
                throw XCTSkip("no installed font has Devanagari (scripts/install-deps.sh installs fonts-noto-core)")
            }
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    for s in samples { ui.text(s) }
                    ui.text(String(repeating: "\u{FFFD}", count: 6))
                }
            }
            h.frames(2, build)
            h.shot("scripts", build)
            let line = h.ui.font.lineHeight, step = line + h.ui.theme.spacing, background = h.ui.theme.background
            // (The whole width: an Arabic line starts at the right.)
            let row = { (k: Int) in Rect(x: 0, y: 20 + Double(k) * step, width: 640, height: line) }
            let boxes = try XCTUnwrap(h.inkBounds(in: row(3), differingFrom: background))
            for (k, s) in samples.enumerated() {
                let ink = try XCTUnwrap(h.inkBounds(in: row(k), differingFrom: background), s)
                XCTAssertGreaterThan(ink.width, 25, s)
                let width = min(ink.width, boxes.width)
                let drawn = h.pixels.region(Rect(x: ink.x, y: row(k).y, width: width, height: line))
                let replacement = h.pixels.region(Rect(x: boxes.x, y: row(3).y, width: width, height: line))
                XCTAssertTrue(drawn != replacement, "\(s) is not drawn as replacement glyphs")
            }
            // The emoji keep their own colors (the text color is a neutral gray).
            if h.ui.fonts.fallback.path(for: 0x1F305)?.contains("Color") == true {
                let emoji = Rect(x: 0, y: 20 + 2 * step, width: 300, height: line)
                let colorful = h.countPixels(in: emoji) { c in max(c.r, c.g, c.b) - min(c.r, c.g, c.b) > 80 }
                XCTAssertGreaterThan(colorful, 40, "color glyphs, not tinted monochrome ones")
            }
        }
    }

    func testATextFieldSelectsAndReplacesAcrossADirectionChange() throws {
        try onMain {
            let h = try Harness()
            var text = "ab אבג"
            let build: (UI) -> Void = { ui in ui.textField("Name", text: &text, width: 300) }
            h.frame(build)
            h.click(at: Point(250, 12), build)  // right of the text: the caret goes to the end
            // Logically back from the end: ג, ב — then select א, the first Hebrew letter.
            h.inject.tap(.left)
            h.inject.tap(.left)
            h.inject.tap(.left, modifiers: .shift)
            h.frames(2, build)
            h.shot("bidi-field-selection", build)
            // א is drawn at the right end of the line, not after "ab ": so is its selection.
            let font = h.ui.font
            let textStart = 8.0, prefix = font.measure("ab "), full = font.measure(text)
            // The highlight is the only bluish thing inside the field (its focus border is outside this band).
            let band = Rect(x: 4, y: h.ui.theme.controlHeight / 2 - 3, width: 290, height: 6)
            let selected = try XCTUnwrap(h.inkBounds(in: band) { c in Int(c.b) > Int(c.r) + 20 })
            XCTAssertGreaterThan(selected.minX, textStart + prefix + 4, "the highlight is not next to the space")
            XCTAssertEqual(selected.maxX, textStart + full, accuracy: 3, "it ends at the line's right end")
            h.inject.text("X")
            h.frame(build)
            XCTAssertEqual(text, "ab Xבג", "typing replaces the logically selected letter")
            h.inject.tap(.backspace)
            h.inject.tap(.backspace)
            h.frames(2, build)
            XCTAssertEqual(text, "abבג", "backspace deletes in reading order")
        }
    }

    func testTheEditorPlacesARightToLeftLinesSelectionWhereItsLettersAre() throws {
        try onMain {
            let h = try Harness()
            var text = "abc\nשלום"
            let build: (UI) -> Void = { ui in ui.padding(20) { ui.textEditor(text: &text, width: 200, height: 100) } }
            h.frame(build)
            h.click(at: Point(100, 60), build)
            // To the end of the text, then select the last letter in reading order, ם.
            h.inject.tap(.end, modifiers: .control)
            h.inject.tap(.left, modifiers: .shift)
            h.frames(2, build)
            h.shot("bidi-editor-selection", build)
            let font = h.ui.font, lineTop = 20 + 6 + font.lineHeight
            let word = font.measure("שלום")
            let selected = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 24, y: lineTop + 4, width: 180, height: font.lineHeight - 8)) { c in
                    Int(c.b) > Int(c.r) + 20
                })
            // ם, last in reading order, is the leftmost letter of the line.
            XCTAssertLessThan(selected.maxX, 28 + word / 2, "the highlight is at the line's left, where ם is")
            h.inject.text("ן")
            h.frame(build)
            XCTAssertEqual(text, "abc\nשלון", "typing replaces it")
        }
    }
}

private extension Harness {
    /// The bounding box of the pixels in `rect` for which `test` holds.
    func inkBounds(in rect: Rect, where test: (Color) -> Bool) -> Rect? {
        var x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
        for y in max(0, Int(rect.minY))..<min(pixels.height, Int(rect.maxY)) {
            for x in max(0, Int(rect.minX))..<min(pixels.width, Int(rect.maxX)) where test(pixels.pixel(x: x, y: y)) {
                x0 = min(x0, x)
                x1 = max(x1, x)
                y0 = min(y0, y)
                y1 = max(y1, y)
            }
        }
        return x1 >= x0
            ? Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0 + 1), height: Double(y1 - y0 + 1)) : nil
    }
}
