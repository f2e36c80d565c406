import XCTest
import TesseraTesting
import TestSupport
import CSDL2
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Several windows in one `AppHost`: each has its own SDL window, renderer, input, focus and
/// frame schedule; `ui.openWindow`/`dismissWindow` open and close them after a frame.
final class WindowsTests: XCTestCase {
    /// A button in each window counts its own clicks; the main one opens a second window.
    @MainActor
    final class TwoCounters {
        var mainClicks = 0, secondClicks = 0
        var secondFrames = 0

        func main(_ ui: UI) {
            ui.vstack {
                if ui.button("Count") { mainClicks += 1 }
                if ui.button("Open", shortcut: KeyboardShortcut("n")) { ui.openWindow(id: "second", value: "hello") }
            }
        }

        func second(_ ui: UI) {
            secondFrames += 1
            ui.vstack {
                ui.text(ui.windowValue(as: String.self) ?? "no value")
                if ui.button("Count") { secondClicks += 1 }
                if ui.button("Close", shortcut: KeyboardShortcut("w")) { ui.dismissWindow() }
            }
        }
    }

    /// Where the last frame of `window` drew `label`, in its window pixels.
    @MainActor
    static func center(of label: String, in window: AppWindow) -> Point? {
        let drawn = window.ui.contentDrawList.drawnText.last { $0.text == label }
        return drawn.map { Point($0.rect.midX * window.userScale, $0.rect.midY * window.userScale) }
    }

    func testEachWindowGetsItsOwnEventsAndItsOwnUI() throws {
        try onMain {
            let h = try Harness()
            let app = TwoCounters()
            h.host.windowGroup("second", title: "Second", width: 320, height: 240, content: app.second)
            h.frame(app.main)
            h.inject.tap(Key("n"), modifiers: .control)
            h.frames(2, app.main)
            XCTAssertEqual(h.host.windows.count, 2, "Ctrl+N opened a second window")
            let second = h.host.windows[1]
            second.ui.recordsDrawnText = true
            h.frame(app.main)
            XCTAssertEqual(second.group, "second")
            XCTAssertNotEqual(second.window.id, h.host.window.id, "a window of its own")
            XCTAssertEqual(second.window.size, Size(320, 240))
            XCTAssertEqual(second.ui.windowValue(as: String.self), "hello")
            XCTAssertNotNil(Self.center(of: "hello", in: second), "the value reached the window's content")
            XCTAssertTrue(second.ui !== h.ui)

            // A click in the second window counts there only, though both have a Count button at
            // the same place.
            let inSecond = EventInjector(window: second.window)
            let count2 = try XCTUnwrap(Self.center(of: "Count", in: second))
            inSecond.mouseMove(to: count2)
            h.frame(app.main)
            inSecond.mouseButton(.left, down: true, at: count2)
            h.frame(app.main)
            inSecond.mouseButton(.left, down: false, at: count2)
            h.frame(app.main)
            XCTAssertEqual(app.secondClicks, 1)
            XCTAssertEqual(app.mainClicks, 0)
            let count1 = try XCTUnwrap(h.rect(ofText: "Count"))
            h.click(at: Point(count1.midX, count1.midY), app.main)
            XCTAssertEqual(app.mainClicks, 1)
            XCTAssertEqual(app.secondClicks, 1)

            // Keys go to their window: Ctrl+W in the second window closes it, not the first.
            inSecond.tap(Key("w"), modifiers: .control)
            h.frames(2, app.main)
            XCTAssertTrue(second.isClosed)
            XCTAssertEqual(h.host.windows.map(\.number), [1])
            XCTAssertFalse(h.host.quitRequested, "the first window is still open")
        }
    }

