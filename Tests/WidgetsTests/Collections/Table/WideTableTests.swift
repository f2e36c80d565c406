import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Tables wider than their window, in the real renderer: columns shrink to their minimum and
/// then scroll sideways by shift+wheel, a horizontal wheel, the scrollbar and a finger; the
/// header moves with the body; a frozen column stays; only the columns in view are built;
/// headers drag to reorder and their menu hides columns. Harness: 640×480, header 28 pt.
final class WideTableTests: XCTestCase {
    final class Model {
        var columns: Int
        var built: [String: Int] = [:]
        var info: TableInfo?
        var customization = TableColumnCustomization<Item>()
        var order: [KeyComparator<Item>] = []
        init(columns: Int) { self.columns = columns }
    }

    @MainActor
    private static func build(_ m: Model, rows: [Item], frozen: Int = 1) -> (UI) -> Void {
        { ui in
            m.built = [:]
            m.info = ui.table(
                "wide", rows: rows, sortOrder: Binding(m, \.order), frozenColumns: frozen,
                columnCustomization: Binding(m, \.customization)
            ) {
                TableColumn("Name", value: \Item.name).width(min: 100, ideal: 120)
                for c in 1..<m.columns {
                    TableColumn("C\(c)", id: "C\(c)") { ui, item in
                        m.built["C\(c)", default: 0] += 1
                        ui.text("c\(c)r\(item.id)")
                    }.width(min: 100, ideal: 140).customizationID("C\(c)")
                }
            }
        }
    }

    private static let shiftKey = Key(rawValue: 225 | (1 << 30))

    func testShiftWheelScrollsBodyAndHeaderTogetherAndTheFrozenColumnStays() throws {
        try onMain {
            let h = try Harness()
            h.host.readsBackFrames = true
            let m = Model(columns: 12)
            let build = Self.build(m, rows: makeItems(40))
            h.frames(2, build)
            let info = try XCTUnwrap(m.info)
            XCTAssertEqual(info.horizontalOffset, 0)
            XCTAssertEqual(
                info.visibleColumns, ["Name", "C1", "C2", "C3", "C4", "C5", "C6"],
                "12 columns at their 100 pt minimum in 640: 6 in view and C6's first 40 pt")
            XCTAssertNil(m.built["C7"], "columns out of view are not built")
            h.inject.mouseMove(to: Point(320, 200))
            h.frame(build)
            // Where C2's title and first cell text start, from the column's left edge (200).
            let c2 = Rect(x: 200, y: 3, width: 100, height: 22)  // the title's band, above the header's bottom line
            let titleInset = try XCTUnwrap(h.inkBounds(in: c2, differingFrom: h.ui.theme.surface)).minX - 200
            let cellInset =
                try XCTUnwrap(h.inkBounds(in: c2.offsetBy(dx: 0, dy: 28), differingFrom: h.ui.theme.background)).minX
                - 200
            let frozenBefore = h.pixels.region(Rect(x: 0, y: 0, width: 100, height: 200))
            h.inject.key(Self.shiftKey, down: true, modifiers: .shift)
            h.inject.wheel(dy: -10)
            h.frames(2, build)
            h.inject.key(Self.shiftKey, down: false)
            h.frame(build)
            let scrolled = try XCTUnwrap(m.info)
            XCTAssertGreaterThan(scrolled.horizontalOffset, 0, "shift+wheel scrolls sideways")
            XCTAssertEqual(scrolled.scrollOffset, 0, "and not down")
            XCTAssertEqual(scrolled.visibleColumns.first, "Name", "the frozen column stays")
            XCTAssertNotEqual(Array(scrolled.visibleColumns.dropFirst()), ["C1", "C2", "C3", "C4", "C5"])
            XCTAssertNotNil(
                h.inkBounds(in: Rect(x: 0, y: 30, width: 100, height: 20), differingFrom: h.ui.theme.background),
                "the frozen column's first cell is drawn")
            XCTAssertTrue(
                h.pixels.region(Rect(x: 0, y: 0, width: 100, height: 200)) == frozenBefore,
                "the frozen column's header and cells are the same pixels: nothing scrolled over them")
            // Header and body moved together: a scrolled column's title and first cell keep their insets.
            let second = try XCTUnwrap(scrolled.visibleColumns.dropFirst().dropFirst().first)
            let left = 100 + Double(Int(second.dropFirst())! - 1) * 100 - scrolled.horizontalOffset
            let cell = Rect(x: left, y: 3, width: 100, height: 22)
            let titleInk = try XCTUnwrap(h.inkBounds(in: cell, differingFrom: h.ui.theme.surface))
            let cellInk = try XCTUnwrap(
                h.inkBounds(in: cell.offsetBy(dx: 0, dy: 28), differingFrom: h.ui.theme.background))
            XCTAssertEqual(titleInk.minX - left, titleInset, accuracy: 1, "\(second)'s title moved with the offset")
            XCTAssertEqual(cellInk.minX - left, cellInset, accuracy: 1, "\(second)'s cells moved with the offset")
        }
    }

