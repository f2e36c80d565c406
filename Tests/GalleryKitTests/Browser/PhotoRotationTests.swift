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

/// Rotation records a quarter turn in the photo's XMP sidecar (`tiff:Orientation`, as darktable
/// and digiKam do), the photo's bytes untouched; thumbnails, sizes and the freedesktop cache
/// follow at once. Ctrl+R and Ctrl+Shift+R turn the selection off the main thread, Ctrl+Z turns it back.
final class PhotoRotationTests: XCTestCase {
    private static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testAQuarterTurnIsRecordedInTheSidecarAndEveryDecodeFollowsIt() throws {
        XCTAssertEqual((1...8).map { PhotoRotation.turned($0, clockwise: true) }, [6, 7, 8, 5, 2, 3, 4, 1])
        for o in 1...8 {
            XCTAssertEqual(PhotoRotation.turned(PhotoRotation.turned(o, clockwise: true), clockwise: false), o)
        }

        let dir = try ScratchFolder("rotate")
        let path = dir.file("turn.jpg")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 120, height: 80, seed: 3), to: path)
        try XMPSidecar.write(PhotoXMP(rating: 3, label: .green), for: path)
        let original = try Self.bytes(path)
        let thumbnails = FreedesktopThumbnails(root: dir.file("thumbnails"))
        let spec = ThumbnailSpec(side: 64, fill: false)
        let before = try thumbnails.thumbnail(path: path, spec: spec).get()
        XCTAssertGreaterThan(before.pixels.width, before.pixels.height, "landscape before")
        XCTAssertTrue(thumbnails.flush(within: 10))
        let cached = thumbnails.path(forFile: path, folder: "normal")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cached), "the freedesktop cache has it")

        XCTAssertNil(PhotoRotation.rotate(path, clockwise: true, thumbnails: thumbnails))
        XCTAssertEqual(try XMPSidecar.orientation(for: path), 6, "a quarter turn right, in the sidecar")
        XCTAssertEqual(try Self.bytes(path), original, "the photo's bytes are the same")
        let shown = try XMPSidecarTests.exiv2(path + ".xmp")
        // exiv2 names orientation 6
        XCTAssertTrue(shown.contains("Xmp.tiff.Orientation") && shown.contains("right, top"), shown)
        XCTAssertEqual(try XMPSidecar.read(for: path)?.rating, 3, "the rating is kept beside it")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: cached), "the cache's thumbnail is gone, to be made again")
        let after = try thumbnails.thumbnail(path: path, spec: spec).get()
        XCTAssertLessThan(after.pixels.width, after.pixels.height, "decoded turned: portrait")
        let head = try ImageDecoder.readHeader(path)
        XCTAssertEqual(try ImageDecoder.inspect(head, name: path).orientation, 6)
        XCTAssertNotEqual(
            FileVersion.of(path), FileVersion(modifiedNs: FileVersion.of(path).modifiedNs, size: Int64(original.count)),
            "a new version for the thumbnails' caches")

        // A photo that is a link to a file (the walk lists those) turns too; its file is untouched.
        let link = dir.file("link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        XCTAssertNil(PhotoRotation.rotate(link, clockwise: false, thumbnails: thumbnails))
        XCTAssertEqual(try XMPSidecar.orientation(for: link), 8)
        XCTAssertEqual(try Self.bytes(path), original)

        // A rating written after keeps the turn; four turns in all are upright again.
        try XMPSidecar.write(PhotoXMP(rating: 5), for: path)
        XCTAssertEqual(try XMPSidecar.orientation(for: path), 6)
        for _ in 0..<3 { XCTAssertNil(PhotoRotation.rotate(path, clockwise: true, thumbnails: thumbnails)) }
        XCTAssertEqual(try XMPSidecar.orientation(for: path), 1)
        XCTAssertEqual(try Self.bytes(path), original)
    }

    func testWhatCannotBeTurnedSaysWhyAndGetsNoSidecar() throws {
        let dir = try ScratchFolder("rotate-refused")
        XCTAssertNotNil(PhotoRotation.rotate(dir.file("missing.png"), clockwise: true))
        let broken = dir.file("broken.jpg")
        let garbage = Array("not a jpeg at all".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: broken, contents: Data(garbage)))
        XCTAssertEqual(PhotoRotation.rotate(broken, clockwise: true), "not an image this app can read")
        XCTAssertEqual(try Self.bytes(broken), garbage, "untouched")
        XCTAssertEqual(mkfifo(dir.file("fifo.jpg"), 0o644), 0)
        XCTAssertEqual(
            PhotoRotation.rotate(dir.file("fifo.jpg"), clockwise: true), "not a regular file",
            "refused at once, not waited on")
        // An unreadable sidecar is never written over.
        let photo = dir.file("photo.jpg")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 40, height: 30, seed: 1), to: photo)
        let bad = Array("<x:xmpmeta broken".utf8) + [0xFF]
        XCTAssertTrue(FileManager.default.createFile(atPath: photo + ".xmp", contents: Data(bad)))
        XCTAssertNotNil(PhotoRotation.rotate(photo, clockwise: true))
        XCTAssertEqual(try Self.bytes(photo + ".xmp"), bad)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".xmp") },
            ["photo.jpg.xmp"],
            "no sidecar made for what was refused")
    }

    func testTheKeysTurnTheSelectionAndCtrlZTurnsItBack() throws {
        try onMain {
            let lib = try DemoWindowsTests.library("turn", count: 2)
            let session = try DemoSession(library: lib.path)
            let (h, browser, build) = (session.h, session.browser, session.build)
            h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
            let photo = browser.photos[try XCTUnwrap(browser.selection.first)]
            h.press(Key("r"), modifiers: .control, build)
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            XCTAssertEqual(try XMPSidecar.orientation(for: photo.path), 6)
            XCTAssertEqual(browser.lastAction, "Rotated 1 photo right")
            h.press(Key("r"), modifiers: [.control, .shift], build)
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            h.press(Key("r"), modifiers: [.control, .shift], build)
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            XCTAssertEqual(
                try XMPSidecar.orientation(for: photo.path), 8, "right, then left twice: a quarter turn left")
            browser.waitForScan()
            XCTAssertEqual(
                Double(try XCTUnwrap(browser.photos.first { $0.path == photo.path }).aspectRatio), 64.0 / 96,
                accuracy: 0.01,
                "its shape turned: the justified grid lays it out upright")
            // A new start reads the turn from the sidecar.
            OrientationOverrides.shared.set(nil, for: photo.path)
            let again = BrowserPage(root: lib.path)
            again.open(folder: lib.path)
            again.waitForScan()
            XCTAssertEqual(OrientationOverrides.shared.orientation(for: photo.path), 8)
            browser.undo()
            XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
            XCTAssertEqual(try XMPSidecar.orientation(for: photo.path), 1, "Ctrl+Z turns the last turn back")
        }
    }
}
