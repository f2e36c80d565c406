import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// A million rows made on demand, counting how many are read: the measure of what a
/// selection operation costs, without timing anything.
struct CountedRows: RandomAccessCollection, Sendable {
    final class Reads: @unchecked Sendable { var count = 0 }
    let endIndex: Int
    let reads = Reads()
    /// Row i's ID is `ids(i)`: identity, or a permutation for a "re-sorted" copy.
    var ids: @Sendable (Int) -> Int = { $0 }
    var startIndex: Int { 0 }
    subscript(i: Int) -> Item {
        reads.count += 1
        let id = ids(i)
        return Item(id: id, name: "row \(id)", size: id, score: 0)
    }
}

/// `RowSelection`'s logic: membership, counts and the cost of each operation in rows read.
final class RowSelectionLogicTests: XCTestCase {
    func testSelectAllShiftRangesAndInversionReadNoRowsAtAMillion() {
        let rows = CountedRows(endIndex: 1_000_000)
        let order = RowOrder(rows)
        var s = SelectionModel<Int>()
        s.click(index: 10, modifiers: [], mode: .multiple, rows: order)
        s.click(index: 900_000, modifiers: .shift, mode: .multiple, rows: order)
        XCTAssertEqual(s.selected.count, 899_991, "a shift-range of 899,991 rows")
        XCTAssertTrue(s.selected.contains(row: 500_000, id: 500_000))
        XCTAssertFalse(s.selected.contains(row: 9, id: 9))
        s.selected.invert()
        XCTAssertEqual(s.selected.count, 100_009, "its inversion")
        XCTAssertTrue(s.selected.contains(row: 9, id: 9))
        _ = s.key(Key("a"), modifiers: .command, mode: .multiple, pageSize: 20, rows: order)
        XCTAssertEqual(s.selected.count, 1_000_000, "select-all")
        s.click(index: 5, modifiers: .command, mode: .multiple, rows: order)
        s.click(index: 7, modifiers: .command, mode: .multiple, rows: order)
        XCTAssertEqual(s.selected.count, 999_998, "all except two ctrl-clicked rows")
        XCTAssertFalse(s.selected.contains(row: 7, id: 7))
        s.click(index: 3, modifiers: [.command, .shift], mode: .multiple, rows: order)
        XCTAssertEqual(
            s.selected.count, 1_000_000, "ctrl-shift-click adds the range from the anchor (7) to 3: both back")
        XCTAssertTrue(s.selected.contains(row: 5, id: 5))
        XCTAssertTrue(s.selected.contains(row: 7, id: 7))
        XCTAssertLessThan(rows.reads.count, 200, "every operation read a handful of rows, not a million")
        XCTAssertLessThanOrEqual(s.selected.ranges.count, 2)
    }

    func testRangesFollowTheirRowsThroughANewOrderAndReadThemOnce() {
        let ascending = CountedRows(endIndex: 1000)
        var s = SelectionModel<Int>()
        s.click(index: 10, modifiers: [], mode: .multiple, rows: RowOrder(ascending))
        s.click(index: 19, modifiers: .shift, mode: .multiple, rows: RowOrder(ascending))
        s.click(index: 500, modifiers: .command, mode: .multiple, rows: RowOrder(ascending))
        var descending = CountedRows(endIndex: 1000)
        descending.ids = { 999 - $0 }
        let reversed = RowOrder(descending)
        s.selected.follow(reversed)
        XCTAssertEqual(Set(s.selected), Set(10...19).union([500]), "the same IDs after the re-sort")
        XCTAssertTrue(s.selected.contains(row: 999 - 15, id: 15), "found at their new rows")
        XCTAssertFalse(s.selected.contains(row: 15, id: 984))
        let reads = descending.reads.count
        s.selected.follow(reversed)
        s.selected.follow(RowOrder(descending))
        XCTAssertLessThan(
            descending.reads.count - reads, 40, "the same order again is not read again (only its token samples)")
        XCTAssertEqual(s.selected.count, 11)
    }

