import XCTest
import Foundation
import CSDL2
import TesseraTesting
import TestSupport
@_spi(Fuzzing) @testable import GalleryKit
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// A library is a tree: the walk lists every photo under the root at any depth, in path
/// order, through empty folders and folders of only subfolders, and follows the
/// hostile-folder rules for links, loops, FIFOs and unreadable folders.
final class LibraryWalkTests: XCTestCase {
    /// 2019/05/12/{IMG_0001,IMG_0002}.jpg, 2019/06/ (empty), 2020/01/02/IMG_0003.jpg beside
    /// a FIFO named .jpg, top.jpg, Empty/, OnlyFolders/A/B/deep.png, a loop back to the root,
    /// a link out of the library, a dangling link named .jpg.
    static func makeTree(_ name: String) throws -> (tree: ScratchFolder, outside: ScratchFolder) {
        let tree = try ScratchFolder(name), outside = try ScratchFolder(name + "-outside")
        let fm = FileManager.default
        for folder in ["2019/05/12", "2019/06", "2020/01/02", "Empty", "OnlyFolders/A/B"] {
            try fm.createDirectory(atPath: tree.file(folder), withIntermediateDirectories: true)
        }
        let jpeg = try SamplePhotos.jpegData(SamplePhotos.render(width: 64, height: 48, seed: 3))
        for path in [
            "2019/05/12/IMG_0001.jpg", "2019/05/12/IMG_0002.jpg", "2020/01/02/IMG_0003.jpg", "top.jpg",
            "OnlyFolders/A/B/deep.png",
        ] {
            try SamplePhotos.write(jpeg, to: tree.file(path))
        }
        XCTAssertEqual(mkfifo(tree.file("2020/01/02/fifo.jpg"), 0o644), 0)
        try fm.createSymbolicLink(atPath: tree.file("2020/loop"), withDestinationPath: tree.path)
        try SamplePhotos.write(jpeg, to: outside.file("elsewhere.jpg"))
        try fm.createSymbolicLink(atPath: tree.file("Out"), withDestinationPath: outside.path)
        try fm.createSymbolicLink(atPath: tree.file("dangling.jpg"), withDestinationPath: tree.file("nothing-here"))
        return (tree, outside)
    }

    /// The tree's folders in the walk's order.
    static let folders = [
        "", "/2019", "/2019/05", "/2019/05/12", "/2019/06", "/2020", "/2020/01", "/2020/01/02", "/Empty",
        "/OnlyFolders", "/OnlyFolders/A", "/OnlyFolders/A/B",
    ]

    func testTheWalkListsEveryPhotoAtAnyDepthInPathOrderAndSkipsLoopsLinksOutAndNonFiles() throws {
        let (tree, outside) = try Self.makeTree("walk")
        defer { _ = outside }  // kept until the end: the link out must lead somewhere
        var walk = LibraryWalk(root: tree.path)
        var folders: [String] = []
        var photos: [String] = []
        try walk.run { folder in
            folders.append(String(folder.path.dropFirst(tree.path.count)))
            photos += folder.photos.map { String($0.path.dropFirst(tree.path.count + 1)) }
            XCTAssertTrue(folder.photos.allSatisfy { $0.folder == folder.path })
            return true
        }
        XCTAssertEqual(
            photos,
            [
                "top.jpg", "2019/05/12/IMG_0001.jpg", "2019/05/12/IMG_0002.jpg", "2020/01/02/IMG_0003.jpg",
                "OnlyFolders/A/B/deep.png",
            ])
        XCTAssertEqual(
            folders, Self.folders, "every folder once, empty ones too; the loop and the link out are not entered")
        XCTAssertEqual(Set(walk.skipped.map { String($0.dropFirst(tree.path.count)) }), ["/2020/loop", "/Out"])
        XCTAssertEqual(walk.problems.count, 0)

        // The same through the loader benches and `profile` use, numbered in that order.
        let loaded = try PhotoLibrary.load(tree.path)
        XCTAssertEqual(loaded.map(\.id), Array(0..<5))
        XCTAssertEqual(loaded.map(\.name), ["top.jpg", "IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg", "deep.png"])
    }

    /// On a file system that gives no entry types (`DT_UNKNOWN`: some NFS, FUSE and XFS
    /// mounts), links are still known as links: the link out of the library is not followed.
    func testAFileSystemWithoutEntryTypesStillKeepsTheWalkInTheLibrary() throws {
        let (tree, outside) = try Self.makeTree("walk-untyped")
        defer { _ = outside }
        var walk = LibraryWalk(root: tree.path, trustsEntryTypes: false)
        var photos: [String] = []
        try walk.run { folder in
            photos += folder.photos.map { String($0.path.dropFirst(tree.path.count + 1)) }
            return true
        }
        XCTAssertFalse(photos.contains { $0.hasPrefix("Out/") }, "the link out was followed: \(photos)")
        XCTAssertEqual(photos.count, 5)
        XCTAssertEqual(Set(walk.skipped.map { String($0.dropFirst(tree.path.count)) }), ["/2020/loop", "/Out"])
    }

