import XCTest
import Foundation
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// A recording that cannot be written (a full disk, a closed pipe) stops with its reason; it
/// never takes the app down.
final class InputRecorderTests: XCTestCase {
    private let header = RecordingHeader(width: 640, height: 480, scale: 1)
    private let events: [InputEvent] = [.pointerMoved(Point(10, 20))]

    func testAFullDiskIsAnErrorNotATrap() {
        // /dev/full takes the open and refuses every write with ENOSPC.
        XCTAssertThrowsError(try InputRecorder(path: "/dev/full", header: header)) {
            XCTAssertTrue("\($0)".contains("No space left on device"), "\($0)")
        }
    }

    func testAPipeWhoseReaderQuitEndsTheRecording() throws {
        signal(SIGPIPE, SIG_IGN)  // as AppHost and GalleryDemo set it
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        let recorder = try InputRecorder(descriptor: ends[1], path: "a pipe", header: header)
        var buffer = [UInt8](repeating: 0, count: 4096)
        XCTAssertGreaterThan(read(ends[0], &buffer, buffer.count), 0, "the header went through")
        recorder.record(frame: 1, time: Double(1) / 60, events: events)
        XCTAssertNil(recorder.failure)
        close(ends[0])  // the reader quits
        recorder.record(frame: 2, time: Double(2) / 60, events: events)
        XCTAssertEqual(recorder.failure, String(cString: strerror(EPIPE)))
        recorder.record(frame: 3, time: Double(3) / 60, events: events)  // and later frames are simply not recorded
        recorder.close()
    }
}
