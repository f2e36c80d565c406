import Foundation
import Render2D
import Imaging
import Profiling

// `@inlinable` here is measured: the sort reads stored rows in place through code
// specialized for the row type; through the generic subscript each read allocated a coroutine
// frame and copied the row. `bench sort` (24 sorts of 1M rows, callgrind): 52.1 G → 38.7 G
// instructions reading in place, 34.1 G reading key paths' bytes. The figure: `bench sort`.

/// Ascending or descending, as Foundation's `SortDirection`.
public enum SortDirection: Sendable, Equatable, Hashable {
    /// Ascending.
    case forward
    /// Descending.
    case reverse
    /// Reverses the direction.
    public mutating func toggle() { self = self == .forward ? .reverse : .forward }
}

/// How a sort descriptor reads the key it sorts by. Strings, integers and doubles are
/// extracted once into flat arrays before sorting; `custom` compares rows directly.
public enum SortKey<Row>: Sendable {
    /// Compares strings as Finder does (numbers by value, case-insensitive).
    case string(@Sendable (Row) -> String)
    /// Compares integers.
    case integer(@Sendable (Row) -> Int64)
    /// Compares doubles.
    case double(@Sendable (Row) -> Double)
    /// Returns a negative number, zero or a positive number, as `a` orders before, with or after `b`.
    case custom(@Sendable (Row, Row) -> Int)
}

/// One key of a sort order: which column (`id`), which direction, and how to read the key.
/// Our own fast stand-in for Foundation's `KeyPathComparator` (which sorts about 100×
/// slower on Linux). Two descriptors are equal when their column and order are.
///
/// ```swift
/// var order = [KeyComparator<File>(\.name), KeyComparator(\.size, order: .reverse)]
/// let sorted = files.sorted(using: order)
/// ```
public struct KeyComparator<Row>: Sendable, Equatable {
    public var id: String
    /// Ascending or descending.
    public var order: SortDirection
    /// How the key is read.
    public let key: SortKey<Row>
    /// The same key read from a row's bytes, for a key that is a stored property of a struct:
    /// a sort of rows stored in an array reads it in place, without copying the row.
    @usableFromInline let keyInPlace: KeyInPlace?

    /// A key for the column `id`, read by `key`.
    @inlinable public init(id: String, order: SortDirection = .forward, key: SortKey<Row>) {
        self.init(id: id, order: order, key: key, keyInPlace: nil)
    }

    @inlinable init(id: String, order: SortDirection, key: SortKey<Row>, keyInPlace: KeyInPlace?) {
        self.id = id
        self.order = order
        self.key = key
        self.keyInPlace = keyInPlace
    }

    /// Strings as Finder and `localizedStandardCompare` order them: numbers by their value
    /// ("IMG_9" before "IMG_10"), ASCII case-insensitive; byte order breaks ties.
    @inlinable public init(
        _ keyPath: KeyPath<Row, String> & Sendable, id: String? = nil, order: SortDirection = .forward
    ) {
        let reader = KeyPathReader(keyPath)
        self.init(
            id: id ?? "\(keyPath)", order: order, key: .string { reader.read($0) },
            keyInPlace: reader.inPlace { .string($0) })
    }

    /// Integers, by value.
    @inlinable public init<Value: BinaryInteger & Sendable>(
        _ keyPath: KeyPath<Row, Value> & Sendable, id: String? = nil, order: SortDirection = .forward
    ) {
        let reader = KeyPathReader(keyPath)
        self.init(
            id: id ?? "\(keyPath)", order: order, key: .integer { Int64(clamping: reader.read($0)) },
            keyInPlace: reader.inPlace { read in .integer { Int64(clamping: read($0)) } })
    }

    /// Doubles, by value.
    @inlinable public init(
        _ keyPath: KeyPath<Row, Double> & Sendable, id: String? = nil, order: SortDirection = .forward
    ) {
        let reader = KeyPathReader(keyPath)
        self.init(
            id: id ?? "\(keyPath)", order: order, key: .double { reader.read($0) },
            keyInPlace: reader.inPlace { .double($0) })
    }

