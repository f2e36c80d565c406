import XCTest
import DemoSupport
@testable import Widgets
import Render2D

/// The in-place radix sort behind `IndexSorter.sortedIndices`, its string ranking, and the
/// cases where keys and index do not fit one word.
final class InPlaceSortTests: XCTestCase {
    /// Distinct words of any width sort as `sorted()` does, on any number of threads: long
    /// runs sharing their top bits, ranges short enough for insertion, a first digit under 11 bits.
    func testWordsSortInPlaceAsSortedDoes() throws {
        var rng = SplitMix64(seed: 3)
        for (count, bits) in [(0, 8), (1, 8), (2, 1), (31, 64), (700, 12), (5_000, 40), (200_000, 64), (150_000, 20)] {
            // Distinct words: the row index in the low bits, random bits above (few of them
            // for 20-bit words, so most words share their top digit).
            let indexBits = IndexSorter.indexBits(count: max(1, count))
            let words = (0..<count).map { i -> UInt64 in
                let high = bits > indexBits ? rng.next() >> (64 - (bits - indexBits)) : 0
                return high << indexBits | UInt64(i)
            }
            for threads in [1, 3, 7, 64] {  // 64: a desktop with more threads than some levels have rows
                var sorted = words
                try sorted.withUnsafeMutableBufferPointer { buffer in
                    try IndexSorter.sortWordsInPlace(buffer, bits: bits, threads: threads, isCancelled: { false })
                }
                XCTAssertTrue(sorted == words.sorted(), "\(count) words of \(bits) bits on \(threads) threads")
            }
        }
    }

    struct Row: Sendable {
        let wide: Int64
        let name: String
        let kind: String
        let small: Int64
    }

