import XCTest
import Foundation
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Type-ahead (logic: binary search in natural key space against a scan), and in the real
/// renderer: typing selects and reveals, double-click and Return run the primary action, and
/// a row scrolled to by its ID lands where the anchor says.
final class TableNavigationTests: XCTestCase {
    /// Names like file names: syllables, numbers with and without leading zeros, mixed case.
    private static func names(_ count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        let syllables = ["ka", "Lo", "mi", "ren", "SA", "tor", "img_", "file ", "x"]
        return (0..<count).map { _ in
            var name = ""
            for _ in 0..<(1 + Int(rng.next() % 3)) { name += syllables[Int(rng.next() % UInt64(syllables.count))] }
            if rng.next() % 2 == 0 { name += String(rng.next() % 2000) }
            if rng.next() % 5 == 0 { name += "0" + String(rng.next() % 20) }
            return name
        }
    }

    private static func naturallySorted(_ names: [String]) -> [String] {
        names.sorted { a, b in
            let c = NaturalOrder.compare(a, b)
            return c != 0 ? c < 0 : a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }

    func testBinarySearchFindsWhatAScanFindsInBothDirections() {
        let sorted = Self.naturallySorted(Self.names(5_000, seed: 3))
        let descending = Array(sorted.reversed())
        var rng = SplitMix64(seed: 9)
        var prefixes = [
            "ka", "KAlo", "img_1", "img_12", "img_0", "file 1", "x0", "x00", "tor", "zz", "i", "mi1", "Lo19",
        ]
        for _ in 0..<300 {  // prefixes of real names, cut anywhere
            let name = sorted[Int(rng.next() % UInt64(sorted.count))]
            prefixes.append(String(name.prefix(1 + Int(rng.next() % UInt64(name.count)))))
        }
        for prefix in prefixes {
            let folded = Array(prefix.utf8).map(NaturalOrder.fold)
            for rows in [sorted, descending] {
                let scan = rows.firstIndex { NaturalOrder.hasPrefix($0, folded: folded) }
                let search = TypeAhead.firstMatch(
                    prefix, count: rows.count, sortedText: { rows[$0] }, reverse: rows == descending,
                    after: nil, text: { rows[$0] })
                XCTAssertEqual(search, scan, "'\(prefix)' \(rows == descending ? "descending" : "ascending")")
            }
        }
    }

    func testAKeystrokeOverAMillionSortedRowsReadsAFewDozenRows() {
        let rows = (0..<1_000_000).map { "name \($0)" }  // already in natural order
        var reads = 0
        let found = TypeAhead.firstMatch(
            "name 76543", count: rows.count,
            sortedText: {
                reads += 1
                return rows[$0]
            }, reverse: false,
            after: nil, text: { rows[$0] })
        XCTAssertEqual(found, 76_543)
        XCTAssertLessThan(reads, 40 * 25, "a binary search per run length, not a scan")
        var typeAhead = TypeAhead()
        XCTAssertEqual(typeAhead.add("n", at: 10), "n")
        XCTAssertEqual(typeAhead.add("a", at: 10.5), "na")
        XCTAssertEqual(typeAhead.add("x", at: 12), "x", "a pause starts a new prefix")
    }

    final class Model {
        var rows: [Item]
        var selection: Set<Int> = []
        var order: [KeyComparator<Item>]
        var actions: [Set<Int>] = []
        let reads = Locked(0)
        var info: TableInfo?
        init(rows: [Item], order: [KeyComparator<Item>]) {
            self.rows = rows
            self.order = order
        }
    }

    @MainActor
    private static func build(_ m: Model) -> (UI) -> Void {
        { ui in
            let sorted = m.rows.sorted(using: m.order)
            let reads = m.reads
            m.info = ui.table(
                "files", rows: sorted, selection: Binding(m, \.selection), sortOrder: Binding(m, \.order),
                primaryAction: { m.actions.append(Set($0)) }
            ) {
                TableColumn(
                    "Name",
                    sortUsing: .string { (item: Item) in
                        reads.withLock { $0 += 1 }
                        return item.name
                    }
                ) { ui, item in ui.text(item.name) }
                TableColumn("Size", value: \Item.size) { "\($0.size)" }
            }
        }
    }

    func testTypingSelectsAndRevealsTheFirstMatchingRow() throws {
        try onMain {
            let h = try Harness()
            let names = Self.naturallySorted(Self.names(10_000, seed: 5))
            let items = names.enumerated().map { Item(id: $0.offset, name: $0.element, size: $0.offset, score: 0) }
            let m = Model(
                rows: items.shuffled(), order: [KeyComparator(id: "Name", key: .string { (item: Item) in item.name })])
            let build = Self.build(m)
            h.frame(build)
            h.click(at: Point(100, 28 + 12), build)  // focus the table (selects the first row)
            let shown = m.rows.sorted(using: m.order)  // as the table shows them (equal names in a stable order)
            let targetRow = try XCTUnwrap(shown.firstIndex { $0.name.lowercased().hasPrefix("tor") })
            let target = shown[targetRow].id
            m.reads.withLock { $0 = 0 }
            for c in "tor" { h.inject.key(Key(c)) }
            h.frame(build)
            XCTAssertEqual(m.selection, [target], "the first row starting with 'tor'")
            XCTAssertLessThan(
                m.reads.withLock { $0 }, 10_000 + 200, "one sort's worth of key reads, plus a binary search")
            h.frame(build)
            XCTAssertTrue(m.info?.visibleRows.contains(targetRow) ?? false, "scrolled into view")
            // Not sorted by the name: the rows after the selected one are scanned.
            m.order = [KeyComparator(\Item.size, id: "Size", order: .reverse)]
            h.frame(build)
            h.wait(2)
            for c in "ka" { h.inject.key(Key(c)) }
            h.frame(build)
            let bySize = m.rows.sorted(using: m.order)
            let selectedAt = bySize.firstIndex { $0.id == target }!
            let next = (1...bySize.count).map { (selectedAt + $0) % bySize.count }.first {
                bySize[$0].name.lowercased().hasPrefix("ka")
            }!
            XCTAssertEqual(m.selection, [bySize[next].id])
        }
    }

    func testDoubleClickAndReturnRunThePrimaryActionAndARowScrolledToByIDLandsAtItsAnchor() throws {
        try onMain {
            let h = try Harness()
            let m = Model(rows: makeItems(5_000), order: [])
            let build = Self.build(m)
            h.frame(build)
            let row3 = Point(100, 28 + 24 * 3 + 12)
            h.inject.mouseMove(to: row3)
            h.frame(build)
            for _ in 0..<2 {
                h.inject.mouseButton(.left, down: true, at: row3, clicks: 1)
                h.frame(build)
                h.inject.mouseButton(.left, down: false, at: row3, clicks: 1)
                h.frame(build)
            }
            XCTAssertEqual(m.actions, [[3]], "a double-click opens the row")
            h.inject.key(.returnKey)
            h.frame(build)
            XCTAssertEqual(m.actions.last, [3], "Return opens the selection")
            XCTAssertEqual(m.actions.count, 2)

            h.ui.scrollTable("files", toRow: 2_500, anchor: .center)
            h.frames(2, build)
            let info = try XCTUnwrap(m.info)
            let middle = Double(info.visibleRows.lowerBound + info.visibleRows.upperBound) / 2
            XCTAssertEqual(middle, 2_500, accuracy: 2, "row 2,500 at the centre")
            h.ui.scrollTable("files", toRow: 4_999, anchor: .top)
            h.frames(2, build)
            XCTAssertEqual(m.info?.visibleRows.last, 4_999, "the last row: as far as the table scrolls")
            h.ui.scrollTable("files", toRow: 10, anchor: nil)
            h.frames(2, build)
            XCTAssertEqual(
                m.info?.visibleRows.first, 9, "from below, just into view: at the top (with one row of overscan)")
        }
    }

    /// Rows a sort shows through a permutation (`SortedView`) are looked up in the order they
    /// are stored; the row still lands where it is shown.
    func testARowShownThroughASortsPermutationIsScrolledToWhereItIsShown() throws {
        try onMain {
            let h = try Harness()
            let items = makeItems(5_000)
            let order = [
                KeyComparator(\Item.size, id: "Size"),
                KeyComparator(id: "Name", key: .string { (item: Item) in item.name }),
            ]
            let shown = SortedView(base: items, permutation: try IndexSorter.sortedIndices(items, by: order))
            var info: TableInfo?
            let build: (UI) -> Void = { ui in
                info = ui.table("files", rows: shown) { TableColumn("Name", value: \Item.name) }
            }
            h.frame(build)
            let target = shown[3_210].id
            XCTAssertNotEqual(items.firstIndex { $0.id == target }, 3_210, "stored elsewhere than shown")
            h.ui.scrollTable("files", toRow: target, anchor: .center)
            h.frames(2, build)
            let visible = try XCTUnwrap(info).visibleRows
            XCTAssertEqual(
                Double(visible.lowerBound + visible.upperBound) / 2, 3_210, accuracy: 2, "shown row 3,210 at the centre"
            )
        }
    }
}
