import XCTest
import TesseraTesting
import DemoSupport
@testable import Widgets
@testable import Render2D

/// `ui.text(_:lineLimit:)`: text on as many lines as it needs, as SwiftUI's `Text` wraps.
final class WrappedTextTests: XCTestCase {
    static let sentence = "The quick brown fox jumps over the lazy dog while the photos load in the background"

    func testLongTextWrapsAtSpacesInsideTheWidthAndWhatFollowsStartsBelowIt() throws {
        try onMain {
            let h = try Harness(width: 220, height: 300)
            h.ui.isAccessibilityEnabled = true
            let build: (UI) -> Void = { ui in
                ui.vstack(spacing: 0) {
                    ui.text(Self.sentence, lineLimit: nil)
                    ui.text("After")
                }
            }
            h.frames(2, build)
            let lines = h.ui.contentDrawList.drawnText.filter { $0.text != "After" }
            XCTAssertGreaterThan(lines.count, 2, "\(lines.map(\.text))")
            XCTAssertEqual(lines.map(\.text).joined(separator: " "), Self.sentence, "every word, in order, once")
            for line in lines {
                XCTAssertLessThanOrEqual(line.rect.maxX, 220.5, "'\(line.text)' inside the window")
                XCTAssertFalse(line.text.hasSuffix("…"), "nothing cut: \(line.text)")
                XCTAssertFalse(line.text.hasPrefix(" ") || line.text.hasSuffix(" "), "'\(line.text)'")
            }
            let tops = lines.map(\.rect.minY)
            XCTAssertEqual(tops, tops.sorted(), "line after line")
            XCTAssertEqual(Set(tops).count, lines.count, "each on its own line")
            let after = try XCTUnwrap(h.ui.contentDrawList.drawnText.first { $0.text == "After" })
            XCTAssertGreaterThanOrEqual(after.rect.minY, (lines.map(\.rect.maxY).max() ?? 0) - 0.5)
            XCTAssertEqual(try h.find(.label, Self.sentence).name, Self.sentence, "read whole by a screen reader")
        }
    }

    func testALineLimitCutsTheLastLineAndANewlineStartsOne() throws {
        try onMain {
            let h = try Harness(width: 220, height: 300)
            let build: (UI) -> Void = { ui in
                ui.vstack(spacing: 0) {
                    ui.text(Self.sentence, lineLimit: 2)
                    ui.text("First\nSecond", lineLimit: nil)
                }
            }
            h.frames(2, build)
            let drawn = h.ui.contentDrawList.drawnText.map(\.text)
            XCTAssertEqual(drawn.count, 4, "\(drawn)")
            XCTAssertTrue(drawn[1].hasSuffix("…"), "the second line, cut: \(drawn)")
            XCTAssertTrue(Self.sentence.hasPrefix(drawn[0]))
            XCTAssertEqual(Array(drawn[2...]), ["First", "Second"])
        }
    }

    func testAWidthChangeWrapsAgain() throws {
        try onMain {
            let h = try Harness(width: 600, height: 300)
            let build: (UI) -> Void = { ui in ui.text(Self.sentence, lineLimit: nil) }
            h.frames(2, build)
            let wide = h.ui.contentDrawList.drawnText.count
            h.host.window.setSize(width: 200, height: 300)
            h.frames(2, build)
            XCTAssertGreaterThan(h.ui.contentDrawList.drawnText.count, wide, "more lines in a narrower window")
        }
    }

