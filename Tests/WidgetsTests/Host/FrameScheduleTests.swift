import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Frames on demand: `AppHost.runOnce` with the harness's virtual clock and injected events.
/// A frame runs after input, at the times widgets ask for, and when a worker wakes the loop;
/// otherwise `runOnce(timeout:)` returns false.
final class FrameScheduleTests: XCTestCase {
    /// Runs on-demand frames until none is due, advancing the virtual clock a refresh per
    /// frame; returns how many ran (at most `limit`).
    @MainActor
    @discardableResult
    private static func drain(_ h: Harness, limit: Int = 600, _ build: (UI) -> Void) -> Int {
        var n = 0
        while n < limit && h.host.runOnce(timeout: 0, build) {
            n += 1
            h.wait(1.0 / 60)
        }
        return n
    }

    func testNothingChangesSoNoFrameIsDrawn() throws {
        try onMain {
            let h = try Harness()
            var on = true, text = "name", value = 0.3
            var builds = 0
            let build: (UI) -> Void = { ui in
                builds += 1
                ui.vstack {
                    ui.text("A still window")
                    _ = ui.button("OK")
                    ui.toggle("Option", isOn: &on)
                    ui.textField("t", text: &text)
                    ui.slider("s", value: &value, in: 0...1)
                }
            }
            XCTAssertEqual(Self.drain(h, build), 1, "the first frame, then nothing")
            for _ in 0..<5 {
                h.wait(1)
                XCTAssertFalse(h.host.runOnce(timeout: 0, build))
            }
            // Really asleep: a real 0.3 s wait passes with no wake-up and no frame.
            let wakeups = h.host.wakeups
            let start = MonotonicClock.seconds()
            XCTAssertFalse(h.host.runOnce(timeout: 0.3, build))
            XCTAssertGreaterThanOrEqual(MonotonicClock.seconds() - start, 0.29)
            XCTAssertEqual(h.host.wakeups, wakeups)
            XCTAssertEqual(builds, 1)
            // Input draws a frame at once, plus one to settle, then sleeps again.
            h.inject.mouseMove(to: Point(20, 20))
            XCTAssertEqual(Self.drain(h, build), 2)
        }
    }

