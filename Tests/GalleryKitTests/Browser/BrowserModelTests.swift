import Widgets
import XCTest
import Foundation
import TesseraTesting
import TestSupport
@_spi(Fuzzing) @testable import GalleryKit
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

final class BrowserModelTests: XCTestCase {
    func testRatingsAndFavoritesPersistPerFolderAndACorruptSidecarIsKeptAside() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("sidecar")
            let page = BrowserPage(root: lib.path)
            page.open(folder: lib.path)
            page.waitForScan()
            let ids = RowSelection(page.photos.prefix(2).map(\.id))
            page.rate(ids, 4)
            page.finishSaves()  // saves are written off the main thread
            page.setFavorite(ids)
            page.finishSaves()  // saves are written off the main thread
            let again = BrowserPage(root: lib.path)
            again.open(folder: lib.path)
            again.waitForScan()
            XCTAssertEqual(again.photos.prefix(2).map(\.rating), [4, 4])
            XCTAssertEqual(again.photos.filter(\.isFavorite).count, 2)

            try SamplePhotos.write(Array("{ not json".utf8), to: FolderSidecar.path(for: lib.path))
            let fresh = BrowserPage(root: lib.path)
            fresh.open(folder: lib.path)
            fresh.waitForScan()
            XCTAssertEqual(
                fresh.photos.prefix(2).map(\.rating), [4, 4], "the ratings' record is the photos' XMP sidecars")
            XCTAssertEqual(
                fresh.photos.filter(\.isFavorite).count, 0,
                "favorites, kept only in the corrupt file, fall back to none")
            let aside = try FileManager.default.contentsOfDirectory(atPath: lib.path).filter {
                $0.hasPrefix(".tessera.json.corrupt-")
            }
            XCTAssertEqual(aside.count, 1, "and is kept aside")
        }
    }

    func testTheLibraryFilterNarrowsByNameFolderAndCollections() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("filter")
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: lib.path)
            page.waitForScan()
            h.frame { page.build($0) }
            XCTAssertEqual(page.shown.count, 19, "All Photos is the whole tree")
            page.filter = "A0"
            h.frame { page.build($0) }
            XCTAssertEqual(page.shown.count, 6, "case-insensitive")
            page.filter = ""
            page.setFavorite([page.photos[11].id])
            page.finishSaves()  // saves are written off the main thread
            page.open(folder: lib.file("Sub"))  // as a click on it in the sidebar does
            h.frame { page.build($0) }
            XCTAssertEqual(
                page.shown.map(\.name), ["s0.jpg", "s1.jpg", "s2.jpg"], "a folder narrows to it and its subfolders")
            XCTAssertEqual(page.sidebarSelection, .folder(lib.file("Sub")))
            page.setFavorite([page.shown[1].id])
            page.finishSaves()  // saves are written off the main thread
            XCTAssertEqual(
                FolderSidecar.load(folder: lib.file("Sub")).favorites, ["s1.jpg"], "kept in its own folder's sidecar")
            XCTAssertEqual(FolderSidecar.load(folder: lib.path).favorites, ["b12.jpg"])
            page.sidebarSelection = .favorites
            h.frame { page.build($0) }
            XCTAssertEqual(page.shown.map(\.name), ["b12.jpg", "s1.jpg"], "Favorites covers the whole library again")
        }
    }

    /// A rating made while the library is walked again survives the walk: the walk read the
    /// folder's sidecar before the rating was saved, and lands after it.
    func testARatingSavedAfterAWalkReadTheFolderIsNotUndoneWhenTheWalkLands() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("rewalk")
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: lib.path)
            let walk = try Self.walkAgain(page, lib, h)
            let a01 = try XCTUnwrap(page.photos.first { $0.name == "a01.jpg" })
            XCTAssertEqual(a01.rating, 0)
            page.rate([a01.id], 5)
            page.finishSaves()  // saves are written off the main thread
            XCTAssertEqual(FolderSidecar.load(folder: lib.path).ratings["a01.jpg"], 5, "saved")
            Self.takeTheWalk(walk, page, h)
            XCTAssertEqual(page.photos.count, 20, "the walk landed, with the new photo")
            XCTAssertEqual(page.photos.first { $0.name == "a01.jpg" }?.rating, 5, "and the rating stayed")
            page.rate([a01.id], 5)  // no change: nothing reverted in the book either
            page.finishSaves()  // saves are written off the main thread
            XCTAssertEqual(FolderSidecar.load(folder: lib.path).ratings["a01.jpg"], 5)
        }
    }

    /// A rating of a photo the walk has taken but not yet shown (it holds a rescan's photos
    /// until it ends) shows when the walk's photos replace the ones shown.
    func testARatingOfAPhotoAWalkHoldsShowsWhenItsPhotosReplaceTheShownOnes() throws {
        try onMain {
            let lib = try BrowserEndToEndTests.makeLibrary("staged")
            // More photos than a frame takes: the walk's findings land over two frames.
            try FileManager.default.createDirectory(atPath: lib.file("Big"), withIntermediateDirectories: true)
            for i in 0..<BrowserPage.photosPerFrame { try SamplePhotos.write([], to: lib.file("Big/\(i).jpg")) }
            let h = try Harness(width: 1280, height: 800)
            let page = BrowserPage(root: lib.path)
            let walk = try Self.walkAgain(page, lib, h)
            h.frame { page.build($0) }  // takes the root folder and Big, and holds them
            let holding = page.scan === walk
            XCTAssertTrue(holding, "Broken and Sub are still to take")
            let b07 = try XCTUnwrap(page.photos.first { $0.name == "b07.jpg" })
            page.setFavorite([b07.id])
            page.finishSaves()  // saves are written off the main thread
            Self.takeTheWalk(walk, page, h)
            XCTAssertEqual(page.photos.count, 20 + BrowserPage.photosPerFrame)
            XCTAssertEqual(
                page.photos.filter(\.isFavorite).map(\.name), ["b07.jpg"], "the favorite made meanwhile shows")
            XCTAssertEqual(page.favoriteCount, 1)
        }
    }

    /// Walks `lib` (as `page` opens it), then has another program add a photo so the folder
    /// watcher walks it again; returns that walk once it has read every folder, not yet taken.
    @MainActor private static func walkAgain(_ page: BrowserPage, _ lib: ScratchFolder, _ h: Harness) throws
        -> LibraryScan
    {
        page.waitForScan()
        h.frames(2) { page.build($0) }
        // Written aside and renamed in: one change, so one walk.
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 7), to: lib.file(".c.jpg.part"))
        XCTAssertEqual(rename(lib.file(".c.jpg.part"), lib.file("c.jpg")), 0)
        let deadline = MonotonicClock.seconds() + 60  // generous: sanitizers and busy machines
        while page.scan == nil && MonotonicClock.seconds() < deadline {
            usleep(2_000)
            h.frame { page.build($0) }
        }
        let walk = try XCTUnwrap(page.scan, "the watcher walks the library again")
        walk.wait()
        return walk
    }

    /// Frames until `page` has taken all of `walk`.
    @MainActor private static func takeTheWalk(_ walk: LibraryScan, _ page: BrowserPage, _ h: Harness) {
        for _ in 0..<10 where page.scan === walk { h.frame { page.build($0) } }
        let taken = page.scan !== walk
        XCTAssertTrue(taken)
    }
}

