import XCTest
import Foundation
import TesseraTesting
import TestSupport
import CSDL2
@_spi(Fuzzing) @testable import GalleryKit
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Numbers and files from outside the process (the command line, replays, sidecars, file
/// dates) reach no trapping arithmetic, no blocking open, and never cost the user a file.
final class HostileInputTests: XCTestCase {
    func testSizesOnTheCommandLineAreCheckedWithoutOverflow() {
        XCTAssertNil(parseSize("4294967296x4294967296"), "the product overflows: refused, not trapped")
        XCTAssertNil(parseSize("9223372036854775807x2"))
        XCTAssertNil(parseSize("x800"))
        XCTAssertNil(parseSize("1280x"))
        XCTAssertNil(parseSize("1280x800x2"))
        XCTAssertNil(parseSize("0x800"))
        XCTAssertEqual(parseSize("1280x800")?.width, 1280)
    }

    func testGenerateSamplesRefusesCountsAndCameraSizesThatWouldNotFitInMemory() {
        XCTAssertThrowsError(try GenerateSamples.parse(["/tmp/x", "--count", "2000000000"]))
        XCTAssertThrowsError(
            try GenerateSamples.parse(["/tmp/x", "--camera", "--size", "100000000x1"]),
            "within 100 MP as given, but a camera photo's short side follows its long one")
        XCTAssertThrowsError(try GenerateSamples.parse(["/tmp/x", "--flat"]))
        XCTAssertNoThrow(
            try GenerateSamples.parse(["/tmp/x", "--camera", "--flat", "--count", "1000000", "--size", "10000x1"]))
    }

    func testExtremeFileDatesFormatWithoutTrapping() {
        XCTAssertEqual(FileFormat.date(Int64.min), "0001-01-01 00:00")
        XCTAssertEqual(FileFormat.date(Int64.max), "9999-12-31 23:59")
        XCTAssertEqual(FileFormat.date(Double.nan), "1970-01-01 00:00")
        XCTAssertEqual(FileFormat.date(1e300), "9999-12-31 23:59")
        XCTAssertEqual(FileFormat.date(Double(1_700_000_000)), "2023-11-14 22:13")
    }

    func testSizesFormatInDecimalUnitsAtEveryExtreme() {
        let cases: [(Int64, String)] = [
            (0, "0 B"), (999, "999 B"), (-5, "-5 B"), (1000, "1.0 KB"), (12_345_678, "12.3 MB"),
            (99_950, "100 KB"), (999_999, "1000 KB"), (4_560_000_000, "4.6 GB"),
            (Int64.max, "9223372 TB"), (Int64.min, "-9223372036854775808 B"),
        ]
        for (bytes, text) in cases { XCTAssertEqual(FileFormat.size(bytes), text, "\(bytes)") }
    }

    func testAReplayIsReadSafelyAndItsNumbersBroughtIntoRange() throws {
        let dir = try ScratchFolder("hostile-replay")
        let header = #"{"version":1,"width":1e300,"height":-5,"scale":1e9}"#
        let frames = [
            #"{"frame":3,"time":0.05,"events":[{"pointerMoved":{"_0":{"x":10,"y":1e300}}},"#
                + #"{"wheel":{"dx":-1e308,"dy":2}},{"resized":{"_0":{"width":1e12,"height":0}}}]}"#
        ]
        try (header + "\n" + frames.joined(separator: "\n") + "\n").write(
            toFile: dir.file("r.jsonl"), atomically: true, encoding: .utf8)
        let replay = try InputReplay(path: dir.file("r.jsonl"))
        XCTAssertEqual(replay.header, RecordingHeader(width: 16_384, height: 1, scale: 4))
        XCTAssertEqual(
            replay.steps,
            [
                InputReplay.Step(
                    time: 0.05,
                    events: [.pointerMoved(Point(10, 1e6)), .wheel(dx: -1e5, dy: 2), .resized(Size(16_384, 1))])
            ])

        try (header + "\n" + #"{"frame":9223372036854775807,"time":0,"events":[]}"# + "\n")
            .write(toFile: dir.file("far.jsonl"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try InputReplay(path: dir.file("far.jsonl"))) { error in
            XCTAssertTrue("\(error)".contains("out of range"), "\(error)")
        }
        // A FIFO named like a recording: refused at once, not waited on.
        XCTAssertEqual(mkfifo(dir.file("fifo.jsonl"), 0o644), 0)
        let outcome = Locked<String?>(nil)
        let path = dir.file("fifo.jsonl")
        Thread {
            do {
                _ = try InputReplay(path: path)
                outcome.withLock { $0 = "read" }
            } catch { outcome.withLock { $0 = "\(error)" } }
        }.start()
        let deadline = Date().addingTimeInterval(60)  // generous: sanitizers and busy machines
        while outcome.withLock({ $0 }) == nil && Date() < deadline { usleep(2_000) }
        XCTAssertEqual(outcome.withLock { $0 }, "cannot read the recording \(path): a FIFO, not a file")
    }

    func testASidecarRatingOutOfRangeIsClampedAndTheInspectorDoesNotTrap() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("hostile-sidecar")
            try #"{"ratings":{"a01.jpg":9223372036854775807,"a02.jpg":9223372036854775807,"a03.jpg":-4}}"#
                .write(toFile: lib.file(".tessera.json"), atomically: true, encoding: .utf8)
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: lib.path)
            page.waitForScan()
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            XCTAssertEqual(page.photos.prefix(3).map(\.rating), [5, 5, 0])
            page.selection = RowSelection(page.photos.prefix(3).map(\.id))  // the inspector averages the ratings
            h.frames(2, build)
            XCTAssertFalse(page.sidecar.isReadOnly)
        }
    }

    func testASidecarThatCannotBeReadIsNeverWrittenOver() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("unreadable-sidecar")
            // A folder where the sidecar should be: unreadable as a file.
            try FileManager.default.createDirectory(
                atPath: lib.file(".tessera.json"), withIntermediateDirectories: false)
            let page = BrowserPage(root: lib.path)
            page.open(folder: lib.path)
            page.waitForScan()
            XCTAssertTrue(page.sidecar.isReadOnly)
            page.rate([page.photos[0].id], 4)
            page.finishSaves()  // saves are written off the main thread
            XCTAssertTrue(page.lastAction.contains("could not be read"), "the user is told: \(page.lastAction)")
            XCTAssertEqual(page.photos[0].rating, 4, "the edit holds in memory")
            var isFolder: ObjCBool = false
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: lib.file(".tessera.json"), isDirectory: &isFolder)
                    && isFolder.boolValue,
                "what was there is untouched")

            // A corrupt one is moved aside under a name that never collides, twice in one second.
            let other = try ScratchFolder("corrupt-sidecar")
            for _ in 0..<2 {
                try "{ not json".write(toFile: other.file(".tessera.json"), atomically: true, encoding: .utf8)
                XCTAssertEqual(FolderSidecar.load(folder: other.path), FolderSidecar())
            }
            let asides = try FileManager.default.contentsOfDirectory(atPath: other.path).filter {
                $0.hasPrefix(".tessera.json.corrupt-")
            }
            XCTAssertEqual(asides.count, 2, "both kept")
        }
    }
}

