import Dispatch
import Render2D

extension IndexSorter {
    /// Bits a radix pass sorts by: 2,048 buckets, whose counts stay in the L1 cache.
    static let radixDigitBits = 11

    /// Rows ranked, packed or extracted one after another at the low end of the key memory
    /// before the rest go level by level in parallel (`levels(of:)`).
    static let inPlaceSerialRows = 65_536

    /// Bits a row's index takes below its keys in `sortInPlace`.
    static func indexBits(count: Int) -> Int { max(1, Int.bitWidth - (count - 1).leadingZeroBitCount) }

    /// The permutation that orders `count` rows by `fields`, sorted in `memory` (8 bytes a
    /// row) with no other buffer of the rows' size, and left at its start as 32-bit indices
    /// (`RowPermutation(sortedIn:count:)`). Each row becomes one word: its keys' bits, most
    /// significant first, above its index. The words are distinct, so sorting them in place
    /// (`sortWordsInPlace`) gives the stable order without a scratch copy; the indices are then
    /// read out into the memory's first half (the rest: `RowPermutation.releaseSortMemory`).
    ///
    /// Keys wider than the word leaves them keep their most significant bits; rows whose kept
    /// bits tie (in the table's Size, Name, Kind order: the same size) are then put in order
    /// by comparing their keys (`SortKeyField.compare`).
    ///
    /// A string key may hold its ranks in the memory's first half (`SortKeyField.strings`):
    /// each row's word is written only after the ranks it covers were read. At a million rows
    /// the sort's peak is the 8 MB of words, where keys, indices, scratch and the result took 20 MB.
    static func sortInPlace(
        count n: Int, fields: [SortKeyField], in memory: MappedMemory, threads: Int?, isCancelled: () -> Bool
    ) throws(Cancelled) {
        let indexBits = indexBits(count: n)
        let keyBits = fields.reduce(0) { $0 + $1.bits }
        let keptBits = min(keyBits, UInt64.bitWidth - indexBits)
        // Each field's bits in the kept ones, shifted left (or, cut short, right) into place:
        // composed into one function of the row, which calls each field's without copying it.
        var composed: (Int) -> UInt64 = { _ in 0 }
        var top = 0  // the field's offset from the keys' most significant bit
        for field in fields where field.bits > 0 {
            if top < keptBits {
                let value = field.value, shift = keptBits - top - field.bits, rest = composed
                composed = shift >= 0 ? { rest($0) | value($0) << shift } : { rest($0) | value($0) >> -shift }
            }
            top += field.bits
        }
        let keys = composed  // a captured `var` would be read (and retained) for every row
        let raw = memory.bytes
        // Row i's word goes at 8i, over the ranks of rows 2i and 2i + 1: the top level first.
        for level in levels(of: n).reversed() {
            if isCancelled() { throw Cancelled() }
            forEachPart(of: level, threads: threads) { rows in
                for i in rows.reversed() {
                    raw.storeBytes(of: keys(i) << indexBits | UInt64(i), toByteOffset: 8 * i, as: UInt64.self)
                }
            }
        }
        let words = UnsafeMutableBufferPointer(start: raw.bindMemory(to: UInt64.self, capacity: n), count: n)
        try sortWordsInPlace(words, bits: keptBits + indexBits, threads: threads, isCancelled: isCancelled)
        if keptBits < keyBits {
            try orderTies(words, indexBits: indexBits, by: fields, isCancelled: isCancelled)
        }
        // Row i's index goes at 4i, over words already read: the bottom level first.
        let indexMask = UInt64(1) << indexBits - 1
        for level in levels(of: n) {
            forEachPart(of: level, threads: threads) { rows in
                for i in rows {
                    let index = Int32(truncatingIfNeeded: raw.load(fromByteOffset: 8 * i, as: UInt64.self) & indexMask)
                    raw.storeBytes(of: index, toByteOffset: 4 * i, as: Int32.self)
                }
            }
        }
    }

