import Dispatch

extension IndexSorter {
    /// Bits a radix pass sorts by: 2,048 buckets, whose counts stay in the L1 cache.
    static let radixDigitBits = 11

    /// Stable LSD radix sort of `indices` (which must be `0..<n`, in row order) by one packed
    /// key word a row: a pass per 11 bits of the keys, from the least significant, each
    /// moving the row indices to their bucket in order; a pass whose digit is the same in
    /// every row is skipped. A million rows by size, name and kind (54 bits): five passes,
    /// tens of milliseconds where a merge sort's 20 rounds of comparisons took hundreds.
    /// Only the indices move: a pass reads each row's key where it lies (in row order in the
    /// first pass), so the sort needs one scratch array of indices and no copy of the keys
    /// (a million 64-bit keys: 8 MB less at the peak of a sort).
    ///
    /// On `threads` threads (default `sortThreads`) each pass splits the indices into as many
    /// parts: each part counts its digits, and moves its indices to where the parts before
    /// it leave off in each bucket, which keeps the sort stable. Checks `isCancelled` between passes.
    static func radixSort<Word: FixedWidthInteger & UnsignedInteger & SendableMetatype>(
        _ indices: inout [Int32], by keys: PackedSortKeys<Word>, threads: Int? = nil,
        isCancelled: () -> Bool
    ) throws(Cancelled) {
        let n = indices.count
        guard n > 1, keys.bits > 0 else { return }
        let radix = RadixPasses(keys: keys, count: n, parts: min(max(1, threads ?? sortThreads(n)), n))
        // Every pass's bucket sizes in each part, in one read of the keys (in row order).
        var partCounts = [Int](repeating: 0, count: radix.parts * radix.passes * radix.buckets)
        partCounts.withUnsafeMutableBufferPointer { counts in
            let counts = SendableBuffer(counts)
            DispatchQueue.concurrentPerform(iterations: radix.parts) { part in
                radix.countAllPasses(part: part, into: counts.buffer)
            }
        }
        var scratch = [Int32](repeating: 0, count: n)
        var inScratch = false, moved = false
        try indices.withUnsafeMutableBufferPointer { indices throws(Cancelled) in
            try scratch.withUnsafeMutableBufferPointer { scratch throws(Cancelled) in
                var starts = [Int](repeating: 0, count: radix.parts * radix.buckets)
                for pass in 0..<radix.passes {
                    if isCancelled() { throw Cancelled() }
                    if radix.isConstant(pass: pass, counts: partCounts) { continue }  // one bucket: nothing moves
                    let (from, to) =
                        inScratch
                        ? (SendableBuffer(scratch), SendableBuffer(indices))
                        : (SendableBuffer(indices), SendableBuffer(scratch))
                    starts.withUnsafeMutableBufferPointer { starts in
                        // Each part's counts of this pass: from the first read while nothing has moved (or
                        // one part holds every row), else counted again.
                        if moved && radix.parts > 1 {
                            let shared = SendableBuffer(starts)
                            DispatchQueue.concurrentPerform(iterations: radix.parts) { part in
                                radix.count(pass: pass, part: part, of: from.buffer, into: shared.buffer)
                            }
                        } else {
                            radix.copyCounts(pass: pass, from: partCounts, into: starts)
                        }
                        radix.startsFromCounts(starts)
                        if radix.parts == 1 {
                            radix.scatter(pass: pass, part: 0, from: from.buffer, to: to.buffer, starts: starts)
                        } else {
                            let shared = SendableBuffer(starts)
                            DispatchQueue.concurrentPerform(iterations: radix.parts) { part in
                                radix.scatter(
                                    pass: pass, part: part, from: from.buffer, to: to.buffer, starts: shared.buffer)
                            }
                        }
                    }
                    inScratch.toggle()
                    moved = true
                }
                if inScratch { indices.baseAddress!.update(from: scratch.baseAddress!, count: n) }
            }
        }
    }
}