/// Photos grouped by month: a counting sort that keeps each month's order, as a stable sort would.
final class PhotoMonthTests: XCTestCase {
    func testGroupingByMonthIsAStableSort() {
        var rng = SplitMix64(seed: 16)  // seeded: a failure is the same on every run
        let photos = (0..<5_000).map { i in
            Photo(
                id: i, path: "/p/\(i).jpg", name: "\(i).jpg", folder: "/p", rating: 0,
                month: 24_000 + Int.random(in: 0..<40, using: &rng))
        }
        let grouped = PhotoMonth.grouped(photos)
        let sorted = photos.enumerated().sorted { ($0.element.month, $0.offset) < ($1.element.month, $1.offset) }.map(
            \.element)
        XCTAssertEqual(grouped.map(\.id), sorted.map(\.id))
        XCTAssertEqual(PhotoMonth.grouped(sorted).map(\.id), sorted.map(\.id), "in order already: as it is")
        XCTAssertEqual(PhotoMonth.title(of: 2024 * 12 + 4), "May 2024")
        XCTAssertEqual(PhotoMonth.key(of: .nan), 0)
    }
}

/// The table bench's rows are the ones shared/BENCHMARKS.md describes (the Dear ImGui peer
/// generates the same): names built from bytes match names built as strings.
final class FileRowTests: XCTestCase {
    func testGeneratedNamesAreCapitalizedSyllablesFromTheSeededStream() {
        var rng = SplitMix64(seed: 42)
        let rows = FileRow.generate(count: 5_000)
        for row in rows {
            var name = ""
            for _ in 0..<(2 + rng.next(below: 3)) {
                name += FileRow.syllables[rng.next(below: FileRow.syllables.count)]
            }
            XCTAssertEqual(row.name, name.prefix(1).uppercased() + name.dropFirst())
            XCTAssertEqual(row.kind, FileRow.kinds[rng.next(below: FileRow.kinds.count)])
            XCTAssertEqual(row.size, Int64(rng.next() % 10_000_000_000))
            XCTAssertEqual(row.modified, 1_500_000_000 + Int64(rng.next() % 300_000_000))
            XCTAssertEqual(Int(row.rating), rng.next(below: 6))
        }
    }
}