    /// Any `Comparable` value (compared row by row: slower than the flat-key kinds).
    @inlinable public init<Value: Comparable & Sendable>(
        comparable keyPath: KeyPath<Row, Value> & Sendable, id: String? = nil,
        order: SortDirection = .forward
    ) {
        let reader = KeyPathReader(keyPath)
        self.init(
            id: id ?? "\(keyPath)", order: order,
            key: .custom { a, b in
                let x = reader.read(a), y = reader.read(b)
                return x < y ? -1 : (y < x ? 1 : 0)
            })
    }

    public static func == (a: KeyComparator, b: KeyComparator) -> Bool { a.id == b.id && a.order == b.order }

    /// The same key in the other direction.
    public var reversed: KeyComparator {
        var copy = self
        copy.order.toggle()
        return copy
    }
}

/// What a click on a sortable column header does to a sort order, as SwiftUI's Table does it
/// on the desktop: a click makes the column the primary key and keeps the previous keys after
/// it as secondary ones (sort by Kind, then click Name: by Name, then Kind), or reverses it
/// when it already is the primary key; shift-click adds the column as the last key, or
/// reverses it where it already is.
@usableFromInline package enum SortOrderRules {
    /// Keys kept at most: older ones fall off the end.
    public static let maxKeys = 4

    @usableFromInline package static func click<Row>(
        _ column: KeyComparator<Row>, in order: [KeyComparator<Row>], addingKey: Bool
    ) -> [KeyComparator<Row>] {
        var result = order
        if let i = result.firstIndex(where: { $0.id == column.id }) {
            if addingKey || i == 0 {
                result[i].order.toggle()
                return result
            }
            let existing = result.remove(at: i)
            return Array(([existing] + result).prefix(maxKeys))
        }
        if addingKey { return Array((result + [column]).prefix(maxKeys)) }
        return Array(([column] + result).prefix(maxKeys))
    }
}

/// Stable, cancellable sorting of row indices by a list of descriptors. Pure and
/// thread-safe: `TableSorter` runs it on a background thread.
public enum IndexSorter {
    /// Thrown when `isCancelled` turned true while sorting, and for more rows than
    /// `Int32` indices reach (2,147,483,647), which are not sorted.
    public struct Cancelled: Error {}

    /// The most rows a sort takes: its indices are `Int32`.
    static let maxRows = Int(Int32.max)

    /// The permutation that orders `rows` by `descriptors` (stable: ties keep row order).
    ///
    /// Every string, integer and double key becomes an order-preserving number per row,
    /// only as wide as its values' range (strings by their rank among the distinct strings),
    /// and a row's keys are packed with its index into one 64-bit word, radix sorted in place
    /// (`sortInPlace`): a million rows take 8 MB of memory beyond the result. Only `custom`
    /// keys compare rows. The work is split among `threads` (default: one per hardware
    /// thread, up to 16), which also call `isCancelled`: on more than one, it must be safe to
    /// call from several threads at once. More than 2,147,483,647 rows throw `Cancelled`.
    public static func sortedIndices<Rows: RandomAccessCollection>(
        _ rows: Rows, by descriptors: [KeyComparator<Rows.Element>], threads: Int? = nil,
        isCancelled: () -> Bool = { false }
    ) throws(Cancelled) -> [Int32] where Rows.Index == Int {
        let order = try sortedOrder(rows, by: descriptors, threads: threads, isCancelled: isCancelled)
        order.releaseSortMemory()  // before the copy: the sort's memory and the array never add up
        return order.indices
    }

    /// `sortedIndices(_:by:)` left where the sort put it (`RowPermutation`).
    static func sortedOrder<Rows: RandomAccessCollection>(
        _ rows: Rows, by descriptors: [KeyComparator<Rows.Element>], threads: Int? = nil,
        isCancelled: () -> Bool = { false }
    ) throws(Cancelled) -> RowPermutation where Rows.Index == Int {
        let n = rows.count
        guard n <= maxRows else { throw Cancelled() }  // before anything is allocated
        guard n > 1, !descriptors.isEmpty else { return RowPermutation(identity(n)) }
        let inPlace = rows.withContiguousStorageIfAvailable { stored in
            Result { () throws(Cancelled) in
                try sortedOrder(
                    count: n, from: .stored(stored.baseAddress!), by: descriptors, threads: threads,
                    isCancelled: isCancelled)
            }
        }
        if let inPlace { return try inPlace.get() }
        let base = rows.startIndex
        return try sortedOrder(
            count: n, from: .copied { rows[base + $0] }, by: descriptors, threads: threads, isCancelled: isCancelled)
    }

