import Dispatch
import Render2D

/// One key of a sort as a number per row, below `2^bits`, whose order is the key's order:
/// an integer or double key as its offset from the smallest, a string key as its rank among
/// the distinct strings. `bits` is only as wide as the values need (a file kind: 3 bits).
struct SortKeyField {
    /// The bits every row's value fits in (0: every row has the same key).
    let bits: Int
    /// Row `i`'s value.
    let value: (Int) -> UInt64

    /// A key read as order-preserving words (`IndexSorter.orderedWord`), never stored. When
    /// `ranged`, the words are read twice (once for their range, once when packed) so the
    /// field is only as wide as the range; else it is the whole word (a key sorted alone).
    static func words(count: Int, ranged: Bool, _ word: @escaping (Int) -> UInt64) -> SortKeyField {
        guard ranged else { return SortKeyField(bits: UInt64.bitWidth, value: word) }
        var lo = UInt64.max, hi = UInt64.min
        for i in 0..<count {
            let w = word(i)
            lo = min(lo, w)
            hi = max(hi, w)
        }
        return SortKeyField(bits: UInt64.bitWidth - (hi - lo).leadingZeroBitCount) { word($0) &- lo }
    }

    /// Each row's string ranked among the distinct strings in natural order (`NaturalOrder`:
    /// digit runs by their value, ASCII case-insensitive), then byte order to break ties.
    /// Holds one 32-bit rank per row. `string` is called from several threads at once (it
    /// reads rows): the rows are split among `threads` (default `IndexSorter.sortThreads`),
    /// each finds its part's distinct strings, and the parts' lists are ranked together, a
    /// string found by two parts getting one rank, so the result is the same on any number
    /// of threads and no dictionary of all the distinct strings is ever built.
    static func strings(count: Int, reverse: Bool, threads: Int? = nil, string: (Int) -> String) -> SortKeyField {
        var ranks = [UInt32](repeating: 0, count: count) // each row's index in its part's list first, then its rank
        let parts = max(1, min(threads ?? IndexSorter.sortThreads(count), count))
        let bounds = (0...parts).map { $0 * count / parts }
        var found = [[String]](repeating: [], count: parts)
        ranks.withUnsafeMutableBufferPointer { ids in
            withoutActuallyEscaping(string) { string in
                let shared = DistinctStringParts(ids: ids, string: string)
                let lists = Locked(found)
                DispatchQueue.concurrentPerform(iterations: parts) { k in
                    let strings = shared.distinct(in: bounds[k]..<bounds[k + 1])
                    lists.withLock { $0[k] = strings }
                }
                found = lists.withLock { $0 }
            }
        }
        // The parts' lists one after another (`firstEntry[k]`: where part k's begins).
        let firstEntry = found.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        var entries: [String] = []
        entries.reserveCapacity(firstEntry[parts])
        for k in 0..<parts {
            entries += found[k]
            found[k] = []
        }
        // Every entry's natural key, in one buffer.
        var keys: [UInt8] = []
        var offsets: [Int32] = [0] // half the memory of Int offsets: keys of a million rows stay far below 2 GB
        offsets.reserveCapacity(entries.count + 1)
        for s in entries {
            NaturalOrder.appendKey(s, to: &keys)
            offsets.append(Int32(clamping: keys.count))
        }
        var order = Array(0..<Int32(entries.count))
        keys.withUnsafeBufferPointer { k in
            func key(_ u: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: k[Int(offsets[u])..<Int(offsets[u + 1])]) }
            let prefixes = (0..<entries.count).map { NaturalOrder.prefixWord(key($0)) }
            try? IndexSorter.mergeSort(&order, threads: threads, isLess: { a, b in
                let x = prefixes[Int(a)], y = prefixes[Int(b)]
                if x != y { return x < y }
                let c = NaturalOrder.compare(key(Int(a)), key(Int(b)))
                return c != 0 ? c < 0 : entries[Int(a)].utf8.lexicographicallyPrecedes(entries[Int(b)].utf8)
            }, isCancelled: { false })
        }
        // Equal strings are neighbours in `order`: they share a rank.
        var rankOfEntry = [UInt32](repeating: 0, count: entries.count)
        var rank: UInt32 = 0
        for (i, e) in order.enumerated() {
            if i > 0 && !entries[Int(e)].utf8.elementsEqual(entries[Int(order[i - 1])].utf8) { rank += 1 }
            rankOfEntry[Int(e)] = rank
        }
        let distinct = entries.isEmpty ? 0 : Int(rank) + 1
        if reverse { for e in rankOfEntry.indices { rankOfEntry[e] = UInt32(distinct - 1) - rankOfEntry[e] } }
        entries = []
        ranks.withUnsafeMutableBufferPointer { ids in
            rankOfEntry.withUnsafeBufferPointer { rankOfEntry in
                let shared = DistinctStringParts.Renumbering(ids: ids, rankOfEntry: rankOfEntry)
                DispatchQueue.concurrentPerform(iterations: parts) { k in shared.rank(bounds[k]..<bounds[k + 1], from: firstEntry[k]) }
            }
        }
        let bits = UInt32.bitWidth - UInt32(max(0, distinct - 1)).leadingZeroBitCount
        return SortKeyField(bits: bits) { UInt64(ranks[$0]) }
    }
}

