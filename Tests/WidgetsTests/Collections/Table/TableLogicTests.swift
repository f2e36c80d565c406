import XCTest
import Foundation
import TesseraTesting
@testable import Widgets
import Render2D
import Imaging
import Profiling
import DemoSupport

struct Item: Identifiable, Sendable, Equatable {
    let id: Int
    let name: String
    let size: Int
    let score: Double
}

/// Deterministic rows with many duplicate keys (so stability matters).
func makeItems(_ count: Int, seed: UInt64 = 7) -> [Item] {
    var state = seed
    func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }
    let names = ["alpha", "Beta", "beta", "Gamma", "delta", "Alpha", "epsilon"]
    return (0..<count).map { i in
        Item(
            id: i, name: names[Int(next() % UInt64(names.count))], size: Int(next() % 5) - 2,
            score: Double(Int(next() % 7)) / 2 - 1)
    }
}

final class SortingTests: XCTestCase {
    /// The reference: a plain stable sort with the same rules, written independently.
    private func reference(_ items: [Item], _ keys: [(String, SortDirection)]) -> [Int] {
        func cmpName(_ a: String, _ b: String) -> Int {
            let x = a.lowercased(), y = b.lowercased()
            if x != y { return x < y ? -1 : 1 }
            return a == b ? 0 : (Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) ? -1 : 1)
        }
        return items.enumerated().sorted { l, r in
            for (key, order) in keys {
                var c: Int
                switch key {
                case "name": c = cmpName(l.element.name, r.element.name)
                case "size": c = l.element.size < r.element.size ? -1 : (l.element.size > r.element.size ? 1 : 0)
                default: c = l.element.score < r.element.score ? -1 : (l.element.score > r.element.score ? 1 : 0)
                }
                if order == .reverse { c = -c }
                if c != 0 { return c < 0 }
            }
            return l.offset < r.offset
        }.map { $0.element.id }
    }

    private func descriptor(_ key: String, _ order: SortDirection) -> KeyComparator<Item> {
        switch key {
        case "name": return KeyComparator(\Item.name, id: "name", order: order)
        case "size": return KeyComparator(\Item.size, id: "size", order: order)
        default: return KeyComparator(\Item.score, id: "score", order: order)
        }
    }

    func testMultiKeySortsMatchAStableReference() throws {
        let items = makeItems(3000)
        let cases: [[(String, SortDirection)]] = [
            [("name", .forward)], [("name", .reverse)], [("size", .forward)], [("score", .reverse)],
            [("name", .forward), ("size", .reverse)], [("size", .forward), ("name", .forward), ("score", .reverse)],
            [("score", .forward), ("size", .forward)],
        ]
        for keys in cases {
            let got = try IndexSorter.sortedIndices(items, by: keys.map { descriptor($0.0, $0.1) }).map {
                items[Int($0)].id
            }
            XCTAssertEqual(got, reference(items, keys), "keys \(keys)")
        }
        // Ranking strings on several threads (each finds its part's distinct names, first seen
        // in a different order) gives the same order, with 500 names (no digits: the reference
        // does not order numbers by value) as with 7; and sizes that grow with the row, so that
        // each thread finds another range of them, pack as they do on one.
        var state: UInt64 = 11
        let named = items.map { item in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let k = Int(state >> 33 % 500),
                letters = [k % 26, k / 26].map { String(UnicodeScalar(UInt8(65 + $0 % 26))) }
            return Item(
                id: item.id, name: "File \(letters[0])\(letters[1].lowercased()) é", size: item.id / 7 - 200,
                score: item.score)
        }
        for (rows, keys) in [
            (items, [("name", SortDirection.forward)]), (named, [("name", .reverse), ("size", .forward)]),
        ] {
            for threads in [1, 2, 3, 7] {
                let got = try IndexSorter.sortedIndices(rows, by: keys.map { descriptor($0.0, $0.1) }, threads: threads)
                    .map { rows[Int($0)].id }
                XCTAssertEqual(got, reference(rows, keys), "keys \(keys) on \(threads) threads")
            }
        }
        // A custom comparator key (not Comparable-flattened) agrees too.
        let custom = KeyComparator<Item>(id: "len", key: .custom { a, b in a.name.count - b.name.count })
        let byLength = items.sorted(using: [custom]).map(\.name.count)
        XCTAssertEqual(byLength, byLength.sorted())
    }

    /// Rows in an array's storage are read in place, other collections through their
    /// subscript: both give the same order, from a slice's first row too, with flat and custom keys.
    func testRowsReadInPlaceOrThroughTheirCollectionSortAlike() throws {
        /// A collection with no contiguous storage: row `i` is made when read.
        struct Computed: RandomAccessCollection {
            let items: [Item]
            var startIndex: Int { 0 }
            var endIndex: Int { items.count }
            subscript(i: Int) -> Item {
                Item(id: items[i].id, name: items[i].name, size: items[i].size, score: items[i].score)
            }
        }
        let items = makeItems(3000)
        let slice = items[700...]
        let byLength = KeyComparator<Item>(id: "length", key: .custom { a, b in a.name.utf8.count - b.name.utf8.count })
        let orders: [[KeyComparator<Item>]] = [
            [descriptor("name", .forward), descriptor("size", .reverse)],
            [descriptor("score", .forward), byLength, descriptor("name", .reverse)],
        ]
        XCTAssertNil(
            Computed(items: items).withContiguousStorageIfAvailable { _ in true },
            "the collection under test is read by subscript")
        // A custom key may answer with any magnitude, Int.min included, in either direction.
        let extreme = KeyComparator<Item>(
            id: "extreme", order: .reverse,
            key: .custom { a, b in a.size < b.size ? .min : (a.size > b.size ? .max : 0) })
        let bySize = try IndexSorter.sortedIndices(items, by: [extreme]).map { items[Int($0)].size }
        XCTAssertEqual(bySize, bySize.sorted(by: >))
        for order in orders {
            let stored = try IndexSorter.sortedIndices(items, by: order)
            XCTAssertTrue(
                try IndexSorter.sortedIndices(Computed(items: items), by: order) == stored,
                "by subscript, \(order.map(\.id))")
            let fromSlice = try IndexSorter.sortedIndices(slice, by: order)
            XCTAssertTrue(
                try IndexSorter.sortedIndices(Array(slice), by: order) == fromSlice, "a slice, \(order.map(\.id))")
        }
        let keys: [(String, SortDirection)] = [("name", .forward), ("size", .reverse)]
        let shown = try IndexSorter.sortedIndices(slice, by: keys.map { descriptor($0.0, $0.1) }).map {
            slice[slice.startIndex + Int($0)].id
        }
        XCTAssertTrue(shown == reference(Array(slice), keys), "a slice's rows are read from its first")
    }

    /// A key path to a stored property is read from the row's bytes in a sort of stored rows
    /// (no copy of the row); it sorts as the same key read through a closure does.
    func testStoredPropertiesReadInPlaceSortAsTheirClosuresDo() throws {
        struct Row: Sendable {
            let flag: UInt8, name: String, small: Int32, score: Double, rank: UInt8
            var doubled: Int { Int(small) * 2 }
        }
        var rng = SplitMix64(seed: 5)
        let rows = (0..<5000).map { _ in
            Row(
                flag: UInt8(rng.next() % 2), name: ["b", "a10", "a9", "C", "é"][Int(rng.next() % 5)],
                small: Int32(truncatingIfNeeded: rng.next() % 200) - 100,
                score: Double(rng.next() % 50) / 4 - 3, rank: UInt8(rng.next() % 6))
        }
        let inPlace = [
            KeyComparator(\Row.name, id: "name"), KeyComparator(\Row.small, id: "small", order: .reverse),
            KeyComparator(\Row.score, id: "score"), KeyComparator(\Row.rank, id: "rank"),
        ]
        let byClosure = [
            KeyComparator<Row>(id: "name", key: .string { $0.name }),
            KeyComparator(id: "small", order: .reverse, key: .integer { Int64($0.small) }),
            KeyComparator(id: "score", key: .double { $0.score }),
            KeyComparator(id: "rank", key: .integer { Int64($0.rank) }),
        ]
        XCTAssertTrue(inPlace.allSatisfy { $0.keyInPlace != nil })
        XCTAssertTrue(byClosure.allSatisfy { $0.keyInPlace == nil })
        XCTAssertNil(
            KeyComparator(\Row.doubled, id: "doubled").keyInPlace, "a computed property is read through its key path")
        XCTAssertNotNil(TableColumn("Small", value: \Row.small, text: { "\($0.small)" }).sortDescriptor?.keyInPlace)
        for keys in [[0], [1], [2], [3], [3, 1], [2, 0, 1], [0, 3, 2]] {
            let read = try IndexSorter.sortedIndices(rows, by: keys.map { inPlace[$0] })
            XCTAssertTrue(
                read == (try IndexSorter.sortedIndices(rows, by: keys.map { byClosure[$0] })),
                "keys \(keys.map { inPlace[$0].id })")
        }
    }

    /// Keys of every width (a constant, 3 bits, 40, the full 64, doubles with NaN and ±0),
    /// packed one, two and three words to a row, with and without a custom key among them.
    func testKeysPackedAcrossWordsOrderAsTheirValuesDo() throws {
        struct Wide: Sendable { let full: Int64, forty: Int64, tiny: String, real: Double, constant: Int64 }
        var rng = SplitMix64(seed: 11)
        let reals: [Double] = [
            .nan, .infinity, -.infinity, 0, -0.0, 1.5, -2.25, .greatestFiniteMagnitude, -.leastNonzeroMagnitude,
        ]
        let extremes: [Int64] = [.min, .max, 0, -1]
        let rows = (0..<4000).map { _ in
            Wide(
                full: extremes[Int(rng.next() % 4)] &+ Int64(bitPattern: rng.next() % 3 == 0 ? rng.next() : 0),
                forty: Int64(rng.next() % 7 == 0 ? (1 << 40) - 1 : rng.next() % (1 << 40)),
                tiny: ["b", "a", "c", "A", "d"][Int(rng.next() % 5)],
                real: reals[Int(rng.next() % UInt64(reals.count))], constant: 7)
        }
        @Sendable func compare(_ a: Wide, _ b: Wide, _ key: String) -> Int {
            func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (y < x ? 1 : 0) }
            switch key {
            case "full": return order(a.full, b.full)
            case "forty": return order(a.forty, b.forty)
            case "tiny":  // case-insensitive, then by bytes
                let x = a.tiny.lowercased(), y = b.tiny.lowercased()
                if x != y { return order(x, y) }
                return a.tiny == b.tiny
                    ? 0 : (Array(a.tiny.utf8).lexicographicallyPrecedes(Array(b.tiny.utf8)) ? -1 : 1)
            case "constant": return order(a.constant, b.constant)
            default:  // NaN sorts as +infinity, and -0 before 0
                let x = a.real.isNaN ? .infinity : a.real, y = b.real.isNaN ? .infinity : b.real
                return x != y ? order(x, y) : order(y.sign == .minus ? 1 : 0, x.sign == .minus ? 1 : 0)
            }
        }
        func descriptor(_ key: String, _ direction: SortDirection) -> KeyComparator<Wide> {
            switch key {
            case "full": return KeyComparator(\Wide.full, id: key, order: direction)
            case "forty": return KeyComparator(\Wide.forty, id: key, order: direction)
            case "tiny": return KeyComparator(\Wide.tiny, id: key, order: direction)
            case "constant": return KeyComparator(\Wide.constant, id: key, order: direction)
            case "custom":
                return KeyComparator(id: key, order: direction, key: .custom { a, b in compare(a, b, "forty") })
            default: return KeyComparator(\Wide.real, id: key, order: direction)
            }
        }
        let cases: [[(String, SortDirection)]] = [
            [("tiny", .forward)], [("constant", .forward), ("tiny", .reverse)],
            [("forty", .reverse), ("tiny", .forward)],
            [("forty", .forward), ("forty", .reverse)], [("full", .forward)], [("real", .forward)],
            [("real", .reverse), ("tiny", .forward)],
            [("tiny", .forward), ("full", .reverse), ("forty", .forward), ("real", .forward)],
            [("tiny", .reverse), ("custom", .reverse), ("full", .forward)],
        ]
        for keys in cases {
            let got = try IndexSorter.sortedIndices(rows, by: keys.map { descriptor($0.0, $0.1) }).map(Int.init)
            let expected = rows.indices.sorted { a, b in
                for (key, direction) in keys {
                    let c =
                        compare(rows[a], rows[b], key == "custom" ? "forty" : key) * (direction == .reverse ? -1 : 1)
                    if c != 0 { return c < 0 }
                }
                return a < b
            }
            XCTAssertTrue(got == expected, "keys \(keys)")
        }
        XCTAssertEqual(
            try IndexSorter.sortedIndices(rows, by: [descriptor("constant", .reverse)]).prefix(3), [0, 1, 2],
            "equal keys keep row order")
    }

    /// Stored properties read at their offset, the rest by projection: every kind of key path
    /// reads what `root[keyPath:]` reads.
    func testKeyPathReadersReadWhatTheKeyPathDoes() {
        struct Inner: Sendable {
            let flag: Bool
            let label: String
        }
        struct Row: Sendable {
            let id: UInt8
            let name: String
            let inner: Inner
            let score: Double
            var shout: String { name.uppercased() }
        }
        final class Box: Sendable {
            let title: String
            init(_ title: String) { self.title = title }
        }
        let rows = (0..<50).map { (i: Int) -> Row in
            let name = "row \(i) " + String(repeating: "é", count: i % 20)
            return Row(id: UInt8(i), name: name, inner: Inner(flag: i % 3 == 0, label: "in\(i)"), score: Double(i) / 7)
        }
        let name = KeyPathReader(\Row.name), label = KeyPathReader(\Row.inner.label),
            flag = KeyPathReader(\Row.inner.flag)
        let score = KeyPathReader(\Row.score), id = KeyPathReader(\Row.id), shout = KeyPathReader(\Row.shout)
        XCTAssertNotNil(name.offset)
        XCTAssertNotNil(label.offset, "a stored property of a stored struct has an offset too")
        XCTAssertNil(shout.offset, "a computed property is projected")
        for row in rows {
            XCTAssertEqual(name.read(row), row.name)
            XCTAssertEqual(label.read(row), row.inner.label)
            XCTAssertEqual(flag.read(row), row.inner.flag)
            XCTAssertEqual(score.read(row), row.score)
            XCTAssertEqual(id.read(row), row.id)
            XCTAssertEqual(shout.read(row), row.shout)
        }
        let title = KeyPathReader(\Box.title)
        XCTAssertNil(title.offset, "a class's property is projected")
        XCTAssertEqual(title.read(Box("boxed")), "boxed")
        // Sorting and table columns read through them.
        let byLabel = rows.sorted(using: [KeyComparator(\Row.inner.label, order: .reverse)]).map { $0.inner.label }
        XCTAssertEqual(byLabel, rows.map { $0.inner.label }.sorted { NaturalOrder.compare($0, $1) > 0 })
    }

    func testCancellationStopsASort() {
        let items = makeItems(50_000)
        var calls = 0
        XCTAssertThrowsError(
            try IndexSorter.sortedIndices(
                items, by: [descriptor("size", .forward)],
                isCancelled: {
                    calls += 1
                    return calls > 2
                }))
    }

    func testHeaderClickTransitions() {
        let name = descriptor("name", .forward), size = descriptor("size", .forward),
            score = descriptor("score", .forward)
        var order: [KeyComparator<Item>] = []
        order = SortOrderRules.click(name, in: order, addingKey: false)
        XCTAssertEqual(order.map(\.id), ["name"])
        order = SortOrderRules.click(name, in: order, addingKey: false)
        XCTAssertEqual(order.first?.order, .reverse, "clicking the primary key reverses it")
        order = SortOrderRules.click(size, in: order, addingKey: true)
        XCTAssertEqual(order.map(\.id), ["name", "size"], "shift-click adds a secondary key")
        order = SortOrderRules.click(size, in: order, addingKey: true)
        XCTAssertEqual(order[1].order, .reverse, "shift-click on a key reverses it in place")
        order = SortOrderRules.click(name, in: order, addingKey: false)
        XCTAssertEqual(order.map(\.id), ["name", "size"], "reversing the primary keeps the secondary keys")
        XCTAssertEqual(order[0].order, .forward)
        order = SortOrderRules.click(score, in: order, addingKey: false)
        XCTAssertEqual(
            order.map(\.id), ["score", "name", "size"],
            "a plain click on another column makes it primary, the old keys after it")
        order = SortOrderRules.click(size, in: order, addingKey: false)
        XCTAssertEqual(
            order.map(\.id), ["size", "score", "name"], "a secondary key clicked becomes primary, keeping its direction"
        )
        XCTAssertEqual(order[0].order, .reverse)
        let more = (0..<6).map { KeyComparator(\Item.score, id: "k\($0)") }
        for key in more { order = SortOrderRules.click(key, in: order, addingKey: false) }
        XCTAssertEqual(order.map(\.id), ["k5", "k4", "k3", "k2"], "at most four keys: the oldest fall off")
    }

    func testTheParallelMergeIsStableAcrossItsParts() throws {
        // Keys with many ties, so the order of equal keys shows whether a merge took the right side first.
        var rng = SplitMix64(seed: 4)
        let keys = (0..<100_003).map { _ in UInt64(rng.next() % 97) }
        let expected = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }.map(Int32.init)
        for threads in [1, 2, 3, 7, 16] {
            var order = (0..<Int32(keys.count)).map { $0 }
            try IndexSorter.mergeSort(
                &order, threads: threads, isLess: { keys[Int($0)] < keys[Int($1)] }, isCancelled: { false })
            XCTAssertTrue(order == expected, "stable on \(threads) threads")
        }
        var cancelled = (0..<Int32(keys.count)).map { $0 }
        XCTAssertThrowsError(
            try IndexSorter.mergeSort(
                &cancelled, threads: 4, isLess: { keys[Int($0)] < keys[Int($1)] }, isCancelled: { true }))
    }

    func testTextSortsNaturallyNumbersByValueAndCaseIgnored() {
        let names = [
            "IMG_10.jpg", "img_9.jpg", "IMG_100.jpg", "img_010.jpg", "Img_2.JPG", "a", "B", "b", "file-2", "file 2",
            "file2",
            "x0", "x00", "x1",
        ]
        let items = names.enumerated().map { Item(id: $0.offset, name: $0.element, size: 0, score: 0) }
        let sorted = items.sorted(using: [KeyComparator(\Item.name)]).map(\.name)
        XCTAssertEqual(
            sorted,
            [
                "a", "B", "b", "file 2", "file-2", "file2", "Img_2.JPG", "img_9.jpg", "IMG_10.jpg", "img_010.jpg",
                "IMG_100.jpg", "x0", "x00", "x1",
            ], "equal values (10 and 010, 0 and 00) keep byte order")
        XCTAssertEqual(NaturalOrder.compare("IMG_9", "img_10"), -1)
        XCTAssertEqual(NaturalOrder.compare("a", "A"), 0, "ties in natural order; the sort breaks them by bytes")
        XCTAssertEqual(NaturalOrder.compare("v1.10", "v1.9"), 1)
        XCTAssertEqual(
            NaturalOrder.compare(String(repeating: "9", count: 400), String(repeating: "9", count: 300)), 1,
            "very long numbers")
    }

    func testASortThatLandsWithinTheBudgetIsShownInTheFrameThatAskedForIt() {
        onMain {
            let items = makeItems(10_000)
            let sorter = TableSorter<Item>()
            sorter.synchronousLimit = 100  // past it, the sort runs on a background thread
            // the longest wait, ample for 10,000 rows under sanitizers; it ends when the sort lands
            sorter.synchronousBudget = 1
            let view = sorter.view(of: items, sortedBy: [KeyComparator(\Item.size, id: "size")])
            XCTAssertFalse(sorter.isSorting, "the frame waited for the sort")
            XCTAssertTrue(view.map(\.size) == items.map(\.size).sorted(), "and shows the new order at once")
            // More rows than the frame waits for: the previous order shows until the new one lands.
            sorter.waitedRowLimit = 5_000
            let reversed = sorter.view(of: items, sortedBy: [KeyComparator(\Item.size, id: "size", order: .reverse)])
            XCTAssertTrue(sorter.isSorting)
            XCTAssertTrue(reversed.map(\.size) == items.map(\.size).sorted(), "the previous order while sorting")
        }
    }

    /// Rows computed on demand, as many as asked for: more than a sort's `Int32` indices reach.
    struct ManyRows: RandomAccessCollection, Sendable {
        let count: Int
        var startIndex: Int { 0 }
        var endIndex: Int { count }
        subscript(i: Int) -> Item { Item(id: i, name: "row \(i)", size: count - i, score: 0) }
    }

    /// A table of more rows than 2,147,483,647 is shown in its own order, with an error logged
    /// and no sort running, instead of trapping (or allocating 17 GB of keys first).
    func testMoreRowsThanASortTakesAreShownUnsortedWithoutTrapping() throws {
        let many = ManyRows(count: Int(Int32.max) + 2)
        XCTAssertThrowsError(try IndexSorter.sortedIndices(many, by: [KeyComparator(\Item.size, id: "size")])) {
            XCTAssertTrue($0 is IndexSorter.Cancelled)
        }
        let atTheLimit = ManyRows(count: 3)
        XCTAssertEqual(
            try IndexSorter.sortedIndices(atTheLimit, by: [KeyComparator(\Item.size, id: "size")]), [2, 1, 0])
        onMain {
            let sorter = TableSorter<Item>()
            let view = sorter.view(of: many, sortedBy: [KeyComparator(\Item.size, id: "size")])
            XCTAssertFalse(sorter.isSorting, "no sort is running")
            XCTAssertEqual(view.count, many.count)
            XCTAssertEqual(view.first?.id, 0, "the rows' own order")
        }
    }

    func testBackgroundSorterKeepsTheOldOrderUntilTheNewOneIsReady() {
        onMain {
            let items = makeItems(60_000)
            let sorter = TableSorter<Item>()
            sorter.synchronousLimit = 1000
            sorter.synchronousBudget = 0  // the frame never waits for the sort
            let order = [KeyComparator(\Item.size, id: "size")]
            var view = sorter.view(of: items, sortedBy: order)
            XCTAssertTrue(sorter.isSorting)
            XCTAssertEqual(view.map(\.id).prefix(5), [0, 1, 2, 3, 4], "the old (base) order while sorting")
            let deadline = Date().addingTimeInterval(20)
            while sorter.isSorting && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.005)
                view = sorter.view(of: items, sortedBy: order)
            }
            XCTAssertFalse(sorter.isSorting)
            XCTAssertEqual(view.map(\.size), items.map(\.size).sorted())
            // A new order supersedes a running one: only the latest lands.
            _ = sorter.view(of: items, sortedBy: [KeyComparator(\Item.name, id: "name")])
            view = sorter.view(of: items, sortedBy: [KeyComparator(\Item.size, id: "size", order: .reverse)])
            while sorter.isSorting && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.005)
                view = sorter.view(of: items, sortedBy: [KeyComparator(\Item.size, id: "size", order: .reverse)])
            }
            XCTAssertEqual(view.map(\.size), items.map(\.size).sorted(by: >))
        }
    }
}

