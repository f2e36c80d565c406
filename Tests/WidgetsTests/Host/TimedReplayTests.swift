import XCTest
import Foundation
import TesseraTesting
import Render2D
import Imaging
import Profiling
import DemoSupport
@testable import Widgets

/// A recording plays back at its recorded times: a long press, a double click beside two
/// slow clicks, and a flick recorded with the harness's clock come out the same at both
/// replay speeds, and differently when the recording's clock is wrong.
final class TimedReplayTests: XCTestCase {
    /// What the session leaves behind.
    struct Outcome: Equatable {
        var singleClicks = 0, doubleClicks = 0, longPresses = 0
        var offset = 0.0
    }

    /// A page with a target to click and press, and a list to flick; it keeps its outcome.
    @MainActor
    final class Page {
        static let target = Rect(x: 420, y: 20, width: 200, height: 60)
        var outcome = Outcome()

        func build(_ ui: UI) {
            let r = ui.interact(ui.id("target"), rect: Self.target)
            if r.doubleClicked { outcome.doubleClicks += 1 }
            if r.clicked && ui.input.pointer.clickCount == 1 { outcome.singleClicks += 1 }
            if r.secondaryClicked { outcome.longPresses += 1 }
            ui.scrollView("list", height: 300) {
                for i in 0..<300 { ui.text("row \(i)") }
            }
            outcome.offset = ui.scrollOffset("list").y
        }
    }

    /// Plays the session on `h` with the harness's own timing, recording it to `path`.
    @MainActor
    private static func recordSession(_ h: Harness, to path: String, _ build: (UI) -> Void) throws {
        let target = Page.target
        h.host.recorder = try InputRecorder(path: path, header: RecordingHeader(width: 640, height: 480, scale: 1))
        h.frames(2, build)
        // A double click: two clicks 0.15 s apart.
        let spot = Point(target.midX, target.midY)
        h.inject.mouseMove(to: spot)
        h.frame(build)
        for gap in [0.15, 0.8, 0.5] {  // then a click 0.8 s later: not part of it
            h.inject.mouseButton(.left, down: true, at: spot)
            h.frame(build)
            h.inject.mouseButton(.left, down: false, at: spot)
            h.frame(build)
            h.wait(gap)
        }
        // A long press: a finger held 0.7 s (no frame in between).
        let finger = Point(target.midX, target.midY + 10)
        h.inject.finger(1, .down, at: finger)
        h.frame(build)
        h.wait(0.7)
        h.frame(build)
        h.inject.finger(1, .up, at: finger)
        h.frame(build)
        h.wait(0.5)
        // A flick up on the list: 30 pt every 1/30 s, then the momentum runs out.
        var y = 260.0
        h.inject.finger(2, .down, at: Point(100, y))
        h.frame(build)
        for _ in 0..<6 {
            y -= 30
            h.wait(1.0 / 60)
            h.inject.finger(2, .moved, at: Point(100, y), delta: Point(0, -30))
            h.frame(build)
        }
        h.inject.finger(2, .up, at: Point(100, y))
        h.frame(build)
        h.frames(240, build)
        h.host.recorder?.close()
        h.host.recorder = nil
    }

    /// Records the session into a new file (the caller removes it): its path and outcome.
    @MainActor
    private static func recordedSession() throws -> (path: String, outcome: Outcome) {
        let path = NSTemporaryDirectory() + "tessera-replay-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        let page = Page()
        try Self.recordSession(try Harness(), to: path, page.build)
        return (path, page.outcome)
    }

    func testAReplayEndsWhereTheRecordingDidAtBothSpeeds() throws {
        try onMain {
            let (path, recorded) = try Self.recordedSession()
            defer { unlink(path) }
            XCTAssertEqual(recorded.doubleClicks, 1, "one double click")
            XCTAssertEqual(recorded.singleClicks, 2, "the double click's first click, and the click 0.8 s after it")
            XCTAssertEqual(recorded.longPresses, 1)
            XCTAssertGreaterThan(recorded.offset, 200, "the flick carried the list on")

            let replay = try InputReplay(path: path)
            XCTAssertEqual(replay.header.width, 640)
            for speed in ReplaySpeed.allCases {
                let again = Page()
                let r = try Harness()
                let started = MonotonicClock.seconds()
                r.host.play(replay, speed: speed, again.build)
                let replayed = again.outcome
                XCTAssertEqual(replayed.doubleClicks, recorded.doubleClicks, "\(speed)")
                XCTAssertEqual(replayed.singleClicks, recorded.singleClicks, "\(speed)")
                XCTAssertEqual(replayed.longPresses, recorded.longPresses, "\(speed)")
                XCTAssertEqual(replayed.offset, recorded.offset, accuracy: 1, "\(speed)")
                if speed == .recorded {
                    XCTAssertGreaterThanOrEqual(
                        MonotonicClock.seconds() - started, replay.duration,
                        "real time: the recorded gaps are waited out")
                }
            }
        }
    }

    /// The same check with the recording's clock wrong on purpose (every frame 1/60 s after
    /// the last, as replays used to run): the session ends elsewhere.
    func testAReplayWithTheClockWrongEndsElsewhere() throws {
        try onMain {
            let (path, recorded) = try Self.recordedSession()
            defer { unlink(path) }
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            var frames = try lines.dropFirst().map { try JSONDecoder().decode(RecordedFrame.self, from: Data($0.utf8)) }
            for i in frames.indices { frames[i].time = Double(i) / 60 }
            let wrong =
                [String(lines[0])] + frames.map { String(decoding: try! JSONEncoder().encode($0), as: UTF8.self) }
            let replay = try InputReplay(bytes: Array(wrong.joined(separator: "\n").utf8), name: "wrong clock")
            let again = Page()
            let r = try Harness()
            r.host.play(replay, speed: .max, again.build)
            let replayed = again.outcome
            XCTAssertNotEqual(replayed, recorded)
            XCTAssertEqual(replayed.longPresses, 0, "a finger held 0.7 s, replayed 1/60 s: a tap")
            XCTAssertEqual(replayed.doubleClicks, 1)
            XCTAssertLessThan(
                replayed.singleClicks + replayed.longPresses, recorded.singleClicks + recorded.longPresses,
                "the slow click, replayed 1/60 s later, is a triple click's third")
            XCTAssertNotEqual(replayed.offset, recorded.offset, accuracy: 1, "the flick, twice as fast")
        }
    }

    func testRecordingsWithTimesOutOfRangeAreRefused() {
        let header = #"{"version":2,"width":640,"height":480,"scale":1}"#
        for time in ["-1", "1e300", "700000"] {
            let text = header + "\n" + #"{"frame":1,"time":\#(time),"events":[]}"#
            XCTAssertThrowsError(try InputReplay(bytes: Array(text.utf8), name: "bad")) {
                XCTAssertTrue("\($0)".contains("out of range"), "\($0)")
            }
        }
    }
}
