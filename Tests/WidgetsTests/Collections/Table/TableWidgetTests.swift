import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Tables in the real renderer, driven by injected SDL events. Harness: 640×480, header
/// 28 pt, rows 24 pt, so row i's centre is at y = 28 + 24 i + 12 (unscrolled).
final class TableWidgetTests: XCTestCase {
    /// App-side state, bound like an app would.
    final class TableModel {
        var items: [Item]
        var selection: Set<Int> = []
        var order: [KeyComparator<Item>] = []
        var drawn: [Int] = []
        var menuIDs: [Set<Int>] = []
        var probeX = 0.0
        var info: TableInfo?
        init(_ items: [Item]) { self.items = items }
    }

    private static func rowY(_ i: Int) -> Double { 28 + 24 * Double(i) + 12 }

    @MainActor
    private static func build(_ m: TableModel, editMode: Bool = false) -> (UI) -> Void {
        { ui in
            m.drawn = []
            m.info = ui.table(
                "t", rows: m.items.sorted(using: m.order), selection: Binding(m, \.selection),
                sortOrder: Binding(m, \.order), editMode: editMode,
                contextMenu: { ids in
                    m.menuIDs.append(Set(ids))
                    ui.menuItem("Delete \(ids.count)")
                }
            ) {
                TableColumn("Name", value: \Item.name).width(min: 50, ideal: 150, max: 200)
                TableColumn("Size", value: \Item.size) { "\($0.size)" }.width(100)
                TableColumn("Probe") { ui, item in
                    m.drawn.append(item.id)
                    m.probeX = ui.availableRect.minX
                }.width(min: 50, ideal: 100, max: 1000)
            }
        }
    }