final class SelectionLogicTests: XCTestCase {
    let ids = Array(100..<120)
    private var rows: RowOrder<Int> { RowOrder(count: 20) { [ids] in ids[$0] } }

    func testClickCtrlShiftAndSelectAll() {
        var s = SelectionModel<Int>()
        s.click(index: 3, modifiers: [], mode: .multiple, rows: rows)
        XCTAssertEqual(Set(s.selected), [103])
        s.click(index: 7, modifiers: .command, mode: .multiple, rows: rows)
        XCTAssertEqual(Set(s.selected), [103, 107])
        s.click(index: 3, modifiers: .command, mode: .multiple, rows: rows)
        XCTAssertEqual(Set(s.selected), [107], "ctrl-click toggles")
        s.click(index: 4, modifiers: .shift, mode: .multiple, rows: rows)
        XCTAssertEqual(
            Set(s.selected), Set(103...104),
            "shift-click ranges from the anchor: the last ctrl-clicked row, even deselected")
        s.click(index: 1, modifiers: .shift, mode: .multiple, rows: rows)
        XCTAssertEqual(Set(s.selected), Set(101...103), "the anchor stays; the range follows the new end")
        s.click(index: 10, modifiers: [.shift, .command], mode: .multiple, rows: rows)
        XCTAssertEqual(Set(s.selected), Set(101...110), "ctrl-shift adds the range")
        _ = s.key(Key("a"), modifiers: .command, mode: .multiple, pageSize: 5, rows: rows)
        XCTAssertEqual(s.selected.count, 20)
    }

