import XCTest
import TesseraTesting
import TestSupport
import Widgets
import Imaging
@testable import GalleryKit
import DemoSupport

/// The demo as an application: File ▸ New Window and Close Window, a photo in a window of its
/// own, and the browser's keys as menu commands (rating, find, trash, zoom).
final class DemoWindowsTests: XCTestCase {
    /// A library of `count` small photos with names no one else's trash has.
    @MainActor
    static func library(_ name: String, count: Int) throws -> ScratchFolder {
        let lib = try ScratchFolder(name)
        for i in 0..<count {
            try SamplePhotos.writeJPEG(
                SamplePhotos.render(width: 96, height: 64, seed: UInt64(i)),
                to: lib.file("\(name)-\(getpid())-\(i).jpg"))
        }
        return lib
    }

    /// Takes what the tests put in the desktop's trash out again (GIO records where each came from).
    static func emptyTrash(of lib: ScratchFolder) {
        let trash =
            (ProcessInfo.processInfo.environment["XDG_DATA_HOME"] ?? NSHomeDirectory() + "/.local/share") + "/Trash"
        for info in (try? FileManager.default.contentsOfDirectory(atPath: trash + "/info")) ?? [] {
            guard let text = try? String(contentsOfFile: trash + "/info/" + info, encoding: .utf8),
                text.contains(lib.path)
            else { continue }
            try? FileManager.default.removeItem(atPath: trash + "/info/" + info)
            try? FileManager.default.removeItem(atPath: trash + "/files/" + String(info.dropLast(".trashinfo".count)))
        }
    }

    func testCtrlNOpensAnotherBrowserWindowAndCtrlWClosesIt() throws {
        try onMain {
            let lib = try Self.library("new-window", count: 4)
            let h = try Harness(width: 1200, height: 700)
            DemoApp.prepare(h.host, pipeline: nil)
            let app = DemoApp(page: .photos, darkTheme: false, library: lib.path)
            app.browser.waitForScan()
            let build: (UI) -> Void = { app.build($0, host: h.host) }
            h.frames(3, build)
            h.press(Key("n"), modifiers: .control, build)
            XCTAssertEqual(h.host.windows.count, 2, "Ctrl+N: another window")
            let second = h.host.windows[1]
            XCTAssertEqual(second.group, AppHost.mainGroup)
            XCTAssertTrue(
                h.frames(until: { second.ui.contentDrawList.drawnText.contains { $0.text == "4 photos" } }, build),
                "a browser of its own, on the same library")
            XCTAssertEqual(second.title, "Tessera — " + (lib.path as NSString).lastPathComponent)
            // Its own selection: a photo selected there is not selected in the first window.
            second.ui.isAccessibilityEnabled = true
            h.frame(build)
            let cell = try XCTUnwrap(second.ui.accessibilityTree.all(.image, nil).first)
            let inSecond = EventInjector(window: second.window)
            let p = Point(cell.frame.midX, cell.frame.midY)
            inSecond.mouseMove(to: p)
            h.frame(build)
            inSecond.mouseButton(.left, down: true, at: p)
            h.frame(build)
            inSecond.mouseButton(.left, down: false, at: p)
            h.frames(2, build)
            XCTAssertTrue(second.ui.contentDrawList.drawnText.contains { $0.text == "1 selected" })
            XCTAssertTrue(app.browser.selection.isEmpty)
            // Ctrl+W in the second window closes it; the first stays, and so does the app.
            inSecond.tap(Key("w"), modifiers: .control)
            h.frames(2, build)
            XCTAssertTrue(second.isClosed)
            XCTAssertEqual(h.host.windows.count, 1)
            XCTAssertFalse(h.host.quitRequested)
            // File ▸ Close Window in the last window quits.
            try h.click(on: "File", build)
            try h.click(on: "Close Window", in: .popup, build)
            XCTAssertTrue(h.host.quitRequested)
        }
    }

