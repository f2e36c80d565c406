import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D

/// `wrappingHStack`: a row that goes on to a new line instead of running past its edge.
final class WrappingStackTests: XCTestCase {
    func testChildrenGoOnToANewLineWhereTheNextWouldPassTheEdge() {
        XCTAssertEqual(WrapLayout.breaks(widths: [100, 100, 100], width: 400, spacing: 10), [], "320 fit in 400")
        XCTAssertEqual(
            WrapLayout.breaks(widths: [100, 100, 100], width: 300, spacing: 10), [2], "the third passes 300")
        XCTAssertEqual(WrapLayout.breaks(widths: [100, 100, 100], width: 210, spacing: 10), [2], "210 exactly fit")
        XCTAssertEqual(WrapLayout.breaks(widths: [100, 100, 100], width: 90, spacing: 10), [1, 2], "one a line")
        XCTAssertEqual(
            WrapLayout.breaks(widths: [50, 500, 50], width: 200, spacing: 10), [1, 2],
            "a child wider than the row has a line to itself")
        XCTAssertEqual(
            WrapLayout.breaks(widths: [.nan, .infinity, -5, 10], width: 100, spacing: 10), [],
            "widths that are not sizes count as nothing: no trap")
        XCTAssertEqual(WrapLayout.breaks(widths: [], width: 100, spacing: 10), [])
    }

    /// Placed one after another, children start lines exactly where `breaks` says, however
    /// many there are.
    func testAThousandChildrenStartTheirLinesWhereTheBreaksSay() {
        let widths = (0..<1000).map { Double(20 + ($0 * 37) % 90) }
        let last = WrapLayout.Memo(widths: widths, lineHeights: [])
        var wrap = WrapLayout(width: 300, spacing: 8, lineSpacing: 4, last: last)
        var cursor = 0.0, starts: [Int] = []
        for (index, width) in widths.enumerated() {
            if wrap.startsNewLine(index) { starts.append(index) }
            let placed = wrap.place(index, size: Size(width, 10), desiredWidth: nil, cursor: cursor, alignment: .start)
            XCTAssertLessThanOrEqual(placed.rect.maxX, 300.5, "child \(index)")
            cursor = placed.cursor
        }
        XCTAssertEqual(starts, wrap.breaks)
        XCTAssertEqual(wrap.finished.memo.lineHeights.count, wrap.breaks.count + 1)
        XCTAssertEqual(wrap.finished.size.height, Double(wrap.breaks.count + 1) * 14 - 4)
    }

    func testLinesAreCentredInTheirHeightAndTheRowMeasuresAllItsLines() {
        var wrap = WrapLayout(
            width: 250, spacing: 10, lineSpacing: 4,
            last: .init(widths: [100, 100, 100], lineHeights: [30, 20]))
        let a = wrap.place(0, size: Size(100, 20), desiredWidth: nil, cursor: 0, alignment: .center)
        let b = wrap.place(1, size: Size(100, 30), desiredWidth: nil, cursor: a.cursor, alignment: .center)
        XCTAssertTrue(wrap.startsNewLine(2))
        XCTAssertEqual(wrap.origin(of: 2, cursor: b.cursor), Point(0, 34), "below the 30-high line, 4 apart")
        let c = wrap.place(2, size: Size(120, 20), desiredWidth: 180, cursor: b.cursor, alignment: .center)
        XCTAssertEqual(a.rect, Rect(x: 0, y: 5, width: 100, height: 20), "centred in last frame's 30")
        XCTAssertEqual(b.rect, Rect(x: 110, y: 0, width: 100, height: 30))
        XCTAssertEqual(c.rect, Rect(x: 0, y: 34, width: 120, height: 20))
        XCTAssertEqual(wrap.finished.size, Size(210, 54))
        XCTAssertEqual(
            wrap.finished.memo, .init(widths: [100, 100, 180], lineHeights: [30, 20]),
            "a child cut to fit counts at its whole width")
    }