    /// `sortedOrder(_:by:)` of `count` rows read from `source`.
    static func sortedOrder<Row>(
        count n: Int, from source: RowSource<Row>, by descriptors: [KeyComparator<Row>], threads: Int?,
        isCancelled: () -> Bool
    ) throws(Cancelled) -> RowPermutation {
        // nil marks a custom key's place in the order.
        var fields: [SortKeyField?] = []
        var customs: [(compare: (Int, Int) -> Int, sign: Int)] = []
        // Without custom keys, the rows are packed into words: numbers pay a second read for
        // their range, and the first string key ranks its rows into the packing's memory.
        let packsKeys = !descriptors.contains { if case .custom = $0.key { true } else { false } }
        let keyMemory = packsKeys ? MappedMemory(count: n * 8) : nil
        func number(_ word: @escaping (Int) -> UInt64, readInPlace: Bool, pastTheWord: Bool) -> SortKeyField {
            pastTheWord
                ? .comparedOnly(words: word)
                : .words(count: n, ranged: packsKeys, storing: packsKeys && !readInPlace, threads: threads, word)
        }
        for descriptor in descriptors {
            if isCancelled() { throw Cancelled() }
            let reverse = descriptor.order == .reverse
            // Once the keys before it fill the word, a key only breaks their ties: in the table's
            // Size, Name, Kind order, the kinds are never ranked.
            let pastTheWord =
                packsKeys && fields.reduce(indexBits(count: n)) { $0 + ($1?.bits ?? 0) } >= UInt64.bitWidth
            switch descriptor.key {
            case .string(let read):
                var inPlace: (@Sendable (UnsafeRawPointer) -> String)?
                if case .string(let read)? = descriptor.keyInPlace { inPlace = read }
                let string = source.reading(read, inPlace: inPlace)
                let lent = fields.contains { $0?.ranksInKeyMemory == true }
                fields.append(
                    pastTheWord
                        ? .comparedOnly(strings: string, reverse: reverse)
                        : .strings(
                            count: n, reverse: reverse, threads: threads, offering: lent ? nil : keyMemory,
                            string: string))
            case .integer(let read):
                var inPlace: (@Sendable (UnsafeRawPointer) -> Int64)?
                if case .integer(let read)? = descriptor.keyInPlace { inPlace = read }
                let value = source.reading(read, inPlace: inPlace)
                fields.append(
                    number(
                        { orderedWord(integer: value($0), reverse: reverse) },
                        readInPlace: source.readsInPlace(inPlace), pastTheWord: pastTheWord))
            case .double(let read):
                var inPlace: (@Sendable (UnsafeRawPointer) -> Double)?
                if case .double(let read)? = descriptor.keyInPlace { inPlace = read }
                let value = source.reading(read, inPlace: inPlace)
                fields.append(
                    number(
                        { orderedWord(double: value($0), reverse: reverse) },
                        readInPlace: source.readsInPlace(inPlace), pastTheWord: pastTheWord))
            case .custom(let compare):
                customs.append((source.comparing(compare), reverse ? -1 : 1))
                fields.append(nil)
            }
        }
        if isCancelled() { throw Cancelled() }
        if customs.isEmpty, let keyMemory {
            let flat = fields.map { $0! }
            fields = []
            if flat.allSatisfy({ $0.bits == 0 }) { return RowPermutation(identity(n)) }  // every row has the same keys
            try sortInPlace(count: n, fields: flat, in: keyMemory, threads: threads, isCancelled: isCancelled)
            return RowPermutation(sortedIn: keyMemory, count: n)
        }
        // Custom keys among them: one column per flat key (the string ranks go once it is read).
        let columns = fields.map { $0.map { SortKeyColumn(count: n, threads: threads, $0.value) } }
        fields = []
        return try sort(count: n, by: columns, comparing: customs, threads: threads, isCancelled: isCancelled)
    }