    /// Rows sorted by a reference: every key in turn, then row order.
    private func reference(_ rows: [Row], _ keys: [(String, SortDirection)]) -> [Int32] {
        func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (y < x ? 1 : 0) }
        // Strings by their letters case-folded (they have no digits), then by their bytes.
        let names = rows.map { ($0.name.lowercased(), Array($0.name.utf8)) }
        let kinds = rows.map { ($0.kind.lowercased(), Array($0.kind.utf8)) }
        func natural(_ a: (String, [UInt8]), _ b: (String, [UInt8])) -> Int {
            let c = order(a.0, b.0)
            return c != 0 ? c : (a.1 == b.1 ? 0 : (a.1.lexicographicallyPrecedes(b.1) ? -1 : 1))
        }
        return rows.indices.sorted { a, b in
            for (key, direction) in keys {
                var c: Int
                switch key {
                case "wide": c = order(rows[a].wide, rows[b].wide)
                case "name": c = natural(names[a], names[b])
                case "kind": c = natural(kinds[a], kinds[b])
                default: c = order(rows[a].small, rows[b].small)
                }
                if direction == .reverse { c = -c }
                if c != 0 { return c < 0 }
            }
            return a < b
        }.map { Int32($0) }
    }

    private func descriptor(_ key: String, _ direction: SortDirection) -> KeyComparator<Row> {
        switch key {
        case "wide": KeyComparator(\Row.wide, id: key, order: direction)
        case "name": KeyComparator(\Row.name, id: key, order: direction)
        case "kind": KeyComparator(id: key, order: direction, key: .string { $0.kind })  // read by a closure
        default: KeyComparator(\Row.small, id: key, order: direction)
        }
    }

    private func rows(_ count: Int, names: Int, wideValues: [Int64]) -> [Row] {
        var rng = SplitMix64(seed: 5)
        let syllables = ["ka", "Lo", "mi", "ren", "sa", "TOR", "vex", "zu", "é"]
        return (0..<count).map { _ in
            let n = Int(rng.next() % UInt64(names))
            let name = [n % 9, n / 9 % 9, n / 81 % 9, n / 729 % 9].map { syllables[$0] }.joined()
            return Row(
                wide: wideValues[Int(rng.next() % UInt64(wideValues.count))], name: name,
                kind: ["Photo", "photo", "Video", "Audio"][Int(rng.next() % 4)], small: Int64(rng.next() % 3))
        }
    }

    /// Keys wider than the word leaves them: the kept bits sort, and rows tied on them are
    /// ordered by every key. The name's ranks are lent to the word memory and overwritten by
    /// the packing, so ties on it are broken by comparing the names themselves; on any number
    /// of threads, and with rows enough for the packing to go level by level in parallel.
    func testKeysWiderThanTheWordAreOrderedByEveryKey() throws {
        let extremes: [Int64] = [.min, -1, 0, 1, .max]  // a 64-bit range: nothing after it is kept
        let few = rows(6_000, names: 3_000, wideValues: extremes)
        let many = rows(80_000, names: 5_000, wideValues: (0..<40).map { Int64($0) << 40 })
        let cases: [([Row], [(String, SortDirection)])] = [
            (few, [("wide", .forward), ("name", .reverse), ("small", .forward)]),
            (few, [("wide", .reverse), ("kind", .forward), ("name", .forward)]),
            (few, [("name", .forward), ("wide", .forward)]),
            (many, [("wide", .forward), ("name", .reverse), ("kind", .forward)]),
            (many, [("name", .forward), ("small", .reverse)]),
        ]
        for (rows, keys) in cases {
            let expected = reference(rows, keys)
            for threads in rows.count > 65_536 ? [3, 64] : [1, 2, 5] {  // past 65,536 rows the levels run in parallel
                let got = try IndexSorter.sortedIndices(
                    rows, by: keys.map { descriptor($0.0, $0.1) }, threads: threads)
                XCTAssertTrue(got == expected, "\(rows.count) rows by \(keys) on \(threads) threads")
            }
        }
    }

    /// A key of at most 256 strings in each part, but more in all, is ranked into four bytes
    /// a row: the ranks stay the same whichever part found a string.
    func testByteRanksWidenWhenThePartsFindMoreThan256StringsInAll() throws {
        // Each quarter of the rows has its own 200 names: 800 in all, 200 a part on 4 threads.
        let rows = (0..<8_000).map { i in
            Row(wide: 0, name: "n\(String(UnicodeScalar(UInt8(97 + i / 2_000))))\(i % 200)", kind: "", small: 0)
        }
        let byName = [descriptor("name", .forward)]
        let one = try IndexSorter.sortedIndices(rows, by: byName, threads: 1)
        let four = try IndexSorter.sortedIndices(rows, by: byName, threads: 4)
        XCTAssertTrue(one == four)
        let names = one.map { rows[Int($0)].name }
        XCTAssertTrue(names == names.sorted { NaturalOrder.rankOrder($0, $1) < 0 })
        XCTAssertEqual(Set(names).count, 800)
    }

    /// Strings are the same string only when their bytes are: a precomposed é and an e with a
    /// combining accent (equal as Swift `String`s) are two entries, ranked by their bytes.
    func testDistinctStringsAreDistinctByTheirBytes() {
        let precomposed = "caf\u{E9}", combining = "cafe\u{301}"
        XCTAssertEqual(precomposed, combining, "Swift calls them equal")
        let words = (0..<5_000).map { "w\($0)" } + [precomposed, combining, ""]  // enough to grow the table
        var table = DistinctStrings(seed: 1)
        let entries = (words + words).map { table.entry(for: $0) }
        XCTAssertEqual(entries, Array(words.indices) + Array(words.indices), "each found again after growing")
        XCTAssertEqual(table.strings.count, words.count)
        XCTAssertEqual(table.strings[5_001].unicodeScalars.count, 5, "the combining form is kept as it is")
    }

    /// Two strings whose hashes collide in the table are still two entries.
    func testStringsWhoseHashesCollideAreTwoEntries() throws {
        // Find two strings whose 32-bit hashes are the same (the birthday bound: about 80,000 tries).
        var seen: [UInt64: String] = [:]
        var pair: (String, String)?
        for i in 0..<1_000_000 where pair == nil {
            var text = "s\(i)"
            let hash = text.withUTF8 { DistinctStrings.hash($0, seed: 9) } & 0xFFFF_FFFF
            if let other = seen[hash] { pair = (other, text) } else { seen[hash] = text }
        }
        let (a, b) = try XCTUnwrap(pair)
        var table = DistinctStrings(seed: 9)
        XCTAssertEqual(
            [a, b, a, b].map { table.entry(for: $0) }, [0, 1, 0, 1], "\(a) and \(b) share a hash, not their bytes")
    }

    /// A key the app computes is read once a row (a slow one costs its time once), and a
    /// double key sorts with it.
    func testAComputedKeyIsReadOnceARow() throws {
        let rows = rows(10_000, names: 100, wideValues: [5, -3, 7, 0])
        let reads = Locked(0)
        let computed = KeyComparator<Row>(
            id: "computed",
            key: .integer {
                reads.withLock { $0 += 1 }
                return $0.wide * 3
            })
        let half = KeyComparator<Row>(id: "half", order: .reverse, key: .double { Double($0.small) / 2 })
        let got = try IndexSorter.sortedIndices(rows, by: [computed, half], threads: 2)
        XCTAssertEqual(reads.withLock { $0 }, rows.count)
        XCTAssertTrue(got == reference(rows, [("wide", .forward), ("small", .reverse)]))
    }

    /// A cancelled sort stops in the packing or between the first partition's buckets.
    func testCancellationStopsTheInPlaceSort() {
        let rows = rows(100_000, names: 50, wideValues: [1, 2, 3])
        // Cancelled at its first check of its own (after one per key and one after the keys),
        // the sort has read each row once, for the key's range, and packed none of them.
        let reads = Locked(0)
        let counted = KeyComparator<Row>(
            id: "counted",
            key: .integer {
                reads.withLock { $0 += 1 }
                return $0.wide
            })
        var checks = 0
        XCTAssertThrowsError(
            try IndexSorter.sortedIndices(
                rows, by: [counted], threads: 1,
                isCancelled: {
                    checks += 1
                    return checks > 2
                }))
        XCTAssertEqual(reads.withLock { $0 }, rows.count, "stopped before packing")
        for stopAfter in [1, 3, 6] {
            var calls = 0
            XCTAssertThrowsError(
                try IndexSorter.sortedIndices(
                    rows, by: [descriptor("wide", .forward)], threads: 1,
                    isCancelled: {
                        calls += 1
                        return calls > stopAfter
                    }), "stopped after \(stopAfter) checks")
        }
    }
}
