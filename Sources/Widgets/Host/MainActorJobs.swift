import CSDL2
import Foundation
import Render2D
import Imaging
import Profiling
import Synchronization

/// Runs the main actor's jobs inside the frame loop, so Swift concurrency works in a Tessera
/// app: `ui.task`, `Task { @MainActor in … }` and `DispatchQueue.main.async` from a button.
///
/// On Linux the main actor's jobs wait in the main dispatch queue, which only a run loop
/// drains, and the frame loop sleeps in SDL instead. A watcher thread sleeps in `poll` on the
/// queue's event descriptor; when a job arrives it wakes the loop (`FrameWaker`), and the next
/// frame runs every waiting job before it builds the UI, so what a job changed is drawn in
/// that frame. No job, no wake-up: an idle app stays at zero frames. `AppHost` starts it.
enum MainActorJobs {
    private static let started = Atomic<Bool>(false)
    /// The watcher saw work and woke the loop; it sleeps until the next frame drains the queue.
    private static let reported = Atomic<Bool>(false)
    private static let drained = DispatchSemaphore(value: 0)

    /// Starts the watcher (once per process).
    static func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let descriptor = _dispatch_get_main_queue_handle_4CF()
        guard descriptor >= 0 else {
            Log.error("the main dispatch queue has no event descriptor: main-actor tasks run only when a frame runs")
            return
        }
        Thread.start(named: "tessera-mainq") {
            while true {
                var watch = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let ready = poll(&watch, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else { return }
                // Left readable: a run loop that drains the queue by itself (XCTest waiting
                // for an expectation) still sees it. The watcher waits for the drain instead.
                reported.store(true, ordering: .releasing)
                FrameWaker.wake()
                drained.wait()
            }
        }
    }

    /// Runs the main actor's waiting jobs (on the main thread, at the start of a frame), if the
    /// watcher saw any. Costs nothing when there are none.
    static func runWaiting() {
        guard reported.exchange(false, ordering: .acquiringAndReleasing) else { return }
        var count: UInt64 = 0
        _ = read(_dispatch_get_main_queue_handle_4CF(), &count, 8)  // re-armed by the next job
        _dispatch_main_queue_callback_4CF(nil)
        drained.signal()
    }
}
