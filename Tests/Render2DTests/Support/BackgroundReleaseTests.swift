import Foundation
@testable import Render2D
import XCTest

final class BackgroundReleaseTests: XCTestCase {
    /// Records the thread its last reference was dropped on.
    private final class Tracked: Sendable {
        let freedOnCallingThread: Locked<Bool?>
        let caller = pthread_self()
        init(_ record: Locked<Bool?>) { freedOnCallingThread = record }
        deinit { freedOnCallingThread.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 } }
    }

    /// The value handed over is freed on the freeing thread, never on the thread that handed it
    /// over, however the two threads interleave; nil is nothing to do.
    func testAValueHandedOverIsFreedOffTheCallingThread() {
        for _ in 0..<50 {
            let record = Locked<Bool?>(nil)
            var held: Tracked? = Tracked(record)
            BackgroundRelease.release(held.take())
            XCTAssertNil(held)
            XCTAssertTrue(BackgroundRelease.waitUntilFreed())
            XCTAssertEqual(record.withLock { $0 }, false, "freed on the calling thread")
        }
        BackgroundRelease.release(Tracked?.none)
        XCTAssertTrue(BackgroundRelease.waitUntilFreed())
    }
}
