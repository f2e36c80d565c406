import Dispatch
import Render2D

#if canImport(Glibc)
    import Glibc
#endif

extension SortKeyField {
    /// Each row's string ranked among the distinct strings in natural order (`NaturalOrder`:
    /// digit runs by their value, ASCII case-insensitive), then byte order to break ties.
    /// `string` is called from several threads at once (it reads rows): the rows are split
    /// among `threads` (default `IndexSorter.sortThreads`), each finds its part's distinct
    /// strings (`DistinctStrings`), and the parts' lists are ranked together, a string found
    /// by two parts getting one rank, so the result is the same on any number of threads and
    /// no table of all the distinct strings is ever built.
    ///
    /// A rank takes one byte a row when there are at most 256 distinct strings (a file kind),
    /// else four, in the first half of `memory` when it is offered (`IndexSorter.sortInPlace`
    /// then packs the keys over them: `ranksInKeyMemory`), else in memory of their own.
    static func strings(
        count: Int, reverse: Bool, threads: Int? = nil, offering memory: MappedMemory? = nil,
        string: @escaping (Int) -> String
    ) -> SortKeyField {
        let parts = IndexSorter.parts(of: count, threads: threads)
        // Each row's index in its part's list first: a byte, until a part finds a 257th string.
        let byteIDs = RowRanks<UInt8>(count: count)
        if let found = DistinctStrings.find(in: parts, string: string, ids: byteIDs.ranks, limit: 256) {
            let table = StringRanks(found, reverse: reverse, threads: threads)
            if table.distinct <= 256 { return table.field(ranking: byteIDs, into: byteIDs, in: parts, string: string) }
            return table.field(
                ranking: byteIDs, into: RowRanks<UInt32>(count: count, in: memory), in: parts, string: string)
        }
        let ids = RowRanks<UInt32>(count: count, in: memory)
        let found = DistinctStrings.find(in: parts, string: string, ids: ids.ranks, limit: nil)!
        return StringRanks(found, reverse: reverse, threads: threads).field(
            ranking: ids, into: ids, in: parts, string: string)
    }
}

/// The distinct strings of some rows, found through an open-addressing table of 8-byte slots
/// (a 32-bit hash and an entry number). A dictionary keyed by the strings took 20 bytes a
/// slot and kept a second copy of each string for its list: 5 MB at the peak for the table
/// scene's 70,000 names, where this takes 3.
struct DistinctStrings {
    /// The distinct strings, in order of first appearance.
    private(set) var strings: [String] = []
    /// A string's hash in the high half, its entry number + 1 in the low half (0: empty); a
    /// power of two long, at most three quarters full (70,000 names: 1 MB of slots, not 2).
    /// The hash picks the slot and skips most string comparisons, and the table grows
    /// without hashing a string again.
    private var slots = [UInt64](repeating: 0, count: 1024)
    /// Seeds the hashes, so no file names can be chosen to collide on every run.
    private let seed: Int

    init(seed: Int) { self.seed = seed }

    /// Each part's distinct strings, each row's index among its part's going to `ids`; nil as
    /// soon as a part has more than `limit`.
    static func find<ID: FixedWidthInteger & UnsignedInteger>(
        in parts: [Range<Int>], string: (Int) -> String, ids: UnsafeMutableBufferPointer<ID>, limit: Int?
    ) -> [[String]]? {
        var found = [[String]?](repeating: [], count: parts.count)
        let seed = Int.random(in: .min ... .max)
        found.withUnsafeMutableBufferPointer { found in
            IndexSorter.forEach(parts) { k, rows in
                var table = DistinctStrings(seed: seed)
                for i in rows {
                    let entry = table.entry(for: string(i))
                    if let limit, entry >= limit {
                        found[k] = nil
                        return
                    }
                    ids[i] = ID(entry)
                }
                found[k] = table.strings
            }
        }
        return found.contains { $0 == nil } ? nil : found.map { $0! }
    }

    /// The entry of `text`, added if it is new. Strings are the same when their bytes are.
    mutating func entry(for text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            let hash = Self.hash(bytes, seed: seed) & 0xFFFF_FFFF
            let mask = slots.count - 1
            var slot = Int(hash) & mask
            while slots[slot] != 0 {
                let entry = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if slots[slot] >> 32 == hash && Self.sameBytes(bytes, strings[entry]) { return entry }
                slot = (slot + 1) & mask
            }
            let entry = strings.count
            strings.append(String(decoding: bytes, as: UTF8.self))
            slots[slot] = hash << 32 | UInt64(entry + 1)
            if 4 * strings.count > 3 * slots.count { grow() }
            return entry
        }
    }

    /// A hash of `bytes`, eight at a time: a file name takes two or three multiplications
    /// where `Hasher` took as many rounds of SipHash.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: Int) -> UInt64 {
        @inline(__always) func mix(_ x: UInt64) -> UInt64 {
            var x = x
            x ^= x >> 32
            x &*= 0xD6E8_FEB8_6659_FD93
            x ^= x >> 32
            return x
        }
        var h = UInt64(truncatingIfNeeded: seed) ^ UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
        var i = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= bytes.count {
                h = mix(h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
        }
        var tail: UInt64 = 0
        for k in i..<bytes.count { tail |= UInt64(bytes[k]) << (8 * (k - i)) }
        return mix(mix(h ^ tail) ^ UInt64(truncatingIfNeeded: seed))
    }

    private static func sameBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ other: String) -> Bool {
        var other = other
        return other.withUTF8 { b in
            b.count == bytes.count && (b.isEmpty || memcmp(b.baseAddress!, bytes.baseAddress!, b.count) == 0)
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: 2 * old.count)
        let mask = slots.count - 1
        for taken in old where taken != 0 {
            var slot = Int(taken >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = taken
        }
    }
}

