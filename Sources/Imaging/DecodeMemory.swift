import Foundation
import Render2D

/// The memory that image decodes may hold at once, shared by every decoding thread: with N
/// workers each opening a 100-megapixel photo, the later ones wait for memory instead of
/// running the process out of it, whatever the core count. Requests are served first come,
/// first served, so a large decode is never starved by a stream of small ones; one decode
/// larger than the whole budget still runs, alone.
///
/// ```swift
/// DecodeMemory.shared.acquire(bytes)
/// defer { DecodeMemory.shared.release(bytes) }
/// ```
package final class DecodeMemory: @unchecked Sendable {  // all state is guarded by `condition`
    /// 1 GiB: two 100 MP decodes, or hundreds of camera photos at DCT scale.
    public static let shared = DecodeMemory(limit: 1 << 30)

    public let limit: Int
    private let condition = NSCondition()
    private var inUse = 0
    private var peak = 0
    /// Tickets: a request takes the next one and is served when `serving` reaches it.
    private var nextTicket = 0
    private var serving = 0
    /// The requests waiting, in ticket order (tests).
    private var waiting: [(ticket: Int, bytes: Int)] = []

    public init(limit: Int) { self.limit = max(1, limit) }

    /// Blocks until every earlier request has been served and `bytes` fit in the budget (or
    /// nothing else holds any), then takes them.
    public func acquire(_ bytes: Int) {
        let bytes = max(0, bytes)
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        waiting.append((ticket, bytes))
        while ticket != serving || (inUse > 0 && inUse > limit - bytes) { condition.wait() }
        waiting.removeFirst()
        serving += 1
        inUse += bytes
        peak = max(peak, inUse)
        condition.broadcast()  // the next in line may fit too
        condition.unlock()
    }

    public func release(_ bytes: Int) {
        condition.lock()
        inUse = max(0, inUse - max(0, bytes))
        condition.broadcast()
        condition.unlock()
    }

    /// The most held at once so far (tests, the soak).
    public var peakBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return peak
    }

    /// What the requests waiting now ask for, first in line first (tests).
    public var waitingBytes: [Int] {
        condition.lock()
        defer { condition.unlock() }
        return waiting.map(\.bytes)
    }
}