    /// The order of `count` rows by `columns` with custom keys among them (nil in `columns`
    /// marks each one's place): a merge sort comparing the columns and the custom keys in turn.
    private static func sort(
        count n: Int, by columns: [SortKeyColumn?], comparing customs: [(compare: (Int, Int) -> Int, sign: Int)],
        threads: Int?, isCancelled: () -> Bool
    ) throws(Cancelled) -> RowPermutation {
        var indices = identity(n)
        try mergeSort(
            &indices, threads: threads,
            isLess: { a, b in
                var custom = 0
                for column in columns {
                    if let column {
                        let x = column.values[Int(a)], y = column.values[Int(b)]
                        if x != y { return x < y }
                    } else {
                        let key = customs[custom]
                        custom += 1
                        let c = key.compare(Int(a), Int(b)).signum() * key.sign  // (a comparator may answer Int.min)
                        if c != 0 { return c < 0 }
                    }
                }
                return false
            }, isCancelled: isCancelled)
        return RowPermutation(indices)
    }

    /// `0..<n` as row indices.
    static func identity(_ n: Int) -> [Int32] {
        [Int32](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n { buffer[i] = Int32(i) }
            count = n
        }
    }

    @inline(__always)
    static func orderedWord(integer v: Int64, reverse: Bool) -> UInt64 {
        let w = UInt64(bitPattern: v) ^ (1 << 63)
        return reverse ? ~w : w
    }

    @inline(__always)
    static func orderedWord(double v: Double, reverse: Bool) -> UInt64 {
        let bits = (v.isNaN ? Double.infinity : v).bitPattern
        let w = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        return reverse ? ~w : w
    }

    /// Threads a sort of `n` rows uses: `WorkerPools.sortThreads` (one per hardware thread, up
    /// to 16), each with at least 64K rows.
    static func sortThreads(_ n: Int) -> Int {
        min(WorkerPools.sortThreads, max(1, n / 65_536))
    }

    /// `0..<count` cut into `threads` (default `sortThreads`) contiguous parts of nearly equal size.
    static func parts(of count: Int, threads: Int?) -> [Range<Int>] {
        let k = max(1, min(threads ?? sortThreads(count), count))
        return (0..<k).map { ($0 * count / k)..<(($0 + 1) * count / k) }
    }

    /// Runs `body` for every part (its index and rows) at once, a thread each. The parts do
    /// not overlap: `body` writes only its own part of any buffer the threads share.
    static func forEach(_ parts: [Range<Int>], _ body: (Int, Range<Int>) -> Void) {
        withoutActuallyEscaping(body) { body in
            let shared = PartBody(run: body)
            DispatchQueue.concurrentPerform(iterations: parts.count) { shared.run($0, parts[$0]) }
        }
    }