    func testAnIdleWindowDrawsNothingWhileAnotherAnimates() throws {
        try onMain {
            let h = try Harness()
            h.host.schedule = .onDemand
            var animating = false
            var secondBuilds = 0
            h.host.windowGroup("second", title: "Second", width: 200, height: 100) { ui in
                secondBuilds += 1
                ui.text("Still")
            }
            let build: (UI) -> Void = { ui in
                ui.text("Main")
                if animating { ui.requestRedraw() }
            }
            h.host.openWindow(group: "second")
            var turns = 0
            while h.host.runOnce(timeout: 0, build) && turns < 10 {
                turns += 1
                h.wait(1.0 / 60)
            }
            XCTAssertEqual(h.host.windows.count, 2)
            XCTAssertEqual(secondBuilds, 1, "the second window's first frame, then nothing")
            XCTAssertFalse(h.host.runOnce(timeout: 0, build), "both idle: no frame")

            // The first window animates for 30 frames: the second draws none of them.
            animating = true
            let mainFrames = h.host.primary.framesDrawn
            h.host.primary.frameDue = true
            for _ in 0..<30 {
                XCTAssertTrue(h.host.runOnce(timeout: 0, build))
                h.wait(1.0 / 60)
            }
            XCTAssertEqual(h.host.primary.framesDrawn - mainFrames, 30)
            XCTAssertEqual(secondBuilds, 1, "a busy window does not wake an idle one")

            // Input to the idle window draws it (and one frame to settle), not the first.
            animating = false
            h.wait(1)
            _ = h.host.runOnce(timeout: 0, build)  // the first window's last requested frame
            let mainBefore = h.host.primary.framesDrawn
            EventInjector(window: h.host.windows[1].window).mouseMove(to: Point(10, 10))
            while h.host.runOnce(timeout: 0, build) { h.wait(1.0 / 60) }
            XCTAssertEqual(secondBuilds, 3)
            XCTAssertEqual(h.host.primary.framesDrawn, mainBefore)

            // A thumbnail's wake-up wakes only a window with an image waiting (neither has one);
            // any other wake-up wakes both.
            FrameWaker.wake(for: .images)
            XCTAssertFalse(h.host.runOnce(timeout: 0.2, build))
            FrameWaker.wake()
            XCTAssertTrue(h.host.runOnce(timeout: 1, build))
            XCTAssertEqual(secondBuilds, 4)
            XCTAssertEqual(h.host.primary.framesDrawn, mainBefore + 1)
        }
    }

    func testClosingWindowsAndQuittingAfterTheLast() throws {
        try onMain {
            let h = try Harness()
            h.host.windowGroup("second", title: "Second", width: 200, height: 100) { ui in ui.text("Second") }
            let build: (UI) -> Void = { ui in ui.text("Main") }
            let second = try XCTUnwrap(h.host.openWindow(group: "second"))
            h.frame(build)
            // The window manager's close button on the first window: hidden, the app goes on.
            h.inject.closeButton()
            h.frame(build)
            XCTAssertTrue(h.host.primary.isClosed)
            XCTAssertEqual(h.host.windows.map(\.number), [second.number])
            XCTAssertFalse(h.host.quitRequested)
            XCTAssertEqual(
                SDL_GetWindowFlags(h.host.window.handle) & SDL_WINDOW_HIDDEN.rawValue, SDL_WINDOW_HIDDEN.rawValue)
            h.frame(build)
            XCTAssertEqual(second.framesDrawn, 3, "the second window still draws")
            // Its own close button: the last window, so the app quits.
            EventInjector(window: second.window).closeButton()
            h.frame(build)
            XCTAssertTrue(second.isClosed)
            XCTAssertTrue(h.host.windows.isEmpty)
            XCTAssertTrue(h.host.quitRequested)
        }
    }

    func testAnAppThatKeepsRunningWithNoWindowAndOpensOneAgain() throws {
        try onMain {
            let h = try Harness()
            h.host.quitsWhenLastWindowCloses = false
            let build: (UI) -> Void = { ui in ui.text("Main") }
            h.inject.closeButton()
            h.frame(build)
            XCTAssertTrue(h.host.windows.isEmpty)
            XCTAssertFalse(h.host.quitRequested, "the app said it keeps running")
            let again = try XCTUnwrap(h.host.openWindow())
            h.frame(build)
            XCTAssertEqual(again.framesDrawn, 1, "another main window, built by the run closure")
            XCTAssertEqual(again.number, 2)
        }
    }

