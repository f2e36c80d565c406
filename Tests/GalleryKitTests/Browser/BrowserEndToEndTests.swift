import XCTest
import Foundation
import TesseraTesting
import TestSupport
import CSDL2
@testable import GalleryKit
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The photo browser end to end in the offscreen renderer: a session driven by injected
/// input and recorded, a restart that finds its state, the recording replayed into a fresh
/// browser, a second start served by the thumbnail cache, and a hostile folder.
final class BrowserEndToEndTests: XCTestCase {
    /// A library: a01…a06 and b07…b12 (small JPEGs), Sub/ (3 photos and a link loop back to
    /// the library), Broken/ (truncated, not an image, empty, one good photo).
    @MainActor
    static func makeLibrary(_ name: String) throws -> ScratchFolder {
        let lib = try ScratchFolder(name)
        let names = (1...12).map { ($0 <= 6 ? "a" : "b") + ($0 < 10 ? "0" : "") + "\($0).jpg" }
        for (i, name) in names.enumerated() {
            try SamplePhotos.writeJPEG(
                SamplePhotos.render(width: 160 + 8 * i, height: 120, seed: UInt64(i)), to: lib.file(name))
        }
        try FileManager.default.createDirectory(atPath: lib.file("Sub"), withIntermediateDirectories: true)
        for i in 0..<3 {
            try SamplePhotos.writeJPEG(
                SamplePhotos.render(width: 100, height: 80, seed: 50 + UInt64(i)), to: lib.file("Sub/s\(i).jpg"))
        }
        try FileManager.default.createSymbolicLink(atPath: lib.file("Sub/Loop"), withDestinationPath: lib.path)
        try FileManager.default.createDirectory(atPath: lib.file("Broken"), withIntermediateDirectories: true)
        let photo = try SamplePhotos.jpegData(SamplePhotos.render(width: 120, height: 90, seed: 9))
        try SamplePhotos.write(Array(photo.prefix(photo.count / 3)), to: lib.file("Broken/truncated.jpg"))
        try SamplePhotos.write(Array("notes, not a photo".utf8), to: lib.file("Broken/notes.jpg"))
        try SamplePhotos.write([], to: lib.file("Broken/empty.png"))
        try SamplePhotos.write(photo, to: lib.file("Broken/ok.jpg"))
        return lib
    }

    /// A harness with the browser's pipeline, thumbnail cache and state file.
    @MainActor
    static func session(_ lib: ScratchFolder, state: String) throws -> (
        Harness, BrowserPage, ImagePipeline, FreedesktopThumbnails
    ) {
        let h = try Harness(width: 1280, height: 800)
        // A dot file, as the library's own files are: the browser watches the library, and a
        // state file saved into it would walk the library again mid-test.
        h.ui.persistentStore = PersistentStore(path: lib.file("." + state))
        let thumbnails = FreedesktopThumbnails(root: lib.file(".thumbnails"))
        // As many decode workers as the app would start: CI runs these tests with TESSERA_WORKERS=64 too.
        let images = ImagePipeline(renderer: h.host.window.renderer) {
            thumbnails.thumbnail(path: $0.path, spec: $0.spec)
        }
        images.keepsTimelines = true
        h.ui.images = images
        let page = BrowserPage(root: lib.path)
        page.waitForScan()  // the whole library, before the first frame
        return (h, page, images, thumbnails)
    }

    @MainActor
    static func waitForThumbnails(_ h: Harness, _ build: (UI) -> Void) {
        // generous: sanitizers and busy machines; it stops as soon as it can
        let deadline = MonotonicClock.seconds() + 60
        repeat {
            h.frame(build)
            usleep(5_000)
        } while (h.host.profiler.lastFrame?.lazy.placeholderCells ?? 1) > 0 && MonotonicClock.seconds() < deadline
    }

