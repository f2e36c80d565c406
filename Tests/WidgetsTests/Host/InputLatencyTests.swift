import XCTest
import Foundation
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Input-to-present latency: each event's SDL timestamp carried to the present of the frame
/// that showed it, summed up per kind, drawn in the inspector and traced; slow scroll frames
/// sorted into Chrome's scroll-jank categories.
final class InputLatencyTests: XCTestCase {
    func testAnEventWaitsFromItsOwnTimestampToThePresent() throws {
        try onMain {
            let h = try Harness()
            let build: (UI) -> Void = { ui in
                ui.scrollView("list", height: 300) { for i in 0..<100 { ui.text("row \(i)") } }
            }
            h.frames(2, build)
            h.inject.mouseMove(to: Point(100, 100))
            h.inject.wheel(dy: -1)
            usleep(40_000)  // the events wait in SDL's queue before the frame reads them
            h.frame(build)
            let frame = try XCTUnwrap(h.host.profiler.lastFrame)
            XCTAssertEqual(Set(frame.inputs.map(\.kind)), [.pointer, .wheel])
            let worst = Dictionary(uniqueKeysWithValues: frame.worstInputLatencyMs.map { ($0.kind, $0.ms) })
            // SDL stamps events to the millisecond: 40 ms of waiting reads as 39 at the least.
            XCTAssertGreaterThanOrEqual(
                try XCTUnwrap(worst[.wheel]), 39, "from when the wheel turned, not when the frame read it")
            XCTAssertLessThan(try XCTUnwrap(worst[.wheel]), 10_000)
            // And an event read at once waits only for its frame.
            h.inject.mouseMove(to: Point(120, 100))
            h.frame(build)
            XCTAssertLessThan(try XCTUnwrap(h.host.profiler.lastFrame?.worstInputLatencyMs.first?.ms), 39)

            let wheel = try XCTUnwrap(h.host.profiler.inputLatency(.wheel))
            XCTAssertEqual(wheel.count, 1)
            XCTAssertEqual(h.host.profiler.inputLatency(.pointer)?.count, 2)
            XCTAssertNil(h.host.profiler.inputLatency(.key))
            let json = h.host.profiler.inputLatencyJSON
            XCTAssertTrue(json.hasPrefix("{\"pointer\":{\"p50\":"), json)
            XCTAssertTrue(json.contains("\"wheel\":{\"p50\":") && json.contains("\"events\":1}"), json)
        }
    }

    func testTheTraceDrawsAFlowFromEachInputToItsFramesPresent() throws {
        try onMain {
            let h = try Harness()
            h.host.profiler.keepsTrace = true
            let build: (UI) -> Void = { ui in ui.text("hello") }
            h.frame(build)
            h.inject.key(.down)
            h.frame(build)
            let json = h.host.profiler.chromeTraceJSON()
            let id = ChromeTrace.inputFlowBase + 1
            XCTAssertTrue(
                json.contains("{\"name\":\"key\",\"cat\":\"input\",\"ph\":\"X\""), "the key, on the input track")
            XCTAssertTrue(
                json.contains("\"ph\":\"s\",\"id\":\(id),\"pid\":1,\"tid\":\(ChromeTrace.inputThread)"),
                "its flow starts there")
            XCTAssertTrue(
                json.contains("\"ph\":\"f\",\"bp\":\"e\",\"id\":\(id),\"pid\":1,\"tid\":\(ChromeTrace.mainThread)"),
                "and ends in its frame")
            XCTAssertEqual(
                json.components(separatedBy: "\"cat\":\"input\",\"ph\":\"s\"").count - 1, 1,
                "one flow: the one key press")
        }
    }

