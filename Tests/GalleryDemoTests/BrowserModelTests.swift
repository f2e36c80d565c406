import XCTest
import Foundation
import TestSupport
@testable import GalleryDemo
@testable import Render2D

final class BrowserModelTests: XCTestCase {
    func testRatingsAndFavoritesPersistPerFolderAndACorruptSidecarIsKeptAside() throws { try onMain {
        let lib = try BrowserEndToEndTests.makeLibrary("sidecar")
        let page = BrowserPage(root: lib.path)
        page.open(folder: lib.path)
        let ids = Set(page.photos.prefix(2).map(\.id))
        page.rate(ids, 4)
        page.setFavorite(ids)
        let again = BrowserPage(root: lib.path)
        again.open(folder: lib.path)
        XCTAssertEqual(again.photos.prefix(2).map(\.rating), [4, 4])
        XCTAssertEqual(again.photos.filter(\.isFavorite).count, 2)

        try SamplePhotos.write(Array("{ not json".utf8), to: FolderSidecar.path(for: lib.path))
        let fresh = BrowserPage(root: lib.path)
        fresh.open(folder: lib.path)
        XCTAssertEqual(fresh.photos.filter { $0.rating > 0 }.count, 0, "a corrupt sidecar falls back to no ratings")
        let aside = try FileManager.default.contentsOfDirectory(atPath: lib.path).filter { $0.hasPrefix(".tessera.json.corrupt-") }
        XCTAssertEqual(aside.count, 1, "and is kept aside")
    }}

    func testTheLibraryFilterNarrowsByNameAndCollections() throws { try onMain {
        let lib = try BrowserEndToEndTests.makeLibrary("filter")
        let h = try Harness(width: 1280, height: 800)
        let page = BrowserPage(root: lib.path)
        h.frame { page.build($0) }
        XCTAssertEqual(page.shown.count, 12)
        page.filter = "A0"
        h.frame { page.build($0) }
        XCTAssertEqual(page.shown.count, 6, "case-insensitive")
        page.filter = ""
        page.setFavorite([page.photos[11].id])
        page.sidebarSelection = .favorites
        h.frame { page.build($0) }
        XCTAssertEqual(page.shown.map(\.name), ["b12.jpg"])
    }}
}