    /// Inside `textSelection(.enabled)`, wrapped text selects across its lines: a drag from the
    /// last word of one line to the first of the next copies both with the space between, and
    /// the selection is drawn on both lines; a triple click selects a paragraph.
    func testSelectableWrappedTextSelectsAcrossItsLines() throws {
        try onMain {
            let h = try Harness(width: 220, height: 300)
            h.ui.isAccessibilityEnabled = true
            let text = Self.sentence + "\nA second paragraph"
            let build: (UI) -> Void = { ui in
                ui.textSelection(.enabled) { ui.text(text, lineLimit: nil) }
            }
            h.frames(2, build)
            let font = h.ui.font
            let lines = h.ui.contentDrawList.drawnText
            XCTAssertGreaterThan(lines.count, 3, "\(lines.map(\.text))")
            let first = lines[0], second = lines[1]
            let lastWord = String(first.text.split(separator: " ").last!)
            let firstWord = String(second.text.split(separator: " ").first!)
            let from = Point(
                first.rect.minX + font.measure(String(first.text.dropLast(lastWord.count))) + 2, first.rect.midY)
            let to = Point(second.rect.minX + font.measure(firstWord) - 2, second.rect.midY)
            h.drag(from: from, to: to, build)
            h.inject.tap(Key("c"), modifiers: .control)
            h.frame(build)
            XCTAssertEqual(h.ui.clipboard.text, lastWord + " " + firstWord)
            let selected = try XCTUnwrap(text.range(of: lastWord + " " + firstWord))
            let start = text.unicodeScalars.distance(from: text.startIndex, to: selected.lowerBound)
            let end = text.unicodeScalars.distance(from: text.startIndex, to: selected.upperBound)
            XCTAssertEqual(
                try h.find(.label, text).text?.selection, start..<end, "a screen reader is told what is selected")
            let bluish = { (row: Rect) in h.countPixels(in: row.insetBy(dx: 0, dy: 2)) { Int($0.b) > Int($0.r) + 40 } }
            XCTAssertGreaterThan(bluish(first.rect), 20, "the selection drawn on the first line")
            XCTAssertGreaterThan(bluish(second.rect), 20, "and on the second")
            XCTAssertEqual(bluish(lines[2].rect), 0, "and not on the third")
            h.shot("selectable-wrapped-text", build)
            // A triple click on the second paragraph selects it whole.
            let last = try XCTUnwrap(lines.last)
            h.wait(1)
            h.click(at: Point(last.rect.minX + 4, last.rect.midY), count: 3, build)
            h.inject.tap(Key("c"), modifiers: .control)
            h.frame(build)
            XCTAssertEqual(h.ui.clipboard.text, "A second paragraph")
        }
    }

    /// `multilineTextAlignment` aligns the lines with each other: centred lines share a centre
    /// and trailing lines an end, within the text's frame (its widest line); a selection in a
    /// centred line is hit where the line is drawn.
    func testMultilineTextAlignmentAlignsTheLinesWithEachOther() throws {
        try onMain {
            let h = try Harness(width: 220, height: 300)
            var alignment = TextAlignment.center
            let build: (UI) -> Void = { ui in
                ui.multilineTextAlignment(alignment) {
                    ui.textSelection(.enabled) { ui.text(Self.sentence + "\nas it", lineLimit: nil) }
                }
                ui.text("After, aligned as before")
            }
            h.frames(2, build)
            var lines = h.ui.contentDrawList.drawnText.dropLast()
            XCTAssertGreaterThan(Set(lines.map { $0.rect.width.rounded() }).count, 1, "lines of different widths")
            let block = (lines.map(\.rect.minX).min() ?? 0, lines.map(\.rect.maxX).max() ?? 0)
            for line in lines {
                XCTAssertEqual(line.rect.midX, (block.0 + block.1) / 2, accuracy: 1, "'\(line.text)' centred")
            }
            let after = try XCTUnwrap(h.ui.contentDrawList.drawnText.last)
            XCTAssertEqual(after.rect.minX, block.0, accuracy: 0.5, "the next text is not aligned by it")
            // A double click on "as", where its centred line draws it (far from the text's left).
            let short = try XCTUnwrap(lines.last)
            XCTAssertGreaterThan(short.rect.minX - block.0, short.rect.width, "a short line, centred")
            h.click(at: Point(short.rect.minX + h.ui.font.measure("as") / 2, short.rect.midY), count: 2, build)
            h.inject.tap(Key("c"), modifiers: .control)
            h.frame(build)
            XCTAssertEqual(h.ui.clipboard.text, "as")
            alignment = .trailing
            h.frames(2, build)
            lines = h.ui.contentDrawList.drawnText.dropLast()
            let end = lines.map(\.rect.maxX).max() ?? 0
            for line in lines { XCTAssertEqual(line.rect.maxX, end, accuracy: 1, "'\(line.text)' at the end") }
        }
    }

