import XCTest
import TesseraTesting
import TestSupport
import Render2D
import Imaging
import Profiling
import DemoSupport
@testable import Widgets

final class GestureTests: XCTestCase {
    /// Feeds one frame of events at `time` and returns the gestures it produced.
    private func step(
        _ input: inout InputState, _ recognizer: inout GestureRecognizer, _ events: [InputEvent], at time: Double
    ) -> [Gesture] {
        input.beginFrame(events: events, time: time)
        return recognizer.update(input, time: time)
    }

    func testTapsDoubleTapsLongPressesDragsFlicksAndPinches() {
        var input = InputState()
        var g = GestureRecognizer()
        var t = 0.0
        func run(_ events: [InputEvent]) -> [Gesture] {
            t += 1.0 / 60
            return step(&input, &g, events, at: t)
        }
        let p = Point(100, 100)
        XCTAssertEqual(run([.finger(id: 1, phase: .down, at: p)]), [])
        XCTAssertEqual(run([.finger(id: 1, phase: .up, at: p)]), [.tap(p)])
        XCTAssertEqual(run([.finger(id: 1, phase: .down, at: p)]), [])
        XCTAssertEqual(run([.finger(id: 1, phase: .up, at: p)]), [.doubleTap(p)])

        t += 1
        _ = run([.finger(id: 2, phase: .down, at: Point(300, 300))])
        t += 0.6
        XCTAssertEqual(run([]), [.longPress(Point(300, 300))])
        XCTAssertEqual(run([.finger(id: 2, phase: .up, at: Point(300, 300))]), [], "a long-press is not also a tap")

        // A slow mouse drag: drag gestures, no flick on release.
        t += 1
        _ = run([.mouseButton(.left, isDown: true, at: Point(0, 0))])
        var last: [Gesture] = []
        for x in stride(from: 2.0, through: 40, by: 2) {
            last = run([.pointerMoved(Point(x, 0))])
            t += 0.05
        }
        XCTAssertEqual(last, [.drag(from: Point(0, 0), translation: Point(40, 0))])
        XCTAssertEqual(run([.mouseButton(.left, isDown: false, at: Point(40, 0))]), [])

        // A fast finger swipe up: a flick with its velocity.
        t += 1
        _ = run([.finger(id: 3, phase: .down, at: Point(200, 400))])
        var y = 400.0
        for _ in 0..<6 {
            y -= 30
            _ = run([.finger(id: 3, phase: .moved, at: Point(200, y))])
        }
        let flick = run([.finger(id: 3, phase: .up, at: Point(200, y))])
        guard case .flick(let v)? = flick.first else { return XCTFail("a flick, got \(flick)") }
        XCTAssertEqual(v.y, -1800, accuracy: 1, "30 pt a frame at 60 Hz")

        // Two fingers spreading: a pinch with its scale and centre.
        t += 1
        _ = run([.finger(id: 4, phase: .down, at: Point(100, 200)), .finger(id: 5, phase: .down, at: Point(200, 200))])
        XCTAssertEqual(
            run([.finger(id: 4, phase: .moved, at: Point(50, 200)), .finger(id: 5, phase: .moved, at: Point(250, 200))]
            ),
            [.pinch(scale: 2, center: Point(150, 200))])
    }

    func testTheTouchSimulatorTurnsTheMouseIntoRealFingerEvents() throws {
        try onMain {
            let h = try Harness()
            let simulator = TouchSimulator(window: h.host.window)
            h.host.touchSimulator = simulator
            var fingers: [[Int64: Point]] = []
            let build: (UI) -> Void = { ui in fingers.append(ui.input.fingers) }
            h.inject.key(Key("t"), down: true)
            h.frame(build)
            XCTAssertTrue(simulator.isHeld)
            h.inject.mouseMove(to: Point(100, 100))
            h.inject.mouseButton(.left, down: true, at: Point(100, 100))
            h.frames(2, build)
            XCTAssertEqual(fingers.last?.keys.sorted(), [1], "the press became finger 1")
            XCTAssertEqual(fingers.last?[1]?.distance(to: Point(100, 100)) ?? 99, 0, accuracy: 0.5)
            XCTAssertFalse(
                h.ui.input.pointer.kind == .mouse && h.ui.input.pointer.isDown, "the mouse press itself was dropped")
            // Ctrl while dragging adds finger 2 opposite the press point: a pinch.
            h.inject.key(Key(rawValue: 224 | (1 << 30)), down: true, modifiers: .control)
            h.inject.mouseMove(to: Point(130, 100), buttons: 1)
            h.frames(2, build)
            XCTAssertEqual(fingers.last?.count, 2)
            XCTAssertEqual(fingers.last?[2]?.x ?? 0, 71, accuracy: 1.5)
            h.inject.mouseButton(.left, down: false, at: Point(130, 100))
            h.frames(2, build)
            XCTAssertEqual(fingers.last, [:], "both fingers lifted")
        }
    }
}

final class HUDTests: XCTestCase {
    func testTheHUDsRecordButtonSavesATraceOfTheFramesInBetween() throws {
        try onMain {
            let dir = try ScratchFolder("hud-trace")
            let h = try Harness()
            h.host.showsHUD = true
            h.ui.hudPlacement = .floating(x: 640 - 460 - 10, y: 10)  // Record at the top right, where the click goes
            h.host.traceFolder = dir.path
            let build: (UI) -> Void = { ui in ui.text("frame") }
            h.frame(build)
            let button = Point(640 - 330 + 320 - 62 + 27, 10 + 6 + 9)
            h.click(at: button, build)
            XCTAssertTrue(h.host.profiler.keepsTrace, "Record started a trace")
            h.frames(10, build)
            h.click(at: button, build)
            XCTAssertFalse(h.host.profiler.keepsTrace)
            let path = try XCTUnwrap(h.host.lastTracePath)
            XCTAssertTrue(path.hasPrefix(dir.path))
            let json =
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            let frames = (json?["traceEvents"] as? [[String: Any]])?.filter { $0["name"] as? String == "frame" }
            XCTAssertEqual(frames?.count, 13, "the frames between the clicks (3 of them the second click's)")
        }
    }
}