final class DimensionCacheTests: XCTestCase {
    func testTheDimensionCacheForgetsPastItsCapacityAndRemembersUnreadableFiles() throws {
        let dir = try ScratchFolder("dimensions")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 1), to: dir.file("a.jpg"))
        XCTAssertEqual(mkfifo(dir.file("fifo.jpg"), 0o644), 0)
        let cache = DimensionCache(capacity: 50)
        XCTAssertNil(cache.dimensions(of: dir.file("a.jpg")), "read in the background: nothing waits for the disk")
        let deadline = Date().addingTimeInterval(60)  // generous: sanitizers and busy machines
        while cache.dimensions(of: dir.file("a.jpg")) == nil && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(cache.dimensions(of: dir.file("a.jpg"))?.width, 64)
        _ = cache.dimensions(of: dir.file("fifo.jpg"))
        usleep(50_000)
        XCTAssertNil(cache.dimensions(of: dir.file("fifo.jpg")), "a FIFO is not read (nor waited on)")
        for i in 0..<500 { _ = cache.dimensions(of: dir.file("missing-\(i).jpg")) }
        while cache.count > 50 && Date() < deadline { usleep(1_000) }
        XCTAssertLessThanOrEqual(cache.count, 50 + 1)
    }
}

final class FolderTreeTests: XCTestCase {
    func testAFanOutOfLinksExpandsEachFolderOnce() throws {
        // D0 … D6 nested by links: each Di holds 4 links to D(i+1). Followed path by path
        // that is 4^6 = 4,096 folders at the bottom; the tree holds each real folder once.
        let dir = try ScratchFolder("fan-out")
        for i in 0...6 {
            try FileManager.default.createDirectory(atPath: dir.file("D\(i)"), withIntermediateDirectories: true)
        }
        for i in 0..<6 {
            for k in 0..<4 {
                try FileManager.default.createSymbolicLink(
                    atPath: dir.file("D\(i)/l\(k)"), withDestinationPath: dir.file("D\(i + 1)"))
            }
        }
        let root = FolderNode.root(dir.file("D0"))
        var expanded = 0, elsewhere = 0
        func walk(_ node: FolderNode, depth: Int) {
            guard depth < 20 else { return XCTFail("deeper than the folders go") }
            for child in node.subfolders ?? [] {
                switch child.status {
                case .readable:
                    expanded += 1
                    walk(child, depth: depth + 1)
                case .elsewhere: elsewhere += 1
                default: break
                }
            }
        }
        walk(root, depth: 0)
        XCTAssertEqual(expanded, 6, "D1 … D6, once each")
        XCTAssertEqual(elsewhere, 6 * 3, "the other three links of each level point to a folder already shown")
    }
}

