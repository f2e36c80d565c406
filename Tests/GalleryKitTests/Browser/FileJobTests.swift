import XCTest
import Foundation
import TesseraTesting
import TestSupport
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
@testable import GalleryKit

/// File operations run off the main thread, one item at a time, show their progress, and stop
/// between items when cancelled: what was done stays done, the rest is not started.
final class FileJobTests: XCTestCase {
    func testAJobShowsItsProgressAndItsCancelStopsItBetweenItems() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("jobs", count: 2)
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            // Ten items, each let through by the test: the job is where the test says.
            let gate = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var finished: (count: Int, cancelled: Bool)?
            let job = FileJob.start(
                "Copying", items: Array(0..<10),
                each: { item -> Int in
                    gate.wait()
                    return item * 2
                }
            ) { job, results, cancelled in
                browser.fileJobs.removeAll { $0 === job }
                finished = (results.count, cancelled)
            }
            browser.fileJobs.append(job)
            for _ in 0..<3 { gate.signal() }
            XCTAssertTrue(h.frames(until: { job.completed == 3 }, build))
            h.frame(build)
            XCTAssertNotNil(
                h.rect(ofText: "Copying: 3 of 10"), "its progress: \(h.drawnText.filter { $0.contains("of 10") })")
            let bar = try h.find(.progressBar, "Copying: 3 of 10")
            XCTAssertEqual(bar.value, "30 %")
            try h.click(on: "Cancel", build)
            XCTAssertTrue(job.isCancelled)
            XCTAssertNotNil(h.rect(ofText: "Stopping…"))
            gate.signal()  // the item under way ends; no other starts
            XCTAssertTrue(h.frames(until: { finished != nil }, build))
            XCTAssertEqual(finished?.count, 4, "the three let through, and the one under way when it was cancelled")
            XCTAssertEqual(finished?.cancelled, true)
            XCTAssertTrue(browser.fileJobs.isEmpty)
            for _ in 0..<6 { gate.signal() }
        }
    }
}