    /// Stable merge sort of `a`, on `sortThreads` threads: each sorts a contiguous part
    /// (bottom-up: insertion-sorted runs of 16, then merge passes), then neighbouring parts
    /// merge pairwise in parallel rounds, the left one first on ties. Cancellation is checked
    /// between passes. Inlined so each call site gets its comparator compiled in.
    @inline(__always)
    static func mergeSort(
        _ a: inout [Int32], threads: Int? = nil, isLess: (Int32, Int32) -> Bool,
        isCancelled: () -> Bool
    ) throws(Cancelled) {
        let n = a.count
        guard n > 1 else { return }
        let threads = min(max(1, threads ?? sortThreads(n)), n)
        var scratch = [Int32](repeating: 0, count: n)
        let bounds = (0...threads).map { $0 * n / threads }
        var cancelled = false
        try withoutActuallyEscaping(isLess) { isLess throws(Cancelled) in
            try withoutActuallyEscaping(isCancelled) { isCancelled throws(Cancelled) in
                try a.withUnsafeMutableBufferPointer { pa throws(Cancelled) in
                    try scratch.withUnsafeMutableBufferPointer { ps throws(Cancelled) in
                        let shared = SortBuffers(a: pa, scratch: ps, isLess: isLess, isCancelled: isCancelled)
                        // Each part sorted where it lies; `inScratch[k]`: its result is in the scratch buffer.
                        let inScratch = Locked([Bool](repeating: false, count: threads))
                        DispatchQueue.concurrentPerform(iterations: threads) { k in
                            let lo = bounds[k], hi = bounds[k + 1]
                            let result = shared.sortPart(lo..<hi)
                            inScratch.withLock { $0[k] = result }
                        }
                        // Every part's result into `a`, then merge rounds between `a` and the scratch.
                        for (k, scratchHolds) in inScratch.withLock({ $0 }).enumerated() where scratchHolds {
                            let lo = bounds[k], hi = bounds[k + 1]
                            pa.baseAddress!.advanced(by: lo).update(
                                from: ps.baseAddress!.advanced(by: lo), count: hi - lo)
                        }
                        var parts = Array(zip(bounds.dropLast(), bounds.dropFirst())).map { $0.0..<$0.1 }
                        var sourceIsA = true
                        if isCancelled() {
                            cancelled = true
                            return
                        }  // the parts may have stopped unsorted
                        while parts.count > 1 {
                            if isCancelled() {
                                cancelled = true
                                break
                            }
                            let pairs = (parts.count + 1) / 2
                            let from = sourceIsA, round = parts
                            DispatchQueue.concurrentPerform(iterations: pairs) { k in
                                let left = round[2 * k]
                                let right =
                                    2 * k + 1 < round.count ? round[2 * k + 1] : left.upperBound..<left.upperBound
                                shared.merge(left, right, fromA: from)
                            }
                            parts = (0..<pairs).map { k in
                                parts[2 * k]
                                    .lowerBound..<(2 * k + 1 < parts.count
                                    ? parts[2 * k + 1].upperBound : parts[2 * k].upperBound)
                            }
                            sourceIsA.toggle()
                        }
                        if !sourceIsA { pa.baseAddress!.update(from: ps.baseAddress!, count: n) }
                    }
                }
            }
        }
        if cancelled { throw Cancelled() }
    }
}

/// The work `IndexSorter.forEach` hands to its threads.
private struct PartBody: @unchecked Sendable {
    let run: (Int, Range<Int>) -> Void
}

/// The buffers and comparator of one `IndexSorter.mergeSort`, shared by its threads: each
/// touches only its own part (or, merging, its own pair of parts).
struct SortBuffers: @unchecked Sendable {
    let a: UnsafeMutableBufferPointer<Int32>
    let scratch: UnsafeMutableBufferPointer<Int32>
    let isLess: (Int32, Int32) -> Bool
    let isCancelled: () -> Bool

    /// Sorts `a[range]` bottom-up, leaving the result in `a` or in `scratch` (returns true for
    /// the scratch). Stops early (unsorted) when cancelled: the caller checks again.
    @inline(__always)
    func sortPart(_ range: Range<Int>) -> Bool {
        let run = 16
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + run, range.upperBound)
            if end - start > 1 {
                for i in (start + 1)..<end {
                    let x = a[i]
                    var j = i - 1
                    while j >= start && isLess(x, a[j]) {
                        a[j + 1] = a[j]
                        j -= 1
                    }
                    a[j + 1] = x
                }
            }
            start = end
        }
        var width = run
        var sourceIsA = true
        while width < range.count {
            if isCancelled() { return !sourceIsA }
            let src = sourceIsA ? a : scratch, dst = sourceIsA ? scratch : a
            var lo = range.lowerBound
            while lo < range.upperBound {
                let mid = min(lo + width, range.upperBound), hi = min(lo + 2 * width, range.upperBound)
                Self.mergeRuns(src, lo..<mid, mid..<hi, into: dst, isLess: isLess)
                lo = hi
            }
            sourceIsA.toggle()
            width *= 2
        }
        return !sourceIsA
    }

    /// Merges the neighbouring sorted parts `left` and `right` from one buffer into the other.
    @inline(__always)
    func merge(_ left: Range<Int>, _ right: Range<Int>, fromA: Bool) {
        Self.mergeRuns(fromA ? a : scratch, left, right, into: fromA ? scratch : a, isLess: isLess)
    }

    /// Stable merge of `src[left]` and `src[right]` (neighbours) into `dst` at `left`'s start.
    @inline(__always)
    static func mergeRuns(
        _ src: UnsafeMutableBufferPointer<Int32>, _ left: Range<Int>, _ right: Range<Int>,
        into dst: UnsafeMutableBufferPointer<Int32>, isLess: (Int32, Int32) -> Bool
    ) {
        var i = left.lowerBound, j = right.lowerBound, k = left.lowerBound
        while i < left.upperBound && j < right.upperBound {
            if isLess(src[j], src[i]) {
                dst[k] = src[j]
                j += 1
            } else {
                dst[k] = src[i]
                i += 1
            }
            k += 1
        }
        while i < left.upperBound {
            dst[k] = src[i]
            i += 1
            k += 1
        }
        while j < right.upperBound {
            dst[k] = src[j]
            j += 1
            k += 1
        }
    }
}