    func testTheFrozenInspectorShowsAFramesInputLatency() throws {
        try onMain {
            let h = try Harness(width: 800, height: 600)
            h.host.showsHUD = true
            let build: (UI) -> Void = { ui in ui.text("hello") }
            h.frames(3, build)
            h.inject.wheel(dy: -1)
            usleep(30_000)
            h.frame(build)
            h.frames(2, build)
            let snapshot = h.host.profiler.recentFrames
            let withInput = try XCTUnwrap(snapshot.lastIndex { !$0.inputs.isEmpty })
            // Freeze on the newest frame, then step back to the one with the wheel.
            let inspector = h.ui.stateBox(WidgetID(parent: .root, "hud.inspector"), InspectorState())
            inspector.value.frozen = snapshot
            inspector.value.selected = withInput
            h.frame(build)
            let lines = h.ui.overlayDrawList.drawnText.map(\.text) + h.ui.contentDrawList.drawnText.map(\.text)
            let line = try XCTUnwrap(lines.first { $0.hasPrefix("input to present: ") }, "\(lines)")
            XCTAssertTrue(line.hasPrefix("input to present: wheel "), line)
        }
    }

    func testSlowScrollFramesFallIntoChromesScrollJankCategories() {
        let budget = 1000.0 / 60
        func frame(ms: Double, inputAgeMs: Double? = nil, scroll: (Double, Double, Bool)) -> FrameRecord {
            var f = FrameRecord()
            f.startNs = 1_000_000_000
            f.phaseNs[FramePhase.build.rawValue] = UInt64(ms * 1e6)
            if let age = inputAgeMs { f.inputs = [InputStamp(kind: .wheel, ns: f.startNs - UInt64(age * 1e6))] }
            f.scroll.inputPoints = scroll.0
            f.scroll.momentumPoints = scroll.1
            f.scroll.flingStarted = scroll.2
            return f
        }
        XCTAssertNil(frame(ms: 10, scroll: (40, 0, false)).scrollJank(budgetMs: budget), "within budget")
        XCTAssertNil(frame(ms: 30, scroll: (0, 0, false)).scrollJank(budgetMs: budget), "slow, but nothing scrolled")
        XCTAssertEqual(frame(ms: 30, inputAgeMs: 25, scroll: (40, 0, false)).scrollJank(budgetMs: budget), .lateInput)
        XCTAssertEqual(frame(ms: 30, inputAgeMs: 2, scroll: (0, 30, true)).scrollJank(budgetMs: budget), .flingStart)
        XCTAssertEqual(
            frame(ms: 30, inputAgeMs: 2, scroll: (200, 0, false)).scrollJank(budgetMs: budget), .fastScroll,
            "200 pt in 30 ms")
        XCTAssertEqual(frame(ms: 30, scroll: (0, 20, false)).scrollJank(budgetMs: budget), .fling)
        XCTAssertEqual(frame(ms: 30, inputAgeMs: 2, scroll: (20, 0, false)).scrollJank(budgetMs: budget), .regular)
    }

    func testAFlickIsNotedAsAFlingStartThenMomentum() throws {
        try onMain {
            let h = try Harness()
            let build: (UI) -> Void = { ui in
                ui.scrollView("list", height: 400) { for i in 0..<300 { ui.text("row \(i)") } }
            }
            h.frames(2, build)
            var y = 300.0
            h.inject.finger(1, .down, at: Point(100, y))
            h.frame(build)
            for _ in 0..<5 {
                y -= 30
                h.inject.finger(1, .moved, at: Point(100, y), delta: Point(0, -30))
                h.frame(build)
                XCTAssertGreaterThan(h.host.profiler.lastFrame?.scroll.inputPoints ?? 0, 0, "the drag scrolls by input")
            }
            h.inject.finger(1, .up, at: Point(100, y))
            h.frame(build)
            XCTAssertEqual(h.host.profiler.lastFrame?.scroll.flingStarted, true, "the release starts a fling")
            h.frame(build)
            let next = try XCTUnwrap(h.host.profiler.lastFrame?.scroll)
            XCTAssertFalse(next.flingStarted)
            XCTAssertGreaterThan(next.momentumPoints, 0, "then momentum carries it")
        }
    }
}
