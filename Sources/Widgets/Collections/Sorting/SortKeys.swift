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
    /// Holds one 32-bit rank per row.
    static func strings(count: Int, reverse: Bool, threads: Int? = nil, string: (Int) -> String) -> SortKeyField {
        var distinct: [String: Int32] = [:]
        var unique: [String] = []
        var ranks = [UInt32](repeating: 0, count: count) // each row's distinct string first, then its rank
        for i in 0..<count {
            let s = string(i)
            if let id = distinct[s] { ranks[i] = UInt32(id); continue }
            let id = Int32(unique.count)
            distinct[s] = id
            unique.append(s)
            ranks[i] = UInt32(id)
        }
        distinct = [:]
        // Every distinct string's natural key, in one buffer.
        var keys: [UInt8] = []
        var offsets: [Int32] = [0] // half the memory of Int offsets: keys of a million rows stay far below 2 GB
        offsets.reserveCapacity(unique.count + 1)
        for s in unique {
            NaturalOrder.appendKey(s, to: &keys)
            offsets.append(Int32(clamping: keys.count))
        }
        var order = Array(0..<Int32(unique.count))
        keys.withUnsafeBufferPointer { k in
            func key(_ u: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: k[Int(offsets[u])..<Int(offsets[u + 1])]) }
            let prefixes = (0..<unique.count).map { NaturalOrder.prefixWord(key($0)) }
            try? IndexSorter.mergeSort(&order, threads: threads, isLess: { a, b in
                let x = prefixes[Int(a)], y = prefixes[Int(b)]
                if x != y { return x < y }
                let c = NaturalOrder.compare(key(Int(a)), key(Int(b)))
                return c != 0 ? c < 0 : unique[Int(a)].utf8.lexicographicallyPrecedes(unique[Int(b)].utf8)
            }, isCancelled: { false })
        }
        var rankOfID = [UInt32](repeating: 0, count: unique.count)
        for (r, u) in order.enumerated() { rankOfID[Int(u)] = UInt32(reverse ? unique.count - 1 - r : r) }
        for i in 0..<count { ranks[i] = rankOfID[Int(ranks[i])] }
        let bits = UInt32.bitWidth - UInt32(max(0, unique.count - 1)).leadingZeroBitCount
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
