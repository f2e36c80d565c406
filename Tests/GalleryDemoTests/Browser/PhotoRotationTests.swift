import XCTest
import Foundation
import TesseraTesting
import TestSupport
import Render2D
import Widgets
@testable import GalleryDemo

/// Rotation turns a JPEG by its EXIF orientation, its pixels untouched, in a copy renamed
/// over it; Ctrl+R and Ctrl+Shift+R turn the selection off the main thread, Ctrl+Z turns it back.
final class PhotoRotationTests: XCTestCase {
    /// The entropy-coded data from the first start of scan on: the pixels, whatever the metadata says.
    private static func scan(_ path: String) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let start = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA })
        return Array(bytes[start...])
    }

    private static func orientation(_ path: String) throws -> Int {
        EXIF.orientation(inJPEG: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    func testAQuarterTurnChangesTheOrientationAndNothingOfThePixels() throws {
        XCTAssertEqual((1...8).map { PhotoRotation.turned($0, clockwise: true) }, [6, 7, 8, 5, 2, 3, 4, 1])
        for o in 1...8 { XCTAssertEqual(PhotoRotation.turned(PhotoRotation.turned(o, clockwise: true), clockwise: false), o) }

        let dir = try ScratchFolder("rotate")
        let path = dir.file("turn.jpg")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 120, height: 80, seed: 3), to: path)
        XCTAssertTrue(chmod(path, 0o640) == 0)
        let pixels = try Self.scan(path)
        XCTAssertNil(PhotoRotation.rotate(path, clockwise: true))
        XCTAssertEqual(try Self.orientation(path), 6, "a quarter turn right")
        XCTAssertEqual(try Self.scan(path), pixels, "the pixels are the same bytes")
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o640, "the photo keeps its permissions")
        for _ in 0..<3 { XCTAssertNil(PhotoRotation.rotate(path, clockwise: true)) }
        XCTAssertEqual(try Self.orientation(path), 1, "four turns: upright again")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }, [], "no copy left")
    }

    func testWhatCannotBeTurnedSaysWhyAndIsLeftAsItWas() throws {
        let dir = try ScratchFolder("rotate-refused")
        XCTAssertEqual(PhotoRotation.rotate(dir.file("a.png"), clockwise: true), "only JPEG photos can be turned")
        let broken = dir.file("broken.jpg")
        let garbage = Array("not a jpeg at all".utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: broken, contents: Data(garbage)))
        XCTAssertNotNil(PhotoRotation.rotate(broken, clockwise: true))
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: broken))), garbage, "untouched")
        XCTAssertEqual(mkfifo(dir.file("fifo.jpg"), 0o644), 0)
        XCTAssertEqual(PhotoRotation.rotate(dir.file("fifo.jpg"), clockwise: true), "not a regular file", "refused at once, not waited on")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }, [], "no copy left")
    }

    func testTheKeysTurnTheSelectionAndCtrlZTurnsItBack() throws { try onMain {
        let lib = try DemoWindowsTests.library("turn", count: 2)
        let session = try DemoSession(library: lib.path)
        let (h, browser, build) = (session.h, session.browser, session.build)
        h.click(at: BrowserEndToEndTests.cell(browser, 0), build)
        let photo = browser.photos[try XCTUnwrap(browser.selection.first)]
        h.press(Key("r"), modifiers: .control, build)
        XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
        XCTAssertEqual(try Self.orientation(photo.path), 6)
        XCTAssertEqual(browser.lastAction, "Rotated 1 photo right")
        h.press(Key("r"), modifiers: [.control, .shift], build)
        XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
        h.press(Key("r"), modifiers: [.control, .shift], build)
        XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
        XCTAssertEqual(try Self.orientation(photo.path), 8, "right, then left twice: a quarter turn left")
        browser.undo()
        XCTAssertTrue(h.frames(until: { browser.fileJobs.isEmpty }, build))
        XCTAssertEqual(try Self.orientation(photo.path), 1, "Ctrl+Z turns the last turn back")
    } }
}