extension RandomAccessCollection where Index == Int {
    /// The elements in `descriptors` order (stable), sorted on the calling thread.
    public func sorted(using descriptors: [KeyComparator<Element>]) -> [Element] {
        let order = (try? IndexSorter.sortedIndices(self, by: descriptors)) ?? []
        return order.map { self[startIndex + Int($0)] }
    }
}

/// Rows shown in a sorted order without copying them: the base collection plus a permutation.
public struct SortedView<Base: RandomAccessCollection>: RandomAccessCollection where Base.Index == Int {
    /// The rows in their own order.
    public let base: Base
    /// nil = the base order.
    @usableFromInline let order: RowPermutation?
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { base.count }
    @inlinable public subscript(position: Int) -> Base.Element {
        base[base.startIndex + (order.map { Int($0[position]) } ?? position)]
    }
    /// The rows of `base` in the order of `permutation` (indices into `base`; nil or of another length: the base order).
    public init(base: Base, permutation: [Int32]? = nil) {
        self.init(base: base, order: permutation.map(RowPermutation.init))
    }

    /// The rows of `base` in `order` (nil or of another length: the base order).
    init(base: Base, order: RowPermutation?) {
        self.base = base
        self.order = order?.count == base.count ? order : nil
    }
}

/// Sorts rows off the main thread, for tables over large data. Each frame, ask it for the
/// view of your rows in your sort order: the old order stays on screen (with `isSorting`
/// set, for a progress cue) until the new one is ready, then it is swapped in. A new order
/// requested mid-sort supersedes the running one. Bump `version` when the rows change.
///
/// ```swift
/// let sorter = TableSorter<File>()
/// let rows = sorter.view(of: files, sortedBy: sortOrder, version: filesVersion)
/// ui.table("files", rows: rows, ...)
/// if sorter.isSorting { ui.text("Sorting…") }
/// ```
@MainActor
public final class TableSorter<Row: Sendable> {
    private struct Request: Sendable {
        var order: [KeyComparator<Row>]
        var version: Int
    }
    private final class Mailbox: Sendable {
        let state = Locked<(generation: Int, result: (generation: Int, order: RowPermutation)?)>((0, nil))
    }
    private let mailbox = Mailbox()
    /// The order shown: the last sort's.
    private var shown: RowPermutation?
    /// The rows version `shown` was computed for: it never reorders other rows.
    private var orderVersion = 0
    private var requested: Request?
    private var generation = 0
    /// Rows at or below this count are sorted in the frame that asks, on the main thread
    /// (default 2,000: a fraction of a millisecond by string, integer and double keys).
    public var synchronousLimit = 2_000
    /// How long, in seconds, the frame that starts a background sort of at most
    /// `waitedRowLimit` rows waits for it (default 2 ms): a sort that lands within it is shown
    /// in that frame, with no frame of the old order; a longer one lands in a later frame. So
    /// past `synchronousLimit` rows, asking for a new order holds a frame at most this long,
    /// on any machine. 0 never waits; waits are cut at 1 s.
    ///
    /// ```swift
    /// sorter.synchronousBudget = 0.004 // a 4 ms frame is fine in this app
    /// ```
    public var synchronousBudget = 0.002
    /// Background sorts of more rows than this are not waited for: so large a sort seldom
    /// lands within `synchronousBudget` (20,000 rows by name take 4.5 ms on one core of the
    /// 2-core machine the benchmarks run on), and the wait would only lengthen the frame.
    public var waitedRowLimit = 50_000
    /// Threads a background sort uses at most: by default every hardware thread but one, which
    /// the frames keep (`WorkerPools.backgroundSortThreads`: 1 on a 2-core machine, 15 on 16).
    /// Sorts of under 128K rows use fewer (`IndexSorter` gives each thread at least 64K rows).
    public var backgroundThreads = WorkerPools.backgroundSortThreads
    /// True while a requested order is being computed.
    public private(set) var isSorting = false
    /// Names the sorts in the frame profiler: a synchronous sort is a scope ("sort 'files'"),
    /// and a frame that swaps a background sort in is said to follow it.
    public let name: String

