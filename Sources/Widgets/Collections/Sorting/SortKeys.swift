import Dispatch
import Render2D
import Imaging
import Profiling

/// One key of a sort as a number per row, below `2^bits`, whose order is the key's order:
/// an integer or double key as its offset from the smallest, a string key as its rank among
/// the distinct strings. `bits` is only as wide as the values need (a file kind: 3 bits).
struct SortKeyField {
    /// The bits every row's value fits in (0: every row has the same key).
    let bits: Int
    /// Row `i`'s value.
    let value: (Int) -> UInt64
    /// -1, 0 or 1 as row `a`'s key orders before, with or after row `b`'s. Still valid once
    /// the sort has packed its keys over ranks it lent (`ranksInKeyMemory`).
    let compare: (Int, Int) -> Int
    /// Whether the values are ranks held in the first half of the sort's key memory
    /// (`IndexSorter.sortInPlace`), which packing the keys overwrites.
    let ranksInKeyMemory: Bool

    init(bits: Int, value: @escaping (Int) -> UInt64) {
        self.init(bits: bits, value: value, compare: { a, b in Self.compare(value(a), value(b)) })
    }

    init(
        bits: Int, value: @escaping (Int) -> UInt64, compare: @escaping (Int, Int) -> Int,
        ranksInKeyMemory: Bool = false
    ) {
        self.bits = bits
        self.value = value
        self.compare = compare
        self.ranksInKeyMemory = ranksInKeyMemory
    }

    @inline(__always) private static func compare(_ x: UInt64, _ y: UInt64) -> Int { x < y ? -1 : (x > y ? 1 : 0) }

    /// A key whose bits would fall past those a sort's word leaves the keys: never stored or
    /// packed, only compared where the rows tie on the keys before it (`IndexSorter.sortInPlace`).
    static func comparedOnly(_ compare: @escaping (Int, Int) -> Int) -> SortKeyField {
        SortKeyField(bits: UInt64.bitWidth, value: { _ in 0 }, compare: compare)
    }

    /// `comparedOnly` for order-preserving words (`IndexSorter.orderedWord`).
    static func comparedOnly(words word: @escaping (Int) -> UInt64) -> SortKeyField {
        comparedOnly { a, b in compare(word(a), word(b)) }
    }

    /// `comparedOnly` for strings, in the order `strings(count:reverse:threads:offering:string:)` ranks them.
    static func comparedOnly(strings string: @escaping (Int) -> String, reverse: Bool) -> SortKeyField {
        let sign = reverse ? -1 : 1
        return comparedOnly { a, b in sign * NaturalOrder.rankOrder(string(a), string(b)) }
    }

    /// A key read as order-preserving words (`IndexSorter.orderedWord`). When `ranged`, the
    /// field is only as wide as the words' range, read on `threads` threads before the sort
    /// packs them; else it is the whole word. A key the app computes (`storing`) is read once,
    /// into a column of its own (8 bytes a row); a stored property read in place costs less to
    /// read twice than to store. `word` is called from several threads at once.
    static func words(
        count: Int, ranged: Bool, storing: Bool = false, threads: Int? = nil, _ word: @escaping (Int) -> UInt64
    ) -> SortKeyField {
        let column = storing ? SortKeyColumn(count: count, threads: threads, word) : nil
        let word = column.map { column in { column.values[$0] } } ?? word
        guard ranged else { return SortKeyField(bits: UInt64.bitWidth, value: word) }
        let parts = IndexSorter.parts(of: count, threads: threads)
        var ranges = [(lo: UInt64, hi: UInt64)](repeating: (.max, .min), count: parts.count)
        ranges.withUnsafeMutableBufferPointer { ranges in
            IndexSorter.forEach(parts) { k, rows in
                var lo = UInt64.max, hi = UInt64.min
                for i in rows {
                    let w = word(i)
                    lo = min(lo, w)
                    hi = max(hi, w)
                }
                ranges[k] = (lo, hi)
            }
        }
        let lo = ranges.map(\.lo).min()!, hi = ranges.map(\.hi).max()!
        return SortKeyField(bits: UInt64.bitWidth - (hi - lo).leadingZeroBitCount) { word($0) &- lo }
    }
}

/// One key's value for every row, read once, in mapped memory: for a key the app computes,
/// and for each key of a sort that also compares rows by custom keys
/// (`IndexSorter.sortedIndices`). Each part of the rows is read on its own thread (`threads`,
/// default `IndexSorter.sortThreads`).
final class SortKeyColumn: @unchecked Sendable {  // written once, by a thread a part, then read
    /// Row `i`'s value.
    let values: UnsafeMutableBufferPointer<UInt64>
    private let memory: MappedMemory

    init(count: Int, threads: Int? = nil, _ value: (Int) -> UInt64) {
        memory = MappedMemory(count: count * MemoryLayout<UInt64>.stride)
        let values = UnsafeMutableBufferPointer(
            start: memory.bytes.bindMemory(to: UInt64.self, capacity: count), count: count)
        IndexSorter.forEach(IndexSorter.parts(of: count, threads: threads)) { _, rows in
            for i in rows { values[i] = value(i) }
        }
        self.values = values
    }
}