    /// Random texts (empty lines, emoji with joiners, combining marks, Hebrew among Latin, long
    /// words), widths, line limits and alignments, with random presses, drags, double and
    /// triple clicks, and the text changing under a selection: no trap, and what is copied is
    /// always a run of the text shown.
    func testRandomTextsAndPointerActionsNeverTrapAndCopyPartOfTheText() throws {
        let pieces = [
            "word", " ", "  ", "\n", "\n\n", "👨‍👩‍👧", "e\u{301}", "שלום", "עולם", "2024", "/", "—",
            "averyveryverylongwordthatcannotwrap", "🇯🇵", "\t",
        ]
        try onMain {
            var random = SplitMix64(seed: 7)
            let h = try Harness(width: 320, height: 240)
            var text = "", limit: Int? = nil, alignment = TextAlignment.leading, width = 200.0
            var cut = TruncationMode.tail, wraps = true
            let build: (UI) -> Void = { ui in
                ui.frame(width: width) {
                    ui.multilineTextAlignment(alignment) {
                        ui.truncationMode(cut) {
                            ui.textSelection(.enabled) {
                                if wraps { ui.text(text, lineLimit: limit) } else { ui.text(text) }
                            }
                        }
                    }
                }
            }
            var copies = 0
            for round in 0..<60 {
                if round % 3 == 0 {  // a new text, sometimes under an existing selection
                    text = (0..<random.next(below: 30)).map { _ in pieces[random.next(below: pieces.count)] }.joined()
                    limit = [nil, 0, 1, 2, -1][random.next(below: 5)]
                    alignment = [.leading, .center, .trailing][random.next(below: 3)]
                    width = [1, 40, 120, 200, 400][random.next(below: 5)]
                    cut = [.head, .middle, .tail][random.next(below: 3)]
                    wraps = random.next(below: 4) != 0
                    h.inject.tap(Key("c"), modifiers: .control)  // the old selection, over the new text
                    h.frame(build)
                }
                let point = { Point(Double(random.next(below: Int(width) + 20)), Double(random.next(below: 60))) }
                switch random.next(below: 5) {
                case 0: h.drag(from: point(), to: point(), build)
                case 4: h.drag(from: point(), to: Point(-2e9, 2e9), build)  // far off the window
                case 1: h.click(at: point(), count: 2, build)
                case 2: h.click(at: point(), count: 3, build)
                default: h.click(at: point(), build)
                }
                h.wait(1)
                h.ui.clipboard.text = ""
                h.inject.tap(Key("c"), modifiers: .control)
                h.frame(build)
                let copied = h.ui.clipboard.text
                XCTAssertTrue(copied.isEmpty || text.contains(copied), "round \(round): '\(copied)' not in '\(text)'")
                if !copied.isEmpty { copies += 1 }
            }
            XCTAssertGreaterThan(copies, 8, "rounds that selected and copied something")
        }
    }

    /// `truncationMode(.middle)` keeps both ends of a path too long for its column; `.head`
    /// its end; the default its start. A wrapped text's last line is cut the same way.
    /// `truncationMode` reaches the text of controls as SwiftUI's environment does: a
    /// button's title, a label, a list row, a table cell.
    func testTruncationModeReachesButtonsLabelsRowsAndCells() throws {
        struct File: Identifiable {
            let id: Int
            let path: String
        }
        try onMain {
            let h = try Harness(width: 600, height: 400)
            let path = "/home/ann/Pictures/Holidays/Summer in the mountains/Trip 2024/Day 3/IMG_0001.jpg"
            let files = [File(id: 1, path: path)]
            var mode = TruncationMode.middle
            var seen: [TruncationMode] = []
            let build: (UI) -> Void = { ui in
                seen = [ui.truncation]
                ui.truncationMode(mode) {
                    seen.append(ui.truncation)  // what a widget of your own reads
                    ui.vstack(alignment: .leading) {
                        ui.frame(width: 200) {
                            _ = ui.button(path)
                            ui.label(path, icon: .folder)
                        }
                        ui.frame(width: 200, height: 60) {
                            _ = ui.list("files", files, selection: nil) { ListRowContent($0.path) }
                        }
                        ui.frame(width: 420, height: 80) {
                            _ = ui.table("cells", rows: files) { [TableColumn("Path") { $0.path }] }
                        }
                    }
                }
            }
            h.frames(3, build)
            XCTAssertEqual(seen, [.tail, .middle])
            h.shot("truncation-mode-in-controls", build)
            let cut = h.ui.contentDrawList.drawnText.map(\.text).filter { $0.contains("…") }
            XCTAssertEqual(cut.count, 4, "\(h.ui.contentDrawList.drawnText.map(\.text))")
            for text in cut {
                XCTAssertTrue(text.hasPrefix("/home") && text.hasSuffix(".jpg"), "cut in the middle: \(text)")
            }
            mode = .tail
            h.frames(2, build)
            let tail = h.ui.contentDrawList.drawnText.map(\.text).filter { $0.contains("…") }
            XCTAssertEqual(tail.count, 4)
            XCTAssertTrue(tail.allSatisfy { $0.hasPrefix("/home") && $0.hasSuffix("…") }, "\(tail)")
        }
    }