/// A buffer handed to the threads of one sort, each of which touches only its own part.
struct SendableBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
    init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}

/// The passes of one `IndexSorter.radixSort`: which bits each sorts by, and the counting
/// and moving of one part of the indices. Counts are laid out part by part, bucket by bucket
/// (`starts[part * buckets + bucket]`).
struct RadixPasses<Word: FixedWidthInteger & UnsignedInteger & SendableMetatype>: @unchecked Sendable {
    let words: UnsafeMutableBufferPointer<Word>
    let count: Int, parts: Int
    let passes: Int, buckets: Int
    private let lowest: Int, mask: Word

    init(keys: PackedSortKeys<Word>, count: Int, parts: Int) {
        let digitBits = IndexSorter.radixDigitBits
        words = keys.words
        self.count = count
        self.parts = parts
        passes = (keys.bits + digitBits - 1) / digitBits
        buckets = 1 << digitBits
        lowest = Word.bitWidth - keys.bits  // the keys' least significant bit
        mask = Word(buckets - 1)
    }

    private func bounds(_ part: Int) -> Range<Int> { (part * count / parts)..<((part + 1) * count / parts) }

    @inline(__always)
    private func digit(_ row: Int32, _ pass: Int) -> Int {
        Int((words[Int(row)] >> (lowest + pass * IndexSorter.radixDigitBits)) & mask)
    }

    /// Counts every pass's digits of the rows in `part` (in row order), into
    /// `counts[(part * passes + pass) * buckets + digit]`.
    func countAllPasses(part: Int, into counts: UnsafeMutableBufferPointer<Int>) {
        let base = part * passes * buckets
        for i in bounds(part) {
            let key = words[i] >> lowest
            for p in 0..<passes {
                counts[base + p * buckets + Int((key >> (p * IndexSorter.radixDigitBits)) & mask)] += 1
            }
        }
    }

    /// Whether every row has the same digit in `pass` (every part's counts summed).
    func isConstant(pass: Int, counts: [Int]) -> Bool {
        let b = Int((words[0] >> (lowest + pass * IndexSorter.radixDigitBits)) & mask)
        return (0..<parts).reduce(0) { $0 + counts[($1 * passes + pass) * buckets + b] } == count
    }

    /// This pass's counts for each part from the first read, made while the rows were in row order.
    func copyCounts(pass: Int, from counts: [Int], into starts: UnsafeMutableBufferPointer<Int>) {
        for part in 0..<parts {
            for b in 0..<buckets { starts[part * buckets + b] = counts[(part * passes + pass) * buckets + b] }
        }
    }

    /// Counts this pass's digits of the indices in `part` of `from`.
    func count(
        pass: Int, part: Int, of from: UnsafeMutableBufferPointer<Int32>, into starts: UnsafeMutableBufferPointer<Int>
    ) {
        let base = part * buckets
        for b in 0..<buckets { starts[base + b] = 0 }
        for i in bounds(part) { starts[base + digit(from[i], pass)] += 1 }
    }

    /// Turns the parts' counts into where each part's first index of each bucket goes: bucket
    /// by bucket, part after part.
    func startsFromCounts(_ starts: UnsafeMutableBufferPointer<Int>) {
        var start = 0
        for b in 0..<buckets {
            for part in 0..<parts {
                let c = starts[part * buckets + b]
                starts[part * buckets + b] = start
                start += c
            }
        }
    }

    /// Moves the indices of `part` of `from` to their buckets in `to`, in order.
    func scatter(
        pass: Int, part: Int, from: UnsafeMutableBufferPointer<Int32>, to: UnsafeMutableBufferPointer<Int32>,
        starts: UnsafeMutableBufferPointer<Int>
    ) {
        let base = part * buckets
        for i in bounds(part) {
            let row = from[i]
            let b = base + digit(row, pass)
            let at = starts[b]
            starts[b] = at + 1
            to[at] = row
        }
    }
}