    /// Eight buttons in rows 600, 330 and 160 logical pixels wide, at scales 1 and 2: every one
    /// is drawn inside the window, none over another, in reading order, and the text under the
    /// row starts below its last line.
    func testButtonsWrapInsideTheWindowAndWhatFollowsStartsBelowThem() throws {
        try onMain {
            for scale in [1.0, 2.0] {
                let h = try Harness(width: Int(600 * scale), height: Int(400 * scale), scale: scale)
                h.ui.isAccessibilityEnabled = true
                let titles = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]
                var pressed: [String] = []
                let build: (UI) -> Void = { ui in
                    ui.vstack {
                        ui.wrappingHStack {
                            for title in titles where ui.button(title) { pressed.append(title) }
                        }
                        ui.text("Below the row")
                    }
                }
                for width in [600.0, 330, 160] {
                    h.host.window.setSize(width: Int(width * scale), height: Int(400 * scale))
                    h.frames(3, build)
                    let frames = try titles.map { try h.find(.pushButton, $0).frame }
                    for (title, frame) in zip(titles, frames) {
                        XCTAssertLessThanOrEqual(frame.maxX, width + 0.5, "\(title) at \(width), scale \(scale)")
                    }
                    for i in frames.indices {
                        for j in frames.indices where j > i {
                            XCTAssertFalse(frames[i].intersects(frames[j]), "\(titles[i]) and \(titles[j]) at \(width)")
                        }
                        if i > 0 {
                            let after =
                                frames[i].minY > frames[i - 1].minY + 1
                                || (abs(frames[i].minY - frames[i - 1].minY) <= 1
                                    && frames[i].minX > frames[i - 1].minX)
                            XCTAssertTrue(after, "\(titles[i]) follows \(titles[i - 1]) at \(width)")
                        }
                    }
                    let lines = Set(frames.map { Int($0.minY.rounded()) }).count
                    XCTAssertEqual(lines == 1, width == 600, "at \(width), scale \(scale): \(lines) lines")
                    let below = try XCTUnwrap(h.rect(ofText: "Below the row"))
                    XCTAssertGreaterThanOrEqual(
                        below.minY / scale, frames.map(\.maxY).max() ?? 0, "the text under the row, at \(width)")
                }
                // The last button, on a line of its own now, is pressed where it is drawn.
                try h.click(on: "Hotel", build)
                XCTAssertEqual(pressed, ["Hotel"], "scale \(scale)")
            }
        }
    }

    /// A nested stack and a padded label move as a whole, by the width they took last frame.
    func testContainersWrapWhole() throws {
        try onMain {
            let h = try Harness(width: 300, height: 200)
            h.ui.isAccessibilityEnabled = true
            let build: (UI) -> Void = { ui in
                ui.wrappingHStack(spacing: 8, lineSpacing: 6) {
                    _ = ui.button("First of all")
                    ui.hstack {
                        _ = ui.button("Left")
                        _ = ui.button("Right")
                    }
                    ui.padding(4) { ui.text("A padded label") }
                }
            }
            h.frames(3, build)
            let first = try h.find(.pushButton, "First of all").frame
            let left = try h.find(.pushButton, "Left").frame, right = try h.find(.pushButton, "Right").frame
            XCTAssertEqual(left.minY, right.minY, accuracy: 0.5, "the nested stack stays one row")
            XCTAssertLessThanOrEqual(right.maxX, 300.5)
            let label = try XCTUnwrap(h.rect(ofText: "A padded label"))
            XCTAssertLessThanOrEqual(label.maxX, 300.5, "the padded label, whole, inside the row")
            XCTAssertGreaterThan(label.minY, first.maxY, "on a line below the first")
        }
    }

    /// A child that reports a width that is not a number settles like any other: the row stops
    /// asking for frames once its lines are known, so the window can go idle.
    func testARowWithAChildOfNoWidthSettles() throws {
        try onMain {
            let h = try Harness(width: 300, height: 200)
            let build: (UI) -> Void = { ui in
                ui.wrappingHStack {
                    _ = ui.button("Before")
                    _ = ui.allocate(Size(.nan, 10))
                    _ = ui.allocate(Size(-.infinity, 10))
                    _ = ui.button("After")
                }
            }
            h.frames(3, build)
            XCTAssertNil(h.ui.redrawTime, "settled: no more frames asked for")
        }
    }
}
