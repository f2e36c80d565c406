import XCTest
@testable import GalleryKit

/// The benches' memory figures read /proc/self/status: the peak, and the resident memory split
/// into the process's own pages and pages of mapped files.
final class MemoryFigureTests: XCTestCase {
    func testTheResidentSplitAddsUpToNoMoreThanThePeak() throws {
        let grown = [UInt8](repeating: 1, count: 64 << 20)  // 64 MB of our own, touched
        let kb = processStatusKilobytes(["VmHWM", "RssAnon", "RssFile", "NoSuchField"])
        let anon = try XCTUnwrap(kb["RssAnon"]), file = try XCTUnwrap(kb["RssFile"]), peak = try XCTUnwrap(kb["VmHWM"])
        XCTAssertNil(kb["NoSuchField"])
        XCTAssertGreaterThanOrEqual(anon, 64 << 10, "the 64 MB just touched are the process's own")
        XCTAssertGreaterThan(file, 1024, "the test binary and its libraries are mapped files")
        XCTAssertLessThanOrEqual(anon + file, peak + 1024)
        XCTAssertGreaterThanOrEqual(peakRSSMegabytes(), peak / 1024, "the peak only grows")
        let json = residentSplitJSON()
        XCTAssertTrue(json.hasPrefix("\"rss_mb_now\":{\"anon\":") && json.contains(",\"file\":"), json)
        XCTAssertEqual(grown.count, 64 << 20)
    }
}