    func testAFingersFlickGlidesTheZoomedPhotoOnAndAMouseDragStopsWhereLetGo() throws {
        try onMain {
            let lib = try ScratchFolder("viewer-glide")
            try SamplePhotos.writeJPEG(
                SamplePhotos.render(width: 2400, height: 1800, seed: 9), to: lib.file("glide-\(getpid()).jpg"))
            let session = try DemoSession(library: lib.path, width: 1000)
            let (h, browser, build) = (session.h, session.browser, session.build)
            browser.open(browser.shown[0].id)
            XCTAssertTrue(h.frames(until: { browser.viewer.shownFrame != nil }, build))
            h.press(Key("z"), build)  // 1:1: far larger than the view
            let start = try XCTUnwrap(browser.viewer.shownFrame)
            let mid = Point(500, 350)
            // A quick finger flick to the left, 30 pt a frame.
            h.inject.finger(1, .down, at: mid)
            h.frame(build)
            for step in 1...5 {
                h.inject.finger(1, .moved, at: mid - Point(Double(step) * 30, 0))
                h.frame(build)
            }
            h.inject.finger(1, .up, at: mid - Point(150, 0))
            h.frame(build)
            let released = try XCTUnwrap(browser.viewer.shownFrame)
            XCTAssertLessThan(released.x, start.x - 100, "the drag moved it")
            XCTAssertTrue(browser.viewer.isGliding, "the flick goes on")
            h.frames(10, build)
            let gliding = try XCTUnwrap(browser.viewer.shownFrame)
            XCTAssertLessThan(gliding.x, released.x - 50, "it keeps moving left after the finger lifted")
            XCTAssertTrue(
                h.frames(until: { !browser.viewer.isGliding }, timeout: 10, build),
                "and slows to a stop (or meets the edge)")
            let stopped = try XCTUnwrap(browser.viewer.shownFrame)
            h.frames(5, build)
            XCTAssertEqual(browser.viewer.shownFrame, stopped, "stopped")
            XCTAssertGreaterThanOrEqual(stopped.maxX, 1000 - 12 - 0.5, "never past the photo's edge")

            // The mouse: the same drag stops where it is let go.
            h.drag(from: mid, to: mid + Point(150, 0), steps: 5, build)
            let dropped = try XCTUnwrap(browser.viewer.shownFrame)
            XCTAssertFalse(browser.viewer.isGliding)
            h.frames(10, build)
            XCTAssertEqual(browser.viewer.shownFrame, dropped)
        }
    }

    func testTheWheelAndAPinchZoomTheViewerAroundThePointerAndTheFingers() throws {
        try onMain {
            let lib = try ScratchFolder("viewer-zoom")
            try SamplePhotos.writeJPEG(
                SamplePhotos.render(width: 1600, height: 1200, seed: 7), to: lib.file("zoom-\(getpid()).jpg"))
            let session = try DemoSession(library: lib.path, width: 1000)
            let (h, browser, build) = (session.h, session.browser, session.build)
            browser.open(browser.shown[0].id)
            XCTAssertTrue(h.frames(until: { browser.viewer.shownFrame != nil }, build), "the photo's size is read")
            let fitted = try XCTUnwrap(browser.viewer.shownFrame)
            let fit = fitted.width / 1600
            XCTAssertLessThan(fit, 1, "a 1600 px photo fits a 1000 px window smaller than 1:1")
            // Z shows it 1:1, larger than the view; two notches in, off centre, the point under the
            // pointer stays under it.
            h.press(Key("z"), build)
            XCTAssertEqual(browser.viewer.zoom, 1)
            let actual = try XCTUnwrap(browser.viewer.shownFrame)
            XCTAssertEqual(actual.width, 1600, accuracy: 0.5)
            let pointer = Point(fitted.x + fitted.width * 0.25, fitted.y + fitted.height * 0.3)
            func share(_ frame: Rect) -> Point {
                Point((pointer.x - frame.x) / frame.width, (pointer.y - frame.y) / frame.height)
            }
            h.inject.mouseMove(to: pointer)
            h.frame(build)
            for _ in 0..<2 {
                h.inject.wheel(dy: 1)
                h.frame(build)
            }
            XCTAssertEqual(try XCTUnwrap(browser.viewer.zoom), 1.5625, accuracy: 1e-9, "each notch zooms 1.25×")
            let zoomed = try XCTUnwrap(browser.viewer.shownFrame)
            XCTAssertEqual(zoomed.width, 2500, accuracy: 0.5)
            XCTAssertEqual(
                share(zoomed).x, share(actual).x, accuracy: 0.002, "the photo's point under the pointer stays there")
            XCTAssertEqual(share(zoomed).y, share(actual).y, accuracy: 0.002)
            // Out past the fitted size: it fits again.
            for _ in 0..<10 {
                h.inject.wheel(dy: -1)
                h.frame(build)
            }
            XCTAssertNil(browser.viewer.zoom)
            XCTAssertEqual(browser.viewer.shownFrame, fitted)

            // Two fingers spreading to twice their distance: twice the fitted size.
            let mid = Point(fitted.midX, fitted.midY)
            h.inject.finger(1, .down, at: mid - Point(100, 0))
            h.inject.finger(2, .down, at: mid + Point(100, 0))
            h.frame(build)
            for step in 1...4 {
                let spread = 100 + 25 * Double(step)
                h.inject.finger(1, .moved, at: mid - Point(spread, 0), delta: Point(-25, 0))
                h.inject.finger(2, .moved, at: mid + Point(spread, 0), delta: Point(25, 0))
                h.frame(build)
            }
            XCTAssertEqual(
                try XCTUnwrap(browser.viewer.zoom), 2 * fit, accuracy: fit * 0.05,
                "a pinch to twice the distance: twice the size")
            h.inject.finger(1, .up, at: mid - Point(200, 0))
            h.inject.finger(2, .up, at: mid + Point(200, 0))
            h.frame(build)
            h.shot("viewer-zoomed", build)
            h.press(Key("z"), build)
            XCTAssertNil(browser.viewer.zoom, "Z fits it again")
            // Ctrl+= and Ctrl+- step in and out around the centre.
            h.press(Key("="), modifiers: .control, build)
            XCTAssertEqual(try XCTUnwrap(browser.viewer.zoom), fit * 1.25, accuracy: 1e-9)
            h.press(Key("-"), modifiers: .control, build)
            XCTAssertNil(browser.viewer.zoom, "back to the fitted size")
            XCTAssertEqual(browser.grid.zoom, 1, "the grid's zoom is not touched while the viewer shows")
        }
    }

