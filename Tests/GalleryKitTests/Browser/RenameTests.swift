import XCTest
import Foundation
import TesseraTesting
import TestSupport
import Widgets
@testable import GalleryKit
import DemoSupport

/// Renaming a photo: F2 in the grid (a field over the cell) or in the table (the Name cell),
/// its rating going with it, a clash or a bad name refused, and Ctrl+Z renaming it back.
final class RenameTests: XCTestCase {
    func testANameIsCheckedAndAClashIsNeverOverwritten() throws {
        let dir = try ScratchFolder("rename")
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.file("a.jpg"), contents: Data("a".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.file("b.jpg"), contents: Data("b".utf8)))
        XCTAssertEqual(FileRename.rename(dir.file("a.jpg"), to: "sub/c.jpg"), "a name cannot contain “/”")
        XCTAssertEqual(FileRename.rename(dir.file("a.jpg"), to: "  "), "a name cannot be empty")
        XCTAssertEqual(FileRename.rename(dir.file("a.jpg"), to: ".."), "“..” is not a file name")
        XCTAssertEqual(
            FileRename.rename(dir.file("a.jpg"), to: String(repeating: "é", count: 128)),
            "the name is longer than 255 bytes")
        XCTAssertEqual(FileRename.rename(dir.file("a.jpg"), to: "b.jpg"), "a file named “b.jpg” is already there")
        XCTAssertEqual(FileManager.default.contents(atPath: dir.file("b.jpg")), Data("b".utf8), "never written over")
        XCTAssertNil(FileRename.rename(dir.file("a.jpg"), to: "c.jpg"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("a.jpg")))
        XCTAssertEqual(FileManager.default.contents(atPath: dir.file("c.jpg")), Data("a".utf8))
    }

    func testF2RenamesInTheGridAndTheTableWithTheRatingAndCtrlZRenamesBack() throws {
        try onMain {
            let lib = try ScratchFolder("rename-browser")
            for (i, name) in ["beach.jpg", "hills.jpg", "lake.jpg"].enumerated() {
                try SamplePhotos.writeJPEG(
                    SamplePhotos.render(width: 96, height: 64, seed: UInt64(i)), to: lib.file(name))
            }
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            let beach = try XCTUnwrap(browser.shown.firstIndex { $0.name == "beach.jpg" })
            h.click(at: BrowserEndToEndTests.cell(browser, beach), build)
            h.press(Key("3"), build)  // rated: the rating goes with the new name
            h.press(.f2, build)
            XCTAssertTrue(h.ui.wantsTextInput, "F2: a name field over the cell, focused")
            XCTAssertNotNil(h.rect(ofText: "beach.jpg"))
            h.press(Key("a"), modifiers: .control, build)
            h.type("sea.jpg", build)
            h.shot("rename-in-grid", build)
            h.press(.returnKey, build)
            XCTAssertFalse(FileManager.default.fileExists(atPath: lib.file("beach.jpg")))
            XCTAssertTrue(FileManager.default.fileExists(atPath: lib.file("sea.jpg")))
            XCTAssertFalse(browser.viewer.isOpen, "Return renamed; it did not open the viewer")
            XCTAssertTrue(
                h.frames(until: { browser.shown.contains { $0.name == "sea.jpg" && $0.rating == 3 } }, build),
                "renamed, rating and all")
            XCTAssertTrue(browser.finishSaves())
            let sidecar = try String(contentsOfFile: lib.file(".tessera.json"), encoding: .utf8)
            XCTAssertTrue(sidecar.contains("sea.jpg") && !sidecar.contains("beach.jpg"), sidecar)

            // Escape leaves the name as it was.
            h.press(.f2, build)
            h.type("x", build)
            h.press(.escape, build)
            h.frames(2, build)
            XCTAssertFalse(h.ui.wantsTextInput)
            XCTAssertTrue(FileManager.default.fileExists(atPath: lib.file("sea.jpg")), "Escape cancels")

            // A name that is taken is refused, and nothing is written over.
            h.press(.f2, build)
            h.press(Key("a"), modifiers: .control, build)
            h.type("lake.jpg", build)
            h.press(.returnKey, build)
            XCTAssertTrue(browser.lastAction.hasSuffix("a file named “lake.jpg” is already there"), browser.lastAction)
            XCTAssertTrue(FileManager.default.fileExists(atPath: lib.file("sea.jpg")))

            // Ctrl+Z renames it back.
            h.press(Key("z"), modifiers: .control, build)
            XCTAssertTrue(FileManager.default.fileExists(atPath: lib.file("beach.jpg")))
            XCTAssertTrue(
                h.frames(until: { browser.shown.contains { $0.name == "beach.jpg" && $0.rating == 3 } }, build))

            // In the table, F2 edits the Name cell in place.
            browser.viewMode = .table
            h.frames(2, build)
            let hills = try XCTUnwrap(h.rect(ofText: "hills.jpg", in: .tableRows("files")))
            h.wait(1)
            h.click(at: Point(hills.midX, hills.midY), build)
            h.press(.f2, build)
            XCTAssertTrue(h.ui.wantsTextInput, "the Name cell is a field")
            h.press(Key("a"), modifiers: .control, build)
            h.type("valley.jpg", build)
            h.press(.returnKey, build)
            XCTAssertTrue(FileManager.default.fileExists(atPath: lib.file("valley.jpg")))
            XCTAssertFalse(FileManager.default.fileExists(atPath: lib.file("hills.jpg")))
        }
    }
}
