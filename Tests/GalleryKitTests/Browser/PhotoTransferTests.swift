import XCTest
import Foundation
import TesseraTesting
import TestSupport
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
@testable import GalleryKit

/// Photos moved and copied to folders: by dragging them onto the sidebar, with their
/// sidecars, a name clash asked about and never overwritten, and Ctrl+Z taking it back.
final class PhotoTransferTests: XCTestCase {
    /// A folder holding `x.jpg` (rated 3 in its sidecar) and a folder `b` holding another `x.jpg`.
    static func clashingFolders(_ name: String) throws -> (ScratchFolder, source: String, other: String) {
        let dir = try ScratchFolder(name)
        try FileManager.default.createDirectory(atPath: dir.file("b"), withIntermediateDirectories: true)
        let source = dir.file("x.jpg"), other = dir.file("b/x.jpg")
        XCTAssertTrue(FileManager.default.createFile(atPath: source, contents: Data("ours".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: other, contents: Data("theirs".utf8)))
        try XMPSidecar.write(PhotoXMP(rating: 3), for: source)
        return (dir, source, other)
    }

    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func testAClashIsSkippedKeptBothOrReplacedButNeverOverwritten() throws {
        let (dir, source, other) = try Self.clashingFolders("transfer-clash")
        defer { DemoWindowsTests.emptyTrash(of: dir) }
        XCTAssertEqual(PhotoTransfer.clashes([source], into: dir.file("b")), [source])
        XCTAssertEqual(PhotoTransfer.clashes([source], into: dir.path), [], "a photo is not in the way of itself")

        XCTAssertEqual(PhotoTransfer.transfer(source, into: dir.file("b"), copying: false, clash: .skip), .skipped)
        XCTAssertEqual(Self.contents(source), "ours")
        XCTAssertEqual(Self.contents(other), "theirs")

        let kept = PhotoTransfer.transfer(source, into: dir.file("b"), copying: false, clash: .keepBoth)
        XCTAssertEqual(kept, .placed(at: dir.file("b/x 2.jpg"), replaced: false, problems: []))
        XCTAssertEqual(Self.contents(dir.file("b/x 2.jpg")), "ours")
        XCTAssertEqual(Self.contents(other), "theirs")
        XCTAssertFalse(FileManager.default.fileExists(atPath: source))
        XCTAssertFalse(FileManager.default.fileExists(atPath: source + ".xmp"), "the sidecar went with it")
        XCTAssertEqual(try XMPSidecar.read(for: dir.file("b/x 2.jpg"))?.rating, 3)

        // Back, then over the other one: it goes to the trash, not into nothing.
        XCTAssertEqual(
            PhotoTransfer.transfer(dir.file("b/x 2.jpg"), to: source, copying: false, clash: .skip),
            .placed(at: source, replaced: false, problems: []))
        let replaced = PhotoTransfer.transfer(source, into: dir.file("b"), copying: false, clash: .replace)
        XCTAssertEqual(replaced, .placed(at: other, replaced: true, problems: []))
        XCTAssertEqual(Self.contents(other), "ours")
        XCTAssertEqual(Trash.find([other]).count, 1, "the photo it replaced is in the trash")
    }

    func testACopyKeepsTheOriginalAndACopyIntoItsOwnFolderTakesANewName() throws {
        let (dir, source, _) = try Self.clashingFolders("transfer-copy")
        let copied = PhotoTransfer.transfer(source, into: dir.path, copying: true, clash: .skip)
        XCTAssertEqual(
            copied, .placed(at: dir.file("x 2.jpg"), replaced: false, problems: []), "its own folder: a copy beside it")
        XCTAssertEqual(Self.contents(source), "ours")
        XCTAssertEqual(Self.contents(dir.file("x 2.jpg")), "ours")
        XCTAssertEqual(try XMPSidecar.read(for: dir.file("x 2.jpg"))?.rating, 3, "with a copy of its sidecar")
        XCTAssertEqual(try XMPSidecar.read(for: source)?.rating, 3)
        XCTAssertEqual(
            PhotoTransfer.transfer(source, into: dir.path, copying: false, clash: .keepBoth), .skipped,
            "a move to where it is")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("partial") }
        XCTAssertEqual(leftovers, [], "no half-copied file is left behind")
    }

