import XCTest
import TesseraTesting
import TestSupport
import Widgets
@testable import GalleryKit
import DemoSupport

/// The demo's menu bar: its commands work by shortcut and by menu, and destructive ones ask first.
final class DemoCommandsTests: XCTestCase {
    func testTheMenuBarsCommandsAndTheTrashConfirmation() throws {
        try onMain {
            let dir = try ScratchFolder("commands")
            let h = try Harness(width: 1200, height: 700)
            let app = DemoApp(page: .controls, darkTheme: false, library: dir.path)
            let build: (UI) -> Void = { app.build($0, host: h.host) }
            h.frames(2, build)
            h.press(Key("5"), modifiers: .control, build)
            XCTAssertEqual(app.page, .table, "Ctrl+5: the fifth page")
            h.press(.f12, build)
            XCTAssertTrue(h.host.showsHUD, "F12 through the View menu's command, toggled once")
            h.press(.f12, build)
            XCTAssertFalse(h.host.showsHUD)
            try h.click(on: "Help", build)
            try h.click(on: "About Tessera", in: .popup, build)
            XCTAssertNotNil(
                h.rect(ofText: "Tessera", in: .rect(Rect(x: 300, y: 150, width: 600, height: 300))), "the About alert")
            h.press(.returnKey, build)
            XCTAssertNil(h.rect(ofText: "About Tessera"))
            // The table asks before moving files to the trash.
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Name", in: .tableHeader("files")) != nil }, build))
            let header = try XCTUnwrap(h.rect(ofText: "Name", in: .tableHeader("files")))
            let row = Point(header.midX, header.maxY + 40)
            h.click(at: row, build)
            h.click(at: row, button: .right, build)
            h.frame(build)
            try h.click(on: "Move 1 to Trash", in: .popup, build)
            XCTAssertNotNil(h.rect(ofText: "Move 1 file to the trash?"))
            h.shot("demo-trash-confirmation", build)
            h.press(.escape, build)
            XCTAssertNil(h.rect(ofText: "Move 1 file to the trash?"), "Escape: cancelled")
            XCTAssertFalse(h.drawnText.contains { $0.hasPrefix("Trashed") })
        }
    }

    func testFileOpenFolderChoosesALibraryWithTheChooser() throws {
        try onMain {
            let dir = try ScratchFolder("open-folder")
            try FileManager.default.createDirectory(atPath: dir.file("Holidays"), withIntermediateDirectories: true)
            try SamplePhotos.writeJPEG(
                SamplePhotos.render(width: 64, height: 48, seed: 1), to: dir.file("Holidays/beach.jpg"))
            let h = try Harness(width: 1200, height: 700)
            h.ui.fileChooserBackend = .builtIn  // never the desktop's, even where one runs
            let state = try ScratchFolder("open-folder-state")
            h.ui.persistentStore = PersistentStore(path: state.file("state.json"))
            let app = DemoApp(page: .controls, darkTheme: false, library: dir.path)
            let build: (UI) -> Void = { app.build($0, host: h.host) }
            h.frames(2, build)
            h.press(Key("o"), modifiers: .control, build)
            XCTAssertTrue(
                h.frames(until: { h.rect(ofText: "Holidays", in: .tableRows("entries")) != nil }, build),
                "Ctrl+O opens the chooser in the library")
            h.press(.escape, build)
            XCTAssertNil(h.rect(ofText: "Choose a Folder"), "Escape cancels")
            try h.click(on: "File", build)
            try h.click(on: "Open Folder…", in: .popup, build)
            XCTAssertTrue(
                h.frames(until: { h.rect(ofText: "Holidays", in: .tableRows("entries")) != nil }, build),
                "and so does the menu")
            try h.click(on: "Holidays", in: .tableRows("entries"), build)
            try h.click(on: "Choose", build)
            XCTAssertEqual(app.page, .photos)
            XCTAssertEqual(app.browser.folder, dir.file("Holidays"))
            // Another library, then the first again from the sidebar's Recent Libraries.
            h.press(Key("o"), modifiers: .control, build)
            XCTAssertTrue(
                h.frames(
                    until: {
                        h.rect(ofText: "Holidays", in: .tableRows("entries")) == nil && h.drawnText.contains("0 items")
                    }, build))
            // the path bar: the library's parent
            try h.click(on: dir.path.split(separator: "/").last.map(String.init) ?? "", build)
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Holidays", in: .tableRows("entries")) != nil }, build))
            try h.click(on: "Choose", build)  // nothing selected: the folder shown
            XCTAssertEqual(app.browser.folder, dir.path)
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Recent Libraries") != nil }, build), "\(h.drawnText)")
            h.shot("demo-recent-libraries", build)
            try h.click(on: "Holidays", build)
            XCTAssertEqual(app.browser.folder, dir.file("Holidays"), "the recent library opens again")
            XCTAssertEqual(app.browser.recentLibraries(h.ui), [dir.file("Holidays"), dir.path])
        }
    }
}