    func testAThumbnailFinishedOnAWorkerWakesTheLoopAndThatFrameDrawsIt() throws {
        try onMain {
            let h = try Harness()
            let open = Locked(false)
            let images = ImagePipeline(renderer: h.host.window.renderer, workers: 1) { key in
                while !open.withLock({ $0 }) { usleep(1_000) }
                let red = PixelBuffer(
                    width: 8, height: 8,
                    bytes: [UInt8](repeating: 0, count: 8 * 8 * 4).enumerated().map {
                        $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0
                    })
                return .success(
                    DecodedThumbnail(
                        pixels: red, info: ImageInfo(format: .png, width: 8, height: 8, orientation: 1), dctScale: 1))
            }
            defer { images.shutdown() }
            h.ui.images = images
            let build: (UI) -> Void = { ui in
                _ = ui.asyncImage("/virtual/red.png", in: Rect(x: 10, y: 10, width: 100, height: 100))
            }
            Self.drain(h, build)
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, 1)
            XCTAssertFalse(h.host.runOnce(timeout: 0.2, build), "waiting for the decoder is no reason to draw")
            open.withLock { $0 = true }
            XCTAssertTrue(h.host.runOnce(timeout: 5, build), "the worker's wake-up starts a frame")
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.uploads, 1, "that frame uploads the thumbnail")
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, 0, "and draws it")
            XCTAssertEqual(h.pixels.pixel(x: 60, y: 60), Color(r: 255, g: 0, b: 0, a: 255))
            h.wait(1)
            XCTAssertFalse(h.host.runOnce(timeout: 0, build), "then nothing")
        }
    }

    func testASortFinishedOffTheMainThreadWakesTheLoop() throws {
        try onMain {
            let h = try Harness()
            let rows = makeItems(200_000)
            let sorter = TableSorter<Item>()
            sorter.synchronousLimit = 0
            var order: [KeyComparator<Item>] = []
            var shown: SortedView<[Item]>?
            let build: (UI) -> Void = { ui in
                shown = sorter.view(of: rows, sortedBy: order)
                ui.table(
                    "t", rows: shown!, sortOrder: Binding(get: { order }, set: { order = $0 }),
                    isSorting: sorter.isSorting
                ) {
                    TableColumn("Name", value: \Item.name)
                }
            }
            Self.drain(h, build)
            h.click(at: Point(100, 12), build)  // the Name header
            XCTAssertEqual(order.map(\.id), ["Name"])
            // The virtual clock stands still, so the progress cue's paced frames never come due:
            // only the sort's own wake-up can start the next frame.
            var woken = false
            // generous: sanitizers and busy machines; it stops as soon as it can
            let deadline = MonotonicClock.seconds() + 60
            while sorter.isSorting || shown?.first?.name != rows.map(\.name).min() {
                guard MonotonicClock.seconds() < deadline else { break }
                if h.host.runOnce(timeout: 5, build) { woken = true }
            }
            XCTAssertTrue(woken)
            XCTAssertFalse(sorter.isSorting)
            XCTAssertEqual(shown?.first?.name, rows.map(\.name).min(), "the sorted rows are on screen")
        }
    }

    func testKineticScrollingKeepsFramesComingUntilItStops() throws {
        try onMain {
            let h = try Harness()
            var offset = 0.0
            let build: (UI) -> Void = { ui in
                let info = ui.scrollView("feed") {
                    for i in 0..<400 { ui.text("Line \(i)") }
                }
                offset = info.offset.y
            }
            Self.drain(h, build)
            // A fling: the finger moves up fast and lets go.
            h.inject.finger(1, .down, at: Point(300, 400))
            h.frame(build)
            for step in 1...6 {
                h.inject.finger(1, .moved, at: Point(300, 400 - Double(step) * 30))
                h.frame(build)
            }
            h.inject.finger(1, .up, at: Point(300, 220))
            let atRelease = offset
            let frames = Self.drain(h, build)
            XCTAssertGreaterThan(frames, 20, "momentum asks for frame after frame")
            XCTAssertLessThan(frames, 600, "and stops")
            XCTAssertGreaterThan(offset, atRelease + 100, "the content kept moving after the finger left")
            h.wait(1)
            XCTAssertFalse(h.host.runOnce(timeout: 0, build), "no frame once it stopped")
        }
    }

    func testTheCaretBlinkAsksForAFrameAtEachChange() throws {
        try onMain {
            let h = try Harness()
            var text = "hello"
            let build: (UI) -> Void = { ui in ui.textField("t", text: &text) }
            Self.drain(h, build)
            h.inject.mouseMove(to: Point(60, 15))
            h.inject.mouseButton(.left, down: true, at: Point(60, 15))
            h.inject.mouseButton(.left, down: false, at: Point(60, 15))
            Self.drain(h, build)
            XCTAssertTrue(h.ui.wantsTextInput, "the field has focus")
            // Three seconds on a 1 ms virtual tick: the caret changes every half second.
            var frames = 0
            var caretShown: [Bool] = []
            let field = try XCTUnwrap(
                h.inkBounds(in: Rect(x: 0, y: 0, width: 640, height: 60), differingFrom: h.ui.theme.background))
            let caret = field.insetBy(dx: 6, dy: 6)  // inside the focus ring
            let before = h.countPixels(in: caret) { $0.b > 200 && $0.r < 60 }
            for _ in 0..<3000 {
                h.wait(0.001)
                if h.host.runOnce(timeout: 0, build) {
                    frames += 1
                    caretShown.append(h.countPixels(in: caret) { $0.b > 200 && $0.r < 60 } > 0)
                }
            }
            XCTAssertGreaterThan(before, 0)
            XCTAssertEqual(frames, 6, "one frame per change: two per one-second blink period")
            XCTAssertEqual(caretShown, [false, true, false, true, false, true])
        }
    }

    func testALongPressFiresOnTimeWithNoInputInBetween() throws {
        try onMain {
            let h = try Harness()
            var longPresses = 0
            let build: (UI) -> Void = { ui in
                if ui.interact(ui.id("target"), rect: Rect(x: 0, y: 0, width: 300, height: 300)).secondaryClicked {
                    longPresses += 1
                }
            }
            Self.drain(h, build)
            h.inject.finger(1, .down, at: Point(100, 100))
            Self.drain(h, limit: 5, build)  // the press, and the frame that settles it
            XCTAssertEqual(longPresses, 0)
            h.wait(0.3)
            XCTAssertFalse(h.host.runOnce(timeout: 0, build), "0.3 s held: not yet")
            h.wait(0.25)
            XCTAssertTrue(h.host.runOnce(timeout: 0, build), "0.55 s: the long-press timer's frame")
            XCTAssertEqual(longPresses, 1)
            h.wait(1)
            XCTAssertFalse(h.host.runOnce(timeout: 0, build), "it fires once")
            h.inject.finger(1, .up, at: Point(100, 100))
            Self.drain(h, build)
            XCTAssertEqual(longPresses, 1)
        }
    }
}
