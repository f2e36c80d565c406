import XCTest
import Foundation
import TestSupport
import Render2D
import Imaging
import Profiling
import DemoSupport
@testable import GalleryKit

/// XMP sidecars through exiv2: what we write, an independent reader (exiv2's command line)
/// reads; what other programs wrote, we read and keep.
final class XMPSidecarTests: XCTestCase {
    /// `exiv2 -px FILE`: the XMP properties, as another program sees them.
    static func exiv2(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiv2")
        process.arguments = ["-px", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testWhatWeWriteExiv2ReadsAndWhatWeReadComesBack() throws {
        let dir = try ScratchFolder("xmp-write")
        let photo = dir.file("a.jpg")
        XCTAssertNil(try XMPSidecar.read(for: photo), "no sidecar yet")
        let xmp = PhotoXMP(rating: 4, label: .green, flag: .picked, tags: ["beach", "Île de Ré", "family"])
        try XMPSidecar.write(xmp, for: photo)
        XCTAssertEqual(XMPSidecar.target(for: photo), dir.file("a.jpg.xmp"), "darktable's and digiKam's name")
        let shown = try Self.exiv2(dir.file("a.jpg.xmp"))
        XCTAssertTrue(shown.contains("Xmp.xmp.Rating") && shown.contains(" 4"), shown)
        XCTAssertTrue(shown.contains("Xmp.xmp.Label") && shown.contains("Green"), shown)
        XCTAssertTrue(shown.contains("Xmp.dc.subject") && shown.contains("beach, Île de Ré, family"), shown)
        XCTAssertEqual(try XMPSidecar.read(for: photo), xmp)

        // Rejected: Rating -1, as darktable and Lightroom read it.
        try XMPSidecar.write(PhotoXMP(rating: 0, flag: .rejected), for: photo)
        XCTAssertTrue(try Self.exiv2(dir.file("a.jpg.xmp")).contains("-1"))
        XCTAssertEqual(try XMPSidecar.read(for: photo), PhotoXMP(rating: 0, flag: .rejected))
    }

    func testLightroomsSidecarIsReadWrittenInPlaceAndItsOtherPropertiesKept() throws {
        let dir = try ScratchFolder("xmp-lightroom")
        let photo = dir.file("IMG_0001.CR2")
        let lightroom = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
                xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
               xmp:Rating="2" xmp:Label="Red" crs:Exposure2012="+0.35" photoshop:City="Lyon">
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            """
        try lightroom.write(toFile: dir.file("IMG_0001.xmp"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try XMPSidecar.read(for: photo), PhotoXMP(rating: 2, label: .red))
        XCTAssertEqual(XMPSidecar.target(for: photo), dir.file("IMG_0001.xmp"), "the photo.xmp that exists")
        try XMPSidecar.write(PhotoXMP(rating: 5, label: .blue, tags: ["Lyon"]), for: photo)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("IMG_0001.CR2.xmp")))
        let shown = try Self.exiv2(dir.file("IMG_0001.xmp"))
        XCTAssertTrue(shown.contains("Xmp.crs.Exposure2012") && shown.contains("+0.35"), "kept: \(shown)")
        XCTAssertTrue(shown.contains("Xmp.photoshop.City") && shown.contains("Lyon"), shown)
        XCTAssertEqual(try XMPSidecar.read(for: photo), PhotoXMP(rating: 5, label: .blue, tags: ["Lyon"]))
    }

    func testASidecarThatCannotBeReadIsNeverWrittenOver() throws {
        let dir = try ScratchFolder("xmp-unreadable")
        let photo = dir.file("b.jpg")
        let garbage = Array("<x:xmpmeta not really xml".utf8) + [0, 0xFF, 0x13]
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.file("b.jpg.xmp"), contents: Data(garbage)))
        XCTAssertThrowsError(try XMPSidecar.read(for: photo))
        XCTAssertThrowsError(try XMPSidecar.write(PhotoXMP(rating: 3), for: photo)) {
            XCTAssertTrue("\($0)".contains("b.jpg.xmp"), "\($0)")
        }
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("b.jpg.xmp")))), garbage, "untouched")
        // A FIFO named like a sidecar is refused at once, not waited on.
        XCTAssertEqual(mkfifo(dir.file("c.jpg.xmp"), 0o644), 0)
        XCTAssertThrowsError(try XMPSidecar.read(for: dir.file("c.jpg")))
        XCTAssertThrowsError(try XMPSidecar.write(PhotoXMP(rating: 1), for: dir.file("c.jpg")))
    }

    /// A Latin-1 name (an old camera card's, a zip's) keeps its bytes: the sidecar is made
    /// beside the photo under the photo's own name, not a re-encoded one.
    func testASidecarOfANameThatIsNotUTF8KeepsItsBytes() throws {
        let dir = try ScratchFolder("xmp-latin1")
        let photo = dir.path + "/" + FileName.string(fromBytes: Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        try XMPSidecar.write(PhotoXMP(rating: 3), for: photo)
        let listed = try XCTUnwrap(FileName.withCString(dir.path) { opendir($0) })
        var names: [[UInt8]] = []
        while let entry = readdir(listed) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name.first != UInt8(ascii: ".") { names.append(name) }
        }
        closedir(listed)
        XCTAssertEqual(names, [Array("caf".utf8) + [0xE9] + Array(".jpg.xmp".utf8)])
        XCTAssertEqual(try XMPSidecar.read(for: photo)?.rating, 3)
    }
}
