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

    /// A key read as order-preserving words (`IndexSorter.orderedWord`), never stored. When
    /// `ranged`, the words are read twice (once for their range, on `threads` threads, once
    /// when packed) so the field is only as wide as the range; else it is the whole word (a
    /// key sorted alone). `word` is called from several threads at once.
    static func words(count: Int, ranged: Bool, threads: Int? = nil, _ word: @escaping (Int) -> UInt64) -> SortKeyField
    {
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

    /// Each row's string ranked among the distinct strings in natural order (`NaturalOrder`:
    /// digit runs by their value, ASCII case-insensitive), then byte order to break ties.
    /// Holds one 32-bit rank per row. `string` is called from several threads at once (it
    /// reads rows): the rows are split among `threads` (default `IndexSorter.sortThreads`),
    /// each finds its part's distinct strings, and the parts' lists are ranked together, a
    /// string found by two parts getting one rank, so the result is the same on any number
    /// of threads and no dictionary of all the distinct strings is ever built.
    static func strings(count: Int, reverse: Bool, threads: Int? = nil, string: (Int) -> String) -> SortKeyField {
        var ranks = [UInt32](repeating: 0, count: count)  // each row's index in its part's list first, then its rank
        let parts = IndexSorter.parts(of: count, threads: threads)
        var found = [[String]](repeating: [], count: parts.count)
        ranks.withUnsafeMutableBufferPointer { ids in
            found.withUnsafeMutableBufferPointer { found in
                IndexSorter.forEach(parts) { k, rows in found[k] = distinctStrings(of: rows, string: string, ids: ids) }
            }
        }
        // The parts' lists one after another (`firstEntry[k]`: where part k's begins).
        let firstEntry = found.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        var entries: [String] = []
        entries.reserveCapacity(firstEntry[parts.count])
        for k in parts.indices {
            entries += found[k]
            found[k] = []
        }
        // Every entry's natural key, in one buffer.
        var keys: [UInt8] = []
        var offsets: [Int32] = [0]  // half the memory of Int offsets: keys of a million rows stay far below 2 GB
        offsets.reserveCapacity(entries.count + 1)
        for s in entries {
            NaturalOrder.appendKey(s, to: &keys)
            offsets.append(Int32(clamping: keys.count))
        }
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
                IndexSorter.forEach(parts) { k, rows in
                    // its index in its part's list → its rank
                    for i in rows { ids[i] = rankOfEntry[firstEntry[k] + Int(ids[i])] }
                }
            }
        }
        let bits = UInt32.bitWidth - UInt32(max(0, distinct - 1)).leadingZeroBitCount
        let rowRanks = ranks  // captured as a constant: a captured `var` checks exclusivity on every read
        return SortKeyField(bits: bits) { UInt64(rowRanks[$0]) }
    }

    /// The distinct strings of `rows`, in order of first appearance; each row's index among
    /// them goes to `ids`.
    private static func distinctStrings(
        of rows: Range<Int>, string: (Int) -> String, ids: UnsafeMutableBufferPointer<UInt32>
    ) -> [String] {
        var seen: [String: UInt32] = [:]
        var unique: [String] = []
        for i in rows {
            let s = string(i)
            if let id = seen[s] {
                ids[i] = id
                continue
            }
            let id = UInt32(unique.count)
            seen[s] = id
            unique.append(s)
            ids[i] = id
        }
        return unique
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

    /// Packs field by field, each part of the rows on its own thread (`threads`, default
    /// `IndexSorter.sortThreads`): a field lies at the same bits in every row.
    @inline(__always)
    init(_ fields: [SortKeyField], count: Int, threads: Int? = nil) {
        let width = Word.bitWidth
        let bits = fields.reduce(0) { $0 + $1.bits }
        let perRow = max(1, (bits + width - 1) / width)
        wordsPerRow = perRow
        self.bits = bits
        let words = UnsafeMutableBufferPointer<Word>.allocate(capacity: count * perRow)
        self.words = words
        IndexSorter.forEach(IndexSorter.parts(of: count, threads: threads)) { _, rows in
            UnsafeMutableBufferPointer(rebasing: words[(rows.lowerBound * perRow)..<(rows.upperBound * perRow)])
                .initialize(repeating: 0)
            var offset = 0  // where the field starts in a row's bit string
            for field in fields where field.bits > 0 {
                let value = field.value
                if offset % width + field.bits <= width {  // within one word
                    let k = offset / width, shift = width - offset % width - field.bits
                    for i in rows { words[i * perRow + k] |= Word(truncatingIfNeeded: value(i)) << shift }
                } else {
                    for i in rows {
                        var v = value(i), left = field.bits, at = offset
                        while left > 0 {
                            let room = width - at % width, take = min(room, left)
                            left -= take
                            // the next `take` bits
                            words[i * perRow + at / width] |= Word(truncatingIfNeeded: v >> left) << (room - take)
                            v &= (1 << left) &- 1
                            at += take
                        }
                    }
                }
                offset += field.bits
            }
        }
    }

    func deallocate() { words.deallocate() }
}
