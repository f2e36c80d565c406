import XCTest
@testable import Render2D

final class ProfilerTests: XCTestCase {
    func testPercentilesJankAndWarmup() {
        let profiler = FrameProfiler(capacity: 50, warmupFrames: 10)
        var records: [FrameRecord] = []
        for i in 0..<110 {
            var r = FrameRecord()
            r.index = i
            // Warm-up frames are huge; then 1..100 ms of build time.
            r.phaseNs[FramePhase.build.rawValue] = i < 10 ? 900_000_000 : UInt64(i - 9) * 1_000_000
            records.append(r)
        }
        for r in records { profiler.record(r) }
        let s = profiler.workSummary()
        XCTAssertEqual(s.count, 100)
        XCTAssertEqual(s.p50, 50, accuracy: 0.1)
        XCTAssertEqual(s.p99, 99, accuracy: 0.1)
        XCTAssertEqual(s.max, 100, accuracy: 0.1)
        XCTAssertEqual(profiler.jankyFrames, 100 - 16, "frames over 16.7 ms")
        XCTAssertEqual(profiler.recentFrames.count, 50)
        XCTAssertEqual(profiler.recentFrames.last?.index, 109)
        XCTAssertEqual(profiler.recentFrames.first?.index, 60, "ring keeps the newest, oldest first")
    }

    func testChromeTraceIsValidJSONWithEveryPhase() throws {
        let profiler = FrameProfiler()
        profiler.keepsTrace = true
        for _ in 0..<3 {
            profiler.beginFrame()
            for phase in FramePhase.allCases { profiler.endPhase(phase) }
            profiler.endFrame(stats: Renderer.Stats())
        }
        let json = try JSONSerialization.jsonObject(with: Data(profiler.chromeTraceJSON().utf8)) as? [String: Any]
        let events = try XCTUnwrap(json?["traceEvents"] as? [[String: Any]])
        XCTAssertEqual(events.count, 3 * FramePhase.allCases.count)
        XCTAssertEqual(Set(events.compactMap { $0["name"] as? String }), Set(FramePhase.allCases.map(\.name)))
    }

    func testSummaryFormatting() {
        XCTAssertEqual(FrameTimeSummary.format(1.5), "1.500")
        XCTAssertEqual(FrameTimeSummary.format(0.0004), "0.000")
        XCTAssertEqual(FrameTimeSummary.format(12.3456), "12.346")
    }
}
