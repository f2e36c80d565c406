import XCTest
@testable import Profiling
import Imaging
@testable import GalleryKit

/// What `--report-startup` notes frame by frame: the first frame presented, the first with a
/// thumbnail in every visible cell, and the first with every visible cell sharp.
final class StartupReportTests: XCTestCase {
    private func frame(endingAt ns: UInt64, visible: Int = 0, placeholders: Int = 0, embedded: Int = 0) -> FrameRecord {
        var record = FrameRecord()
        record.startNs = ns - 4_000_000
        record.phaseNs = [1_000_000, 1_000_000, 1_000_000, 1_000_000]
        record.lazy.visibleCells = visible
        record.lazy.placeholderCells = placeholders
        record.lazy.embeddedCells = embedded
        return record
    }

    func testItNotesEachMomentOnceAndIsCompleteWhenEveryVisibleCellIsSharp() throws {
        var report = StartupReport()
        XCTAssertFalse(report.note(nil, scanning: true), "no frame yet")
        XCTAssertFalse(report.note(frame(endingAt: 100_000_000), scanning: true))
        XCTAssertEqual(report.firstFrameNs, 100_000_000)
        XCTAssertEqual(report.firstFramePhases, [1, 1, 1, 1])
        // Scanning: no cells yet, which is not "every visible cell has its thumbnail".
        XCTAssertFalse(report.note(frame(endingAt: 150_000_000), scanning: true))
        XCTAssertNil(report.thumbnailsNs)
        XCTAssertFalse(report.note(frame(endingAt: 200_000_000, visible: 12, placeholders: 3), scanning: false))
        XCTAssertNil(report.thumbnailsNs, "three cells still show placeholders")
        XCTAssertFalse(report.note(frame(endingAt: 250_000_000, visible: 12, embedded: 5), scanning: false))
        XCTAssertEqual(report.thumbnailsNs, 250_000_000, "every cell shows a thumbnail, five of them embedded ones")
        XCTAssertNil(report.sharpNs)
        XCTAssertTrue(report.note(frame(endingAt: 300_000_000, visible: 12), scanning: false))
        XCTAssertEqual(report.sharpNs, 300_000_000)
        XCTAssertEqual(report.firstFrameNs, 100_000_000, "the first frame stays the first")

        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any], report.json)
        XCTAssertEqual((json["first_frame_ns"] as? NSNumber)?.uint64Value, 100_000_000)
        XCTAssertEqual((json["thumbnails_ns"] as? NSNumber)?.uint64Value, 250_000_000)
        XCTAssertEqual((json["sharp_ns"] as? NSNumber)?.uint64Value, 300_000_000)
        XCTAssertEqual((json["first_frame_present_ms"] as? NSNumber)?.doubleValue, 1)
    }

    func testBenchStartupKillsAProgramThatDoesNotReportInTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("startup-timeout-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let hung = folder.appendingPathComponent("hung.sh")
        try "#!/bin/sh\nexec sleep 600\n".write(to: hung, atomically: true, encoding: .utf8)
        chmod(hung.path, 0o755)
        XCTAssertThrowsError(
            try StartupBench.start(
                [hung.path], home: folder.appendingPathComponent("home"), offscreen: true, timeout: 0.5)
        ) { error in
            XCTAssertTrue("\(error)".contains("had not reported after"), "\(error)")
        }
    }
}
