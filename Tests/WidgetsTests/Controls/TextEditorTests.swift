import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The multi-line editor: wrapping by measured widths (without SDL), and editing, moving by
/// line and scrolling in the real renderer.
final class TextEditorTests: XCTestCase {
    /// Every scalar 10 pt wide.
    private static func tenEach(_ text: String) -> [Double] { (0...text.unicodeScalars.count).map { Double($0) * 10 } }

    private static func shown(_ text: String, width: Double) -> [String] {
        onMain {
            let scalars = Array(text.unicodeScalars)
            return TextWrapping.lines(scalars, width: width, caretOffsets: tenEach).map { line in
                var s = String.UnicodeScalarView()
                s.append(contentsOf: scalars[line.range])
                return String(s)
            }
        }
    }

    func testWordsWrapAtSpacesNewlinesSplitAndLongWordsBreak() {
        onMain {
            XCTAssertEqual(Self.shown("hello world foo", width: 60), ["hello ", "world ", "foo"])
            XCTAssertEqual(Self.shown("ab\n\ncd", width: 100), ["ab", "", "cd"], "an empty paragraph is a line")
            XCTAssertEqual(
                Self.shown("abcdefghij", width: 35), ["abc", "def", "ghi", "j"],
                "a word wider than the line breaks where it must")
            XCTAssertEqual(Self.shown("", width: 50), [""])
            XCTAssertEqual(Self.shown("x\n", width: 50), ["x", ""], "a final newline starts a last, empty line")
            let lines = TextWrapping.lines(Array("hello world".unicodeScalars), width: 60, caretOffsets: Self.tenEach)
            XCTAssertEqual(TextWrapping.line(of: 5, in: lines), 0)
            XCTAssertEqual(
                TextWrapping.line(of: 6, in: lines), 1, "the position where a line wraps starts the next one")
        }
    }