    func testAMoveToAnotherFileSystemCopiesThenRemovesAndAReadOnlyFolderRefuses() throws {
        let (dir, source, _) = try Self.clashingFolders("transfer-device")
        let elsewhere = "/dev/shm/tessera-transfer-\(getpid())"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        var a = stat(), b = stat()
        XCTAssertEqual(stat(dir.path, &a), 0)
        XCTAssertEqual(stat(elsewhere, &b), 0)
        if a.st_dev != b.st_dev {  // (the usual case: /dev/shm is a tmpfs of its own)
            XCTAssertEqual(
                PhotoTransfer.transfer(source, into: elsewhere, copying: false, clash: .skip),
                .placed(at: elsewhere + "/x.jpg", replaced: false, problems: []))
            XCTAssertEqual(Self.contents(elsewhere + "/x.jpg"), "ours")
            XCTAssertFalse(FileManager.default.fileExists(atPath: source))
            XCTAssertEqual(try XMPSidecar.read(for: elsewhere + "/x.jpg")?.rating, 3)
            XCTAssertEqual(
                PhotoTransfer.transfer(elsewhere + "/x.jpg", to: source, copying: false, clash: .skip),
                .placed(at: source, replaced: false, problems: []))
        }
        guard getuid() != 0 else { return }  // root writes into read-only folders
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.file("b"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.file("b")) }
        XCTAssertEqual(
            PhotoTransfer.transfer(source, into: dir.file("b"), copying: false, clash: .keepBoth),
            .failed("the folder is read-only"))
        XCTAssertEqual(Self.contents(source), "ours")
    }

    func testDraggingPhotosOntoASidebarFolderMovesThemAskingAboutAClashAndCtrlZPutsThemBack() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("drag-move", count: 2)
            let names = try FileManager.default.contentsOfDirectory(atPath: lib.path).filter { $0.hasSuffix(".jpg") }
                .sorted()
            try FileManager.default.createDirectory(atPath: lib.file("Holiday"), withIntermediateDirectories: true)
            XCTAssertTrue(
                FileManager.default.createFile(atPath: lib.file("Holiday/" + names[0]), contents: Data("theirs".utf8)))
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            browser.expandedFolders.insert(.folder(lib.path))  // the library's folder open in the sidebar
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Holiday") != nil }, build), "the subfolder is listed")
            let holiday = try XCTUnwrap(h.rect(ofText: "Holiday")).center
            let index = try XCTUnwrap(browser.grid.photos.firstIndex { $0.name == names[0] && $0.folder == lib.path })
            let cell = BrowserEndToEndTests.cell(browser, index)
            let moved = browser.grid.photos[index]
            h.click(at: cell, build)
            h.press(Key("4"), build)  // rated: the rating goes with it
            XCTAssertTrue(browser.finishSaves())

            // Mid-drag: the folder is outlined, and the preview shows the count.
            h.inject.mouseMove(to: cell)
            h.frame(build)
            h.inject.mouseButton(.left, down: true, at: cell)
            h.frame(build)
            for i in 1...6 {
                h.inject.mouseMove(to: cell + (holiday - cell) * (Double(i) / 6), buttons: 1)
                h.frame(build)
            }
            h.frame(build)
            XCTAssertEqual(h.ui.activeDrag?.count, 1)
            XCTAssertNotNil(h.rect(ofText: "1"), "the count's badge")
            h.shot("demo-drag-to-folder", build)
            h.inject.mouseButton(.left, down: false, at: holiday)
            h.frame(build)
            h.frame(build)
            // The clash is asked about; nothing moved yet.
            XCTAssertNotNil(h.rect(ofText: "“\(names[0])” is already in Holiday"))
            XCTAssertTrue(FileManager.default.fileExists(atPath: moved.path))
            h.shot("demo-move-clash", build)
            try h.click(on: "Keep Both", build)
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            let kept = lib.file("Holiday/" + String(names[0].dropLast(4)) + " 2.jpg")
            XCTAssertFalse(FileManager.default.fileExists(atPath: moved.path))
            XCTAssertTrue(FileManager.default.fileExists(atPath: kept))
            XCTAssertEqual(Self.contents(lib.file("Holiday/" + names[0])), "theirs", "never overwritten")
            XCTAssertEqual(try XMPSidecar.read(for: kept)?.rating, 4, "its sidecar went with it")
            XCTAssertTrue(browser.lastAction.hasPrefix("Moved 1 photo to Holiday"), browser.lastAction)
            browser.waitForScan()
            h.frames(3, build)
            XCTAssertEqual(browser.photos.first { $0.path == kept }?.rating, 4, "the browser sees it there, rated")

            // Ctrl+Z: back where it was, under its own name.
            browser.undo()
            XCTAssertTrue(FileManager.default.fileExists(atPath: moved.path))
            XCTAssertFalse(FileManager.default.fileExists(atPath: kept))
            XCTAssertEqual(try XMPSidecar.read(for: moved.path)?.rating, 4)
            XCTAssertTrue(browser.finishSaves())
        }
    }

    func testCtrlDragCopiesWithoutAQuestionWhenNoNameClashes() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("drag-copy", count: 2)
            try FileManager.default.createDirectory(atPath: lib.file("Prints"), withIntermediateDirectories: true)
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            browser.expandedFolders.insert(.folder(lib.path))
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Prints") != nil }, build))
            let prints = try XCTUnwrap(h.rect(ofText: "Prints")).center
            // Both photos selected; the drag starts on the second and carries both.
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            h.press(Key("a"), modifiers: .control, build)
            XCTAssertEqual(browser.selection.count, 2)
            let cell = BrowserEndToEndTests.cell(browser, 1)
            h.inject.mouseButton(.left, down: true, at: cell)
            h.frame(build)
            for i in 1...4 {
                h.inject.mouseMove(to: cell + (prints - cell) * (Double(i) / 4), buttons: 1)
                h.frame(build)
            }
            h.inject.key(Key.control, down: true, modifiers: [.control])
            h.frame(build)
            XCTAssertEqual(h.ui.activeDrag, ActiveDrag(count: 2, isCopy: true))
            h.inject.mouseButton(.left, down: false, at: prints)
            h.frame(build)
            h.inject.key(Key.control, down: false)
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            let originals = browser.grid.photos.filter { $0.folder == lib.path }.map(\.name).sorted()
            XCTAssertEqual(originals.count, 2)
            for name in originals {
                XCTAssertTrue(FileManager.default.fileExists(atPath: lib.file(name)), "the original stays")
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: lib.file("Prints/" + name)), "and a copy is in Prints")
            }
            XCTAssertFalse(h.drawnText.contains { $0.contains("already in") }, "no question without a clash")
        }
    }
}