    func testAHorizontalWheelTheScrollbarAndAFingerScrollSideways() throws {
        try onMain {
            let h = try Harness()
            let m = Model(columns: 12)
            let build = Self.build(m, rows: makeItems(40))
            h.frames(2, build)
            h.inject.mouseMove(to: Point(320, 200))
            h.inject.wheel(dx: 4, dy: 0)  // a trackpad's sideways swipe
            h.frames(2, build)
            let afterWheel = try XCTUnwrap(m.info?.horizontalOffset)
            XCTAssertGreaterThan(afterWheel, 0)

            // The horizontal scrollbar along the body's bottom: drag its thumb to the right end.
            let barY = 480 - h.ui.theme.scrollbarWidth / 2
            let thumbX = 100 * afterWheel / (1200 - 640) + 5  // near the thumb's left end
            h.drag(from: Point(thumbX + 4, barY), to: Point(639, barY), build)
            h.frame(build)
            let content = 100.0 + 11 * 100
            XCTAssertEqual(m.info?.horizontalOffset ?? 0, content - 640, accuracy: 1, "dragged to the end")
            XCTAssertEqual(m.info?.visibleColumns.last, "C11")

            // A finger dragging right brings the first columns back.
            let before = try XCTUnwrap(m.info?.horizontalOffset)
            h.inject.finger(1, .down, at: Point(300, 200))
            h.frame(build)
            for step in 1...6 {
                h.inject.finger(1, .moved, at: Point(300 + Double(step) * 40, 202), delta: Point(40, 0))
                h.frame(build)
            }
            h.inject.finger(1, .up, at: Point(540, 202))
            h.frame(build)
            XCTAssertLessThan(
                m.info?.horizontalOffset ?? .infinity, before - 150, "panned back by about the finger's 240 pt")
            XCTAssertEqual(m.info?.scrollOffset, 0, "a sideways pan does not scroll down")
        }
    }

    func testAThousandColumnsCostOnlyTheCellsInView() throws {
        try onMain {
            let h = try Harness()
            let m = Model(columns: 1000)
            let build = Self.build(m, rows: makeItems(10_000))
            h.frames(2, build)
            let info = try XCTUnwrap(m.info)
            XCTAssertEqual(info.visibleColumns.count, 7)
            XCTAssertEqual(
                m.built.values.reduce(0, +), 6 * info.visibleRows.count,
                "cells built: 6 scrolled columns × the rows in view")
            h.ui.withID("wide") { h.ui.scrollTo("body", offset: Point(1e9, 1e9)) }
            h.frames(2, build)
            XCTAssertEqual(m.info?.visibleColumns.last, "C999")
            XCTAssertEqual(m.info?.visibleRows.last, 9_999)
            XCTAssertEqual(m.built.values.reduce(0, +), (m.info!.visibleColumns.count - 1) * m.info!.visibleRows.count)
        }
    }