final class SidecarPlacementTests: XCTestCase {
    func testNoSidecarIsWrittenThroughALinkOutOfTheLibrary() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("link-out")
            let outside = try ScratchFolder("outside-the-library")
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 4), to: outside.file("x.jpg"))
            try FileManager.default.createSymbolicLink(atPath: lib.file("Out"), withDestinationPath: outside.path)
            let page = BrowserPage(root: lib.path)
            page.open(folder: lib.file("Out"))
            page.waitForScan()
            XCTAssertEqual(page.photos.count, 1, "browsed like any folder")
            page.rate([page.photos[0].id], 3)
            page.finishSaves()  // saves are written off the main thread
            XCTAssertEqual(page.photos[0].rating, 3)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: outside.file(".tessera.json")), "nothing written outside")
            XCTAssertTrue(page.lastAction.contains("not saved: Out is a link out of the library"), page.lastAction)
            page.open(folder: lib.path)
            page.waitForScan()
            page.rate([page.photos[0].id], 2)
            page.finishSaves()  // saves are written off the main thread
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: lib.file(".tessera.json")), "inside the library it is saved")
        }
    }
}

final class SidecarMergeTests: XCTestCase {
    func testOurChangesSinceTheBaseWinTheRestIsTheirs() {
        let base = FolderSidecar(ratings: ["a": 1, "d": 2], favorites: ["x"], tags: ["a": "old"])
        var ours = base
        ours.ratings["a"] = 3
        ours.ratings["b"] = 2
        ours.ratings["d"] = nil
        ours.favorites.insert("y")
        ours.favorites.remove("x")
        var theirs = base
        theirs.ratings["c"] = 5
        theirs.ratings["a"] = 4
        theirs.tags["a"] = "theirs"
        theirs.favorites.insert("z")
        let merged = FolderSidecar.merge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(merged.ratings, ["a": 3, "b": 2, "c": 5], "ours changed a, added b, removed d; theirs added c")
        XCTAssertEqual(merged.favorites, ["y", "z"])
        XCTAssertEqual(merged.tags, ["a": "theirs"], "we did not touch the tag: theirs stands")
    }