    func testIShowsHowThePhotoWasTakenOverIt() throws {
        try onMain {
            let lib = try ScratchFolder("viewer-info")
            let jpeg = try SamplePhotos.jpegData(SamplePhotos.render(width: 300, height: 200, seed: 2))
            let camera = CameraMetadata(make: "Fujifilm", model: "X-T5", dateTimeOriginal: "2024:05:17 09:41:00")
            try SamplePhotos.write(try EXIFWriter.inserting(camera, into: jpeg), to: lib.file("info-\(getpid()).jpg"))
            let session = try DemoSession(library: lib.path, width: 1000)
            let (h, browser, build) = (session.h, session.browser, session.build)
            browser.open(browser.shown[0].id)
            h.frame(build)
            h.press(Key("i"), build)
            XCTAssertTrue(browser.viewer.showsInfo)
            let path = browser.shown[0].path
            XCTAssertTrue(
                h.frames(until: { browser.viewer.info.info(of: path) != nil }, build),
                "the EXIF is read in the background")
            h.frame(build)
            XCTAssertNotNil(h.rect(ofText: "Fujifilm X-T5"), "the camera, as exiv2 reads it: \(h.drawnText)")
            XCTAssertNotNil(h.rect(ofText: "2024:05:17 09:41:00"))
            let panel = try XCTUnwrap(h.findAll(.panel).first { $0.name.hasPrefix("Name: \(browser.shown[0].name)") })
            XCTAssertTrue(panel.name.contains("Camera: Fujifilm X-T5"), panel.name)
            h.press(Key("i"), build)
            XCTAssertNil(h.rect(ofText: "Fujifilm X-T5"), "I again hides it")
        }
    }