    func testSelectionFollowsIDsAcrossReordering() {
        var s = SelectionModel<Int>()
        s.click(index: 2, modifiers: [], mode: .multiple, rows: rows)
        let reversed = Array(ids.reversed())
        s.click(index: 0, modifiers: .shift, mode: .multiple, rows: RowOrder(count: 20) { reversed[$0] })
        XCTAssertEqual(Set(s.selected), Set(102...119), "the anchor (id 102) is found at its new place")
    }

    func testKeyboardMovesExtendsAndPages() {
        var s = SelectionModel<Int>()
        XCTAssertEqual(s.key(.down, modifiers: [], mode: .multiple, pageSize: 5, rows: rows), 0)
        XCTAssertEqual(s.key(.down, modifiers: .shift, mode: .multiple, pageSize: 5, rows: rows), 1)
        XCTAssertEqual(s.key(.down, modifiers: .shift, mode: .multiple, pageSize: 5, rows: rows), 2)
        XCTAssertEqual(Set(s.selected), [100, 101, 102])
        XCTAssertEqual(s.key(.pageDown, modifiers: [], mode: .multiple, pageSize: 5, rows: rows), 7)
        XCTAssertEqual(Set(s.selected), [107])
        XCTAssertEqual(s.key(.end, modifiers: [], mode: .multiple, pageSize: 5, rows: rows), 19)
        XCTAssertEqual(s.key(.down, modifiers: [], mode: .multiple, pageSize: 5, rows: rows), 19, "clamped at the end")
        XCTAssertEqual(s.key(.home, modifiers: .shift, mode: .multiple, pageSize: 5, rows: rows), 0)
        XCTAssertEqual(s.selected.count, 20)
        XCTAssertNil(s.key(.up, modifiers: [], mode: .none, pageSize: 5, rows: rows))
    }