    /// Puts each run of sorted `words` whose kept key bits tie in order by every key, then by
    /// row index.
    private static func orderTies(
        _ words: UnsafeMutableBufferPointer<UInt64>, indexBits: Int, by fields: [SortKeyField],
        isCancelled: () -> Bool
    ) throws(Cancelled) {
        let compares = fields.filter { $0.bits > 0 }.map(\.compare)
        let indexMask = UInt64(1) << indexBits - 1
        var start = 0
        while start < words.count {
            var end = start + 1
            while end < words.count && words[end] >> indexBits == words[start] >> indexBits { end += 1 }
            if end - start > 1 {
                if isCancelled() { throw Cancelled() }
                var run = UnsafeMutableBufferPointer(rebasing: words[start..<end])
                run.sort { x, y in
                    let a = Int(x & indexMask), b = Int(y & indexMask)
                    for compare in compares {
                        let c = compare(a, b)
                        if c != 0 { return c < 0 }
                    }
                    return a < b
                }
            }
            start = end
        }
    }

    /// `0..<n` as the ranges one thread takes in order, then ranges each twice the one
    /// before: `[0, a)`, `[a, 2a)`, `[2a, 4a)`… Rows in one of the doubling ranges touch 8-byte
    /// words and 4-byte slots that no other row of that range touches, so its parts run in parallel.
    static func levels(of n: Int) -> [Range<Int>] {
        var result = [0..<min(n, inPlaceSerialRows)]
        var lower = result[0].upperBound
        while lower < n {
            result.append(lower..<min(n, 2 * lower))
            lower = result.last!.upperBound
        }
        return result
    }

    /// Runs `body` for `rows` in one go when it is the serial first level, else split among threads.
    private static func forEachPart(of rows: Range<Int>, threads: Int?, _ body: (Range<Int>) -> Void) {
        if rows.lowerBound == 0 {
            body(rows)
            return
        }
        let parts = parts(of: rows.count, threads: threads).map {
            ($0.lowerBound + rows.lowerBound)..<($0.upperBound + rows.lowerBound)
        }
        forEach(parts) { _, part in body(part) }
    }

    /// Sorts distinct words below `2^bits` in place, most significant 11 bits first: each
    /// range is counted by its digit and its words swapped into their buckets in cycles
    /// (American flag sort), then each bucket sorted by the next digit (`InPlaceRadix.sort`);
    /// a range of 32 words or fewer is insertion sorted. The first partition runs on one thread; its buckets are
    /// then shared among `threads` (default `sortThreads`) in contiguous runs of about equal
    /// rows. Checks `isCancelled` between the first partition's buckets.
    static func sortWordsInPlace(
        _ words: UnsafeMutableBufferPointer<UInt64>, bits: Int, threads: Int? = nil, isCancelled: () -> Bool
    ) throws(Cancelled) {
        let n = words.count
        guard n > 1 else { return }
        let radix = InPlaceRadix(words: words)
        let digitBits = min(radixDigitBits, bits), buckets = 1 << digitBits
        let shift = bits - digitBits
        var ends = [Int](repeating: 0, count: buckets)
        ends.withUnsafeMutableBufferPointer { ends in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: buckets) { heads in
                radix.partition(0..<n, shift: shift, digitBits: digitBits, ends: ends, heads: heads)
            }
        }
        guard shift > 0 else { return }
        // At most `threads` contiguous runs of buckets, each about n / threads words.
        let k = min(max(1, threads ?? sortThreads(n)), buckets)
        var runs: [Range<Int>] = []
        var first = 0
        for b in 0..<buckets where runs.count < k - 1 && ends[b] >= (runs.count + 1) * n / k {
            runs.append(first..<(b + 1))
            first = b + 1
        }
        if first < buckets { runs.append(first..<buckets) }
        let bucketEnds = ends, bucketRuns = runs
        var cancelled = false
        withoutActuallyEscaping(isCancelled) { isCancelled in
            let shared = BucketWork(radix: radix, ends: bucketEnds, isCancelled: isCancelled)
            let stopped = Locked(false)
            DispatchQueue.concurrentPerform(iterations: bucketRuns.count) { r in
                if !shared.sort(buckets: bucketRuns[r], top: shift) {
                    stopped.withLock { $0 = true }
                }
            }
            cancelled = stopped.withLock { $0 }
        }
        if cancelled { throw Cancelled() }
    }
}