    func testHeaderClicksReorderTheRowsOnScreenAndShiftClickAddsASecondaryKey() throws {
        try onMain {
            let h = try Harness()
            let m = TableModel(makeItems(12))
            let build = Self.build(m)
            h.frame(build)
            XCTAssertEqual(m.drawn, Array(0..<12), "unsorted: base order")
            h.click(at: Point(100, 14), build)
            h.frame(build)
            XCTAssertEqual(m.order.map(\.id), ["Name"])
            let byName = m.items.sorted(using: [KeyComparator(\Item.name)]).map(\.id)
            XCTAssertEqual(m.drawn, byName, "rows drawn in name order")
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: true, modifiers: .shift)
            h.click(at: Point(250, 14), build)
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: false)
            h.frame(build)
            XCTAssertEqual(m.order.map(\.id), ["Name", "Size"], "shift-click adds a secondary key")
            XCTAssertEqual(
                m.drawn, m.items.sorted(using: [KeyComparator(\Item.name), KeyComparator(\Item.size)]).map(\.id))
            h.click(at: Point(100, 14), build)
            h.frame(build)
            XCTAssertEqual(m.order.first?.order, .reverse, "clicking the primary key again reverses it")
        }
    }

    func testMouseSelectionAndKeyboardScrollsTheSelectionIntoView() throws {
        try onMain {
            let h = try Harness()
            let m = TableModel(makeItems(200))
            let build = Self.build(m)
            h.frame(build)
            h.click(at: Point(100, Self.rowY(2)), build)
            XCTAssertEqual(m.selection, [2])
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: true, modifiers: .shift)
            h.click(at: Point(100, Self.rowY(5)), build)
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: false)
            h.frame(build)
            XCTAssertEqual(m.selection, [2, 3, 4, 5], "shift-click selects a range")
            h.inject.key(Key(rawValue: 224 | (1 << 30)), down: true, modifiers: .control)
            h.click(at: Point(100, Self.rowY(8)), build)
            h.inject.key(Key(rawValue: 224 | (1 << 30)), down: false)
            h.frame(build)
            XCTAssertEqual(m.selection, [2, 3, 4, 5, 8], "ctrl-click adds")
            // The table has keyboard focus after the click: End selects the last row and scrolls to it.
            h.inject.tap(.end)
            h.frames(3, build)
            XCTAssertEqual(m.selection, [199])
            XCTAssertTrue(m.info!.visibleRows.contains(199), "scrolled into view: \(m.info!.visibleRows)")
            XCTAssertTrue(m.drawn.contains(199))
            h.inject.tap(.up, modifiers: .shift)
            h.frames(2, build)
            XCTAssertEqual(m.selection, [198, 199])
        }
    }

    func testContextMenuGetsEmptyOneOrTheWholeSelection() throws {
        try onMain {
            let h = try Harness()
            let m = TableModel(makeItems(5))
            let build = Self.build(m)
            h.frame(build)
            h.click(at: Point(100, 400), button: .right, build)
            h.frame(build)
            XCTAssertEqual(m.menuIDs.last, [], "empty area")
            h.inject.key(.escape, down: true)
            h.frames(2, build)
            h.click(at: Point(100, Self.rowY(1)), button: .right, build)
            h.frame(build)
            XCTAssertEqual(m.menuIDs.last, [1], "an unselected row: that row")
            XCTAssertEqual(m.selection, [1], "right-click selected it first")
            h.inject.key(.escape, down: true)
            h.frames(2, build)
            h.click(at: Point(100, Self.rowY(0)), build)
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: true, modifiers: .shift)
            h.click(at: Point(100, Self.rowY(2)), build)
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: false)
            h.click(at: Point(100, Self.rowY(1)), button: .right, build)
            h.frame(build)
            XCTAssertEqual(m.menuIDs.last, [0, 1, 2], "a row inside a multi-selection: all of it")
            XCTAssertGreaterThan(
                h.countPixels(
                    in: Rect(x: 110, y: Self.rowY(1) + 8, width: 80, height: 16),
                    differingFrom: h.ui.theme.popupBackground, tolerance: 8), 20, "menu drawn")
        }
    }

    func testDividerDragResizesAColumnAndTouchSelectsAndLongPressOpensTheMenu() throws {
        try onMain {
            let h = try Harness()
            let m = TableModel(makeItems(30))
            let build = Self.build(m)
            h.frames(2, build)
            XCTAssertEqual(m.probeX, 200 + 100 + 6, accuracy: 0.5)
            h.inject.mouseMove(to: Point(200, 14))
            h.frame(build)
            XCTAssertEqual(h.host.shownCursor, .resizeLeftRight)
            h.drag(from: Point(200, 14), to: Point(150, 14), build)
            h.frame(build)
            XCTAssertEqual(m.probeX, 150 + 100 + 6, accuracy: 1, "Name narrowed to 150")
            // A touch tap selects; a long press opens the menu for that row.
            h.inject.finger(1, .down, at: Point(100, Self.rowY(4)))
            h.frame(build)
            h.inject.finger(1, .up, at: Point(100, Self.rowY(4)))
            h.frames(2, build)
            XCTAssertEqual(m.selection, [4])
            h.inject.finger(2, .down, at: Point(100, Self.rowY(6)))
            h.frame(build)
            h.wait(0.6)
            h.frames(2, build)
            h.inject.finger(2, .up, at: Point(100, Self.rowY(6)))
            h.frames(2, build)
            XCTAssertEqual(m.menuIDs.last, [6])
        }
    }

    func testEditModeTapTogglesAndTwoFingersSelectTheRowsTheyPass() throws {
        try onMain {
            let h = try Harness()
            let m = TableModel(makeItems(30))
            let build = Self.build(m, editMode: true)
            h.frame(build)
            for row in [1, 3] {
                h.inject.finger(9, .down, at: Point(100, Self.rowY(row)))
                h.frame(build)
                h.inject.finger(9, .up, at: Point(100, Self.rowY(row)))
                h.frames(2, build)
            }
            XCTAssertEqual(m.selection, [1, 3], "taps toggle rows without a modifier")
            XCTAssertGreaterThan(
                h.countPixels(
                    in: Rect(x: 10, y: Self.rowY(1) - 6, width: 12, height: 12),
                    differingFrom: h.ui.theme.background), 60, "a checkmark is drawn")
            // Two fingers drag down from row 6 to row 10.
            h.inject.finger(1, .down, at: Point(150, Self.rowY(6)))
            h.inject.finger(2, .down, at: Point(250, Self.rowY(6)))
            h.frame(build)
            for row in 6...10 {
                h.inject.finger(1, .moved, at: Point(150, Self.rowY(row)))
                h.inject.finger(2, .moved, at: Point(250, Self.rowY(row)))
                h.frame(build)
            }
            h.inject.finger(1, .up, at: Point(150, Self.rowY(10)))
            h.inject.finger(2, .up, at: Point(250, Self.rowY(10)))
            h.frames(2, build)
            XCTAssertEqual(m.selection, [1, 3, 6, 7, 8, 9, 10])
            XCTAssertEqual(m.info?.scrollOffset, 0, "two fingers select rather than scroll")
            h.shot("editmode", build)
        }
    }

    func testSectionsPinTheirHeaderAndCompactWidthShowsOneColumn() throws {
        try onMain {
            let h = try Harness()
            let items = makeItems(60)
            let sections = [
                TableSection("First", rows: Array(items[0..<30])), TableSection("Second", rows: Array(items[30...])),
            ]
            var drawn: [Int] = []
            var probeCalls = 0
            let build: (UI) -> Void = { ui in
                drawn = []
                ui.table("sections", sections: sections) {
                    TableColumn("Name") { ui, item in drawn.append(item.id) }
                    TableColumn("Probe") { _, _ in probeCalls += 1 }
                }
            }
            h.frame(build)
            XCTAssertEqual(drawn.first, 0)
            // Scroll into the middle of the first section: its header is pinned at the top.
            h.ui.withID(h.ui.id("sections")) { h.ui.scrollTo("body", offset: Point(0, 24 * 10 + 5)) }
            h.frames(2, build)
            let headerBar = h.ui.theme.surface.mix(h.ui.theme.background, 0.5)
            XCTAssertEqual(h.pixels.pixel(x: 600, y: 30), headerBar, "pinned header over the body's top")
            // The second section's rows follow its own header slot.
            h.ui.withID(h.ui.id("sections")) { h.ui.scrollTo("body", offset: Point(0, 24 * 31)) }
            h.frames(2, build)
            XCTAssertTrue(drawn.contains(30) && drawn.contains(35))
            XCTAssertEqual(h.pixels.pixel(x: 600, y: 30), headerBar)

            let before = probeCalls
            h.host.window.setSize(width: 300, height: 480)
            h.frames(2, build)
            probeCalls = before
            h.frame(build)
            XCTAssertEqual(probeCalls, before, "compact width: only the first column")
            XCTAssertFalse(drawn.isEmpty)
            h.host.window.setSize(width: 640, height: 480)
            h.frames(2, build)
            XCTAssertGreaterThan(probeCalls, before, "widening restores every column")
        }
    }
}

