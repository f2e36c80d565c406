import XCTest
import Foundation
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport
@testable import GalleryKit

/// `profile --compare`: two captures of the same build are noise, everything of it; a scope
/// slowed on purpose is a regression, and only it (and the frame work it is part of).
final class CaptureComparisonTests: XCTestCase {
    /// A capture's frames as `profile` records them: frame work of about 6 ms with a long
    /// tail, a table scope of about 3 ms and a list scope of about 1 ms in each, from `seed`.
    private func frames(seed: UInt64, count: Int = 400, tableFactor: Double = 1) -> [FrameRecord] {
        var rng = SplitMix64(seed: seed)
        func jitter(_ ms: Double) -> Double {
            ms * (0.85 + 0.3 * Double(rng.next() % 10_000) / 10_000) + (rng.next() % 50 == 0 ? ms : 0)
        }
        return (0..<count).map { n in
            var frame = FrameRecord()
            frame.index = n
            frame.startNs = UInt64(n) * 16_000_000
            let table = jitter(3) * tableFactor, list = jitter(1), rest = jitter(2)
            frame.phaseNs[FramePhase.build.rawValue] = UInt64((table + list + rest) * 1e6)
            frame.scopes = [
                ProfileScope(
                    kind: "table", label: "files", depth: 0, startNs: frame.startNs, durationNs: UInt64(table * 1e6)),
                ProfileScope(
                    kind: "list", label: "names", depth: 0, startNs: frame.startNs, durationNs: UInt64(list * 1e6)),
            ]
            return frame
        }
    }

    /// The summary JSON `profile` writes for one script, read back the way `--compare` reads it.
    private func capture(_ frames: [FrameRecord]) throws -> CaptureSamples {
        let json =
            "{\"scripts\":{\"table\":{\"frames\":\(frames.count)," + CaptureSamples.json(CaptureSamples.script(frames))
            + "}}}"
        return try CaptureSamples.parse(Array(json.utf8), name: "summary")
    }

    func testTwoCapturesOfTheSameBuildAreAllNoise() throws {
        for seeds in [(1, 2), (3, 4), (5, 6)] as [(UInt64, UInt64)] {
            let rows = CaptureComparison.compare(
                try capture(frames(seed: seeds.0)), try capture(frames(seed: seeds.1)), resamples: 400)
            XCTAssertEqual(rows.count, 9, "frame work and two scopes, at p50, p95 and p99")
            for row in rows { XCTAssertEqual(row.verdict, .noise, "\(row)") }
            XCTAssertTrue(
                rows.allSatisfy { $0.low <= $0.difference && $0.difference <= $0.high },
                "each interval holds its difference")
        }
    }

    func testAScopeSlowedOnPurposeIsARegressionAndNothingElseIs() throws {
        let a = try capture(frames(seed: 1)), slowed = try capture(frames(seed: 2, tableFactor: 1.5))
        let rows = CaptureComparison.compare(a, slowed, resamples: 400)
        let verdicts = Dictionary(uniqueKeysWithValues: rows.map { ("\($0.measure) \($0.percentile)", $0.verdict) })
        XCTAssertEqual(verdicts["scope table 'files' p50"], .regression)
        XCTAssertEqual(verdicts["scope table 'files' p95"], .regression)
        XCTAssertEqual(verdicts["frame work p50"], .regression, "the frame's work holds the table's")
        for p in ["p50", "p95", "p99"] {
            XCTAssertEqual(verdicts["scope list 'names' \(p)"], .noise, "the untouched scope")
        }
        // And the other way round, an improvement.
        let back = CaptureComparison.compare(slowed, a, resamples: 400)
        XCTAssertEqual(
            back.first { $0.measure == "scope table 'files'" && $0.percentile == "p50" }?.verdict, .improvement)

        let json = CaptureComparison.json(rows, a: "a.json", b: "b.json")
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(parsed["regressions"] as? Int, rows.filter { $0.verdict == .regression }.count)
        XCTAssertTrue(CaptureComparison.table(rows).contains("regression"))
    }

    func testSummariesWithoutSamplesOrWithHostileNumbersAreClearErrorsNotTraps() throws {
        XCTAssertThrowsError(
            try CaptureSamples.parse(Array(#"{"scripts":{"table":{"frames":3}}}"#.utf8), name: "old.json")
        ) {
            XCTAssertTrue("\($0)".contains("no per-frame samples"), "\($0)")
        }
        XCTAssertThrowsError(try CaptureSamples.parse(Array("not json".utf8), name: "x.json")) {
            XCTAssertTrue("\($0)".contains("is not a profile summary"), "\($0)")
        }
        let hostile = #"{"scripts":{"t":{"samples":{"work_ms":[1e300,-5,2],"scope_ms":{"s":[1e308]}}}}}"#
        let samples = try CaptureSamples.parse(Array(hostile.utf8), name: "h.json")
        XCTAssertEqual(samples.scripts["t"]?.work, [1e6, 0, 2])
        let rows = CaptureComparison.compare(samples, samples, resamples: 50)
        XCTAssertFalse(CaptureComparison.table(rows).isEmpty)
    }
}
