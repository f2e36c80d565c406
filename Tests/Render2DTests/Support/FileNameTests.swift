import Foundation
@testable import Render2D
import Imaging
import DemoSupport
import TestSupport
import TesseraTesting
import XCTest

/// Names that are not UTF-8 (Latin-1 from old zips, Samba shares, camera cards) are kept byte
/// for byte: listed, opened, and shown with the replacement character.
final class FileNameTests: XCTestCase {
    func testTheLastComponentIsFoundationsWithoutItsCost() {
        let paths = [
            "/home/ana/Photos/IMG_0042.JPG", "/home/ana/Photos/", "/home/ana/Photos///", "/", "", "photo.jpg",
            "relative/dir/", "/a", "a/", "Zoë 写真/café.jpg", "caf\u{10FFE9}/x\u{10FF80}y", " /  ", "/tmp//x",
        ]
        for path in paths {
            XCTAssertEqual(FileName.last(of: path), (path as NSString).lastPathComponent, "\(path.debugDescription)")
        }
        XCTAssertEqual(FileName.last(of: "///"), "/", "the root, however written (Foundation on Linux says \"\")")
    }

    func testAnyBytesComeBackExactly() {
        var generator = SplitMix64(seed: 7)
        for length in 0..<300 {
            let bytes = (0..<(length % 40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }.filter { $0 != 0 }
            XCTAssertEqual(FileName.bytes(FileName.string(fromBytes: bytes)), bytes, "\(bytes)")
        }
        // UTF-8 stays as it is; Latin-1's é is a kept byte; a name's own U+10FFxx is kept byte by byte.
        XCTAssertEqual(FileName.string(fromBytes: Array("Zoë 写真.jpg".utf8)), "Zoë 写真.jpg")
        XCTAssertEqual(FileName.string(fromBytes: [0x63, 0x61, 0x66, 0xE9]), "caf\u{10FFE9}")
        let own = Array("\u{10FF41}".utf8)
        XCTAssertEqual(FileName.bytes(FileName.string(fromBytes: own)), own)
        XCTAssertEqual(
            FileName.string(fromBytes: [0xC0, 0x80]).unicodeScalars.count, 2, "an overlong NUL is two kept bytes")
    }

    func testALatin1PhotoInALatin1FolderIsOpenedAndShownWithTheReplacementCharacter() throws {
        try onMain {
            let dir = try ScratchFolder("latin1")
            let folder = dir.path + "/caf\u{10FFE9}", photo = folder + "/\u{10FFE9}t\u{10FFE9}.jpg"
            XCTAssertEqual(FileName.withCString(folder) { mkdir($0, 0o755) }, 0)
            try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: 2), to: dir.file("plain.jpg"))
            XCTAssertEqual(
                FileName.withCString(dir.file("plain.jpg")) { from in FileName.withCString(photo) { rename(from, $0) }
                }, 0)
            // The file system holds the Latin-1 bytes themselves.
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path + "/caf\u{FFFD}") == false)
            let listed = try XCTUnwrap(opendir(dir.path))
            var names: [[UInt8]] = []
            while let entry = readdir(listed) {
                names.append(withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) })
            }
            closedir(listed)
            XCTAssertTrue(names.contains([0x63, 0x61, 0x66, 0xE9]))
            // Read through the kept bytes.
            XCTAssertNoThrow(try ImageDecoder.thumbnail(path: photo, spec: ThumbnailSpec(side: 32)))
            XCTAssertNotEqual(FileVersion.of(photo), .unknown)
            // Drawn with U+FFFD for each byte that is not UTF-8.
            let library = try FontLibrary(atlas: GlyphAtlas())
            XCTAssertEqual(
                library.font(size: 15).layOut("\u{10FFE9}t\u{10FFE9}.jpg").scalars.prefix(3), [0xFFFD, 0x74, 0xFFFD])
        }
    }
}