    func testSingleModeAndContextMenuTargets() {
        var s = SelectionModel<Int>()
        s.click(index: 1, modifiers: [], mode: .single, rows: rows)
        s.click(index: 5, modifiers: .shift, mode: .single, rows: rows)
        XCTAssertEqual(Set(s.selected), [105], "single selection: shift acts as a click")
        s.click(index: 6, modifiers: .command, mode: .single, rows: rows)
        XCTAssertEqual(Set(s.selected), [106])

        var m = SelectionModel<Int>()
        m.click(index: 2, modifiers: [], mode: .multiple, rows: rows)
        m.click(index: 4, modifiers: .shift, mode: .multiple, rows: rows)
        XCTAssertEqual(Set(m.contextMenuTarget(index: nil, mode: .multiple, rows: rows)), [], "empty area: no IDs")
        XCTAssertEqual(
            Set(m.contextMenuTarget(index: 3, mode: .multiple, rows: rows)), [102, 103, 104],
            "a row inside the selection: the whole selection")
        XCTAssertEqual(
            Set(m.contextMenuTarget(index: 9, mode: .multiple, rows: rows)), [109],
            "an unselected row: just it")
        XCTAssertEqual(Set(m.selected), [109], "and it becomes the selection first")
    }
}

final class RowGeometryTests: XCTestCase {
    func testVisibleRangeAtAMillionRows() {
        let g = RowGeometry(rowHeight: 24, rowCount: 1_000_000)
        XCTAssertEqual(g.contentHeight, 24_000_000)
        XCTAssertEqual(g.visibleSlots(offset: 0, height: 240), 0..<11)
        let deep = g.visibleSlots(offset: 23_999_000, height: 500, overscan: 0)
        XCTAssertEqual(deep, 999_958..<999_980)
        XCTAssertEqual(
            g.visibleSlots(offset: 23_999_800, height: 500, overscan: 2).upperBound, 1_000_000,
            "clamped to the last row")
        XCTAssertEqual(g.visibleSlots(offset: 12_000_012, height: 24, overscan: 0), 500_000..<500_002)
        XCTAssertEqual(g.row(atContentY: 12_000_012), 500_000)
        XCTAssertNil(g.row(atContentY: 24_000_001))
        XCTAssertEqual(RowGeometry(rowHeight: 24, rowCount: 0).visibleSlots(offset: 0, height: 100), 0..<0)
    }