    /// A folder and photos named in Latin-1 (not UTF-8) are walked, opened and their sidecar
    /// saved, through the names' own bytes: the whole subtree vanished before.
    func testNamesThatAreNotUTF8AreWalkedOpenedAndSaved() throws {
        let tree = try ScratchFolder("walk-latin1")
        let folder = tree.path + "/Caf\u{10FFE9}", photo = folder + "/\u{10FFE9}t\u{10FFE9}.jpg"
        XCTAssertEqual(FileName.withCString(folder) { mkdir($0, 0o755) }, 0)
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 3), to: tree.file("tmp.jpg"))
        XCTAssertEqual(
            FileName.withCString(tree.file("tmp.jpg")) { from in FileName.withCString(photo) { rename(from, $0) } }, 0)
        var walk = LibraryWalk(root: tree.path)
        var photos: [Photo] = []
        try walk.run {
            photos += $0.photos
            return true
        }
        XCTAssertEqual(photos.map(\.path), [photo], "the Latin-1 folder and photo are listed with their own bytes")
        XCTAssertNoThrow(try ImageDecoder.thumbnail(path: photos[0].path, spec: ThumbnailSpec(side: 32)))
        var sidecar = FolderSidecar.load(folder: folder)
        let base = sidecar
        sidecar.ratings[photos[0].name] = 4
        XCTAssertNotNil(sidecar.save(folder: folder, base: base))
        XCTAssertEqual(FolderSidecar.load(folder: folder).ratings[photos[0].name], 4, "saved beside the photo")
    }

    func testAnUnreadableSubfolderIsReportedTheRestIsListedAndALimitStopsTheWalk() throws {
        let (tree, _) = try Self.makeTree("walk-hostile")
        chmod(tree.file("2019/05"), 0o000)
        defer { chmod(tree.file("2019/05"), 0o755) }
        let previous = tessera_set_filesystem_uid(65534)  // this thread sees files as an ordinary user
        var walk = LibraryWalk(root: tree.path)
        var names: [String] = []
        let outcome = Result { () throws(PhotoLibrary.LoadError) in
            try walk.run {
                names += $0.photos.map(\.name)
                return true
            }
        }
        _ = tessera_set_filesystem_uid(previous)
        XCTAssertNoThrow(try outcome.get())
        XCTAssertEqual(names, ["top.jpg", "IMG_0003.jpg", "deep.png"])
        XCTAssertEqual(walk.problems.map { String($0.path.dropFirst(tree.path.count)) }, ["/2019/05"])

        var limited = LibraryWalk(root: tree.path, limit: 2)
        var count = 0
        try limited.run {
            count += $0.photos.count
            return true
        }
        XCTAssertEqual(count, 2)
        XCTAssertTrue(limited.problems.last?.why.contains("more than 2 photos") ?? false, "\(limited.problems)")
        // the tree's five photos (a FIFO and a dangling link are none)
        var exact = LibraryWalk(root: tree.path, limit: 5)
        var all = 0
        try exact.run {
            all += $0.photos.count
            return true
        }
        XCTAssertEqual(all, 5)
        XCTAssertFalse(
            exact.problems.contains { $0.why.contains("more than") }, "nothing was left out: \(exact.problems)")

        XCTAssertThrowsError(try PhotoLibrary.load(tree.file("top.jpg"))) {
            XCTAssertTrue("\($0)".contains("is a file"))
        }
        XCTAssertThrowsError(try PhotoLibrary.load(tree.file("missing"))) {
            XCTAssertTrue("\($0)".contains("no such folder"))
        }
        XCTAssertThrowsError(try PhotoLibrary.check(tree.file("Empty"))) {
            XCTAssertTrue("\($0)".contains("has no images"))
        }
        XCTAssertNoThrow(try PhotoLibrary.check(tree.file("OnlyFolders")), "a photo three folders down counts")
    }

    /// The browser over the tree: All Photos has everything, a folder narrows to its subtree,
    /// and an empty folder says so; photos keep their folder's sidecar.
    func testTheBrowserShowsTheWholeTreeAndNarrowsToAFolderAndItsSubfolders() throws {
        try onMain {
            let (tree, outside) = try Self.makeTree("walk-browser")
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: tree.path)
            let build: (UI) -> Void = { page.build($0) }
            h.frame(build)
            page.waitForScan()
            h.frame(build)
            XCTAssertEqual(
                page.shown.map(\.name), ["top.jpg", "IMG_0001.jpg", "IMG_0002.jpg", "IMG_0003.jpg", "deep.png"])
            XCTAssertNil(page.folderProblem)
            XCTAssertTrue(h.drawnText.contains("5 photos"), "the toolbar counts the whole tree")

            page.open(folder: tree.file("2019"))
            h.frame(build)
            XCTAssertEqual(
                page.shown.map(\.name), ["IMG_0001.jpg", "IMG_0002.jpg"],
                "2019 and its subfolders, without walking again")
            page.open(folder: tree.file("Empty"))
            h.frame(build)
            XCTAssertEqual(page.shown.count, 0)
            XCTAssertTrue(h.drawnText.contains("No photos here"))
            page.open(folder: tree.file("Out"))  // a link out of the library: walked on its own when asked for
            page.waitForScan()
            h.frame(build)
            XCTAssertEqual(page.shown.map(\.path), [tree.file("Out/elsewhere.jpg")])
            XCTAssertEqual(page.scanRoot, tree.file("Out"))
            page.open(folder: tree.path)
            page.waitForScan()
            XCTAssertEqual(page.shown.count, 5, "back in the library")
            _ = outside
        }
    }

    /// Another program adds photos deep in the tree, and a whole new folder of them: both
    /// appear (every folder of the library is watched, and a new folder walks it again).
    func testPhotosAddedAnywhereInTheTreeAppear() throws {
        try onMain {
            let (tree, outside) = try Self.makeTree("walk-watch")
            defer { _ = outside }
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: tree.path)
            page.waitForScan()
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            XCTAssertEqual(page.shown.count, 5)
            let jpeg = try SamplePhotos.jpegData(SamplePhotos.render(width: 32, height: 24, seed: 5))
            try SamplePhotos.write(jpeg, to: tree.file("2019/05/12/IMG_0009.jpg"))
            @MainActor func waitFor(_ count: Int) {
                // generous: sanitizers and busy machines; it stops as soon as it can
                let deadline = MonotonicClock.seconds() + 60
                while page.shown.count < count && MonotonicClock.seconds() < deadline {
                    if h.host.runOnce(timeout: 1, build) { h.wait(1.0 / 60) }
                }
            }
            waitFor(6)
            XCTAssertTrue(
                page.shown.contains { $0.path == tree.file("2019/05/12/IMG_0009.jpg") }, "a photo three folders down")
            try FileManager.default.createDirectory(atPath: tree.file("2021/03"), withIntermediateDirectories: true)
            waitFor(6)  // the new folders: walked again, and watched
            try SamplePhotos.write(jpeg, to: tree.file("2021/03/IMG_0010.jpg"))
            waitFor(7)
            XCTAssertTrue(
                page.shown.contains { $0.path == tree.file("2021/03/IMG_0010.jpg") },
                "a photo in a folder made since the walk")
        }
    }

    /// Folders found by the background walk reach the browser while it goes on: a frame
    /// between them shows the ones found so far.
    func testTheBackgroundScanHandsOverFoldersAsItFindsThem() throws {
        let (tree, _) = try Self.makeTree("walk-scan")
        let scan = LibraryScan(root: tree.path)
        var folders: [String] = []
        var done = false
        let deadline = Date() + 60
        while !done && Date() < deadline {
            let progress = scan.take()
            folders += progress.folders.map(\.path)
            XCTAssertGreaterThanOrEqual(progress.folderCount, folders.count)
            done = progress.isDone
            usleep(100)
        }
        XCTAssertTrue(done)
        XCTAssertEqual(
            folders.map { String($0.dropFirst(tree.path.count)) }, Self.folders, "in the walk's order, each once")
        XCTAssertEqual(scan.take().folders.count, 0, "each folder is handed over once")
    }
}