    func testTheGridSelectsWithTheArrowsShiftExtendsAndHomeEndMove() throws {
        try onMain {
            let lib = try Self.makeLibrary("browser-keys")
            let (h, page, _, _) = try Self.session(lib, state: "state.json")
            let build: (UI) -> Void = { page.build($0) }
            Self.waitForThumbnails(h, build)
            let columns = try XCTUnwrap(page.grid.info?.columns)
            XCTAssertGreaterThan(columns, 2)
            let name = { (i: Int) in page.shown[i].name }
            let selected = { Set(page.selection.map { id in page.photos.first { $0.id == id }!.name }) }
            h.click(at: Self.cell(page, 0), build)
            h.inject.tap(.right)
            h.frames(2, build)
            XCTAssertEqual(selected(), [name(1)], "Right selects the next photo")
            h.inject.tap(.down, modifiers: .shift)
            h.frames(2, build)
            XCTAssertEqual(selected(), Set((1...1 + columns).map(name)), "Shift-Down extends a row down")
            h.inject.tap(.end)
            h.frames(3, build)
            XCTAssertEqual(selected(), [name(page.shown.count - 1)], "End selects the last photo")
            XCTAssertTrue(page.grid.info!.visible.contains(page.shown.count - 1), "and scrolls it into view")
            h.inject.tap(.home)
            h.inject.tap(.left)
            h.frames(2, build)
            XCTAssertEqual(selected(), [name(0)], "Home, and Left stops at the first")
            h.inject.tap(.tab)
            h.frames(2, build)
            h.inject.tap(.right)
            h.frames(2, build)
            XCTAssertEqual(selected(), [name(0)], "once Tab moved focus away, the arrows leave the grid alone")
        }
    }

    func testADroppedFolderOpensAndADroppedPhotoIsSelectedInItsFolder() throws {
        try onMain {
            let lib = try Self.makeLibrary("browser-drop")
            let (h, page, _, _) = try Self.session(lib, state: "state.json")
            let build: (UI) -> Void = { page.build($0) }
            Self.waitForThumbnails(h, build)
            h.inject.mouseMove(to: Point(640, 400))
            h.inject.dropFile(lib.file("Sub"))
            h.frames(2, build)
            XCTAssertEqual(page.folder, lib.file("Sub"))
            XCTAssertEqual(page.shown.count, 3)
            h.inject.dropFile(lib.file("b12.jpg"))
            h.frames(3, build)
            XCTAssertEqual(page.folder, (lib.file("b12.jpg") as NSString).deletingLastPathComponent)
            XCTAssertEqual(page.selection.map { id in page.photos.first { $0.id == id }!.name }, ["b12.jpg"])
            let index = try XCTUnwrap(page.shown.firstIndex { $0.name == "b12.jpg" })
            XCTAssertTrue(page.grid.info!.visible.contains(index), "scrolled to it")
            h.inject.dropFile(lib.file("Broken/notes.txt-missing"))
            h.frames(2, build)
            XCTAssertEqual(page.selection.count, 1, "a path that is not there changes nothing")
        }
    }

    /// The centre of grid cell `i`.
    @MainActor
    static func cell(_ page: BrowserPage, _ i: Int) -> Point {
        let info = page.grid.info!
        let size = info.cellSize
        return Point(
            info.viewport.x + Double(i % info.columns) * (size.width + 8) + size.width / 2,
            info.viewport.y + Double(i / info.columns) * (size.height + 8) + size.height / 2 - info.scrollOffset)
    }