    func testARowIsFoundByItsIDTypedOrNot() {
        var reads = 0
        let idAt = { (i: Int) -> UInt64 in
            reads += 1
            return UInt64(1_000 - i)
        }  // IDs in no order
        XCTAssertEqual(UI.firstRow(of: AnyHashable(UInt64(990)), in: 0..<1_000, idAt: idAt), 10)
        XCTAssertEqual(reads, 11, "the scan stops at the row")
        XCTAssertNil(UI.firstRow(of: AnyHashable(UInt64(5_000)), in: 0..<1_000, idAt: idAt))
        XCTAssertNil(
            UI.firstRow(of: AnyHashable("990"), in: 0..<1_000, idAt: idAt), "an ID of another type matches no row")
        XCTAssertEqual(UI.firstRow(of: AnyHashable(AnyHashable(UInt64(1))), in: 0..<1_000, idAt: idAt), 999)
        XCTAssertNil(UI.firstRow(of: AnyHashable(UInt64(1)), in: 0..<0, idAt: idAt))
        XCTAssertNil(UI.firstRow(of: AnyHashable(UInt64(990)), in: 11..<1_000, idAt: idAt), "only the range is read")
    }

    /// Rows shown through a sort's permutation are found where they are shown, whichever
    /// order they are read in: one row, an ID on several rows (the first of them as shown),
    /// no row, an ID boxed or of another type, and rows not sorted.
    func testARowShownThroughAPermutationIsFoundWhereItIsShown() {
        struct Item: Identifiable { let id: Int }
        var rng = SplitMix64(seed: 21)
        let ids = (0..<2_000).map { _ in Int(rng.next() % 1_500) }  // some IDs on several rows, some on none
        let items = ids.map(Item.init)
        var permutation = Array(0..<Int32(items.count))
        for i in permutation.indices.reversed() { permutation.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        let shown = SortedView(base: items, permutation: permutation)
        var checked = 0
        for id in [ids[0], ids[1_999], 1_499, 1_500, -1] + (0..<200).map({ _ in Int(rng.next() % 1_600) }) {
            let expected = shown.firstIndex { $0.id == id }
            XCTAssertEqual(UI.firstShownRow(of: AnyHashable(id), in: shown), expected, "ID \(id)")
            XCTAssertEqual(UI.firstShownRow(of: AnyHashable(AnyHashable(id)), in: shown), expected, "ID \(id), boxed")
            if let expected, ids.filter({ $0 == id }).count > 1 {
                checked += 1
                XCTAssertEqual(shown[expected].id, id)
            }
        }
        XCTAssertGreaterThan(checked, 20, "IDs on several rows were looked up")
        XCTAssertNil(UI.firstShownRow(of: AnyHashable("7"), in: shown), "an ID of another type matches no row")
        let unsorted = SortedView(base: items)
        XCTAssertEqual(UI.firstShownRow(of: AnyHashable(ids[700]), in: unsorted), ids.firstIndex(of: ids[700]))
        XCTAssertEqual(UI.firstShownRow(of: AnyHashable(ids[700]), in: items), ids.firstIndex(of: ids[700]))
    }

    func testSectionsMapSlotsAndRowsBothWays() {
        let g = RowGeometry(rowHeight: 20, rowCount: 10, sectionStarts: [0, 3, 3, 7])
        // Slots: H0 r0 r1 r2 H1 H2 r3 r4 r5 r6 H3 r7 r8 r9
        XCTAssertEqual(g.slotCount, 14)
        XCTAssertEqual(g.slot(0), .header(section: 0))
        XCTAssertEqual(g.slot(1), .row(0))
        XCTAssertEqual(g.slot(4), .header(section: 1))
        XCTAssertEqual(g.slot(5), .header(section: 2), "an empty section still shows its header")
        XCTAssertEqual(g.slot(6), .row(3))
        XCTAssertEqual(g.slot(10), .header(section: 3))
        XCTAssertEqual(g.slot(13), .row(9))
        for row in 0..<10 { XCTAssertEqual(g.slot(g.slot(ofRow: row)), .row(row)) }
        XCTAssertEqual(g.section(containingSlot: 12), 3)
        XCTAssertNil(g.row(atContentY: 4 * 20 + 5), "a header is not a row")
    }

    func testColumnWidthsShareTheSpareRoom() {
        let columns: [TableColumn<Item>] = [
            TableColumn("ID", text: { "\($0.id)" }).width(60),
            TableColumn("Name", value: \Item.name).width(min: 50, ideal: 100, max: 300),
            TableColumn("Size", value: \Item.size) { "\($0.size)" }.width(min: 40, ideal: 80),
        ]
        XCTAssertEqual(TableColumnLayout.widths(columns, userWidths: [:], available: 500), [60, 300, 140])
        XCTAssertEqual(
            TableColumnLayout.widths(columns, userWidths: ["Name": 120], available: 500), [60, 120, 320],
            "a width the user set stays; the others take the rest")
        XCTAssertEqual(
            TableColumnLayout.widths(columns, userWidths: ["Name": 5], available: 500), [60, 50, 390], "clamped to min")
    }

    func testColumnsShrinkTowardTheirMinimumThenOverflow() {
        let columns: [TableColumn<Item>] = [
            TableColumn("ID", text: { "\($0.id)" }).width(60),
            TableColumn("Name", value: \Item.name).width(min: 50, ideal: 150),
            TableColumn("Size", value: \Item.size) { "\($0.size)" }.width(min: 40, ideal: 80),
        ]
        // 290 wanted, 200 available: Name gives 100/140 of the 90 missing, Size 40/140.
        let narrow = TableColumnLayout.widths(columns, userWidths: [:], available: 200)
        XCTAssertEqual(narrow[0], 60, "fixed stays")
        XCTAssertEqual(narrow[1], 150 - 90 * 100 / 140, accuracy: 1e-9)
        XCTAssertEqual(narrow[2], 80 - 90 * 40 / 140, accuracy: 1e-9)
        XCTAssertEqual(narrow.reduce(0, +), 200, accuracy: 1e-9, "exactly fits")
        XCTAssertEqual(
            TableColumnLayout.widths(columns, userWidths: [:], available: 100), [60, 50, 40],
            "at their minimum: 150 wide in 100, the rest scrolls")
        XCTAssertEqual(
            TableColumnLayout.widths(columns, userWidths: ["Name": 120], available: 100), [60, 120, 40],
            "a width the user set is not taken back")
    }

    func testTheColumnStripFindsTheColumnsInViewBySearch() {
        let strip = ColumnStrip(widths: [Double](repeating: 100, count: 1000), leading: 0, frozen: 1)
        XCTAssertEqual(strip.contentWidth, 100_000)
        XCTAssertEqual(strip.visibleColumns(offset: 0, width: 350), [0, 1, 2, 3])
        // Scrolled 5,000: column 0 stays; column 51 starts at 5,100 - 5,000 = 100, at the frozen edge.
        XCTAssertEqual(strip.visibleColumns(offset: 5_000, width: 350), [0, 51, 52, 53])
        XCTAssertEqual(
            strip.visibleColumns(offset: 4_990, width: 350), [0, 50, 51, 52, 53],
            "50 partly hidden under the frozen one")
        XCTAssertEqual(strip.screenX(0, offset: 5_000), 0)
        XCTAssertEqual(strip.screenX(51, offset: 5_000), 100)
        XCTAssertEqual(strip.visibleColumns(offset: 99_650, width: 350), [0, 997, 998, 999])
    }

    func testACustomizationOrdersHidesAndSurvivesASave() throws {
        let columns: [TableColumn<Item>] = [
            TableColumn("Name", value: \Item.name),
            TableColumn("Size", value: \Item.size) { "\($0.size)" }.customizationID("size"),
            TableColumn("Kind", text: { _ in "" }).customizationID("kind"),
            TableColumn("Tags", text: { _ in "" }).customizationID("tags").defaultVisibility(.hidden),
        ]
        var c = TableColumnCustomization<Item>()
        XCTAssertEqual(c.arrange(columns).map(\.id), ["Name", "Size", "Kind"], "Tags hidden by default")
        c[visibility: "tags"] = .visible
        c[visibility: "size"] = .hidden
        XCTAssertEqual(c.arrange(columns).map(\.id), ["Name", "Kind", "Tags"])
        c.move("tags", before: "kind", declared: ["size", "kind", "tags"])
        XCTAssertEqual(
            c.arrange(columns).map(\.id), ["Name", "Tags", "Kind"], "Name is not customizable: it keeps its place")
        let saved = try JSONEncoder().encode(c)
        XCTAssertEqual(try JSONDecoder().decode(TableColumnCustomization<Item>.self, from: saved), c)
        let foreign = #"{"visibility":{"kind":"hidden","size":"sideways"},"order":["gone","kind"],"extra":1}"#
        let lenient = try JSONDecoder().decode(TableColumnCustomization<Item>.self, from: Data(foreign.utf8))
        XCTAssertEqual(lenient.arrange(columns).map(\.id), ["Name", "Size"], "an unknown word and column are ignored")
        c.resetVisibility()
        c.resetOrder()
        XCTAssertEqual(c.arrange(columns).map(\.id), ["Name", "Size", "Kind"])
    }
}
