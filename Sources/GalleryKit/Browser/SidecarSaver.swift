import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// Saves folders' sidecars on a thread of its own, so no frame waits for a lock, a write or
/// an fsync: rating 1,000 photos across 1,000 folders queues 1,000 saves and the frame goes
/// on. A folder queued again before its save started is saved once, with its latest edits.
/// The frame loop is woken when saves land; the browser takes them with `takeLanded`.
///
/// ```swift
/// saver.save(folder, current: book.current, base: book.base)
/// // each frame:
/// for landed in saver.takeLanded() { … landed.written … }
/// ```
final class SidecarSaver: Sendable {
    /// A save that ran: what was sent, and what is on disk now (nil: nothing could be written).
    struct Landed: Sendable {
        let folder: String
        let sent: FolderSidecar
        let written: FolderSidecar?
    }
    private struct Job: Sendable { let current: FolderSidecar, base: FolderSidecar }
    private struct State {
        var queued: [String: Job] = [:]
        var order: [String] = []
        var running = 0
        var landed: [Landed] = []
    }
    private let state = Locked(State())
    private let work = DispatchSemaphore(value: 0)
    /// Writes one folder's sidecar: our edits since the base merged into the file (a test
    /// may watch or hold the writes).
    private let write: @Sendable (_ folder: String, _ current: FolderSidecar, _ base: FolderSidecar) -> FolderSidecar?

    init(
        write:
            @escaping @Sendable (_ folder: String, _ current: FolderSidecar, _ base: FolderSidecar) -> FolderSidecar? =
            {
                PhotoSidecars.save(folder: $0, current: $1, base: $2)
            }
    ) {
        self.write = write
        Thread.start(named: "tessera-sidecar", nice: 10) { [self] in run() }  // lives as long as the process
    }

    /// Queues a save of `folder`'s sidecar: our edits since `base` merged into the file.
    func save(_ folder: String, current: FolderSidecar, base: FolderSidecar) {
        let isNew = state.withLock { s -> Bool in
            let isNew = s.queued[folder] == nil
            if isNew { s.order.append(folder) }
            s.queued[folder] = Job(current: current, base: base)
            return isNew
        }
        if isNew { work.signal() }
    }

    /// The saves that ran since the last call, in the order they ran.
    func takeLanded() -> [Landed] {
        state.withLock { s in
            defer { s.landed.removeAll() }
            return s.landed
        }
    }

    /// Whether saves are queued or running.
    var isBusy: Bool { state.withLock { !$0.queued.isEmpty || $0.running > 0 } }

    /// Waits until every queued save ran, `seconds` at most (tests, and quitting); returns
    /// whether they all did.
    @discardableResult
    func waitUntilDone(within seconds: Double) -> Bool {
        let deadline = MonotonicClock.seconds() + max(0, seconds)
        while isBusy {
            if MonotonicClock.seconds() >= deadline { return false }
            usleep(1_000)
        }
        return true
    }

    private func run() {
        while true {
            work.wait()
            let next = state.withLock { s -> (String, Job)? in
                guard !s.order.isEmpty else { return nil }
                let folder = s.order.removeFirst()
                guard let job = s.queued.removeValue(forKey: folder) else { return nil }
                s.running += 1
                return (folder, job)
            }
            guard let (folder, job) = next else { continue }
            let written = write(folder, job.current, job.base)
            state.withLock { s in
                s.running -= 1
                s.landed.append(Landed(folder: folder, sent: job.current, written: written))
            }
            FrameWaker.wake()
        }
    }
}
