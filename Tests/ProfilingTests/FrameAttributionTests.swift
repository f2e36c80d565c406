import XCTest
import Foundation
import TestSupport
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Why a frame was slow, computed from its phases, scopes and counters (no SDL), and the
/// Chrome trace's slices nesting exactly.
final class FrameAttributionTests: XCTestCase {
    private func frame(
        events: Double = 0.5, build: Double = 1, submit: Double = 0.5, present: Double = 1,
        scopes: [(String, Int, Double, Double)] = []
    ) -> FrameRecord {
        var f = FrameRecord()
        f.startNs = 1_000_000_000
        f.phaseNs = [events, build, submit, present].map { UInt64($0 * 1e6) }
        let buildStart = f.startNs + f.phaseNs[0]
        f.scopes = scopes.map { name, depth, offset, ms in
            ProfileScope(
                kind: "list", label: name, depth: depth, startNs: buildStart + UInt64(offset * 1e6),
                durationNs: UInt64(ms * 1e6))
        }
        return f
    }

    func testTheHeaviestScopeIsFollowedWhileOneChildHoldsHalfItsParent() {
        let f = frame(
            build: 20,
            scopes: [("browser", 0, 0, 18), ("sidebar", 1, 0, 2), ("files", 1, 2, 15), ("row cache", 2, 2, 5)])
        XCTAssertTrue(f.isOverBudget(16.7))
        XCTAssertEqual(
            f.cause().summary, "build: list 'files' 15.00 ms", "files holds 15 of browser's 18; its child only 5 of 15")
        let spread = frame(build: 20, scopes: [("browser", 0, 0, 18), ("a", 1, 0, 7), ("b", 1, 7, 7)])
        XCTAssertEqual(spread.cause().culprit, "list 'browser'", "no child holds half: the parent is the cause")
        let outside = frame(build: 20, scopes: [("browser", 0, 0, 2)])
        XCTAssertEqual(outside.cause().summary, "build: 18.00 ms outside any scope")
        XCTAssertEqual(outside.cause().culprit, "outside any scope")
    }

    func testUploadsEventsAndThePresentAreNamedWithTheirFigures() {
        var uploads = frame(build: 12)
        uploads.scopes = [
            ProfileScope(
                kind: FrameRecord.uploadKind, label: "images", depth: 0, startNs: uploads.startNs + 500_000,
                durationNs: 11_000_000)
        ]
        uploads.lazy.uploads = 4
        uploads.lazy.uploadBytes = 40 << 20
        uploads.lazy.finished = 4
        XCTAssertEqual(uploads.cause().description, "uploads: 4 textures, 40.0 MB, 11.00 ms, after 4 decodes finished")
        XCTAssertNil(uploads.heaviestScope(), "uploads are not a build scope")

        var events = frame(events: 19)
        events.events = 300
        XCTAssertEqual(events.cause().description, "events: 300 queued, 19.00 ms")

        var present = frame(present: 17)
        XCTAssertEqual(present.cause().description, "present 17.00 ms (GPU)")
        present.presentCounts = false  // it waited for vsync: pacing, not jank
        XCTAssertFalse(present.isOverBudget(16.7))
        XCTAssertNotEqual(present.cause().kind, .present)

        var sorted = frame(build: 30, scopes: [("files", 0, 0, 29)])
        sorted.triggers = ["the sort of 'files' finished"]
        XCTAssertEqual(sorted.cause().description, "build: list 'files' 29.00 ms, after the sort of 'files' finished")
    }

    func testTheReportRanksCausesByTimeLostOverTheBudget() {
        var frames = [frame(build: 30, scopes: [("files", 0, 0, 29)]), frame(present: 20), frame(present: 20), frame()]
        for i in frames.indices { frames[i].index = i }
        let report = JankReport(frames: frames, budgetMs: 16.7)
        XCTAssertEqual(report.janky.map(\.frame), [0, 1, 2])
        XCTAssertEqual(
            report.ranked.map(\.culprit), ["list 'files'", "present"],
            "15.3 ms lost to files, 2 × 5.3 = 10.6 to present")
        XCTAssertEqual(report.ranked.first?.frames, 1)
        XCTAssertEqual(report.ranked.last?.lostMs ?? 0, 2 * (22 - 16.7), accuracy: 0.01)
        let json = try? JSONSerialization.jsonObject(with: Data(report.jankyJSON().utf8)) as? [[String: Any]]
        XCTAssertEqual(json?.first?["cause"] as? String, "build: list 'files' 29.00 ms")
    }

    func testTraceSlicesNestExactlyWhateverTheirNanoseconds() throws {
        // Starts and lengths chosen so that rounding each on its own pushes children past parents.
        var frames: [FrameRecord] = []
        var t: UInt64 = 5_000_999
        for i in 0..<200 {
            var f = FrameRecord()
            f.index = i
            f.startNs = t
            f.phaseNs = [1_999, 3_001_999 + UInt64(i * 777), 999, 2_000_999]
            let buildStart = t + f.phaseNs[0]
            f.scopes = [
                ProfileScope(
                    kind: "split", label: "a", depth: 0, startNs: buildStart + 1, durationNs: f.phaseNs[1] - 1),
                ProfileScope(
                    kind: "table", label: "b", depth: 1, startNs: buildStart + 999, durationNs: f.phaseNs[1] - 999),
                ProfileScope(
                    kind: FrameRecord.uploadKind, label: "images", depth: 0, startNs: buildStart + f.phaseNs[1],
                    durationNs: 0),
            ]
            f.lazy.uploads = 1
            frames.append(f)
            t += f.totalNs + UInt64(i % 3) * 1_001
        }
        let trace = ChromeTrace.json(frames: frames, images: [], workers: 0)
        XCTAssertEqual(try TraceNesting.improperlyNested(trace), [])
        for budget in [Double.infinity, -1, .nan, 1e300] {  // any budget an app sets exports
            XCTAssertFalse(
                ChromeTrace.json(frames: Array(frames.prefix(3)), images: [], workers: 0, budgetMs: budget).isEmpty)
        }
    }
}