    func testTwoBrowsersOnOneFolderKeepEachOthersEditsAndUnknownKeys() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("two-instances")
            try #"{"ratings":{},"albums":{"summer":["a01.jpg"]}}"#.write(
                toFile: lib.file(".tessera.json"), atomically: true, encoding: .utf8)
            chmod(lib.file(".tessera.json"), 0o640)
            let first = BrowserPage(root: lib.path), second = BrowserPage(root: lib.path)
            first.open(folder: lib.path)
            first.waitForScan()
            second.open(folder: lib.path)
            second.waitForScan()
            first.rate([first.photos[0].id], 5)  // a01
            first.finishSaves()  // saves are written off the main thread
            second.rate([second.photos[1].id], 3)  // a02, from a sidecar read before the first's save
            second.finishSaves()  // saves are written off the main thread
            let onDisk = FolderSidecar.load(folder: lib.path)
            XCTAssertEqual(onDisk.ratings, ["a01.jpg": 5, "a02.jpg": 3], "neither edit lost")
            XCTAssertEqual(second.photos[0].rating, 5, "the other instance's edit shows after the save")
            let text = try String(contentsOfFile: lib.file(".tessera.json"), encoding: .utf8)
            XCTAssertTrue(text.contains("\"albums\""), "a key this version does not know is kept: \(text)")
            var st = stat()
            stat(lib.file(".tessera.json"), &st)
            XCTAssertEqual(st.st_mode & 0o777, 0o640, "the file keeps its permissions")
        }
    }
}

final class SidecarRetryTests: XCTestCase {
    func testASidecarSaveThatFailsIsTriedAgainUntilItLands() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("sidecar-retry")
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: lib.path)
            page.waitForScan()
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            let holder = FolderSidecar.lockFolder(lib.path)  // another instance holds the folder's lock
            XCTAssertGreaterThanOrEqual(holder, 0)
            page.rate([page.photos[0].id], 4)
            page.finishSaves()  // saves are written off the main thread
            XCTAssertTrue(page.sidecarPending)
            XCTAssertTrue(page.lastAction.contains("not saved yet"), page.lastAction)
            XCTAssertFalse(FileManager.default.fileExists(atPath: lib.file(".tessera.json")))
            h.frame(build)  // the frame after the click schedules the retry
            XCTAssertFalse(h.host.runOnce(timeout: 0, build), "nothing before the retry is due")
            close(holder)  // let go
            h.wait(3.5)
            XCTAssertTrue(h.host.runOnce(timeout: 0, build), "the retry's timer frame")
            page.finishSaves()
            XCTAssertFalse(page.sidecarPending)
            XCTAssertEqual(FolderSidecar.load(folder: lib.path).ratings[page.photos[0].name], 4, "the edit landed")
        }
    }
}