    /// A sorter naming its sorts `name` in the profiler.
    public init(name: String = "rows") {
        self.name = name
        BackgroundRelease.start()  // before any sort thread: see `BackgroundRelease`
    }

    /// The rows in the most recent finished sort order, starting a background sort when
    /// `order` or `version` changed.
    public func view<Rows: RandomAccessCollection & Sendable>(
        of rows: Rows, sortedBy order: [KeyComparator<Row>], version: Int = 0
    )
        -> SortedView<Rows> where Rows.Element == Row, Rows.Index == Int
    {
        let request = Request(order: order, version: version)
        collectFinished()
        let isCurrent = requested.map { $0.order == order && $0.version == version } ?? false
        if !isCurrent {
            requested = request
            start(request, rows: rows)
        }
        // Rows of another version in the old order would be wrong rows, not an old order: until
        // their own sort lands they show unsorted (with `isSorting` set).
        return SortedView(base: rows, order: orderVersion == version ? shown : nil)
    }

    private func start<Rows: RandomAccessCollection & Sendable>(_ request: Request, rows: Rows)
    where Rows.Element == Row, Rows.Index == Int {
        generation += 1
        let myGeneration = generation
        mailbox.state.withLock { $0.generation = myGeneration }
        if request.order.isEmpty {
            finish(order: nil, version: request.version)
            return
        }
        if rows.count > IndexSorter.maxRows {
            Log.error("'\(name)' has \(rows.count) rows, more than a sort takes (2,147,483,647): shown unsorted")
            finish(order: nil, version: request.version)
            return
        }
        if rows.count <= synchronousLimit {
            FrameProfiler.current?.beginScope("sort", name)
            defer { FrameProfiler.current?.endScope() }
            let sorted = try? IndexSorter.sortedOrder(rows, by: request.order)
            sorted?.releaseSortMemory()  // a few thousand rows' words: cheap to give back here
            finish(order: sorted, version: request.version)
            return
        }
        isSorting = true
        let mailbox = self.mailbox
        let order = request.order
        let threads = min(backgroundThreads, IndexSorter.sortThreads(rows.count))
        let landed = DispatchSemaphore(value: 0)
        let thread = Thread {
            let isCancelled = { mailbox.state.withLock { $0.generation != myGeneration } }
            guard
                let result = try? IndexSorter.sortedOrder(rows, by: order, threads: threads, isCancelled: isCancelled)
            else { return }
            mailbox.state.withLock { state in
                if state.generation == myGeneration { state.result = (myGeneration, result) }
            }
            landed.signal()
            FrameWaker.wake()  // the next frame swaps the new order in
            BackgroundRelease.perform { result.releaseSortMemory() }  // after that frame
        }
        thread.stackSize = 1 << 20
        thread.start()
        guard synchronousBudget > 0, rows.count <= waitedRowLimit else { return }
        FrameProfiler.current?.beginScope("sort", name)
        defer { FrameProfiler.current?.endScope() }
        if landed.wait(timeout: .now() + .nanoseconds(Int(min(synchronousBudget, 1) * 1e9))) == .success {
            collectFinished()
        }
    }

    private func collectFinished() {
        guard isSorting else { return }
        let finished = mailbox.state.withLock { state -> RowPermutation? in
            guard let result = state.result, result.generation == generation else { return nil }
            state.result = nil
            return result.order
        }
        if let finished, let version = requested?.version {
            FrameProfiler.current?.noteTrigger("the sort of '\(name)' finished")
            finish(order: finished, version: version)
        }
    }

    private func finish(order: RowPermutation?, version: Int) {
        // The old order is freed off the frame thread: at 10M rows it is 40 MB (2–3 ms to free).
        BackgroundRelease.release(shown.take())
        shown = order
        orderVersion = version
        isSorting = false
    }
}
