import CSDL2
import Dispatch
import Synchronization

/// Wakes a window's frame loop from any thread when background work finishes (a decode, a
/// sort, a header read), so an idle app sleeps in `SDL_WaitEventTimeout` instead of polling.
///
/// A wake-up is one registered SDL user event; while one is queued and not yet seen by the
/// main thread, further wake-ups add none (no event storm from a burst of decodes). One that
/// left the queue unseen (`SDL_FlushEvents`) is replaced by the next wake-up.
///
/// ```swift
/// Thread {
///     let result = work()
///     mailbox.store(result)
///     FrameWaker.wake()          // the loop draws a frame that picks the result up
/// }.start()
/// ```
public enum FrameWaker {
    /// The SDL event type of wake-ups (registered once; `SDL_RegisterEvents` is thread-safe).
    public static let eventType: UInt32 = {
        let type = SDL_RegisterEvents(1)
        return type == UInt32.max ? SDL_USEREVENT.rawValue : type
    }()

    /// What a wake-up is for, so a loop with several windows runs frames only where they help.
    public struct Reason: OptionSet, Sendable {
        public let rawValue: UInt8
        /// A reason for every window: `rawValue` bits as given.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Anything the app's state may show (a task, a folder scan, a setting): every window.
        public static let general = Reason(rawValue: 1)
        /// A decoded image is waiting: only the windows whose image pipeline has one.
        public static let images = Reason(rawValue: 2)
    }

    private static let queued = Atomic<Bool>(false)
    private static let pendingReasons = Atomic<UInt8>(0)
    private static let sent = Atomic<Int>(0)
    /// Signalled with each wake-up event pushed, for loops that cannot block in SDL.
    private static let signal = DispatchSemaphore(value: 0)

    /// Asks for a frame from any thread, for `reason` (every window by default). Does nothing
    /// before SDL's event system is up.
    public static func wake(for reason: Reason = .general) {
        guard SDL_WasInit(SDL_INIT_EVENTS) != 0 else { return }
        pendingReasons.bitwiseOr(reason.rawValue, ordering: .releasing)
        if queued.exchange(true, ordering: .acquiringAndReleasing) && SDL_HasEvent(eventType) == SDL_TRUE { return }
        var event = SDL_Event()
        event.user.type = eventType
        if SDL_PushEvent(&event) == 1 {
            sent.add(1, ordering: .relaxed)
            signal.signal()
        } else {
            queued.store(false, ordering: .releasing)  // filtered or the queue is full: the next one tries again
        }
    }

    /// Wake-up events pushed so far (coalesced ones are not counted).
    public static var wakeEventsSent: Int { sent.load(ordering: .relaxed) }

    /// Waits until a wake-up is pushed or `seconds` pass (for SDL's offscreen and dummy video
    /// drivers, whose `SDL_WaitEventTimeout` polls the queue every millisecond instead of
    /// sleeping). A wake-up pushed earlier may end the wait at once: look at the queue after.
    public static func waitForWake(timeout seconds: Double) {
        guard seconds > 0 else { return }
        _ = signal.wait(timeout: .now() + .nanoseconds(Int(min(seconds, 3600) * 1e9)))
    }

    /// The main thread saw the queued wake-up: the next `wake()` pushes a new one.
    public static func acknowledge() { queued.store(false, ordering: .releasing) }

    /// The reasons of the wake-ups since the last call (empty when there were none).
    public static func takeReasons() -> Reason {
        Reason(rawValue: pendingReasons.exchange(0, ordering: .acquiringAndReleasing))
    }
}