/// The browser over a folder built at test time with every class of hostile file, each with
/// its variants (`HostileFolder`): opened and scrolled to the end with the wheel, it lists no
/// non-file, gives every bad file an error tile with its reason, and still shows every photo.
final class HostileFolderTests: XCTestCase {
    func testTheBrowserScrollsAHostileFolderShowingEveryPhotoAndAReasonForEveryBadFile() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("hostile-generated")
            let hostile = try HostileFolder(in: lib.file("Hostile"))
            let (h, page, images, _) = try BrowserEndToEndTests.session(lib, state: "state.json")
            let build: (UI) -> Void = { page.build($0) }
            h.frames(2, build)
            page.open(folder: hostile.path)
            page.waitForScan()
            BrowserEndToEndTests.waitForThumbnails(h, build)
            let listed = Set(page.shown.map(\.name))
            let expectedListed = Set(hostile.expectations.filter { $0.value != .unlisted }.keys)
            XCTAssertEqual(listed, expectedListed, "listed: every file, no FIFO, socket, folder or device")
            // Scroll to the end with the wheel, letting each screenful settle.
            let grid = try XCTUnwrap(page.grid.info)
            h.inject.mouseMove(
                to: Point(grid.viewport.x + grid.viewport.width / 2, grid.viewport.y + grid.viewport.height / 2))
            var steps = 0
            while page.grid.info.map({ $0.visible.upperBound < page.shown.count }) ?? false && steps < 400 {
                h.inject.wheel(dy: -3)
                BrowserEndToEndTests.waitForThumbnails(h, build)
                steps += 1
            }
            XCTAssertEqual(page.grid.info?.visible.upperBound, page.shown.count, "scrolled to the last cell")
            let timelines = Dictionary(
                images.timelines.map { (($0.path as NSString).lastPathComponent, $0) }, uniquingKeysWith: { a, _ in a })
            for (name, expected) in hostile.expectations.sorted(by: { $0.key < $1.key }) {
                let timeline = timelines[name]
                switch expected {
                case .unlisted:
                    XCTAssertNil(timeline, "\(name) is not a file: never requested")
                case .errorTile(let reason):
                    let failure = timeline?.failure
                    XCTAssertNotNil(failure, "\(name): an error tile")
                    XCTAssertFalse(failure?.isEmpty ?? true, "\(name): with a reason")
                    if !reason.isEmpty {
                        XCTAssertTrue(failure?.contains(reason) ?? false, "\(name): \(failure ?? "no failure")")
                    }
                case .shown:
                    XCTAssertNil(timeline?.failure, "\(name) is a photo")
                    XCTAssertGreaterThan(timeline?.firstDrawnNs ?? 0, 0, "\(name) was drawn")
                }
            }
            XCTAssertEqual(h.host.profiler.lastFrame?.lazy.placeholderCells, 0, "every cell settled")
            images.shutdown()
        }
    }
}

/// Sidecars shared with other instances and other versions: nothing is moved aside without the
/// folder's lock and the same file, one bad key costs that key, and no save waits for a lock.
final class SidecarSafetyTests: XCTestCase {
    private func folder(_ name: String, sidecar: String) throws -> ScratchFolder {
        let dir = try ScratchFolder(name)
        try sidecar.write(toFile: FolderSidecar.path(for: dir.path), atomically: true, encoding: .utf8)
        return dir
    }

