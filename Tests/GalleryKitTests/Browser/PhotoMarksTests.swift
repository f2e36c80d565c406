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

/// Ratings, color labels, picks and rejects set with the keys other photo managers use,
/// kept in XMP sidecars that another program reads, read back from what other programs wrote.
final class PhotoMarksTests: XCTestCase {
    func testTheKeysMarkPhotosInXMPThatExiv2ReadsAndARestartKeeps() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("marks", count: 4)
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            let first = try XCTUnwrap(browser.selection.first)
            let photo = browser.photos[first]
            h.press(Key("4"), build)
            h.press(Key("8"), build)  // green
            h.press(Key("p"), build)
            XCTAssertEqual(browser.photos[first].rating, 4)
            XCTAssertEqual(browser.photos[first].label, .green)
            XCTAssertEqual(browser.photos[first].flag, .picked)
            // Its marks are drawn over the cell: the green dot at the top right.
            let cell = BrowserEndToEndTests.cell(browser, 0), size = try XCTUnwrap(browser.grid.info?.cellSize)
            // (The upper half of the cell's right edge: the month header above the rows shifts them.)
            let corner = Rect(x: cell.x + size.width / 2 - 24, y: cell.y - size.height, width: 24, height: size.height)
            XCTAssertGreaterThan(
                h.countPixels(in: corner) { $0.g > 140 && $0.r < 90 && $0.b < 140 }, 20, "the green label's dot")
            XCTAssertTrue(
                h.findAll(.image).contains { $0.name.hasPrefix(photo.name) && $0.name.hasSuffix(", Green, picked") },
                "a screen reader hears the marks: \(h.findAll(.image).map(\.name))")
            XCTAssertTrue(browser.finishSaves())

            let shown = try XMPSidecarTests.exiv2(photo.path + ".xmp")
            XCTAssertTrue(shown.contains("Xmp.xmp.Rating") && shown.contains("4"), shown)
            XCTAssertTrue(shown.contains("Xmp.xmp.Label") && shown.contains("Green"), shown)
            XCTAssertTrue(shown.contains("Xmp.digiKam.PickLabel"), shown)

            // 8 again clears the label; X rejects.
            h.press(Key("8"), build)
            h.press(Key("x"), build)
            XCTAssertNil(browser.photos[first].label)
            XCTAssertEqual(browser.photos[first].flag, .rejected)
            XCTAssertTrue(browser.finishSaves())
            XCTAssertEqual(browser.photos[first].rating, 0, "a reject takes the place of the stars, as in darktable")
            XCTAssertEqual(
                try XMPSidecar.read(for: photo.path), PhotoXMP(rating: 0, label: nil, flag: .rejected, tags: []))
            XCTAssertTrue(try XMPSidecarTests.exiv2(photo.path + ".xmp").contains("-1"), "xmp:Rating -1")