    func testABrowsingSessionIsRecordedRestoredAfterARestartAndReplayedExactly() throws {
        try onMain {
            let lib = try Self.makeLibrary("browser-session")
            var (h, page, images, thumbnails) = try Self.session(lib, state: "state.json")
            let recording = lib.file("session.jsonl")
            h.host.recorder = try InputRecorder(
                path: recording, header: RecordingHeader(width: 1280, height: 800, scale: 1))
            var build: (UI) -> Void = { page.build($0) }
            Self.waitForThumbnails(h, build)
            XCTAssertEqual(
                page.shown.count, 19, "All Photos: the 12 at the top, Sub's 3 and Broken's 4 (Sub/Loop is not followed)"
            )
            let id = { (name: String) in page.photos.first { $0.name == name }!.id }

            // Select with a click and a shift-click; the context menu applies to the selection.
            h.click(at: Self.cell(page, 0), build)
            XCTAssertEqual(page.selection, [id("a01.jpg")])
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: true, modifiers: .shift)
            h.click(at: Self.cell(page, 3), build)
            h.inject.key(Key(rawValue: 225 | (1 << 30)), down: false)
            h.frame(build)
            XCTAssertEqual(Set(page.selection), Set(["a01.jpg", "a02.jpg", "a03.jpg", "a04.jpg"].map(id)))
            h.click(at: Self.cell(page, 1), button: .right, build)
            h.frame(build)
            XCTAssertEqual(
                page.grid.menuTarget, page.selection, "right-clicking a selected cell targets the whole selection")
            h.shot("browser-menu", build)
            h.inject.tap(.escape)
            h.frame(build)

            // Return opens the viewer on the first selected photo; → goes to the next; Escape returns.
            h.inject.tap(.returnKey)
            h.frames(2, build)
            XCTAssertEqual(page.viewer.current?.name, "a01.jpg")
            h.inject.tap(.right)
            h.frames(2, build)
            XCTAssertEqual(page.viewer.current?.name, "a02.jpg")
            Self.waitForThumbnails(h, build)
            h.shot("browser-viewer", build)
            h.inject.tap(.escape)
            h.frames(2, build)
            XCTAssertFalse(page.viewer.isOpen)

            // The toolbar's segmented control switches to the table; a header click sorts by size.
            let font = h.ui.font
            let before = ["Grid", "Justified"].reduce(0.0) { $0 + font.measure($1) + 24 },
                tableWidth = font.measure("Table") + 24
            h.click(at: page.viewModeOrigin + Point(before + tableWidth / 2, 13), build)
            h.frame(build)
            XCTAssertEqual(page.viewMode, .table)
            let body = try XCTUnwrap(page.tableInfo?.bodyRect)
            let widths = TableColumnLayout.widths(page.columns(), userWidths: [:], available: body.width)
            h.click(at: Point(body.x + widths[0] + widths[1] + widths[2] / 2, body.y - 12), build)
            h.frame(build)
            XCTAssertEqual(page.sortOrder.map(\.id), ["Size"])
            XCTAssertEqual(page.selection.count, 4, "grid and table share the selection")
            h.shot("browser-table", build)

            // Typing in the filter narrows the photos by name.
            h.click(at: page.filterOrigin + Point(80, 13), build)
            h.inject.text("b1")
            h.frames(2, build)
            h.inject.tap(.returnKey)
            h.frames(2, build)
            XCTAssertEqual(page.filter, "b1")
            XCTAssertEqual(Set(page.shown.map(\.name)), ["b10.jpg", "b11.jpg", "b12.jpg"])
            XCTAssertEqual(
                try XCTUnwrap(page.tableRows).map(\.name), page.shown.sorted { $0.size < $1.size }.map(\.name),
                "the filtered rows in size order")
            XCTAssertEqual(page.selection, [], "the selection keeps only what is shown")
            h.host.recorder?.close()
            h.ui.persistentStore?.save()
            thumbnails.flush()
            images.shutdown()

            // Restart: a new browser over the same state file finds the view mode and sort order.
            (h, page, images, thumbnails) = try Self.session(lib, state: "state.json")
            build = { page.build($0) }
            h.frames(2, build)
            XCTAssertEqual(page.viewMode, .table)
            XCTAssertEqual(page.sortOrder.map(\.id), ["Size"])
            // And the second start reads every thumbnail from the cache: no JPEG decoded.
            page.viewMode = .grid
            Self.waitForThumbnails(h, build)
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, 0)
            XCTAssertFalse(images.timelines.isEmpty)
            // (Broken/'s bad files, shown in All Photos with the rest of the tree, have no thumbnail to keep: they are read again.)
            let decoded = images.timelines.filter { $0.dctScale != 0 && !$0.path.contains("/Broken/") }.map(\.path)
            XCTAssertEqual(decoded, [], "decoded from JPEG on the second start")
            images.shutdown()