    private func asideCopies(_ dir: ScratchFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".corrupt-") }
    }

    func testAKeyOfAnotherShapeCostsOnlyThatKeyAndIsKeptAsItWas() throws {
        let dir = try folder(
            "sidecar-key", sidecar: #"{"ratings":{"a.jpg":3},"favorites":{"newer":"format"},"tags":{"a.jpg":"sea"}}"#)
        let sidecar = FolderSidecar.load(folder: dir.path)
        XCTAssertEqual(sidecar.ratings, ["a.jpg": 3], "the other keys are read")
        XCTAssertEqual(sidecar.tags, ["a.jpg": "sea"])
        XCTAssertEqual(sidecar.unreadableKeys, ["favorites"])
        XCTAssertTrue(sidecar.isReadOnly, "not written over: a newer version's favorites would be lost")
        XCTAssertEqual(try asideCopies(dir), [], "not moved aside as corrupt")
        var edited = sidecar
        edited.ratings["a.jpg"] = 5
        XCTAssertNil(edited.save(folder: dir.path, base: sidecar))
        XCTAssertTrue(try String(contentsOfFile: FolderSidecar.path(for: dir.path), encoding: .utf8).contains("newer"))
    }

    func testACorruptSidecarIsMovedAsideOnlyUnderTheLockAndIfItIsTheFileRead() throws {
        let dir = try folder("sidecar-lock", sidecar: "{ not json")
        // Another instance holds the folder's lock (it may be repairing the file right now).
        let holder = FolderSidecar.lockFolder(dir.path)
        XCTAssertGreaterThanOrEqual(holder, 0)
        XCTAssertTrue(FolderSidecar.load(folder: dir.path).isReadOnly)
        XCTAssertEqual(try asideCopies(dir), [], "left alone while another instance holds the lock")
        close(holder)
        // The file read is not the one there now (another instance replaced it): left alone.
        var st = stat()
        stat(FolderSidecar.path(for: dir.path), &st)
        let stale = (device: UInt64(st.st_dev), inode: UInt64(st.st_ino) &+ 1)
        XCTAssertTrue(
            FolderSidecar.moveAside(folder: dir.path, identity: stale, lockHeld: false, why: "test").isReadOnly)
        XCTAssertEqual(try asideCopies(dir), [], "another file is never renamed away")
        // The same file, with the lock: moved aside, and the folder starts fresh.
        XCTAssertFalse(FolderSidecar.load(folder: dir.path).isReadOnly)
        XCTAssertEqual(try asideCopies(dir).count, 1)
    }

    func testASaveNeverWaitsForTheFoldersLockAndLockFilesArePrivate() throws {
        let dir = try folder("sidecar-nb", sidecar: #"{"ratings":{}}"#)
        let holder = FolderSidecar.lockFolder(dir.path)
        let base = FolderSidecar.load(folder: dir.path)
        var ours = base
        ours.ratings["a.jpg"] = 4
        XCTAssertNil(ours.save(folder: dir.path, base: base), "another instance holds the lock: tried again later")
        close(holder)
        XCTAssertEqual(ours.save(folder: dir.path, base: base)?.ratings, ["a.jpg": 4])
        var st = stat()
        XCTAssertEqual(stat(dir.file(".tessera.lock"), &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
    }
}

/// Sidecars are written off the main thread: rating a thousand photos in a thousand folders
/// queues a thousand saves and returns; none is written by the frame.
final class SidecarSaverTests: XCTestCase {
    func testRatingAThousandPhotosInAThousandFoldersWritesNothingOnTheMainThread() throws {
        try onMain {
            let lib = try ScratchFolder("saver-thousand")
            let jpeg = try SamplePhotos.jpegData(SamplePhotos.render(width: 16, height: 12, seed: 1))
            for i in 0..<1_000 {
                let folder = lib.path + String(format: "/%04d", i)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
                try SamplePhotos.write(jpeg, to: folder + "/p.jpg")
            }
            let open = Locked(false), onMain = Locked(0), written = Locked(0)
            let saver = SidecarSaver { folder, current, base in
                if Thread.isMainThread { onMain.withLock { $0 += 1 } }
                while !open.withLock({ $0 }) { usleep(500) }  // held until the test has looked
                written.withLock { $0 += 1 }
                return current.save(folder: folder, base: base)
            }
            let page = BrowserPage(root: lib.path, saver: saver)
            page.waitForScan()
            XCTAssertEqual(page.photos.count, 1_000)
            page.rate(RowSelection(page.photos.map(\.id)), 3)  // returns: nothing is written in the frame
            XCTAssertEqual(written.withLock { $0 }, 0)
            XCTAssertEqual(page.photos.filter { $0.rating == 3 }.count, 1_000, "shown at once")
            open.withLock { $0 = true }
            XCTAssertTrue(page.finishSaves(within: 120))
            XCTAssertEqual(onMain.withLock { $0 }, 0, "no save ran on the main thread")
            XCTAssertEqual(written.withLock { $0 }, 1_000, "one save a folder")
            XCTAssertEqual(FolderSidecar.load(folder: lib.path + "/0999").ratings["p.jpg"], 3)
            XCTAssertFalse(page.sidecarPending)
        }
    }
}
