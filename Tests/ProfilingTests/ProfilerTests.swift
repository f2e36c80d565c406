import XCTest
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

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

    func testChromeTraceIsValidJSONWithPhasesWorkersAndImageFlows() throws {
        let profiler = FrameProfiler()
        profiler.keepsTrace = true
        for _ in 0..<3 {
            profiler.beginFrame()
            for phase in FramePhase.allCases { profiler.endPhase(phase) }
            var lazy = LazyPathCounters()
            lazy.uploads = 1
            lazy.visibleCells = 12
            profiler.recordLazyPath(lazy)
            profiler.endFrame(stats: Renderer.Stats())
        }
        let t0 = profiler.trace[0].startNs
        let images = [
            ImageTimeline(
                path: "/p/a \"quoted\".jpg", requestedNs: t0 + 1_000, firstVisibleNs: t0 + 1_000,
                startedNs: t0 + 2_000_000,
                decodedNs: t0 + 6_000_000, uploadedNs: t0 + 7_000_000, firstDrawnNs: t0 + 8_000_000, worker: 1,
                dctScale: 4),
            ImageTimeline(
                path: "/p/broken.jpg", requestedNs: t0 + 2_000, startedNs: t0 + 3_000_000, decodedNs: t0 + 3_500_000,
                worker: 0, failure: "the file is truncated"),
        ]
        let json =
            try JSONSerialization.jsonObject(with: Data(profiler.chromeTraceJSON(images: images, workers: 2).utf8))
            as? [String: Any]
        let events = try XCTUnwrap(json?["traceEvents"] as? [[String: Any]])
        let phases = events.filter { $0["cat"] as? String == "phase" }
        XCTAssertEqual(phases.count, 3 * FramePhase.allCases.count)
        XCTAssertEqual(Set(phases.compactMap { $0["name"] as? String }), Set(FramePhase.allCases.map(\.name)))
        XCTAssertEqual(events.filter { $0["name"] as? String == "frame" }.count, 3)
        let threadNames = events.filter { $0["name"] as? String == "thread_name" }.compactMap {
            ($0["args"] as? [String: Any])?["name"] as? String
        }
        XCTAssertEqual(
            Set(threadNames), ["expected frames", "actual frames", "main (UI)", "input", "decode 0", "decode 1"])
        let decodes = events.filter { $0["cat"] as? String == "decode" }
        XCTAssertEqual(
            decodes.compactMap { $0["tid"] as? Int }.sorted(), [100, 101], "each decode on its worker's thread")
        XCTAssertEqual(decodes.first { $0["tid"] as? Int == 101 }?["name"] as? String, "a \"quoted\".jpg")
        XCTAssertEqual(decodes.first { $0["tid"] as? Int == 101 }?["dur"] as? Int, 4000)
        let flow = events.filter { $0["cat"] as? String == "image" && $0["id"] as? Int == 1 }.compactMap {
            $0["ph"] as? String
        }
        XCTAssertEqual(flow, ["s", "t", "t", "f"], "requested → decoded → uploaded → first drawn")
        XCTAssertEqual(
            events.filter { $0["cat"] as? String == "image" && $0["id"] as? Int == 2 }.compactMap {
                $0["ph"] as? String
            }, ["s", "f"])
        XCTAssertEqual(events.filter { $0["ph"] as? String == "C" }.count, 3, "a counter sample per frame")
    }

    func testSummaryFormatting() {
        XCTAssertEqual(FrameTimeSummary.format(1.5), "1.500")
        XCTAssertEqual(FrameTimeSummary.format(0.0004), "0.000")
        XCTAssertEqual(FrameTimeSummary.format(12.3456), "12.346")
    }
}