/// Every row's sort keys as one bit string, most significant key first, cut into
/// `wordsPerRow` words: comparing two rows' words in turn compares their keys in turn.
/// The caller deallocates.
struct PackedSortKeys<Word: FixedWidthInteger & UnsignedInteger> {
    /// Row `i`'s words are `words[i * wordsPerRow ..< (i + 1) * wordsPerRow]`.
    let words: UnsafeMutableBufferPointer<Word>
    let wordsPerRow: Int
    /// The keys' bits, from the most significant bit of a row's first word (the rest are 0).
    let bits: Int

    /// Packs field by field: a field lies at the same bits in every row.
    @inline(__always)
    init(_ fields: [SortKeyField], count: Int) {
        let width = Word.bitWidth
        let bits = fields.reduce(0) { $0 + $1.bits }
        let perRow = max(1, (bits + width - 1) / width)
        wordsPerRow = perRow
        self.bits = bits
        words = .allocate(capacity: count * perRow)
        words.initialize(repeating: 0)
        var offset = 0 // where the field starts in a row's bit string
        for field in fields where field.bits > 0 {
            let value = field.value
            if offset % width + field.bits <= width { // within one word
                let k = offset / width, shift = width - offset % width - field.bits
                for i in 0..<count { words[i * perRow + k] |= Word(truncatingIfNeeded: value(i)) << shift }
            } else {
                for i in 0..<count {
                    var v = value(i), left = field.bits, at = offset
                    while left > 0 {
                        let room = width - at % width, take = min(room, left)
                        left -= take
                        words[i * perRow + at / width] |= Word(truncatingIfNeeded: v >> left) << (room - take) // the next `take` bits
                        v &= (1 << left) &- 1
                        at += take
                    }
                }
            }
            offset += field.bits
        }
    }

    func deallocate() { words.deallocate() }
}

/// What the threads of `SortKeyField.strings` share: the rows' string reader and the
/// per-row index buffer, of which each thread writes only its own part's range.
private struct DistinctStringParts: @unchecked Sendable {
    let ids: UnsafeMutableBufferPointer<UInt32>
    let string: (Int) -> String

    /// The distinct strings of `rows`, in order of first appearance; each row's index among
    /// them goes to `ids`.
    func distinct(in rows: Range<Int>) -> [String] {
        var seen: [String: UInt32] = [:]
        var unique: [String] = []
        for i in rows {
            let s = string(i)
            if let id = seen[s] { ids[i] = id; continue }
            let id = UInt32(unique.count)
            seen[s] = id
            unique.append(s)
            ids[i] = id
        }
        return unique
    }

    /// Rewrites each row's index in its part's list as its string's rank.
    struct Renumbering: @unchecked Sendable {
        let ids: UnsafeMutableBufferPointer<UInt32>
        let rankOfEntry: UnsafeBufferPointer<UInt32>

        /// The rows of one part, whose list begins at `firstEntry`.
        func rank(_ rows: Range<Int>, from firstEntry: Int) {
            for i in rows { ids[i] = rankOfEntry[firstEntry + Int(ids[i])] }
        }
    }
}