    func testAWindowsSizeAndPlaceAreKeptForTheNextOneOfItsGroup() throws {
        try onMain {
            let folder = try ScratchFolder("windows")
            let h = try Harness()
            h.host.persistentStore = PersistentStore(path: folder.path + "/state.json")
            h.host.windowGroup("photo", title: "Photo", width: 300, height: 200) { ui in ui.text("Photo") }
            let first = try XCTUnwrap(h.host.openWindow(group: "photo"))
            XCTAssertEqual(first.window.size, Size(300, 200), "the group's first size")
            first.window.setSize(width: 420, height: 260)
            h.frame { _ in }
            h.host.close(first)
            XCTAssertEqual(h.host.savedFrame(of: "photo")?.size, Size(420, 260))
            let next = try XCTUnwrap(h.host.openWindow(group: "photo"))
            XCTAssertEqual(next.window.size, Size(420, 260), "opened as the last one was left")
            // A second one open at once is offset, not stacked exactly on the first.
            let third = try XCTUnwrap(h.host.openWindow(group: "photo"))
            XCTAssertEqual(third.window.size, Size(420, 260))
            XCTAssertEqual(
                third.frame.origin, next.frame.origin + Point(32, 32), "offset from the open one, not stacked on it")
            // A position from a setting that is not a number opens centred, never traps; a huge one is clamped.
            XCTAssertNil(AppHost.desktopPosition(Point(.nan, 10)))
            XCTAssertNil(AppHost.desktopPosition(Point(10, .infinity)))
            XCTAssertEqual(AppHost.desktopPosition(Point(1e300, -1e300)).map { [$0.x, $0.y] }, [100_000, -100_000])
            // What a broken state file holds is not a frame.
            h.host.persistentStore?.set([1, 2, -3], for: "window.photo")
            XCTAssertNil(h.host.savedFrame(of: "photo"))
            h.host.persistentStore?.set([0, 0, 99_999, 10], for: "window.photo")
            XCTAssertNil(h.host.savedFrame(of: "photo"))
        }
    }

    func testEachWindowHasItsOwnStateReleasedWhenItCloses() throws {
        try onMain {
            final class Model { var clicks = 0 }
            let h = try Harness()
            weak var secondModel: Model?
            var models: [Int: ObjectIdentifier] = [:]
            let build: (UI) -> Void = { ui in
                let model = ui.windowState { Model() }
                model.clicks += 1
                models[ui.windowNumber] = ObjectIdentifier(model)
                if ui.windowNumber == 2 { secondModel = model }
            }
            let second = try XCTUnwrap(h.host.openWindow())
            h.frames(2, build)
            XCTAssertEqual(second.group, AppHost.mainGroup)
            XCTAssertEqual(models.count, 2)
            XCTAssertNotEqual(models[1], models[2], "one model per window")
            XCTAssertEqual(h.ui.windowState { Model() }.clicks, 2)
            XCTAssertNotNil(secondModel)
            h.host.close(second)
            XCTAssertNil(secondModel, "released with its window")
        }
    }

    func testClosingAWindowStopsItsImageWorkersWithoutWaitingForThem() throws {
        try onMain {
            let h = try Harness()
            h.host.prepareWindow = { $0.ui.images = ImagePipeline(renderer: $0.window.renderer, workers: 2) }
            let second = try XCTUnwrap(h.host.openWindow())
            let images = try XCTUnwrap(second.ui.images)
            h.frame { _ in }
            XCTAssertEqual(images.loader.runningWorkers, 2)
            h.host.close(second)
            XCTAssertNil(second.ui.images, "the window's pipeline goes with it")
            let deadline = MonotonicClock.seconds() + 10
            while images.loader.runningWorkers > 0 && MonotonicClock.seconds() < deadline { usleep(5_000) }
            XCTAssertEqual(images.loader.runningWorkers, 0, "its workers end")
        }
    }

    func testFontsAreFoundOnceAndShared() throws {
        try onMain {
            let h = try Harness()
            let second = try XCTUnwrap(h.host.openWindow())
            XCTAssertTrue(second.ui.fonts.fallback === h.ui.fonts.fallback, "installed fonts are looked up once")
            XCTAssertTrue(second.ui.fonts.atlas !== h.ui.fonts.atlas, "each renderer has its own glyph textures")
            XCTAssertEqual(second.ui.fonts.path(of: .bold), h.ui.fonts.path(of: .bold))
            h.frame { ui in ui.text("Both windows draw text") }
            let pixels = try XCTUnwrap(second.window.renderer.readPixels())
            let dark = stride(from: 0, to: pixels.bytes.count, by: 4).filter {
                pixels.bytes[$0] < 100 && pixels.bytes[$0 + 1] < 100
            }.count
            XCTAssertGreaterThan(dark, 50, "the text was drawn in the second window")
        }
    }
}
