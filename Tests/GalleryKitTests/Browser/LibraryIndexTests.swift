import XCTest
import Foundation
import TesseraTesting
import TestSupport
@_spi(Fuzzing) @testable import GalleryKit
@testable import Widgets
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport
import GRDB
import CSDL2

/// The library index: photos' dates and sizes read once, kept in SQLite, read again only for
/// files that changed; a corrupt index is rebuilt; the browser groups photos by the month
/// they were taken.
final class LibraryIndexTests: XCTestCase {
    /// Camera-like JPEGs taken on `dates` (EXIF), all with today's file time.
    private static func photos(_ dates: [String], in dir: ScratchFolder) throws -> [String] {
        let jpeg = try SamplePhotos.jpegData(SamplePhotos.render(width: 48, height: 32, seed: 7))
        return try dates.enumerated().map { i, date in
            let path = dir.file(String(format: "IMG_%04d.jpg", i + 1))
            try SamplePhotos.write(
                EXIFWriter.inserting(
                    CameraMetadata(make: "Canon", model: "EOS R6", dateTimeOriginal: date, orientation: i == 0 ? 6 : 1),
                    into: jpeg), to: path)
            return path
        }
    }

    private func scan(_ root: String, index: LibraryIndex?) throws -> FactsScan.Progress {
        let listed = try PhotoLibrary.load(root)
        let scan = FactsScan(photos: listed, root: root, index: index)
        scan.wait()
        return scan.take()
    }

