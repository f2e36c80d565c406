#if canImport(Glibc)
    import Glibc
#endif

/// A large buffer mapped from the system rather than allocated: its pages cost no memory until
/// written (and read as zero until then), and they go back to the system when it is released,
/// or sooner with `releasePages(from:)`. malloc keeps freed memory of its own for reuse, so a
/// large temporary it served (a sort's keys) stayed resident after the work was done.
///
/// ```swift
/// let keys = MappedMemory(count: rows * 8)
/// keys.bytes.storeBytes(of: UInt64(42), toByteOffset: 0, as: UInt64.self)
/// keys.releasePages(from: rows * 4)  // only the first half is still needed
/// ```
package final class MappedMemory: @unchecked Sendable {  // its users split the bytes among threads
    /// The first byte.
    package let bytes: UnsafeMutableRawPointer
    /// Bytes mapped.
    package let count: Int
    /// False when the system refused the mapping and the bytes came from `calloc` instead.
    private let isMapped: Bool

    /// `count` bytes (at least one), zero. Stops the process, as any allocation does, when
    /// there is no memory for them.
    package init(count: Int) {
        self.count = max(1, count)
        if let memory = mmap(nil, self.count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            memory != MAP_FAILED
        {
            bytes = memory
            isMapped = true
        } else if let memory = calloc(self.count, 1) {
            bytes = memory
            isMapped = false
        } else {
            fatalError("out of memory for \(count) bytes")
        }
    }

    /// Gives the pages wholly past `offset` back to the system: they read as zero if touched again.
    package func releasePages(from offset: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (max(0, offset) + page - 1) / page * page
        guard isMapped, start < count else { return }
        madvise(bytes + start, count - start, MADV_DONTNEED)
    }

    /// Bytes backed by memory now, counted a system page at a time (`mincore`; all of them
    /// when the bytes came from `calloc`).
    package var residentBytes: Int {
        guard isMapped else { return count }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (count + page - 1) / page)
        guard mincore(bytes, count, &resident) == 0 else { return count }
        return resident.reduce(0) { $0 + Int($1 & 1) } * page
    }

    deinit {
        if isMapped { munmap(bytes, count) } else { free(bytes) }
    }
}