    func testTypingWrapsReturnAndArrowsMoveByLineAPasteKeepsItsLinesAndTheCaretStaysInView() throws {
        try onMain {
            let h = try Harness()
            var text = ""
            let build: (UI) -> Void = { ui in ui.padding(20) { ui.textEditor(text: &text, width: 160, height: 100) } }
            h.frame(build)
            h.click(at: Point(100, 60), build)
            XCTAssertTrue(h.ui.wantsTextInput)
            h.inject.text("the quick brown fox jumps over")
            h.frame(build)
            let ink = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 22, y: 22, width: 150, height: 96), differingFrom: h.ui.theme.surface))
            XCTAssertGreaterThan(ink.height, h.ui.font.lineHeight * 1.8, "the words wrapped onto more lines: \(ink)")
            h.shot("text-editor", build)
            h.inject.tap(.returnKey)
            h.inject.text("end")
            h.frame(build)
            XCTAssertEqual(text, "the quick brown fox jumps over\nend")
            h.inject.tap(.up)
            h.inject.tap(.home)
            h.inject.text(">")
            h.frames(2, build)
            XCTAssertTrue(
                text.contains("\n") && text.hasSuffix("\nend"), "Up and Home reached a wrapped line above: \(text)")
            XCTAssertFalse(text.hasPrefix(">"), "the start of the visual line, not of the text")
            h.ui.clipboard.text = "a\nb\nc\nd\ne\nf\ng"
            h.inject.tap(.end, modifiers: .control)
            h.inject.tap(Key("v"), modifiers: .control)
            h.frames(2, build)
            XCTAssertTrue(text.hasSuffix("end" + "a\nb\nc\nd\ne\nf\ng"), "a paste keeps its newlines")
            // Ten-odd lines in a 100 pt editor: scrolled so the caret's last line shows at the bottom.
            let bottom = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 22, y: 90, width: 150, height: 28), differingFrom: h.ui.theme.surface))
            XCTAssertGreaterThan(bottom.width, 0)
            h.inject.tap(Key("z"), modifiers: .control)
            h.frames(2, build)
            XCTAssertTrue(text.hasSuffix("\nend"), "Ctrl+Z takes the paste back")
        }
    }

    func testSelectableTextCopiesAWordADraggedPartAndTheLineAndIsNoTabStop() throws {
        try onMain {
            let h = try Harness()
            let path = "/photos/Trip 2024/IMG_0001.jpg"
            let build: (UI) -> Void = { ui in
                ui.padding(20) {
                    ui.textSelection(.enabled) { ui.text(path) }
                    ui.text("not selectable")
                }
            }
            h.frame(build)
            let font = h.ui.font
            let y = 20 + font.lineHeight / 2
            let copy = {
                h.inject.tap(Key("c"), modifiers: .control)
                h.frame(build)
            }
            Self.selectTripThen2024(in: h, drawnFrom: 20, y: y, build)
            h.shot("selectable-text", build)
            h.inject.tap(Key("a"), modifiers: .control)
            h.frame(build)
            copy()
            XCTAssertEqual(h.ui.clipboard.text, path, "Ctrl+A, all of it")
            // Plain text stays plain: a drag over it selects nothing, and Tab skips the label.
            h.ui.clipboard.text = ""
            h.drag(from: Point(22, y + font.lineHeight + 8), to: Point(100, y + font.lineHeight + 8), build)
            copy()
            XCTAssertEqual(h.ui.clipboard.text, "")
            h.inject.tap(.tab)
            h.frame(build)
            XCTAssertTrue(h.ui.focusChain.isEmpty, "selectable text is no Tab stop")
        }
    }

    /// With "/photos/Trip 2024/IMG_0001.jpg" drawn from `left` on the line at `y`: a double
    /// click on "Trip" copies that word, and a drag from the start of "2024" to the end of
    /// "IMG" copies "2024/IMG".
    @MainActor private static func selectTripThen2024(
        in h: Harness, drawnFrom left: Double, y: Double, _ build: (UI) -> Void
    ) {
        let x = { (prefix: String) in left + h.ui.font.measure(prefix) }
        func copy() {
            h.inject.tap(Key("c"), modifiers: .control)
            h.frame(build)
        }
        h.click(at: Point(x("/photos/Tr"), y), count: 2, build)
        copy()
        XCTAssertEqual(h.ui.clipboard.text, "Trip")
        h.wait(1)
        h.drag(from: Point(x("/photos/Trip ") + 2, y), to: Point(x("/photos/Trip 2024/IMG") - 2, y), build)
        copy()
        XCTAssertEqual(h.ui.clipboard.text, "2024/IMG")
    }

    /// In a right-to-left layout a selectable label is moved to the right, not flipped: a
    /// double click and a drag select the characters under the pointer as drawn.
    func testSelectableTextInARightToLeftLayoutSelectsWhatIsUnderThePointer() throws {
        try onMain {
            let h = try Harness()
            h.ui.layoutDirection = .rightToLeft
            let path = "/photos/Trip 2024/IMG_0001.jpg"
            let build: (UI) -> Void = { ui in
                ui.padding(20) { ui.textSelection(.enabled) { ui.text(path) } }
            }
            h.frames(2, build)
            let font = h.ui.font
            let drawn = try XCTUnwrap(h.ui.contentDrawList.drawnText.first { $0.text == path }).rect
            let left = drawn.minX  // where it was drawn: moved to the right, reading left to right
            XCTAssertGreaterThan(left, h.ui.size.width / 2, "at the right of the window")
            Self.selectTripThen2024(in: h, drawnFrom: left, y: drawn.midY, build)
            h.shot("selectable-text-right-to-left", build)
            // The selection is drawn under "2024/IMG" as drawn.
            let under = Rect(
                x: left + font.measure("/photos/Trip "), y: drawn.minY + 2, width: font.measure("2024/IMG"),
                height: drawn.height - 4)
            XCTAssertGreaterThan(h.countPixels(in: under) { Int($0.b) > Int($0.r) + 40 }, 40)
            let before = Rect(
                x: left, y: drawn.minY + 2, width: font.measure("/photos/Trip") - 1, height: drawn.height - 4)
            XCTAssertEqual(h.countPixels(in: before) { Int($0.b) > Int($0.r) + 40 }, 0)
        }
    }

    /// A right-to-left paragraph in a left-to-right column is drawn at the column's right
    /// edge; a double click selects the word under the pointer there.
    func testSelectableRightToLeftTextSelectsTheWordWhereItIsDrawn() throws {
        try onMain {
            let h = try Harness()
            let text = "שלום עולם"
            let build: (UI) -> Void = { ui in
                ui.padding(20) { ui.textSelection(.enabled) { ui.text(text) } }
            }
            h.frames(2, build)
            let drawn = try XCTUnwrap(h.ui.contentDrawList.drawnText.first { $0.text == text }).rect
            XCTAssertGreaterThan(drawn.minX, h.ui.size.width / 2, "at the column's right edge")
            // The second word in reading order is the leftmost drawn.
            let p = Point(drawn.minX + h.ui.font.measure("עולם") / 2, drawn.midY)
            h.click(at: p, count: 2, build)
            h.inject.tap(Key("c"), modifiers: .control)
            h.frame(build)
            XCTAssertEqual(h.ui.clipboard.text, "עולם")
        }
    }
}
