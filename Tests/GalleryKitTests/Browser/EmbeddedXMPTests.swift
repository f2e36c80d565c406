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

/// Ratings, labels and picks embedded in the photos themselves (as Lightroom and darktable can
/// write them): read with the facts, kept in the index, overridden by a sidecar, and carried
/// into a sidecar with the photo's next change.
final class EmbeddedXMPTests: XCTestCase {
    /// The APP1 segment holding `packet` as XMP.
    static func xmpSegment(_ packet: String) -> [UInt8] {
        let body = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(packet.utf8)
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    static func packet(_ attributes: String) -> String {
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:digiKam="http://www.digikam.org/ns/1.0/" "#
            + attributes + "/></rdf:RDF></x:xmpmeta>"
    }

    /// A JPEG with `segments` right after its start-of-image marker.
    static func jpeg(at path: String, seed: UInt64, segments: [[UInt8]]) throws {
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 64, height: 48, seed: seed), to: path)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.insert(contentsOf: segments.flatMap { $0 }, at: 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func testEmbeddedMarksAreReadIndexedOverriddenByASidecarAndCarriedIntoOneOnAChange() throws {
        try onMain {
            let lib = try ScratchFolder("embedded-xmp")
            let cache = try ScratchFolder("embedded-xmp-index")
            try Self.jpeg(
                at: lib.file("a.jpg"), seed: 1,
                segments: [Self.xmpSegment(Self.packet(#"xmp:Rating="4" xmp:Label="Red""#))])
            // Past the first 64 KB (after a large APP2 block): read from the file.
            let filler: [UInt8] = [0xFF, 0xE2, 0xFF, 0xF0] + [UInt8](repeating: 0x55, count: 0xFFF0 - 2)
            try Self.jpeg(
                at: lib.file("b.jpg"), seed: 2,
                segments: [filler, filler, Self.xmpSegment(Self.packet(#"xmp:Rating="2" digiKam:PickLabel="3""#))])
            try Self.jpeg(at: lib.file("c.jpg"), seed: 3, segments: [Self.xmpSegment(Self.packet(#"xmp:Rating="5""#))])
            try XMPSidecar.write(PhotoXMP(rating: 1), for: lib.file("c.jpg"))  // the sidecar is the record
            XCTAssertTrue(
                try XMPSidecarTests.exiv2(lib.file("a.jpg")).contains("Xmp.xmp.Rating"), "exiv2 reads what we embedded")

            for start in ["first (read from the files)", "second (from the index)"] {
                let index = try LibraryIndex(path: cache.file("index.sqlite"))
                let page = BrowserPage(root: lib.path, index: index)
                page.open(folder: lib.path)
                page.waitForScan()
                let photos = page.photos
                func photo(_ name: String) throws -> Photo { try XCTUnwrap(photos.first { $0.name == name }) }
                XCTAssertEqual(try photo("a.jpg").rating, 4, start)
                XCTAssertEqual(try photo("a.jpg").label, .red, start)
                XCTAssertEqual(try photo("b.jpg").rating, 2, start)
                XCTAssertEqual(try photo("b.jpg").flag, .picked, start)
                XCTAssertEqual(
                    try photo("c.jpg").rating, start.hasPrefix("first") ? 1 : 2, "\(start): the sidecar wins")
                XCTAssertFalse(
                    FileManager.default.fileExists(atPath: lib.file("a.jpg.xmp")),
                    "\(start): nothing is written for what was only read")
                XCTAssertTrue(page.finishSaves())
                XCTAssertFalse(FileManager.default.fileExists(atPath: lib.file("a.jpg.xmp")))
                // A change to another photo of the folder writes nothing for this one.
                page.rate(RowSelection([try photo("c.jpg").id]), start.hasPrefix("first") ? 2 : 1)
                XCTAssertTrue(page.finishSaves())
                XCTAssertFalse(
                    FileManager.default.fileExists(atPath: lib.file("a.jpg.xmp")), "\(start): what was read is no edit")
                XCTAssertEqual(
                    page.photos.first { $0.name == "a.jpg" }?.label, .red,
                    "\(start): still shown after the folder's save")
                if start.hasPrefix("second") {
                    // A change carries the rest of the embedded marks into the new sidecar.
                    page.rate(RowSelection([try photo("a.jpg").id]), 3)
                    XCTAssertTrue(page.finishSaves())
                    XCTAssertEqual(try XMPSidecar.read(for: lib.file("a.jpg")), PhotoXMP(rating: 3, label: .red))
                }
            }
        }
    }

    func testAnEmbeddedPacketThatIsNotXMPOrRunsOffTheFileIsIgnored() throws {
        let dir = try ScratchFolder("embedded-xmp-bad")
        try Self.jpeg(at: dir.file("garbage.jpg"), seed: 4, segments: [Self.xmpSegment("<x:xmpmeta broken \u{0}\u{1}")])
        let head = Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("garbage.jpg"))))
        XCTAssertNil(XMPSidecar.embedded(inJPEG: head, path: dir.file("garbage.jpg")))
        // A segment claiming more bytes than the file has.
        var cut = Array(head.prefix(2)) + [0xFF, 0xE1, 0xFF, 0xFF] + Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        try Data(cut).write(to: URL(fileURLWithPath: dir.file("cut.jpg")))
        XCTAssertNil(XMPSidecar.embedded(inJPEG: cut, path: dir.file("cut.jpg")))
        cut = [0xFF, 0xD8, 0xFF]
        XCTAssertNil(XMPSidecar.embedded(inJPEG: cut, path: dir.file("nowhere.jpg")))
    }
}