            // A second start reads the marks back (XMP wins over .tessera.json).
            let again = BrowserPage(root: lib.path)
            again.open(folder: lib.path)
            again.waitForScan()
            let reread = try XCTUnwrap(again.photos.first { $0.path == photo.path })
            XCTAssertEqual(reread.flag, .rejected)
            XCTAssertNil(reread.label)
        }
    }

    func testOtherProgramsSidecarsAreReadAndTheOldJSONRatingIsCarriedIntoXMP() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("foreign-xmp", count: 3)
            let names = try FileManager.default.contentsOfDirectory(atPath: lib.path).filter { $0.hasSuffix(".jpg") }
                .sorted()
            // Lightroom's photo.xmp for the first, darktable's photo.jpg.xmp for the second; the third
            // rated only in an older version's .tessera.json.
            let stem = String(names[0].dropLast(4))
            try
                #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/" xmp:Rating="3" xmp:Label="Yellow" crs:Exposure2012="+0.35"/></rdf:RDF></x:xmpmeta>"#
                .write(toFile: lib.file(stem + ".xmp"), atomically: true, encoding: .utf8)
            try XMPSidecar.write(PhotoXMP(rating: 2, label: .blue, tags: ["sea"]), for: lib.file(names[1]))
            try #"{"ratings":{"\#(names[2])":5}}"#.write(
                toFile: lib.file(".tessera.json"), atomically: true, encoding: .utf8)
            let page = BrowserPage(root: lib.path)
            page.open(folder: lib.path)
            page.waitForScan()
            let photos = page.photos
            func photo(_ name: String) throws -> Photo { try XCTUnwrap(photos.first { $0.name == name }) }
            XCTAssertEqual(try photo(names[0]).rating, 3)
            XCTAssertEqual(try photo(names[0]).label, .yellow)
            XCTAssertEqual(try photo(names[1]).label, .blue)
            XCTAssertEqual(try photo(names[2]).rating, 5)
            XCTAssertNil(try XMPSidecar.read(for: lib.file(names[2])), "no XMP for the JSON-only rating yet")

            // A change writes Lightroom's file in place (its other settings kept), and carries the
            // JSON-only rating into a new sidecar with the photo's next change.
            page.setLabel(RowSelection([try photo(names[0]).id]), .red)
            page.setFlag(RowSelection([try photo(names[2]).id]), .picked)
            XCTAssertTrue(page.finishSaves())
            let lightroom = try XMPSidecarTests.exiv2(lib.file(stem + ".xmp"))
            XCTAssertTrue(lightroom.contains("Red") && lightroom.contains("Xmp.crs.Exposure2012"), lightroom)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: lib.file(names[0] + ".xmp")),
                "no second sidecar beside Lightroom's")
            XCTAssertEqual(try XMPSidecar.read(for: lib.file(names[2])), PhotoXMP(rating: 5, flag: .picked))
            // What only darktable's sidecar says is still shown once the folder's save has landed.
            XCTAssertEqual(page.photos.first { $0.name == names[1] }?.label, .blue, "not lost when the save lands")
            XCTAssertEqual(page.photos.first { $0.name == names[1] }?.rating, 2)
        }
    }

    func testAnUnreadableSidecarIsNeverWrittenOverWhileTheRatingIsStillKept() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("bad-xmp", count: 2)
            let name = try XCTUnwrap(
                try FileManager.default.contentsOfDirectory(atPath: lib.path).filter { $0.hasSuffix(".jpg") }.sorted()
                    .first)
            let garbage = Array("<x:xmpmeta broken".utf8) + [0xFF, 0x00]
            XCTAssertTrue(FileManager.default.createFile(atPath: lib.file(name + ".xmp"), contents: Data(garbage)))
            let page = BrowserPage(root: lib.path)
            page.open(folder: lib.path)
            page.waitForScan()
            let id = try XCTUnwrap(page.photos.first { $0.name == name }).id
            page.rate(RowSelection([id]), 2)
            XCTAssertTrue(page.finishSaves())
            XCTAssertEqual(
                Array(try Data(contentsOf: URL(fileURLWithPath: lib.file(name + ".xmp")))), garbage, "untouched")
            let json = try String(contentsOfFile: lib.file(".tessera.json"), encoding: .utf8)
            XCTAssertTrue(json.contains("\"\(name)\":2"), "the rating is kept in .tessera.json: \(json)")
            page.rate(RowSelection([id]), 4)  // a second save, after the first one landed
            XCTAssertTrue(page.finishSaves())
            XCTAssertEqual(
                Array(try Data(contentsOf: URL(fileURLWithPath: lib.file(name + ".xmp")))), garbage, "still untouched")
        }
    }

    func testTheSidecarGoesWithItsPhotoRenamedOrTrashedAndComesBackWithUndo() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("travel", count: 2)
            defer { DemoWindowsTests.emptyTrash(of: lib) }
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            let photo = browser.photos[try XCTUnwrap(browser.selection.first)]
            h.press(Key("3"), build)
            XCTAssertTrue(browser.finishSaves())
            XCTAssertTrue(FileManager.default.fileExists(atPath: photo.path + ".xmp"))

            let renamed = lib.file("travel-renamed-\(getpid()).jpg")
            browser.rename(photo, to: (renamed as NSString).lastPathComponent)
            XCTAssertEqual(browser.fileJobs.count, 1, "off the main thread")
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            XCTAssertTrue(browser.finishSaves())
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: photo.path + ".xmp"), "no sidecar left under the old name")
            XCTAssertEqual(try XMPSidecar.read(for: renamed)?.rating, 3, "the sidecar went with it")
            browser.undo()
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            XCTAssertTrue(browser.finishSaves())
            XCTAssertEqual(try XMPSidecar.read(for: photo.path)?.rating, 3, "and came back with Ctrl+Z")
            XCTAssertFalse(FileManager.default.fileExists(atPath: renamed + ".xmp"))

            browser.waitForScan()
            h.frames(2, build)
            h.wait(1)
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            XCTAssertEqual(browser.selection.count, 1)
            h.press(.delete, build)  // one photo: no question asked
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            XCTAssertFalse(FileManager.default.fileExists(atPath: photo.path))
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: photo.path + ".xmp"), "the sidecar went to the trash with it")
            browser.undo()
            XCTAssertTrue(FileManager.default.fileExists(atPath: photo.path))
            XCTAssertEqual(try XMPSidecar.read(for: photo.path)?.rating, 3, "and came back with it")
        }
    }
}