    func testTheViewerFillsTheScreenWithF11AndPlaysASlideshowWithSpace() throws {
        try onMain {
            let lib = try Self.library("slideshow", count: 3)
            let session = try DemoSession(library: lib.path, width: 1000)
            let (h, browser, build) = (session.h, session.browser, session.build)
            browser.open(browser.shown[0].id)
            h.frame(build)
            XCTAssertEqual(browser.viewer.index, 0)
            h.press(.f11, build)
            XCTAssertTrue(h.host.primary.isFullscreen, "F11: the window fills the screen")
            XCTAssertTrue(h.ui.isFullscreen)
            h.press(.space, build)
            XCTAssertNotNil(browser.viewer.slideshowNext, "Space starts a slideshow")
            h.wait(PhotoViewer.slideshowInterval)
            h.frame(build)
            XCTAssertEqual(browser.viewer.index, 1, "the next photo after the interval")
            h.wait(PhotoViewer.slideshowInterval)
            h.frame(build)
            h.wait(PhotoViewer.slideshowInterval)
            h.frame(build)
            XCTAssertEqual(browser.viewer.index, 2)
            XCTAssertNil(browser.viewer.slideshowNext, "it ends on the last photo")
            h.press(.space, build)
            h.press(.space, build)
            XCTAssertNil(browser.viewer.slideshowNext, "Space stops it")
            h.press(.escape, build)
            XCTAssertFalse(h.host.primary.isFullscreen, "Escape leaves fullscreen first")
            XCTAssertTrue(browser.viewer.isOpen)
            h.press(.escape, build)
            XCTAssertFalse(browser.viewer.isOpen, "then the viewer")
        }
    }

    /// `bench idle --windows 2`: two browser windows, settled, then left alone, draw nothing.
    func testTwoIdleBrowserWindowsDrawNoFrames() throws {
        try onMain {
            let lib = try Self.library("idle-windows", count: 4)
            let host = try AppHost(
                options: .init(title: "idle", width: 800, height: 600, vsync: false, offscreen: true, scale: 1))
            let json = IdleBench.run(host: host, folder: lib.path, variant: "plain", seconds: 0.5, windows: 2)
            XCTAssertTrue(json.contains("\"settled\":true"), json)
            XCTAssertTrue(json.contains("\"windows\":2,\"frames_per_window\":[0,0]"), json)
            XCTAssertTrue(json.contains("\"frames_while_idle\":0,"), json)
        }
    }

    /// The idle and damage benches settle only once their condition holds as well as the
    /// thumbnails: the browser's date scan moves photos between months and changes the
    /// toolbar, so a frame measured while it runs is not a still one.
    func testABenchSettlesOnlyOnceTheBrowserHasReadItsDates() throws {
        try onMain {
            let lib = try Self.library("settle", count: 4)
            let host = try AppHost(
                options: .init(title: "settle", width: 800, height: 600, vsync: false, offscreen: true, scale: 1))
            let images = ImagePipeline(renderer: host.window.renderer)
            defer { images.shutdown() }
            host.ui.images = images
            DemoApp.prepare(host, pipeline: nil)
            host.schedule = .onDemand
            let app = DemoApp(page: .photos, darkTheme: false, library: lib.path)
            let build: (UI) -> Void = { ui in app.build(ui, host: host) }
            var checks = 0
            XCTAssertTrue(
                IdleBench.settle(host, build: build) {
                    checks += 1
                    return checks >= 5
                })
            XCTAssertEqual(checks, 5, "frames ran until the condition held, not only until the thumbnails were sharp")
            XCTAssertTrue(IdleBench.settle(host, app: app, build: build))
            XCTAssertNil(app.browser.factsProgress, "the dates were read")
        }
    }

    /// `bench idle animation`: a spring just run (the Dark switch's knob) drew frames, then none.
    func testAnAnimationThatJustFinishedLeavesTheWindowIdle() throws {
        try onMain {
            let lib = try Self.library("idle-animation", count: 4)
            let host = try AppHost(
                options: .init(title: "idle", width: 800, height: 600, vsync: false, offscreen: true, scale: 1))
            let json = IdleBench.run(host: host, folder: lib.path, variant: "animation", seconds: 0.5)
            XCTAssertTrue(json.contains("\"settled\":true"), json)
            let settling = try XCTUnwrap(json.firstMatch(of: /"frames_settling":(\d+)/).flatMap { Int($0.1) })
            XCTAssertGreaterThan(settling, 5, "the spring drew frames while it ran: \(json)")
            XCTAssertTrue(json.contains("\"frames_while_idle\":0,"), json)
        }
    }

