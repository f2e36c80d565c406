import CSDL2
import Foundation
@testable import Render2D
import XCTest

final class NamedThreadTests: XCTestCase {
    /// A named thread has its name inside, and a `nice` lowers its priority before its body runs,
    /// leaving the starting thread's as it was.
    func testANamedThreadRunsWithItsNameAndNiceness() {
        let seen = Locked<[String: Int32]>([:])
        let done = DispatchSemaphore(value: 0)
        for (name, nice) in [("tessera-test19", Int32(19)), ("tessera-test0", 0)] {
            Thread.start(named: name, nice: nice) {
                seen.withLock { $0[currentThreadName()] = tessera_current_thread_nice() }
                done.signal()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let base = tessera_current_thread_nice()
        XCTAssertEqual(seen.withLock { $0 }, ["tessera-test19": 19, "tessera-test0": base])
        XCTAssertEqual(tessera_current_thread_nice(), base, "the starting thread is left as it was")
    }
}
