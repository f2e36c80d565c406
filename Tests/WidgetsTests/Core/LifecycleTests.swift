import Foundation
import XCTest
import TesseraTesting
@testable import Widgets
import Render2D
import Imaging
import Profiling
import DemoSupport

/// A value that background work hands to the main actor, as an app's model would hold it.
private final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<String, Never>?
    func wait() async -> String {
        await withCheckedContinuation { c in lock.withLock { continuation = c } }
    }
    /// Resumes the waiting task from another thread once it waits.
    func deliver(_ value: String) {
        Thread.detachNewThread {
            while true {
                if let c = self.lock.withLock({ () -> CheckedContinuation<String, Never>? in
                    defer { self.continuation = nil }
                    return self.continuation
                }) {
                    c.resume(returning: value)
                    return
                }
                usleep(2_000)
            }
        }
    }
}

/// The frame loop, as `run` drives it: waits until a frame is due (here: only the main-actor
/// work arriving can make one due), runs it, and says whether it ran.
@MainActor private func nextFrame(_ h: Harness, _ build: (UI) -> Void) -> Bool {
    guard h.host.waitForFrame(timeout: 10) else { return false }
    h.frame(build)
    return true
}

/// `task`, `onAppear`, `onDisappear`, `onChange` and `inspector` in a real window: tasks run on
/// the main actor inside the frame loop, wake it when they resume, and end with their place.
final class LifecycleTests: XCTestCase {
    func testATaskRunsOnTheMainActorAndEachResumptionWakesAFrame() throws {
        try onMain {
            let h = try Harness()
            let mailbox = Mailbox()
            var shown = "waiting"
            var ranOnMainThread = false
            let build: (UI) -> Void = { ui in
                ui.task {
                    ranOnMainThread = Thread.isMainThread
                    mailbox.deliver("loaded")
                    shown = await mailbox.wait()  // resumed by another thread
                }
                ui.text(shown)
            }
            h.frame(build)
            var frames = 0
            while !h.drawnText.contains("loaded") && frames < 10 {
                XCTAssertTrue(nextFrame(h, build), "the task's start and its resumption each wake the sleeping loop")
                frames += 1
            }
            XCTAssertTrue(h.drawnText.contains("loaded"), "what the task set is drawn: \(h.drawnText)")
            XCTAssertTrue(ranOnMainThread)
            XCTAssertLessThanOrEqual(frames, 4, "a frame per wake-up, no busy loop")
            XCTAssertFalse(h.host.waitForFrame(timeout: 0.3), "the task is done: the idle loop runs no frame")
        }
    }

    func testATaskIsCancelledWhenItsPlaceIsNotBuiltAndRestartedWhenItsIDChanges() throws {
        try onMain {
            let h = try Harness()
            var started: [Int] = [], cancelled: [Int] = []
            var shows = true, selection = 1
            let build: (UI) -> Void = { ui in
                guard shows else { return }
                let current = selection
                ui.task(id: current) {
                    started.append(current)
                    do { try await Task.sleep(for: .seconds(60)) } catch { cancelled.append(current) }
                }
            }
            XCTAssertTrue(h.frames(until: { started == [1] }, build))
            selection = 2
            XCTAssertTrue(
                h.frames(until: { cancelled == [1] && started == [1, 2] }, build),
                "started \(started), cancelled \(cancelled)")
            h.frames(3, build)
            XCTAssertEqual(started, [1, 2], "the same id keeps its task")
            shows = false
            XCTAssertTrue(
                h.frames(until: { cancelled == [1, 2] }, build), "one frame without it cancels it: \(cancelled)")
            shows = true
            XCTAssertTrue(h.frames(until: { started == [1, 2, 2] }, build), "built again, it starts again: \(started)")
        }
    }

    func testAppearAndDisappearFollowWhetherAPlaceIsBuilt() throws {
        try onMain {
            let h = try Harness()
            var events: [String] = []
            var shows = true
            let build: (UI) -> Void = { ui in
                for name in ["a", "b"] where shows || name == "a" {
                    ui.withID(name) {
                        ui.onAppear { events.append("appear \(name)") }
                        ui.onDisappear { events.append("disappear \(name)") }
                        ui.text(name)
                    }
                }
            }
            h.frames(3, build)
            XCTAssertEqual(events, ["appear a", "appear b"], "once each, in the first frame")
            shows = false
            h.frames(2, build)
            XCTAssertEqual(events, ["appear a", "appear b", "disappear b"])
            shows = true
            h.frame(build)
            XCTAssertEqual(events.last, "appear b", "back: it appears again")
        }
    }

    func testOnChangeReportsOldAndNewValues() throws {
        try onMain {
            let h = try Harness()
            var value = 1
            var changes: [String] = [], initialChanges: [String] = []
            let build: (UI) -> Void = { ui in
                ui.onChange(of: value) { old, new in changes.append("\(old)→\(new)") }
                ui.onChange(of: value, initial: true) { old, new in initialChanges.append("\(old)→\(new)") }
            }
            h.frames(2, build)
            XCTAssertEqual(changes, [])
            XCTAssertEqual(initialChanges, ["1→1"], "initial: once, when it first appears")
            value = 5
            h.frames(2, build)
            value = 7
            h.frame(build)
            XCTAssertEqual(changes, ["1→5", "5→7"])
            XCTAssertEqual(initialChanges, ["1→1", "1→5", "5→7"])
        }
    }

    func testAnInspectorShowsTrailingHidesByDragAndComesBackAtItsWidth() throws {
        try onMain {
            let h = try Harness(width: 800, height: 400)
            let presented = Model(false)
            let build: (UI) -> Void = { ui in
                ui.inspector(isPresented: presented.binding) {
                    ui.text("Main content")
                } inspector: {
                    ui.text("Inspector")
                }
            }
            h.frames(3, build)
            XCTAssertNil(h.rect(ofText: "Inspector"), "hidden while isPresented is false")
            presented.value = true
            h.frames(20, build)  // it slides in
            let title = try XCTUnwrap(h.rect(ofText: "Inspector"))
            XCTAssertEqual(title.minX, 800 - 260, accuracy: 2, "the ideal width, at the trailing edge")
            XCTAssertEqual(h.rect(ofText: "Main content")?.minX ?? -1, 0, accuracy: 1)

            // Dragging its edge far to the trailing side hides it and clears the flag.
            h.drag(from: Point(540, 200), to: Point(790, 200), build)
            h.frames(20, build)
            XCTAssertFalse(presented.value, "drag-to-hide sets isPresented to false")
            XCTAssertNil(h.rect(ofText: "Inspector"))
            presented.value = true
            h.frames(20, build)
            XCTAssertEqual(h.rect(ofText: "Inspector")?.minX ?? 0, 540, accuracy: 2, "shown again at its width")
        }
    }
}