/// One `IndexSorter.sortWordsInPlace`: its words and its partitioning.
struct InPlaceRadix: @unchecked Sendable {  // each thread touches only its own buckets
    let words: UnsafeMutableBufferPointer<UInt64>
    /// Ranges this short are insertion sorted.
    static let insertionLimit = 32
    /// Scratch a thread's `sort` needs: ends and heads for each depth, whose digits take at
    /// least 5 bits (a range of more than `insertionLimit` words).
    static let scratchCount = 2 * (1 << IndexSorter.radixDigitBits) * (UInt64.bitWidth / 5 + 1)

    /// Moves the words of `range` into their buckets by their `digitBits` bits at `shift`;
    /// bucket `b` ends up at `(b == 0 ? range.lowerBound : ends[b - 1])..<ends[b]`.
    func partition(
        _ range: Range<Int>, shift: Int, digitBits: Int, ends: UnsafeMutableBufferPointer<Int>,
        heads: UnsafeMutableBufferPointer<Int>
    ) {
        let buckets = 1 << digitBits, mask = UInt64(buckets - 1)
        @inline(__always) func digit(_ word: UInt64) -> Int { Int(truncatingIfNeeded: (word >> shift) & mask) }
        for b in 0..<buckets { ends[b] = 0 }
        for i in range { ends[digit(words[i])] += 1 }
        var start = range.lowerBound
        for b in 0..<buckets {
            heads[b] = start
            start += ends[b]
            ends[b] = start
        }
        for b in 0..<buckets {
            while heads[b] < ends[b] {
                var word = words[heads[b]]
                var d = digit(word)
                while d != b {  // swap it into its bucket, and carry on with the word it displaces
                    let displaced = words[heads[d]]
                    words[heads[d]] = word
                    heads[d] += 1
                    word = displaced
                    d = digit(word)
                }
                words[heads[b]] = word
                heads[b] += 1
            }
        }
    }

    /// Sorts `range` fully, its words being equal above their lowest `top` bits. A digit is
    /// 11 bits, or fewer for a short range (about half as many buckets as words): 2,048
    /// buckets for a few hundred words cost more to count than the words.
    func sort(_ range: Range<Int>, top: Int, scratch: UnsafeMutableBufferPointer<Int>) {
        if range.count <= Self.insertionLimit {
            insertionSort(range)
            return
        }
        let digitBits = min(IndexSorter.radixDigitBits, top, Int.bitWidth - range.count.leadingZeroBitCount - 1)
        let buckets = 1 << digitBits, shift = top - digitBits
        // This depth's ends and heads; the next depth's come after them.
        let ends = UnsafeMutableBufferPointer(rebasing: scratch[0..<buckets])
        let heads = UnsafeMutableBufferPointer(rebasing: scratch[buckets..<(2 * buckets)])
        partition(range, shift: shift, digitBits: digitBits, ends: ends, heads: heads)
        guard shift > 0 else { return }
        let deeper = UnsafeMutableBufferPointer(rebasing: scratch[(2 * buckets)...])
        var start = range.lowerBound
        for b in 0..<buckets {
            let end = ends[b]
            if end - start > 1 { sort(start..<end, top: shift, scratch: deeper) }
            start = end
        }
    }

    private func insertionSort(_ range: Range<Int>) {
        guard range.count > 1 else { return }
        for i in (range.lowerBound + 1)..<range.upperBound {
            let word = words[i]
            var j = i - 1
            while j >= range.lowerBound && word < words[j] {
                words[j + 1] = words[j]
                j -= 1
            }
            words[j + 1] = word
        }
    }
}

/// The buckets of a first partition, shared by the threads that sort them.
private struct BucketWork: @unchecked Sendable {  // each thread sorts its own run of buckets
    let radix: InPlaceRadix
    let ends: [Int]
    let isCancelled: () -> Bool

    /// Sorts the buckets of `run`, whose words are equal above their lowest `top` bits; false
    /// when cancelled part way.
    func sort(buckets run: Range<Int>, top: Int) -> Bool {
        let scratch = UnsafeMutableBufferPointer<Int>.allocate(capacity: InPlaceRadix.scratchCount)
        defer { scratch.deallocate() }
        for b in run {
            if isCancelled() { return false }
            let start = b == 0 ? 0 : ends[b - 1]
            if ends[b] - start > 1 { radix.sort(start..<ends[b], top: top, scratch: scratch) }
        }
        return true
    }
}