    func testTheBrowsersKeysAreMenuCommands() throws {
        try onMain {
            let lib = try Self.library("commands", count: 6)
            defer { Self.emptyTrash(of: lib) }
            let h = try Harness(width: 1200, height: 700)
            DemoApp.prepare(h.host, pipeline: nil)
            let app = DemoApp(page: .photos, darkTheme: false, library: lib.path)
            let browser = app.browser
            browser.waitForScan()
            let build: (UI) -> Void = { app.build($0, host: h.host) }
            h.frames(3, build)
            // Nothing selected: the photo commands are there, unavailable.
            try h.click(on: "Photo", build)
            let rate4 = try h.find(.menuItem, "Rate ★★★★")
            XCTAssertEqual(rate4.value, "4", "the menu shows the key")
            XCTAssertFalse(rate4.states.contains(.enabled))
            h.press(.escape, build)
            h.press(.delete, build)
            XCTAssertNil(h.rect(ofText: "Move to Trash"), "Delete with nothing selected does nothing")

            // 4 rates the selected photo, from the grid.
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            let first = try XCTUnwrap(browser.selection.first)
            h.press(Key("4"), build)
            XCTAssertEqual(browser.photos[first].rating, 4)
            // Ctrl+F goes to the filter field, where a digit is typed, not a rating.
            h.press(Key("f"), modifiers: .control, build)
            XCTAssertTrue(h.ui.wantsTextInput)
            h.type("2", build)
            XCTAssertEqual(browser.filter, "2")
            XCTAssertEqual(browser.photos[first].rating, 4)
            h.press(.backspace, build)
            h.wait(1)  // not a double click (which opens the viewer)
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            XCTAssertFalse(h.ui.wantsTextInput)

            // Ctrl+= and Ctrl+- zoom the grid.
            h.press(Key("="), modifiers: .control, build)
            XCTAssertEqual(browser.grid.zoom, 1.25, accuracy: 1e-9)
            h.press(Key("-"), modifiers: .control, build)
            XCTAssertEqual(browser.grid.zoom, 1, accuracy: 1e-9)

            // Ctrl+Return opens the photo in a window of its own; Escape there closes that window.
            h.press(.returnKey, modifiers: .control, build)
            h.frame(build)
            XCTAssertEqual(h.host.windows.map(\.group), [AppHost.mainGroup, PhotoWindow.group])
            XCTAssertFalse(browser.viewer.isOpen, "not also in the browser")
            let photoWindow = h.host.windows[1]
            EventInjector(window: photoWindow.window).tap(.escape)
            h.frames(2, build)
            XCTAssertTrue(photoWindow.isClosed)

            // Delete with two selected asks first; Escape keeps them, the destructive button trashes them.
            h.press(Key("a"), modifiers: .control, build)
            XCTAssertEqual(browser.selection.count, 6, "Ctrl+A: Select All")
            h.wait(1)
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            h.press(.right, modifiers: .shift, build)  // the grid has focus: Shift+→ extends
            XCTAssertEqual(browser.selection.count, 2)
            let doomed = browser.photos.filter { browser.selection.contains($0.id) }.map(\.path)
            h.press(.delete, build)
            XCTAssertNotNil(h.rect(ofText: "Move 2 photos to the trash?"))
            h.press(.escape, build)
            XCTAssertTrue(doomed.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "cancelled: nothing moved")
            h.press(.delete, build)
            try h.click(on: "Move to Trash", build)
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build), "moved off the main thread")
            XCTAssertFalse(doomed.contains { FileManager.default.fileExists(atPath: $0) }, "in the trash now")
            XCTAssertTrue(h.frames(until: { h.drawnText.contains("4 photos") }, build))
            // Ctrl+Z puts them back, rating and all (the folder's sidecar kept it).
            h.press(Key("z"), modifiers: .control, build)
            XCTAssertTrue(doomed.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "back where they were")
            XCTAssertTrue(h.frames(until: { h.drawnText.contains("6 photos") }, build))
            XCTAssertEqual(browser.photos.first { $0.path == doomed[0] }?.rating, 4)
            XCTAssertTrue(
                Trash.trashFolders(for: doomed[0]).allSatisfy { trash in
                    ((try? FileManager.default.contentsOfDirectory(atPath: trash + "/info")) ?? []).allSatisfy {
                        !$0.hasPrefix("commands-")
                    }
                }, "and out of the trash")
        }
    }
}
