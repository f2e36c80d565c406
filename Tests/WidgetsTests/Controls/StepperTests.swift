import XCTest
import TesseraTesting
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Stepper: − and + step within the range, a held button repeats after half a second, the
/// keys step with focus, and a screen reader reads and sets it as a spin button.
final class StepperTests: XCTestCase {
    func testTheRepeatStepsOnceAtThePressThenTenTimesASecondAfterHalfOne() {
        XCTAssertEqual(StepperRepeat.steps(heldSince: 10, now: 10), 1)
        XCTAssertEqual(StepperRepeat.steps(heldSince: 10, now: 10.49), 1)
        XCTAssertEqual(StepperRepeat.steps(heldSince: 10, now: 10.5), 2)
        XCTAssertEqual(StepperRepeat.steps(heldSince: 10, now: 11.25), 9)
        XCTAssertEqual(StepperRepeat.nextStep(after: 1, heldSince: 10), 10.5)
        XCTAssertEqual(StepperRepeat.nextStep(after: 3, heldSince: 10), 10.7, accuracy: 1e-9)
        XCTAssertEqual(StepperRepeat.steps(heldSince: 10, now: .nan), 1)
    }

    func testClicksHoldsKeysAndAScreenReaderStepIt() throws {
        try onMain {
            let h = try Harness()
            var copies = 3
            let build: (UI) -> Void = { ui in ui.padding(20) { ui.stepper("Copies", value: &copies, in: 1...20) } }
            h.frames(2, build)
            let node = try h.find(.spinButton, "Copies")
            XCTAssertEqual(node.value, "3")
            let minus = Point(node.frame.x + node.frame.width / 4, node.frame.midY)
            let plus = Point(node.frame.maxX - node.frame.width / 4, node.frame.midY)
            h.click(at: plus, build)
            XCTAssertEqual(copies, 4, "a click steps once")
            h.click(at: minus, build)
            h.click(at: minus, build)
            XCTAssertEqual(copies, 2)

            // Held for 1.2 s: one step at the press, then one every 0.1 s after the first 0.5 s.
            h.inject.mouseMove(to: plus)
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: plus)
            h.frames(2, build)  // the press lands, then the button steps
            XCTAssertEqual(copies, 3)
            let pressTime = h.ui.time
            XCTAssertEqual(
                try XCTUnwrap(h.ui.redrawTime) - pressTime, 0.5, accuracy: 0.001,
                "it asks for the frame the repeat is due in")
            for _ in 0..<72 { h.frame(build) }  // 1.2 s at 60 frames a second
            XCTAssertEqual(copies, 2 + StepperRepeat.steps(heldSince: pressTime, now: h.ui.time))
            XCTAssertEqual(copies, 2 + 9, "1 at the press, then 8 more by 1.2 s")
            h.inject.mouseButton(.left, down: false, at: plus)
            h.frames(30, build)
            XCTAssertEqual(copies, 11, "released: no more steps")

            // Held at the top of the range: it stops there, and asks for no more frames.
            copies = 19
            h.inject.mouseButton(.left, down: true, at: plus)
            for _ in 0..<60 { h.frame(build) }
            XCTAssertEqual(copies, 20)
            XCTAssertNil(h.ui.redrawTime, "nothing left to step: no frames")
            h.inject.mouseButton(.left, down: false, at: plus)
            h.frame(build)

            // With focus (the click gave it), the arrows step.
            h.press(.down, build)
            h.press(.left, build)
            XCTAssertEqual(copies, 18)
            h.press(.up, build)
            XCTAssertEqual(copies, 19)

            // A screen reader sets it, clamped to the range.
            h.setValue(try h.find(.spinButton, "Copies"), 40, build)
            XCTAssertEqual(copies, 20)
            XCTAssertEqual(try h.find(.spinButton, "Copies").value, "20")
        }
    }

    func testARangeAtIntsEdgesStepsWithoutATrap() throws {
        try onMain {
            let h = try Harness()
            var value = Int.max - 1
            let build: (UI) -> Void = { ui in
                ui.padding(20) { ui.stepper("Big", value: &value, in: (Int.max - 2)...Int.max) }
            }
            h.frames(2, build)
            let node = try h.find(.spinButton, "Big")
            h.click(at: Point(node.frame.maxX - node.frame.width / 4, node.frame.midY), build)
            XCTAssertEqual(value, Int.max, "Double(Int.max) rounds past it: clamped, not a trap")
            value = Int.min + 1
            let low: (UI) -> Void = { ui in ui.padding(20) { ui.stepper("Small", value: &value, in: Int.min...0) } }
            h.frames(2, low)
            let small = try h.find(.spinButton, "Small")
            h.click(at: Point(small.frame.x + small.frame.width / 4, small.frame.midY), low)
            XCTAssertEqual(value, Int.min)
        }
    }

    func testATapSteps() throws {
        try onMain {
            let h = try Harness()
            var exposure = 0.0
            let build: (UI) -> Void = { ui in
                ui.padding(20) { ui.stepper("Exposure", value: &exposure, in: -1...1, step: 0.5) }
            }
            h.frames(2, build)
            let node = try h.find(.spinButton, "Exposure")
            let plus = Point(node.frame.maxX - node.frame.width / 4, node.frame.midY)
            h.inject.finger(1, .down, at: plus)
            h.frame(build)
            h.inject.finger(1, .up, at: plus)
            h.frames(2, build)
            XCTAssertEqual(exposure, 0.5)
        }
    }
}
