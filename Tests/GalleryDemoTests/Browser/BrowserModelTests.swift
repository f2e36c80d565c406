import Widgets
import XCTest
import Foundation
import TesseraTesting
@testable import GalleryDemo
@testable import Render2D

final class BrowserModelTests: XCTestCase {
    func testRatingsAndFavoritesPersistPerFolderAndACorruptSidecarIsKeptAside() throws { try onMain {
        let lib = try BrowserEndToEndTests.makeLibrary("sidecar")
        let page = BrowserPage(root: lib.path)
        page.open(folder: lib.path)
        page.waitForScan()
        let ids = RowSelection(page.photos.prefix(2).map(\.id))
        page.rate(ids, 4)
        page.setFavorite(ids)
        let again = BrowserPage(root: lib.path)
        again.open(folder: lib.path)
        again.waitForScan()
        XCTAssertEqual(again.photos.prefix(2).map(\.rating), [4, 4])
        XCTAssertEqual(again.photos.filter(\.isFavorite).count, 2)

        try SamplePhotos.write(Array("{ not json".utf8), to: FolderSidecar.path(for: lib.path))
        let fresh = BrowserPage(root: lib.path)
        fresh.open(folder: lib.path)
        fresh.waitForScan()
        XCTAssertEqual(fresh.photos.filter { $0.rating > 0 }.count, 0, "a corrupt sidecar falls back to no ratings")
        let aside = try FileManager.default.contentsOfDirectory(atPath: lib.path).filter { $0.hasPrefix(".tessera.json.corrupt-") }
        XCTAssertEqual(aside.count, 1, "and is kept aside")
    }}

    func testTheLibraryFilterNarrowsByNameFolderAndCollections() throws { try onMain {
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
        page.open(folder: lib.file("Sub")) // as a click on it in the sidebar does
        h.frame { page.build($0) }
        XCTAssertEqual(page.shown.map(\.name), ["s0.jpg", "s1.jpg", "s2.jpg"], "a folder narrows to it and its subfolders")
        XCTAssertEqual(page.sidebarSelection, .folder(lib.file("Sub")))
        page.setFavorite([page.shown[1].id])
        XCTAssertEqual(FolderSidecar.load(folder: lib.file("Sub")).favorites, ["s1.jpg"], "kept in its own folder's sidecar")
        XCTAssertEqual(FolderSidecar.load(folder: lib.path).favorites, ["b12.jpg"])
        page.sidebarSelection = .favorites
        h.frame { page.build($0) }
        XCTAssertEqual(page.shown.map(\.name), ["b12.jpg", "s1.jpg"], "Favorites covers the whole library again")
    }}
}

/// Photos grouped by month: a counting sort that keeps each month's order, as a stable sort would.
final class PhotoMonthTests: XCTestCase {
    func testGroupingByMonthIsAStableSort() {
        var rng = SplitMix64(seed: 16) // seeded: a failure is the same on every run
        let photos = (0..<5_000).map { i in
            Photo(id: i, path: "/p/\(i).jpg", name: "\(i).jpg", folder: "/p", rating: 0, month: 24_000 + Int.random(in: 0..<40, using: &rng))
        }
        let grouped = PhotoMonth.grouped(photos)
        let sorted = photos.enumerated().sorted { ($0.element.month, $0.offset) < ($1.element.month, $1.offset) }.map(\.element)
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
            for _ in 0..<(2 + rng.next(below: 3)) { name += FileRow.syllables[rng.next(below: FileRow.syllables.count)] }
            XCTAssertEqual(row.name, name.prefix(1).uppercased() + name.dropFirst())
            XCTAssertEqual(row.kind, FileRow.kinds[rng.next(below: FileRow.kinds.count)])
            XCTAssertEqual(row.size, Int64(rng.next() % 10_000_000_000))
            XCTAssertEqual(row.modified, 1_500_000_000 + Int64(rng.next() % 300_000_000))
            XCTAssertEqual(Int(row.rating), rng.next(below: 6))
        }
    }
}