/// Degenerate inputs must draw something sensible and never crash.
final class TableEdgeCaseTests: XCTestCase {
    func testEmptyTablesNoColumnsAndATinyWindow() throws {
        try onMain {
            let h = try Harness()
            var selection: Set<Int> = []
            let box = TableWidgetTests.TableModel([])
            let build: (UI) -> Void = { ui in
                ui.table("empty", rows: [Item](), selection: Binding(get: { selection }, set: { selection = $0 })) {
                    TableColumn("Name", value: \Item.name)
                }
            }
            h.frame(build)
            h.click(at: Point(100, 100), build)
            h.inject.tap(.down)
            h.inject.tap(Key("a"), modifiers: .control)
            h.frames(2, build)
            XCTAssertEqual(selection, [], "nothing to select")
            // No columns at all: the rows are still laid out, selectable and empty of ink.
            var info: TableInfo?
            let noColumns: (UI) -> Void = { ui in
                info = ui.table("nocolumns", rows: makeItems(5), selection: Binding(box, \.selection)) {}
            }
            h.frames(2, noColumns)
            XCTAssertEqual(info?.visibleRows, 0..<5)
            XCTAssertEqual(info?.bodyRect.width, 640)
            h.click(at: Point(300, try XCTUnwrap(info).bodyRect.y + 24 * 2 + 12), noColumns)
            XCTAssertEqual(box.selection, [2], "a row without cells is still a row")
            // A 1×1 window: at most the one row the single pixel shows is built, and the
            // selection survives.
            let many = makeItems(2000)
            let tiny: (UI) -> Void = { ui in
                info = ui.table("tiny", rows: many, selection: Binding(box, \.selection)) {
                    TableColumn("Name", value: \Item.name)
                    TableColumn("Size", value: \Item.size) { "\($0.size)" }
                }
            }
            h.host.window.setSize(width: 1, height: 1)
            h.frames(3, tiny)
            XCTAssertEqual(h.ui.size, Size(1, 1))
            XCTAssertLessThanOrEqual(info?.visibleRows.count ?? 99, 1)
            XCTAssertGreaterThanOrEqual(info?.bodyRect.height ?? -1, 0)
            XCTAssertEqual(box.selection, [2])
            // Back to full size: the body fills the window below the header again.
            h.host.window.setSize(width: 640, height: 480)
            h.frames(2, tiny)
            let body = try XCTUnwrap(info?.bodyRect)
            XCTAssertEqual(body.maxY, 480, accuracy: 1)
            XCTAssertEqual(info?.visibleRows.lowerBound, 0)
            XCTAssertEqual(Double(info?.visibleRows.count ?? 0), (body.height / 24).rounded(.up), accuracy: 1)
        }
    }
}
