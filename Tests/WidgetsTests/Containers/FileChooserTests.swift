import Foundation
import XCTest
import TesseraTesting
import TestSupport
@testable import Widgets

/// The built-in file chooser: a folder listed in the background, folders first in natural
/// order; navigation by mouse and keys; choosing a folder or files; cancelling.
final class FileChooserTests: XCTestCase {
    /// A window whose choosers are Tessera's own, never the desktop's, even where one runs.
    @MainActor private static func chooserHarness() throws -> Harness {
        let h = try Harness(width: 1000, height: 640)
        h.ui.fileChooserBackend = .builtIn
        return h
    }

    private static func makeTree() throws -> ScratchFolder {
        let dir = try ScratchFolder("chooser")
        for folder in ["Trips", "Albums", "Albums/2024", ".cache"] {
            try FileManager.default.createDirectory(atPath: dir.file(folder), withIntermediateDirectories: true)
        }
        for file in ["IMG_10.jpg", "IMG_9.jpg", "notes.txt", ".hidden.jpg", "Albums/2024/beach.png"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: dir.file(file), contents: Data("x".utf8)))
        }
        XCTAssertEqual(symlink(dir.file("Trips"), dir.file("Trips link")), 0)
        return dir
    }

    func testAListingPutsFoldersFirstInNaturalOrderAndSaysWhyAFolderCannotBeRead() throws {
        let dir = try Self.makeTree()
        guard case .listed(let entries) = FolderListing.read(dir.path) else { return XCTFail("not listed") }
        XCTAssertEqual(
            entries.map(\.name),
            [".cache", "Albums", "Trips", "Trips link", ".hidden.jpg", "IMG_9.jpg", "IMG_10.jpg", "notes.txt"])
        XCTAssertEqual(entries.filter(\.isFolder).count, 4, "a link to a folder is a folder")
        XCTAssertEqual(entries.map(\.id), Array(0..<8))
        guard case .failed(let why) = FolderListing.read(dir.file("nowhere")) else {
            return XCTFail("listed a missing folder")
        }
        XCTAssertTrue(why.contains("No such file"), why)
        // 20,000 entries, listed off the calling thread.
        let big = try ScratchFolder("chooser-big")
        for i in 0..<20_000 { _ = FileManager.default.createFile(atPath: big.file("file \(i).dat"), contents: nil) }
        let listing = FolderListing()
        listing.list(big.path)
        let deadline = Date().addingTimeInterval(60)
        while listing.result(for: big.path) == nil && Date() < deadline { usleep(5_000) }
        guard case .listed(let many)? = listing.result(for: big.path) else { return XCTFail("not listed") }
        XCTAssertEqual(many.count, 20_000)
        XCTAssertEqual(many.prefix(3).map(\.name), ["file 0.dat", "file 1.dat", "file 2.dat"])
        XCTAssertEqual(many.last?.name, "file 19999.dat")
        XCTAssertNil(listing.result(for: dir.path), "the result belongs to the folder listed")
    }

    /// A folder of 100,000 files: the frame that asks for the listing does not wait for it,
    /// the table builds only the rows in view, the filter narrows as a name is typed, and the
    /// status line counts what the hidden switch lets through.
    func testAFolderOf100000EntriesListsInTheBackgroundAndFiltersAsANameIsTyped() throws {
        try onMain {
            let dir = try ScratchFolder("chooser-100k")
            for i in 0..<100_000 {
                let fd = open(dir.file(String(format: "file-%06d.txt", i)), O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
                XCTAssertGreaterThanOrEqual(fd, 0)
                close(fd)
            }
            XCTAssertTrue(FileManager.default.createFile(atPath: dir.file(".hidden"), contents: nil))
            let h = try Self.chooserHarness()
            let presented = Model(true)
            let build: (UI) -> Void = { ui in
                ui.fileImporter(isPresented: presented.binding, allowedContentTypes: [.item], directory: dir.path) {
                    _ in
                }
            }
            h.frame(build)
            XCTAssertTrue(h.drawnText.contains("Listing…"), "the first frame is drawn before the listing is done")
            XCTAssertTrue(h.frames(until: { h.drawnText.contains("100000 items") }, build), "\(h.drawnText.suffix(5))")
            XCTAssertNotNil(h.rect(ofText: "file-000000.txt", in: .tableRows("entries")))
            XCTAssertLessThan(h.findAll(.tableRow).count, 60, "only the rows in view are built")
            try h.click(on: "Filter", build)
            h.type("FILE-09999", build)
            XCTAssertTrue(h.drawnText.contains("10 of 100000 items"), "\(h.drawnText.suffix(5))")
            XCTAssertNotNil(h.rect(ofText: "file-099999.txt", in: .tableRows("entries")))
            h.press(.backspace, build)
            XCTAssertTrue(h.drawnText.contains("100 of 100000 items"), "a shorter filter widens again")
            try h.click(on: "Hidden", build)
            h.frame(build)
            XCTAssertTrue(h.drawnText.contains("100 of 100001 items"), "hidden files count once shown")
        }
    }

    func testChoosingAFolderByMouseAndKeys() throws {
        try onMain {
            let dir = try Self.makeTree()
            let h = try Self.chooserHarness()
            let presented = Model(true)
            var chosen: [URL] = [], cancelled = 0
            let build: (UI) -> Void = { ui in
                ui.fileImporter(isPresented: presented.binding, allowedContentTypes: [.folder], directory: dir.path) {
                    result in
                    if case .success(let urls) = result { chosen = urls }
                } onCancellation: {
                    cancelled += 1
                }
            }
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Albums", in: .tableRows("entries")) != nil }, build))
            XCTAssertNil(h.rect(ofText: "IMG_9.jpg"), "a folder chooser shows folders only")
            XCTAssertNil(h.rect(ofText: ".cache", in: .tableRows("entries")), "hidden folders are hidden")
            // Double-click Albums: into it.
            let albums = try XCTUnwrap(h.rect(ofText: "Albums", in: .tableRows("entries")))
            h.click(at: Point(albums.midX, albums.midY), build)
            h.click(at: Point(albums.midX, albums.midY), build)
            XCTAssertTrue(
                h.frames(until: { h.rect(ofText: "2024", in: .tableRows("entries")) != nil }, build), "\(h.drawnText)")
            // Backspace: back up; the keyboard then selects Trips and Return opens it.
            h.press(.backspace, build)
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Trips", in: .tableRows("entries")) != nil }, build))
            try h.click(on: "Hidden", build)
            XCTAssertTrue(
                h.frames(until: { h.rect(ofText: ".cache", in: .tableRows("entries")) != nil }, build),
                "hidden files on request")
            try h.click(on: "Albums", in: .tableRows("entries"), build)
            try h.click(on: "Choose", build)
            XCTAssertEqual(chosen.map(\.path), [dir.file("Albums")], "the selected folder")
            XCTAssertFalse(presented.value, "closed")
            presented.value = true
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Trips", in: .tableRows("entries")) != nil }, build))
            h.press(.escape, build)
            XCTAssertEqual(cancelled, 1)
            XCTAssertFalse(presented.value)
        }
    }

    func testOpeningFilesOfAKindWithTheFilter() throws {
        try onMain {
            let dir = try Self.makeTree()
            let h = try Self.chooserHarness()
            let presented = Model(true)
            var chosen: [URL] = []
            let build: (UI) -> Void = { ui in
                ui.fileImporter(
                    isPresented: presented.binding, allowedContentTypes: [.image], allowsMultipleSelection: true,
                    directory: dir.path
                ) { result in
                    if case .success(let urls) = result { chosen = urls }
                }
            }
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "IMG_10.jpg", in: .tableRows("entries")) != nil }, build))
            XCTAssertNil(h.rect(ofText: "notes.txt"), "not an image")
            try h.click(on: "Filter", build)
            h.type("img_1", build)
            h.frames(2, build)
            XCTAssertNil(h.rect(ofText: "IMG_9.jpg", in: .tableRows("entries")), "filtered out")
            let image = try XCTUnwrap(h.rect(ofText: "IMG_10.jpg", in: .tableRows("entries")))
            h.click(at: Point(image.midX, image.midY), build)
            h.shot("file-chooser", build)
            h.click(at: Point(image.midX, image.midY), build)  // a double-click chooses it
            XCTAssertEqual(chosen.map(\.path), [dir.file("IMG_10.jpg")])
        }
    }

    func testSavingGivesThePathOfTheNameTypedInTheFolderShown() throws {
        try onMain {
            let dir = try Self.makeTree()
            let h = try Self.chooserHarness()
            let presented = Model(true)
            var saved: [URL] = []
            let build: (UI) -> Void = { ui in
                ui.fileExporter(isPresented: presented.binding, defaultFilename: "report.csv", directory: dir.path) {
                    result in
                    if case .success(let url) = result { saved.append(url) }
                }
            }
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "Albums", in: .tableRows("entries")) != nil }, build))
            XCTAssertNotNil(h.rect(ofText: "report.csv"), "the default name")
            let albums = try XCTUnwrap(h.rect(ofText: "Albums", in: .tableRows("entries")))
            h.click(at: Point(albums.midX, albums.midY), build)
            h.click(at: Point(albums.midX, albums.midY), build)
            XCTAssertTrue(h.frames(until: { h.rect(ofText: "2024", in: .tableRows("entries")) != nil }, build))
            try h.click(on: "report.csv", build)
            h.press(Key("a"), modifiers: .control, build)
            h.type("summary.csv", build)
            try h.click(on: "Save", build)
            XCTAssertEqual(saved.map(\.path), [dir.file("Albums/summary.csv")])
            XCTAssertFalse(presented.value)
        }
    }

    func testANameThatIsNotUTF8IsListedButNeverHandedOnAsAnotherFilesURL() throws {
        try onMain {
            let dir = try ScratchFolder("chooser-bytes")
            let raw = Array(dir.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".jpg".utf8)  // Latin-1 "café.jpg"
            let created = (raw + [0]).withUnsafeBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    open($0, O_CREAT | O_WRONLY, 0o644)
                }
            }
            XCTAssertGreaterThanOrEqual(created, 0)
            close(created)
            let h = try Self.chooserHarness()
            let presented = Model(true)
            var chosen: [URL] = []
            let build: (UI) -> Void = { ui in
                ui.fileImporter(isPresented: presented.binding, allowedContentTypes: [.image], directory: dir.path) {
                    result in
                    if case .success(let urls) = result { chosen = urls }
                }
            }
            XCTAssertTrue(h.frames(until: { h.drawnText.contains { $0.hasPrefix("caf") } }, build), "\(h.drawnText)")
            let name = try XCTUnwrap(h.drawnText.first { $0.hasPrefix("caf") })
            let row = try XCTUnwrap(h.rect(ofText: name, in: .tableRows("entries")))
            h.click(at: Point(row.midX, row.midY), build)
            h.click(at: Point(row.midX, row.midY), build)
            // Foundation's URL would turn the byte into U+FFFD and name another file: refused, with the reason.
            XCTAssertEqual(chosen, [])
            XCTAssertTrue(presented.value, "still open")
            XCTAssertTrue(h.drawnText.contains { $0.contains("its name is not UTF-8") }, "\(h.drawnText)")
        }
    }

    func testSizesAndDatesAreWrittenAsTheTableShowsThem() {
        XCTAssertEqual(UI.sizeText(0), "0 B")
        XCTAssertEqual(UI.sizeText(999), "999 B")
        XCTAssertEqual(UI.sizeText(1500), "1.5 KB")
        XCTAssertEqual(UI.sizeText(999_950), "1.0 MB")
        XCTAssertEqual(UI.sizeText(2_500_000_000), "2.5 GB")
        XCTAssertEqual(UI.sizeText(Int64.max), "9223.4 PB")
        XCTAssertEqual(UI.dateText(0).count, 16)
        XCTAssertEqual(UI.dateText(Int64.max), "", "a date no calendar holds is left blank")
    }
}