            // Replay: the recording drives a fresh browser (fresh state) to the same place.
            (h, page, images, _) = try Self.session(lib, state: "replay-state.json")
            build = { page.build($0) }
            let replay = try InputReplay(path: recording)
            XCTAssertEqual(replay.header, RecordingHeader(width: 1280, height: 800, scale: 1))
            XCTAssertGreaterThan(replay.steps.count, 10)
            h.host.play(replay, speed: .max, build)
            XCTAssertEqual(page.viewMode, .table)
            XCTAssertEqual(page.sortOrder.map(\.id), ["Size"])
            XCTAssertEqual(page.filter, "b1")
            XCTAssertEqual(
                try XCTUnwrap(page.tableRows).map(\.name), page.shown.sorted { $0.size < $1.size }.map(\.name))
            images.shutdown()
        }
    }

    func testTheTableShowsItsSortOrderAfterFiltersAndRatingEdits() throws {
        try onMain {
            let lib = try Self.makeLibrary("browser-sort")
            let (h, page, images, _) = try Self.session(lib, state: "state.json")
            defer { images.shutdown() }
            let build: (UI) -> Void = { page.build($0) }
            page.viewMode = .table
            h.frames(2, build)
            let body = try XCTUnwrap(page.tableInfo?.bodyRect)
            let widths = TableColumnLayout.widths(page.columns(), userWidths: [:], available: body.width)
            let nameHeader = Point(body.x + widths[0] / 2, body.y - 12)
            h.click(at: nameHeader, build)
            h.click(at: nameHeader, build)
            h.frame(build)
            XCTAssertEqual(page.sortOrder.map(\.id), ["Name"])
            let names = { try XCTUnwrap(page.tableRows).map(\.name) }
            XCTAssertEqual(try names(), page.shown.map(\.name).sorted(by: >), "name, descending")
            // Fewer rows after a filter: still in the header's order, not the folder's.
            page.filter = "b1"
            h.frames(2, build)
            XCTAssertEqual(try names(), ["b12.jpg", "b11.jpg", "b10.jpg"])
            // Sorted by rating, a new rating moves the row (the same count of rows).
            page.filter = ""
            // (The Rating header is past the table's right edge at this width: set the order as the app would.)
            let rating = try XCTUnwrap(page.columns().first { $0.title == "Rating" }?.sortDescriptor)
            page.sortOrder = [rating.reversed]
            h.frame(build)
            XCTAssertEqual(page.sortOrder.map(\.id), ["Rating"])
            let b10 = try XCTUnwrap(page.shown.first { $0.name == "b10.jpg" }).id
            let before = try names()
            page.rate([b10], 5)
            page.finishSaves()  // saves are written off the main thread
            h.frames(2, build)
            XCTAssertEqual(try names().first, "b10.jpg", "the new five stars sort first")
            XCTAssertEqual(try names().count, before.count)
            XCTAssertNotEqual(try names(), before)
        }
    }

    func testAFolderWithBrokenFilesAnUnreadableFolderAndALinkLoopBrowsesWithoutErrorsBeyondTheTiles() throws {
        try onMain {
            let lib = try Self.makeLibrary("browser-hostile")
            // Files that lie or are not files: a FIFO and a folder named like photos (not listed),
            // a header whose dimensions overflow, and a 1 TB sparse file (error tiles).
            XCTAssertEqual(mkfifo(lib.file("Broken/fifo.jpg"), 0o644), 0)
            try FileManager.default.createDirectory(
                atPath: lib.file("Broken/folder.jpg"), withIntermediateDirectories: true)
            try SamplePhotos.write(
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
                    + [UInt8](repeating: 0xFF, count: 8),
                to: lib.file("Broken/overflow.png"))
            XCTAssertTrue(FileManager.default.createFile(atPath: lib.file("Broken/sparse.jpg"), contents: nil))
            XCTAssertEqual(truncate(lib.file("Broken/sparse.jpg"), 1 << 40), 0)
            // More that are not files: a socket, a link to a device, a dangling link (not listed).
            let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in lib.file("Broken/socket.jpg").utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            XCTAssertEqual(bound, 0)
            defer { close(socketFD) }
            try FileManager.default.createSymbolicLink(
                atPath: lib.file("Broken/device.jpg"), withDestinationPath: "/dev/zero")
            try FileManager.default.createSymbolicLink(
                atPath: lib.file("Broken/dangling.jpg"), withDestinationPath: lib.file("Broken/nowhere.jpg"))
            // Headers that lie (error tiles): a GIF whose first frame is 23170×23170, the same behind
            // a stray byte, a JPEG whose SOF claims 60000×60000.
            let gifBomb =
                Array("GIF89a".utf8) + [
                    1, 0, 1, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 0x82, 0x5A, 0x82, 0x5A, 0, 2, 2, 0x4C, 0x01, 0, 0x3B,
                ]
            try SamplePhotos.write(gifBomb, to: lib.file("Broken/gif-bomb.gif"))
            try SamplePhotos.write(
                Array(gifBomb[0..<13]) + [0] + Array(gifBomb[13...]), to: lib.file("Broken/gif-hidden-bomb.gif"))
            try SamplePhotos.write(
                [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xEA, 0x60, 0xEA, 0x60, 0x03]
                    + [UInt8](repeating: 0, count: 24),
                to: lib.file("Broken/jpeg-bomb.jpg"))
            try FileManager.default.createDirectory(atPath: lib.file("Locked"), withIntermediateDirectories: true)
            try SamplePhotos.writeJPEG(
                SamplePhotos.render(width: 64, height: 48, seed: 3), to: lib.file("Locked/secret.jpg"))
            chmod(lib.file("Locked"), 0)
            // This thread looks at files as an ordinary user (root reads everything): Locked is unreadable.
            let previous = tessera_set_filesystem_uid(65534)
            defer {
                _ = tessera_set_filesystem_uid(previous)
                chmod(lib.file("Locked"), 0o755)
            }
            let (h, page, images, _) = try Self.session(lib, state: "state.json")
            h.ui.persistentStore = nil  // as nobody, this thread cannot write the scratch folder
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            // The sidebar: Library header, 3 entries, Folders header, then the library's root row.
            let list = try XCTUnwrap(page.sidebarInfo)
            let rowHeight = h.ui.theme.rowHeight + 4  // sidebar rows
            let row = { (slot: Int) in Point(list.bodyRect.x + 100, list.bodyRect.y + (Double(slot) + 0.5) * rowHeight)
            }
            h.click(at: Point(list.bodyRect.x + 20, row(5).y), build)  // its chevron
            h.frame(build)
            XCTAssertEqual(page.expandedFolders, [.folder(lib.path)])
            XCTAssertEqual(page.sidebarInfo?.rowCount, 3 + 1 + 3, "Broken, Locked and Sub")
            let locked = try XCTUnwrap(FolderNode.root(lib.path).subfolders?.first { $0.name == "Locked" })
            guard case .unreadable(let why) = locked.status else { return XCTFail("Locked is shown as unreadable") }
            XCTAssertTrue(why.contains("ermission"), why)
            h.click(at: row(7), build)  // Locked: reported, the folder shown stays
            h.frame(build)
            XCTAssertEqual(page.folder, lib.path)
            XCTAssertTrue(page.lastAction.contains("Cannot open Locked"), page.lastAction)
            h.click(at: row(8), build)  // Sub
            h.frame(build)
            XCTAssertEqual(page.folder, lib.file("Sub"))
            XCTAssertEqual(page.shown.count, 3)
            // Sub's own link back to the library is listed as a loop, never followed.
            let sub = try XCTUnwrap(FolderNode.root(lib.path).subfolders?.first { $0.name == "Sub" })
            guard case .loop? = sub.subfolders?.first(where: { $0.name == "Loop" })?.status else {
                return XCTFail("Loop is a loop")
            }
            XCTAssertNil(sub.subfolders?.first { $0.name == "Loop" }?.subfolders)

            h.click(at: row(6), build)  // Broken
            Self.waitForThumbnails(h, build)
            XCTAssertEqual(page.folder, lib.file("Broken"))
            XCTAssertEqual(
                page.shown.map(\.name),
                [
                    "empty.png", "gif-bomb.gif", "gif-hidden-bomb.gif", "jpeg-bomb.jpg", "notes.jpg", "ok.jpg",
                    "overflow.png", "sparse.jpg", "truncated.jpg",
                ],
                "the FIFO, the socket, the device, the dangling link and the folder named like photos are not listed")
            let reasons = Dictionary(
                images.timelines.compactMap { t in t.failure.map { ((t.path as NSString).lastPathComponent, $0) } },
                uniquingKeysWith: { a, _ in a })
            XCTAssertEqual(images.failedTotal, 8, "every bad file has its error tile: \(reasons.keys.sorted())")
            XCTAssertEqual(
                reasons["overflow.png"], "4294967295×4294967295 is too large to decode within the 100-megapixel limit")
            XCTAssertEqual(reasons["sparse.jpg"], "the file is too large (1048576 MB; the limit is 512 MB)")
            XCTAssertEqual(reasons["gif-bomb.gif"], "23170×23170 is too large to decode within the 100-megapixel limit")
            XCTAssertEqual(
                reasons["gif-hidden-bomb.gif"], "23170×23170 is too large to decode within the 100-megapixel limit")
            XCTAssertEqual(
                reasons["jpeg-bomb.jpg"], "the file is truncated", "a legal size for a JPEG, but no data for it")
            XCTAssertNil(reasons["ok.jpg"], "the good photo is shown")
            XCTAssertEqual(
                h.host.profiler.lastFrame?.lazy.placeholderCells, 0, "every cell settled: a photo or an error tile")
            XCTAssertNil(page.folderProblem)
            images.shutdown()
        }
    }

    func testTheCommandLineRejectsMissingEmptyAndFileFolders() throws {
        let dir = try ScratchFolder("cli")
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: true)
        try SamplePhotos.write([1, 2, 3], to: dir.file("file.jpg"))
        func message(_ args: [String]) -> String {
            do {
                _ = try Run.parse(args)
                return ""
            } catch { return Run.message(for: error) }
        }
        XCTAssertTrue(message([dir.file("missing")]).contains("no such folder"))
        XCTAssertTrue(message([dir.file("empty")]).contains("has no images"))
        XCTAssertTrue(message([dir.file("file.jpg")]).contains("is a file, not a folder"))
        XCTAssertEqual(message([dir.path, "--frames", "3"]), "", "a folder with a photo in it is accepted")
    }
}