/// Expand-all in the sidebar's folder tree (alt-click, alt-Right) lists the subtree off the
/// main thread and opens it level by level.
final class FolderListerTests: XCTestCase {
    func testAltRightOpensTheWholeSubtreeFromTheBackground() throws {
        try onMain {
            let tree = try ScratchFolder("lister")
            var branches = 1
            func make(_ path: String, depth: Int) throws {
                guard depth < 3 else { return }
                for i in 0..<5 {
                    let child = path + "/f\(depth)\(i)"
                    try FileManager.default.createDirectory(atPath: child, withIntermediateDirectories: false)
                    if depth < 2 { branches += 1 }
                    try make(child, depth: depth + 1)
                }
            }
            try make(tree.path, depth: 0)
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 32, height: 24, seed: 1), to: tree.file("p.jpg"))
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: tree.path)
            page.waitForScan()
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            let name = (tree.path as NSString).lastPathComponent
            try h.click(on: name, build)  // the root folder's row in the sidebar
            h.press(.right, modifiers: .alt, build)
            XCTAssertTrue(page.expandedFolders.contains(.folder(tree.path)), "the folder opens at once")
            XCTAssertTrue(
                h.frames(until: { page.expandedFolders.count == branches }, build),
                "then its whole subtree, as it is listed")
            XCTAssertEqual(page.expandedFolders.count, 1 + 5 + 25)
        }
    }
}
