import Dispatch
import Foundation

/// Frees large buffers off the frame thread. Dropping the last reference to tens of megabytes
/// (a ten-million-row table's old sort order is 40 MB) returns their pages to the system, which
/// took 2–3 ms of the frame that swapped the new order in.
///
/// One thread, `tessera-free`, does the freeing. Start it (`start()`) before the work whose
/// memory it will free, as `TableSorter` does when it is made: a thread takes a malloc arena
/// with its first allocation, and a thread started later took the arena a finished sort thread
/// had left, so the next sort filled a fresh arena while the old one kept its freed pages
/// (a million-row table's peak RSS rose from 192 to 201 MB with a dispatch queue doing this).
///
/// ```swift
/// BackgroundRelease.start()                        // once, early
/// BackgroundRelease.release(permutation.take())    // the old order is freed off this thread
/// permutation = newOrder
/// ```
package enum BackgroundRelease {
    private static let state = Locked<(started: Bool, boxes: [any Releasable], handed: Int, freed: Int)>(
        (false, [], 0, 0))
    private static let wake = DispatchSemaphore(value: 0)
    /// How long the freeing thread waits after being handed something: longer than a frame.
    static let freeingDelayMicroseconds: UInt32 = 20_000

    /// Starts the freeing thread, if it is not running yet.
    package static func start() {
        let starts = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard starts else { return }
        Thread.start(named: "tessera-free") {
            while true {
                wake.wait()
                // Let the frame that handed the buffer over finish first: freed at once, the
                // 10M-row swap frame still took 2.5–3 ms in two runs of three (unmapping 40 MB
                // most likely holds up that frame's page faults); 20 ms later, under 0.6 ms.
                usleep(freeingDelayMicroseconds)
                let boxes = state.withLock { state in
                    defer { state.boxes = [] }
                    return state.boxes
                }
                for box in boxes { box.free() }
                state.withLock { $0.freed += boxes.count }
            }
        }
    }

    /// Frees `value` on the freeing thread (nil: nothing to do), starting it if needed. The
    /// caller must hold no other reference to it, or the last one it drops frees the memory
    /// where it drops it.
    package static func release<Value: Sendable>(_ value: consuming Value?) {
        let box = Box(value)  // moved in; only the freeing thread empties the box
        guard box.holdsValue else { return }
        start()
        state.withLock {
            $0.boxes.append(box)
            $0.handed += 1
        }
        wake.signal()
    }

    /// Runs `work` on the freeing thread, as late as it frees what it is handed: for work that
    /// gives memory back (`MappedMemory.releasePages(from:)`), which also holds up a frame
    /// in progress.
    ///
    /// ```swift
    /// BackgroundRelease.perform { order.releaseSortMemory() }
    /// ```
    package static func perform(_ work: @escaping @Sendable () -> Void) {
        start()
        state.withLock {
            $0.boxes.append(Work(work))
            $0.handed += 1
        }
        wake.signal()
    }

    /// Waits (up to `timeout` seconds) until everything handed over so far is freed (tests).
    @discardableResult
    package static func waitUntilFreed(timeout: Double = 10) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while state.withLock({ $0.freed < $0.handed }) {
            if DispatchTime.now() > deadline { return false }
            usleep(1000)
        }
        return true
    }

    private protocol Releasable: AnyObject, Sendable { func free() }

    /// Work handed to `perform`, run when the thread frees it.
    private final class Work: Releasable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        func free() { run() }
    }

    private final class Box<Value: Sendable>: Releasable, @unchecked Sendable {
        // Never touched by two threads at once: the caller sets and reads it before it appends
        // the box to `state` under its lock, and only the freeing thread, having taken the box
        // out under the same lock, empties it. The box is private to this file.
        private var value: Value?
        var holdsValue: Bool { value != nil }
        init(_ value: consuming Value?) { self.value = value }
        func free() { value = nil }
    }
}