    func testFactsAreReadOnceAndAgainOnlyForAFileThatChanged() throws {
        let dir = try ScratchFolder("index"), lib = try ScratchFolder("index-library")
        _ = try Self.photos(["2021:07:04 18:30:05", "2019:01:03 09:00:00", "0000:00:00 00:00:00"], in: lib)
        let index = try LibraryIndex(path: dir.file("index.sqlite"))
        let first = try scan(lib.path, index: index)
        XCTAssertEqual(first.readFromFiles, 3, "a cold index reads every file")
        let facts = Dictionary(
            uniqueKeysWithValues: first.facts.map { (($0.path as NSString).lastPathComponent, $0.facts) })
        XCTAssertEqual(facts["IMG_0001.jpg"]?.month, 2021 * 12 + 6)
        XCTAssertEqual(
            [facts["IMG_0001.jpg"]?.width, facts["IMG_0001.jpg"]?.height], [32, 48], "orientation 6: the upright size")
        XCTAssertEqual(facts["IMG_0002.jpg"]?.taken, 1_546_506_000, "2019-01-03 09:00:00, read as UTC")
        XCTAssertNil(facts["IMG_0003.jpg"]?.taken, "a camera that did not know the date")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.file("index.sqlite-wal")), "WAL mode")

        // The walk itself dates what the index knows: a second start groups by month from its first folder.
        let walk = LibraryScan(root: lib.path, index: index)
        walk.wait()
        let walked = walk.take().folders.flatMap(\.photos)
        XCTAssertEqual(walked.map(\.month), [2021 * 12 + 6, 2019 * 12, PhotoMonth.key(of: walked[2].modified)])
        XCTAssertEqual(walked.map { $0.taken != nil }, [true, true, false])
        // The facts scan that follows the walk hands back only what the walk could not date.
        let afterWalk = FactsScan(photos: walked, root: lib.path, index: index)
        afterWalk.wait()
        XCTAssertEqual(afterWalk.take().facts.map { ($0.path as NSString).lastPathComponent }, ["IMG_0003.jpg"])

        let again = try scan(lib.path, index: LibraryIndex(path: dir.file("index.sqlite")))
        XCTAssertEqual(again.readFromFiles, 0, "a second start reads the index, not the files")
        XCTAssertEqual(again.facts.map(\.facts), first.facts.map(\.facts))

        // One photo is edited: a new date, a new size. Only it is read again.
        let jpeg = try SamplePhotos.jpegData(SamplePhotos.render(width: 64, height: 40, seed: 8))
        try SamplePhotos.write(
            EXIFWriter.inserting(
                CameraMetadata(make: "a", model: "b", dateTimeOriginal: "2023:02:01 10:00:00"), into: jpeg),
            to: lib.file("IMG_0002.jpg"))
        let third = try scan(lib.path, index: index)
        XCTAssertEqual(third.readFromFiles, 1)
        XCTAssertEqual(third.facts.first { $0.path.hasSuffix("IMG_0002.jpg") }?.facts.month, 2023 * 12 + 1)
        XCTAssertEqual(try index.entries(under: lib.path).count, 3)
        XCTAssertEqual(
            try index.entries(under: lib.path + "-other").count, 0, "another folder's photos are not this one's")
    }

    func testACorruptIndexIsMovedAsideAndBuiltAgain() throws {
        let dir = try ScratchFolder("index-corrupt"), lib = try ScratchFolder("index-corrupt-library")
        _ = try Self.photos(["2021:07:04 18:30:05"], in: lib)
        let path = dir.file("index.sqlite")
        weak var first: LibraryIndex?
        do {
            let index = try LibraryIndex(path: path)
            first = index
            _ = try scan(lib.path, index: index)
        }
        // Closed first (the scan's thread may hold it a moment longer): a connection closing
        // after the damage would write its log back over it.
        let deadline = Date().addingTimeInterval(60)
        while first != nil && Date() < deadline { usleep(1_000) }
        XCTAssertNil(first)
        // Overwritten in the middle (a crash, a bad disk): SQLite's header survives, its pages do not.
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        for i in 100..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: i * 7) }
        try SamplePhotos.write(bytes, to: path)
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        let rebuilt = try LibraryIndex(path: path)
        XCTAssertEqual(try rebuilt.entries(under: lib.path).count, 0, "empty, then filled again")
        XCTAssertEqual(try scan(lib.path, index: rebuilt).readFromFiles, 1)
        XCTAssertEqual(try rebuilt.entries(under: lib.path).count, 1)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasPrefix("index.sqlite.corrupt")
        }
        XCTAssertEqual(aside, ["index.sqlite.corrupt"], "the damaged file is kept aside, not written over")

        try SamplePhotos.write(Array("not a database at all".utf8), to: path)  // not SQLite at all
        XCTAssertNoThrow(try LibraryIndex(path: path))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
                $0.hasPrefix("index.sqlite.corrupt")
            },
            ["index.sqlite.corrupt"], "one aside copy at most: they do not pile up")
    }

    /// An index another instance holds, or one on a read-only file system, is not damaged: it
    /// is an error (the dates are read from the photos), and the file is left where it is.
    func testABusyOrReadOnlyIndexIsNotMovedAside() throws {
        let dir = try ScratchFolder("index-busy"), lib = try ScratchFolder("index-busy-library")
        _ = try Self.photos(["2021:07:04 18:30:05"], in: lib)
        let path = dir.file("index.sqlite")
        _ = try scan(lib.path, index: LibraryIndex(path: path))
        // Another program holds a database there, in its own journal mode, and does not let go
        // (a stopped process, a long transaction): switching it to WAL needs its lock.
        let busy = dir.file("busy.sqlite")
        let other = try DatabaseQueue(path: busy)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0),
            done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? other.inTransaction(.exclusive) { db in
                try db.execute(sql: "CREATE TABLE theirs (x)")
                holding.signal()
                release.wait()
                return .commit
            }
            done.signal()
        }
        holding.wait()
        XCTAssertThrowsError(try LibraryIndex(path: busy, busyTimeout: 0.2)) {
            XCTAssertTrue("\($0)".contains("another instance holds it"), "\($0)")
        }
        release.signal()
        done.wait()
        var entries = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertFalse(entries.contains { $0.contains("corrupt") }, "a busy database is not moved aside: \(entries)")
        XCTAssertNoThrow(try LibraryIndex(path: busy), "once let go, it opens")

        // Read-only: a file and folder this user may not write.
        chmod(dir.path, 0o555)
        chmod(path, 0o444)
        for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
        defer {
            chmod(dir.path, 0o755)
            chmod(path, 0o644)
        }
        let previous = tessera_set_filesystem_uid(65534)
        let outcome = Result { try LibraryIndex(path: path) }
        _ = tessera_set_filesystem_uid(previous)
        if case .failure(let error) = outcome { XCTAssertTrue("\(error)".contains("cannot be used now"), "\(error)") }
        entries = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertFalse(entries.contains { $0.contains("corrupt") }, "\(entries)")
    }

    /// A row whose columns have unexpected types (another version, a hand edit) is read from
    /// the file again; it never traps.
    func testARowOfTheWrongTypesIsSkipped() throws {
        let dir = try ScratchFolder("index-types"), lib = try ScratchFolder("index-types-library")
        _ = try Self.photos(["2021:07:04 18:30:05", "2020:01:02 03:04:05"], in: lib)
        let path = dir.file("index.sqlite")
        _ = try scan(lib.path, index: LibraryIndex(path: path))
        // The scan's index may still be closing on the walk's thread (its last connection
        // checkpoints the WAL under an exclusive lock): wait for it, as the app's connections do.
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let other = try DatabaseQueue(path: path, configuration: configuration)
        try other.write { db in
            try db.execute(sql: "UPDATE photo SET size = 'large', orientation = 99 WHERE path LIKE '%IMG_0001%'")
        }
        let index = try LibraryIndex(path: path)
        let entries = try index.entries(under: lib.path)
        XCTAssertEqual(entries.count, 1, "the bad row is left out: \(entries.keys)")
        XCTAssertEqual(try scan(lib.path, index: index).readFromFiles, 1, "and read from its file again")
    }

    func testTheBrowserGroupsPhotosByTheMonthTheyWereTakenUnderPinnedHeaders() throws {
        try onMain {
            let dir = try ScratchFolder("index-browser"), lib = try ScratchFolder("index-browser-library")
            _ = try Self.photos(
                ["2021:07:04 18:30:05", "2019:01:03 09:00:00", "2021:07:01 08:00:00", "2019:01:30 23:59:59"], in: lib)
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: lib.path, index: try LibraryIndex(path: dir.file("index.sqlite")))
            page.waitForScan()
            h.frame { page.build($0) }
            XCTAssertEqual(
                page.shown.map(\.name), ["IMG_0002.jpg", "IMG_0004.jpg", "IMG_0001.jpg", "IMG_0003.jpg"],
                "by month taken (files all made today), then by name")
            XCTAssertEqual(
                page.grid.sections,
                [
                    PhotoGrid.Section(title: "January 2019", count: 2, month: 2019 * 12),
                    PhotoGrid.Section(title: "July 2021", count: 2, month: 2021 * 12 + 6),
                ])
            XCTAssertNotNil(h.rect(ofText: "January 2019"), "the headers are drawn")
            XCTAssertNotNil(h.rect(ofText: "July 2021"))
            // The date rail beside the grid: a click on "2021" shows July 2021's first photo at the top.
            let many = try ScratchFolder("index-browser-rail")
            _ = try Self.photos(
                Array(repeating: "2019:01:03 09:00:00", count: 30) + Array(repeating: "2021:07:04 18:30:05", count: 30),
                in: many)
            let railPage = BrowserPage(root: many.path)
            railPage.waitForScan()
            h.frames(2) { railPage.build($0) }
            let label = try XCTUnwrap(h.rect(ofText: "2021"), "the rail labels the years")
            XCTAssertGreaterThan(
                label.minX, try XCTUnwrap(railPage.grid.info).viewport.maxX, "beside the grid, not over it")
            h.click(at: Point(label.midX, label.midY)) { railPage.build($0) }
            XCTAssertEqual(railPage.grid.info?.visible.lowerBound, 30)
            XCTAssertEqual(railPage.shown[30].name, "IMG_0031.jpg")

            page.viewMode = .table
            h.frames(2) { page.build($0) }
            XCTAssertTrue(h.drawnText.contains("32 × 48"), "the table's dimensions come from the index: \(h.drawnText)")
        }
    }
}