    /// Selectable text cut in the middle: what is under the pointer after "…" is the text's end,
    /// and a selection across "…" holds what it hides.
    func testSelectingTextCutInTheMiddleSelectsWhatIsShown() throws {
        try onMain {
            let h = try Harness(width: 400, height: 200)
            let path = "/home/ann/Pictures/Holidays/Trip 2024/IMG_0001.jpg"
            let build: (UI) -> Void = { ui in
                ui.frame(width: 160) {
                    ui.truncationMode(.middle) { ui.textSelection(.enabled) { ui.text(path) } }
                }
            }
            h.frames(2, build)
            let font = h.ui.font
            let line = try XCTUnwrap(h.ui.contentDrawList.drawnText.first)
            let parts = line.text.split(separator: "…", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(parts.count, 2, line.text)
            let x = { (prefix: String) in line.rect.minX + font.measure(prefix) }
            // A double click on "jpg", drawn after "…", selects "jpg".
            h.click(at: Point(x(String(line.text.dropLast(1))), line.rect.midY), count: 2, build)
            h.inject.tap(Key("c"), modifiers: .control)
            h.frame(build)
            XCTAssertEqual(h.ui.clipboard.text, "jpg")
            // From the end of the start to the start of the end: what "…" stands for.
            h.wait(1)
            h.drag(
                from: Point(x(parts[0]) - 1, line.rect.midY), to: Point(x(parts[0] + "…") + 1, line.rect.midY), build)
            h.inject.tap(Key("c"), modifiers: .control)
            h.frame(build)
            let hidden = path.dropFirst(parts[0].count).dropLast(parts[1].count)
            XCTAssertEqual(h.ui.clipboard.text, String(hidden))
            let ellipsis = Rect(x: x(parts[0]), y: line.rect.minY + 2, width: font.measure("…"), height: 10)
            XCTAssertGreaterThan(
                h.countPixels(in: ellipsis) { Int($0.b) > Int($0.r) + 40 }, 10, "the selection drawn over \"…\"")
            let start = Rect(
                x: line.rect.minX, y: line.rect.minY + 2, width: x(parts[0]) - line.rect.minX - 2, height: 10)
            XCTAssertEqual(h.countPixels(in: start) { Int($0.b) > Int($0.r) + 40 }, 0, "and not over the start")
            let endX = x(parts[0] + "…") + 2
            let end = Rect(x: endX, y: line.rect.minY + 2, width: line.rect.maxX - endX, height: 10)
            XCTAssertEqual(h.countPixels(in: end) { Int($0.b) > Int($0.r) + 40 }, 0, "nor over the end")
            h.shot("selection-across-a-middle-cut", build)
        }
    }

    func testTruncationModeCutsWhereItSays() throws {
        try onMain {
            let h = try Harness(width: 400, height: 200)
            let path = "/home/ann/Pictures/Holidays/Trip 2024/IMG_0001.jpg"
            var mode = TruncationMode.middle
            let build: (UI) -> Void = { ui in
                ui.frame(width: 160) {
                    ui.truncationMode(mode) {
                        ui.text(path)
                        ui.text(Self.sentence, lineLimit: 2)
                    }
                }
            }
            for (m, check) in [
                (
                    TruncationMode.middle,
                    { (s: String) in s.hasPrefix("/home") && s.hasSuffix(".jpg") && s.contains("…") }
                ),
                (.head, { $0.hasPrefix("…") && $0.hasSuffix("0001.jpg") }),
                (.tail, { $0.hasPrefix("/home") && $0.hasSuffix("…") }),
            ] {
                mode = m
                h.frames(2, build)
                let drawn = h.ui.contentDrawList.drawnText
                XCTAssertEqual(drawn.count, 3, "\(drawn.map(\.text))")
                XCTAssertTrue(check(drawn[0].text), "\(m): \(drawn[0].text)")
                XCTAssertLessThanOrEqual(drawn[0].rect.width, 160.5)
                XCTAssertTrue(drawn[2].text.contains("…") && drawn[2].rect.width <= 160.5, "\(m): \(drawn[2].text)")
            }
            XCTAssertTrue(h.ui.contentDrawList.drawnText[2].text.hasSuffix("…"))
        }
    }
}