    func testDraggingAHeaderMovesItsColumnAndTheHeaderMenuHidesOne() throws {
        try onMain {
            let h = try Harness()
            let m = Model(columns: 4)
            let build = Self.build(m, rows: makeItems(10), frozen: 0)
            h.frames(2, build)
            // 4 columns share 640: Name 120 + (640 - 120 - 3 × 140) / … → read the layout from the table.
            let widths = TableColumnLayout.widths(
                m.customization.arrange(Self.columns(4)), userWidths: [:], available: 640)
            let c3 = widths[0] + widths[1] + widths[2] + widths[3] / 2
            let c1 = widths[0] + 10
            h.drag(from: Point(c3, 14), to: Point(c1, 14), build)
            h.frame(build)
            XCTAssertEqual(m.info?.visibleColumns, ["Name", "C3", "C1", "C2"], "C3 dropped before C1")
            XCTAssertEqual(m.order.count, 0, "a drag does not sort")
            // The header's context menu: the customizable columns, checked; unchecking hides one.
            h.click(at: Point(c1, 14), button: .right, build)
            h.frame(build)
            XCTAssertTrue(h.ui.withID("wide") { h.ui.isPopupOpen("columns") })
            let rowH = h.ui.theme.rowHeight
            h.click(at: Point(c1 + 30, 14 + 5 + rowH * 1.5), build)  // the second item: C2 (declared order C1, C2, C3)
            h.frame(build)
            XCTAssertEqual(m.customization[visibility: "C2"], .hidden)
            XCTAssertEqual(m.info?.visibleColumns, ["Name", "C3", "C1"])
        }
    }

    func testScrollingToACellBringsItsRowAndItsColumnIntoViewPastTheFrozenOne() throws {
        try onMain {
            let h = try Harness()
            let m = Model(columns: 12)
            let rows = makeItems(400)
            let build = Self.build(m, rows: rows)
            h.frames(2, build)
            h.ui.scrollTable("wide", toRow: rows[300].id, column: "C9", anchor: .center)
            h.frames(2, build)
            let info = try XCTUnwrap(m.info)
            XCTAssertTrue(info.visibleRows.contains(300), "the row: \(info.visibleRows)")
            XCTAssertTrue(info.visibleColumns.contains("C9"))
            // C9 spans 900...1000 from the table's left: whole, its right edge at the window's.
            XCTAssertEqual(info.horizontalOffset, 1000 - 640, accuracy: 0.5)
            let cell = try XCTUnwrap(h.rect(ofText: "c9r\(rows[300].id)"))
            XCTAssertTrue(cell.minX >= 100 && cell.maxX <= 640, "on screen, past the frozen Name column: \(cell)")
            // Back to C2, scrolled away to the left: its left edge at the frozen column's right.
            h.ui.scrollTable("wide", toRow: rows[300].id, column: "C2")
            h.frames(2, build)
            XCTAssertEqual(try XCTUnwrap(m.info).horizontalOffset, 200 - 100, accuracy: 0.5)
            // A column in view does not move it; a frozen one neither; an unknown one is ignored.
            for column in ["C3", "Name", "nothing"] {
                h.ui.scrollTable("wide", toRow: rows[300].id, column: column)
                h.frames(2, build)
                XCTAssertEqual(try XCTUnwrap(m.info).horizontalOffset, 100, accuracy: 0.5, column)
            }
        }
    }

    func testTheOffsetShowingAColumnMovesNoMoreThanNeeded() {
        let strip = ColumnStrip(widths: [100, 100, 300, 100], leading: 0, frozen: 1)
        XCTAssertEqual(strip.offset(showing: 3, current: 0, width: 300), 300, "its right edge at the viewport's")
        XCTAssertEqual(strip.offset(showing: 1, current: 300, width: 300), 0, "its left edge at the frozen edge")
        XCTAssertEqual(
            strip.offset(showing: 2, current: 0, width: 300), 100, "wider than the viewport: its leading edge shown")
        XCTAssertEqual(strip.offset(showing: 0, current: 150, width: 300), 150, "frozen: always in view")
        XCTAssertEqual(strip.offset(showing: 9, current: 150, width: 300), 150, "no such column")
    }

    private static func columns(_ count: Int) -> [TableColumn<Item>] {
        [TableColumn("Name", value: \Item.name).width(min: 100, ideal: 120)]
            + (1..<count).map { c in
                TableColumn("C\(c)", id: "C\(c)", text: { _ in "" }).width(min: 100, ideal: 140).customizationID(
                    "C\(c)")
            }
    }
}