/// `profile`'s report over a real session of the browser: janky frames listed with their
/// causes, causes ranked, and a whole trace whose slices nest exactly.
final class ProfileReportTests: XCTestCase {
    func testTheReportNamesEachJankyFrameAndTheTraceNestsExactly() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("profile-report")
            let (h, page, images, _) = try BrowserEndToEndTests.session(lib, state: "state.json")
            h.host.profiler.keepsTrace = true
            h.host.profiler.jankThresholdMs = 0.001  // every frame is over: each must get a cause
            let gallery = GalleryScript(page: page), table = TableScript(page: page)
            var frames: [FrameRecord] = []
            for (script, count) in [(gallery as ProfileScript, 40), (table, 40)] {
                var recorded: [FrameRecord] = []
                for f in 0..<count {
                    h.frame { ui in script.build(ui, frame: f, inject: h.inject) }
                    recorded.append(h.host.profiler.lastFrame!)
                }
                frames += recorded
            }
            let report = Profile.report(
                [("gallery", Array(frames.prefix(40)), nil), ("table", Array(frames.suffix(40)), nil)], images: images,
                profiler: h.host.profiler, renderer: "test", library: lib.path)
            let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.summary.utf8)) as? [String: Any])
            let scripts = try XCTUnwrap(summary["scripts"] as? [String: [String: Any]])
            for name in ["gallery", "table"] {
                let janky = try XCTUnwrap(scripts[name]?["janky"] as? [[String: Any]])
                XCTAssertEqual(janky.count, 40, "\(name): every frame over a 1 µs budget")
                XCTAssertTrue(janky.allSatisfy { ($0["cause"] as? String)?.isEmpty == false })
                let causes = try XCTUnwrap(scripts[name]?["causes"] as? [[String: Any]])
                XCTAssertFalse(causes.isEmpty)
                let lost = causes.compactMap { $0["lost_ms"] as? Double }
                XCTAssertEqual(lost, lost.sorted(by: >), "ranked by time lost")
            }
            XCTAssertTrue(report.text.contains("time lost over the 0.001 ms budget, by cause:"), report.text)
            XCTAssertTrue(
                report.trace.contains("\"name\":\"grid 'photos'\"")
                    && report.trace.contains("\"name\":\"table 'files'\""),
                "the widgets' scopes are slices")
            XCTAssertEqual(try TraceNesting.improperlyNested(report.trace), [])
            images.shutdown()
        }
    }
}