/// The parts' lists of distinct strings (`SortKeyField.strings`), one after another, ranked.
private struct StringRanks {
    /// Where part k's list begins among the entries.
    let firstEntry: [Int]
    /// Each entry's rank: equal strings found by two parts share one.
    let rankOfEntry: [UInt32]
    /// Distinct strings in all.
    let distinct: Int
    let reverse: Bool

    /// Ranks `found`: each part's distinct strings.
    init(_ found: [[String]], reverse: Bool, threads: Int?) {
        self.reverse = reverse
        firstEntry = found.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        let entries = found.count == 1 ? found[0] : Array(found.joined())  // one part's list is not copied
        // Every entry's natural key, in one buffer.
        var keys: [UInt8] = []
        var offsets: [Int32] = [0]  // half the memory of Int offsets: keys of a million rows stay far below 2 GB
        offsets.reserveCapacity(entries.count + 1)
        for s in entries {
            NaturalOrder.appendKey(s, to: &keys)
            offsets.append(Int32(clamping: keys.count))
        }
        func bytesPrecede(_ a: Int32, _ b: Int32) -> Bool {
            entries[Int(a)].utf8.lexicographicallyPrecedes(entries[Int(b)].utf8)
        }
        func sameBytes(_ a: Int32, _ b: Int32) -> Bool { entries[Int(a)].utf8.elementsEqual(entries[Int(b)].utf8) }
        var order = Array(0..<Int32(entries.count))
        keys.withUnsafeBufferPointer { k in
            func key(_ u: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: k[Int(offsets[u])..<Int(offsets[u + 1])])
            }
            let prefixes = (0..<entries.count).map { NaturalOrder.prefixWord(key($0)) }
            try? IndexSorter.mergeSort(
                &order, threads: threads,
                isLess: { a, b in
                    let x = prefixes[Int(a)], y = prefixes[Int(b)]
                    if x != y { return x < y }
                    let c = NaturalOrder.compare(key(Int(a)), key(Int(b)))
                    return c != 0 ? c < 0 : bytesPrecede(a, b)
                }, isCancelled: { false })
        }
        // Equal strings are neighbours in `order`: they share a rank.
        var rankOfEntry = [UInt32](repeating: 0, count: entries.count)
        var rank: UInt32 = 0
        for (i, e) in order.enumerated() {
            if i > 0 && !sameBytes(order[i - 1], e) { rank += 1 }
            rankOfEntry[Int(e)] = rank
        }
        distinct = entries.isEmpty ? 0 : Int(rank) + 1
        if reverse { for e in rankOfEntry.indices { rankOfEntry[e] = UInt32(distinct - 1) - rankOfEntry[e] } }
        self.rankOfEntry = rankOfEntry
    }

    /// The field of the rows whose indices in their part's list are `ids`, their ranks written
    /// to `ranks` (which may be `ids` itself).
    func field<ID: FixedWidthInteger & UnsignedInteger, Rank: FixedWidthInteger & UnsignedInteger>(
        ranking ids: RowRanks<ID>, into ranks: RowRanks<Rank>, in parts: [Range<Int>],
        string: @escaping (Int) -> String
    ) -> SortKeyField {
        let from = ids.ranks, to = ranks.ranks
        rankOfEntry.withUnsafeBufferPointer { rankOfEntry in
            let firstEntry = self.firstEntry
            IndexSorter.forEach(parts) { k, rows in
                for i in rows { to[i] = Rank(truncatingIfNeeded: rankOfEntry[firstEntry[k] + Int(from[i])]) }
            }
        }
        let bits = UInt32.bitWidth - UInt32(max(0, distinct - 1)).leadingZeroBitCount
        let value: (Int) -> UInt64 = { UInt64(ranks.ranks[$0]) }
        guard ranks.isInKeyMemory else { return SortKeyField(bits: bits, value: value) }
        // The ranks are overwritten when the keys are packed: ties are broken on the strings.
        return SortKeyField(
            bits: bits, value: value, compare: SortKeyField.comparedOnly(strings: string, reverse: reverse).compare,
            ranksInKeyMemory: true)
    }
}

/// One rank a row, for `SortKeyField.strings`, in mapped memory: the first bytes of a sort's
/// key memory when it lends them, else memory of their own. Kept alive by the field reading it.
final class RowRanks<Rank: FixedWidthInteger & UnsignedInteger>: @unchecked Sendable {  // threads write their own rows
    let ranks: UnsafeMutableBufferPointer<Rank>
    /// Whether the memory is the sort's key memory, lent.
    let isInKeyMemory: Bool
    /// Kept mapped while the ranks are read.
    private let memory: MappedMemory

    init(count: Int, in keyMemory: MappedMemory? = nil) {
        let bytes = max(1, count * MemoryLayout<Rank>.stride)
        isInKeyMemory = keyMemory.map { $0.count >= bytes } ?? false
        memory = isInKeyMemory ? keyMemory! : MappedMemory(count: bytes)
        ranks = UnsafeMutableBufferPointer(start: memory.bytes.bindMemory(to: Rank.self, capacity: count), count: count)
    }
}