    func testEqualityCountsIterationAndSetInterop() {
        var a = RowSelection<Int>([3, 1, 2])
        XCTAssertEqual(a, [1, 2, 3])
        XCTAssertEqual(a.count, 3)
        XCTAssertEqual(Set(a), [1, 2, 3])
        a.insert(2)
        XCTAssertEqual(a.count, 3, "inserting a selected ID changes nothing")
        let rows = makeItems(50)
        a.selectAll(of: rows)
        XCTAssertEqual(a.count, 50)
        XCTAssertEqual(Set(a), Set(rows.map(\.id)))
        XCTAssertTrue(a.contains(49))
        a.invert()
        XCTAssertTrue(a.isEmpty)
        XCTAssertNil(a.first)
        a.removeAll()
        XCTAssertEqual(a, [])
        var ranged = SelectionModel<Int>()
        ranged.click(index: 0, modifiers: [], mode: .multiple, rows: RowOrder(rows))
        ranged.click(index: 3, modifiers: .shift, mode: .multiple, rows: RowOrder(rows))
        XCTAssertEqual(
            ranged.selected, RowSelection(rows.prefix(4).map(\.id)), "a range equals the same rows given as IDs")
        XCTAssertNotEqual(ranged.selected, RowSelection(rows.prefix(3).map(\.id)))
    }
}

/// Selection at scale in the real renderer: a million rows, selected all and by range, with
/// the context menu reporting the count, all reading only the rows on screen.
final class RowSelectionWidgetTests: XCTestCase {
    final class Model {
        var rows = CountedRows(endIndex: 1_000_000)
        var selection = RowSelection<Int>()
        var menuCounts: [Int] = []
        var info: TableInfo?
    }

    @MainActor
    private static func build(_ m: Model) -> (UI) -> Void {
        { ui in
            m.info = ui.table(
                "t", rows: m.rows, selection: Binding(m, \.selection),
                contextMenu: { ids in
                    m.menuCounts.append(ids.count)
                    ui.menuItem("Delete \(ids.count)")
                }
            ) {
                TableColumn("Name", value: \Item.name)
            }
        }
    }

    private static func rowY(_ i: Int) -> Double { 28 + 24 * Double(i) + 12 }

    func testSelectAllAShiftRangeAndTheContextMenuCostOnlyTheVisibleRows() throws {
        try onMain {
            let h = try Harness()
            let m = Model()
            let build = Self.build(m)
            h.frame(build)
            h.click(at: Point(100, Self.rowY(2)), build)
            XCTAssertEqual(m.selection, [2])
            let before = m.rows.reads.count
            h.inject.tap(Key("a"), modifiers: .control)
            h.frames(2, build)
            XCTAssertEqual(m.selection.count, 1_000_000, "ctrl-A selected every row")
            h.click(at: Point(100, Self.rowY(4)), button: .right, build)
            h.frame(build)
            XCTAssertEqual(m.menuCounts.last, 1_000_000, "the menu counts the whole selection")
            let menuText = Rect(x: 110, y: Self.rowY(4) + 8, width: 120, height: 16)
            XCTAssertGreaterThan(
                h.countPixels(in: menuText, differingFrom: h.ui.theme.popupBackground, tolerance: 8), 20, "menu drawn")
            h.inject.key(.escape, down: true)
            h.frames(2, build)
            // Selected rows are drawn in the selection colour: every visible one.
            let rowBand = Rect(x: 300, y: Self.rowY(6) - 4, width: 20, height: 8)
            XCTAssertGreaterThan(
                h.countPixels(in: rowBand, where: { $0 == h.ui.theme.accent || $0 == h.ui.theme.controlPressed }), 100)
            // A click, then shift+End: the range from row 1 to the last of a million, scrolled there.
            h.click(at: Point(100, Self.rowY(1)), build)
            h.inject.tap(.end, modifiers: .shift)
            h.frames(3, build)
            XCTAssertTrue(m.info!.visibleRows.contains(999_999), "scrolled to the end: \(m.info!.visibleRows)")
            XCTAssertEqual(m.selection.count, 999_999, "a range from row 1 to the end")
            XCTAssertFalse(m.selection.contains(row: 0, id: 0))
            let reads = m.rows.reads.count - before
            XCTAssertLessThan(
                reads, 5_000, "\(reads) rows read over ten frames of a million-row selection: only what was drawn")
            XCTAssertFalse(m.selection.contains(0), "by ID alone: the rows' index is built once for this")
            XCTAssertTrue(m.selection.contains(999_999))
        }
    }
}
