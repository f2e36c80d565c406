import Render2D

/// The order a sort leaves rows in: their indices, the first row shown first. A sort's order
/// stays in the mapped memory it was sorted in (`IndexSorter.sortInPlace`): no copy, and the
/// memory goes back to the system whole when the last view of it is dropped. An order given
/// as an array is kept as it is.
@usableFromInline
final class RowPermutation: @unchecked Sendable {  // never written once made
    /// Rows in the order.
    @usableFromInline let count: Int
    /// The indices, when they were given as an array.
    @usableFromInline let array: [Int32]
    /// The indices, when they are in a sort's memory.
    @usableFromInline let mapped: UnsafePointer<Int32>?
    private let memory: MappedMemory?

    /// An order given as an array of indices.
    init(_ array: [Int32]) {
        count = array.count
        self.array = array
        mapped = nil
        memory = nil
    }

    /// The `count` indices `sortInPlace` left at the start of `memory`.
    init(sortedIn memory: MappedMemory, count: Int) {
        self.count = count
        array = []
        mapped = UnsafePointer(memory.bytes.bindMemory(to: Int32.self, capacity: count))
        self.memory = memory
    }

    /// The index of the row shown `i`th.
    @inlinable subscript(i: Int) -> Int32 {
        if let mapped { return mapped[i] }
        return array[i]
    }

    /// Calls `body` with the indices in one buffer.
    @inlinable func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Int32>) throws -> R) rethrows -> R {
        if let mapped { return try body(UnsafeBufferPointer(start: mapped, count: count)) }
        return try array.withUnsafeBufferPointer(body)
    }

    /// The indices as an array (a copy, for an order in a sort's memory).
    var indices: [Int32] { memory == nil ? array : withUnsafeBufferPointer { Array($0) } }

    /// Gives the sort's memory past the indices back to the system: the 4 bytes a row of the
    /// words sorted there. Off the frame thread: at ten million rows that is 40 MB of pages
    /// taken out, which held up a frame in progress by 1–4 ms.
    func releaseSortMemory() { memory?.releasePages(from: count * MemoryLayout<Int32>.stride) }
}
