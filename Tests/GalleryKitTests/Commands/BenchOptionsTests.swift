import XCTest
@testable import GalleryKit
import Profiling

/// `bench`'s command line: what it accepts, and a clear error for what it does not.
final class BenchOptionsTests: XCTestCase {
    func testDamageFiguresAreTheMediansOfEachKindsFrames() throws {
        var samples = DamageBench.Samples()
        samples.totals = [0.3, 0.2, 0.1]
        samples.phases = [[0, 0.2, 0, 0.1], [0, 0.1, 0, 0], [0, 0.3, 0, 0.1]]  // events, build, submit, present
        samples.redrawn = [35_000, 6_026, 80]
        samples.drawCalls = [19, 12, 1]
        let json = DamageBench.figures(samples, full: 4, identical: true)
        let figures = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(figures["total_ms_p50"] as? Double, 0.2)
        XCTAssertEqual(figures["of_full"] as? Double, 0.05)
        XCTAssertEqual(figures["redrawn_px_p50"] as? Int, 6_026)
        XCTAssertEqual(figures["draw_calls_p50"] as? Int, 12)
        XCTAssertEqual(figures["pixel_identical"] as? Bool, true)
        let phases = try XCTUnwrap(figures["phase_p50_ms"] as? [String: Double])
        XCTAssertEqual(phases[FramePhase.build.name], 0.2)
        // Without full frames timed there is no ratio.
        let alone = DamageBench.figures(samples, full: 0, identical: true)
        XCTAssertTrue(alone.contains("\"of_full\":null"), alone)
    }

    func testDamageTimesOneKindAloneOnlyWhenItIsNamed() throws {
        XCTAssertNil(try Bench.parse(["damage"]).only)
        for kind in DamageBench.Kind.allCases {
            XCTAssertEqual(try Bench.parse(["damage", "--only", kind.rawValue]).only, kind.rawValue)
        }
        XCTAssertThrowsError(try Bench.parse(["damage", "--only", "everything"])) { error in
            let message = Bench.message(for: error)
            XCTAssertTrue(message.contains("unknown --only 'everything'"), message)
            XCTAssertTrue(message.contains("full, hover, hover-across, caret, thumbnail"), message)
        }
    }
}
