import CSDL2
import Render2D
import Imaging

// `@inlinable @inline(__always)` here is measured: a profiler scope is inlined into its
// caller, so with scopes off it costs one branch (`bench scopes`: 12.3 → 1.6 ns a scope).

/// One frame's profiler scopes as they are opened and closed, in buffers the inlined
/// `FrameProfiler.beginScope`/`endScope` write without a bounds, uniqueness or exclusivity
/// check: a scope is two tick reads and a handful of stores. Main thread only; held by one
/// `FrameProfiler`, which frees it (`free`) when it goes.
@usableFromInline
struct ScopeLog {
    /// A scope as recorded: times in ticks (`tessera_ticks`), the label kept beside it.
    @usableFromInline struct Entry {
        @usableFromInline var kind: StaticString
        @usableFromInline var depth: Int
        @usableFromInline var start: UInt64
        @usableFromInline var duration: UInt64
        @usableFromInline init(kind: StaticString, depth: Int, start: UInt64) {
            self.kind = kind
            self.depth = depth
            self.start = start
            duration = 0
        }
    }

    /// At most this many scopes a frame are kept; the ones opened after are not recorded.
    static let maxEntries = 1 << 20

    @usableFromInline var entries: UnsafeMutablePointer<Entry>
    @usableFromInline var labels: UnsafeMutablePointer<String>
    @usableFromInline var count = 0
    @usableFromInline var capacity = 256
    /// Scopes open now, innermost last: indices into `entries`, -1 for one not recorded.
    @usableFromInline var open: UnsafeMutablePointer<Int>
    @usableFromInline var openCount = 0
    @usableFromInline var openCapacity = 64

    init() {
        entries = .allocate(capacity: capacity)
        labels = .allocate(capacity: capacity)
        open = .allocate(capacity: openCapacity)
    }

    /// Frees the buffers; the log is not used after.
    func free() {
        labels.deinitialize(count: count)
        entries.deallocate()
        labels.deallocate()
        open.deallocate()
    }

    /// Opens a scope nested in the open ones.
    @inlinable @inline(__always)
    mutating func begin(_ kind: StaticString, _ label: String) {
        if _slowPath(count == capacity || openCount == openCapacity) {
            guard makeRoom() else { return }
        }
        (labels + count).initialize(to: label)
        entries[count] = Entry(kind: kind, depth: openCount, start: tessera_ticks())
        open[openCount] = count
        openCount += 1
        count += 1
    }

    /// Closes the innermost open scope (nothing when none is open).
    @inlinable @inline(__always)
    mutating func end() {
        guard openCount > 0 else { return }
        openCount -= 1
        let i = open[openCount]
        if i >= 0 { entries[i].duration = tessera_ticks() &- entries[i].start }
    }

    /// Grows the buffers; false when the frame already holds `maxEntries` scopes (the open
    /// stack then still grows, with a -1 that `end` pops without recording).
    @usableFromInline
    mutating func makeRoom() -> Bool {
        if openCount == openCapacity {
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: openCapacity * 2)
            grown.moveInitialize(from: open, count: openCount)
            open.deallocate()
            open = grown
            openCapacity *= 2
        }
        guard count == capacity else { return true }
        guard capacity < Self.maxEntries else {
            open[openCount] = -1
            openCount += 1
            return false
        }
        let newEntries = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        newEntries.moveInitialize(from: entries, count: count)
        entries.deallocate()
        entries = newEntries
        let newLabels = UnsafeMutablePointer<String>.allocate(capacity: capacity * 2)
        newLabels.moveInitialize(from: labels, count: count)
        labels.deallocate()
        labels = newLabels
        capacity *= 2
        return true
    }

    /// Forgets the frame's scopes.
    mutating func reset() {
        labels.deinitialize(count: count)
        count = 0
        openCount = 0
    }

    /// The frame's scopes, closing those left open, with `convert` turning ticks into the
    /// profiler's nanoseconds; the log is empty after.
    mutating func take(_ convert: (_ start: UInt64, _ end: UInt64) -> (start: UInt64, duration: UInt64))
        -> [ProfileScope]
    {
        while openCount > 0 { end() }
        var scopes: [ProfileScope] = []
        scopes.reserveCapacity(count)
        for i in 0..<count {
            let e = entries[i]
            let (start, duration) = convert(e.start, e.start &+ e.duration)
            scopes.append(
                ProfileScope(
                    kind: e.kind, label: (labels + i).move(), depth: e.depth, startNs: start, durationNs: duration))
        }
        count = 0
        return scopes
    }
}
