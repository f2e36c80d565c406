import TestSupport
import XCTest
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// EXIF blocks as cameras write them, read back by a TIFF walk independent of the writer's
/// layout code and by the decoder. (Pillow and exiftool read the camera-like samples too:
/// see CameraSamplesTests.)
final class EXIFWriterTests: XCTestCase {
    private func photo(orientation: Int, thumbnail: [UInt8]?) throws -> [UInt8] {
        let jpeg = try SamplePhotos.jpegData(SamplePhotos.render(width: 64, height: 48, seed: 3))
        return try EXIFWriter.inserting(
            CameraMetadata(
                make: "FUJIFILM", model: "X-T4", dateTimeOriginal: "2021:07:04 18:30:05",
                orientation: orientation, thumbnail: thumbnail), into: jpeg)
    }

    func testTheTagsAndTheThumbnailReadBack() throws {
        let thumbnail = try SamplePhotos.jpegData(SamplePhotos.render(width: 32, height: 24, seed: 4))
        let bytes = try photo(orientation: 6, thumbnail: thumbnail)
        let tiff = try XCTUnwrap(TIFFBlock(jpeg: bytes))
        XCTAssertEqual(tiff.ascii(ifd: tiff.ifd0, tag: 0x010F), "FUJIFILM")
        XCTAssertEqual(tiff.ascii(ifd: tiff.ifd0, tag: 0x0110), "X-T4")
        XCTAssertEqual(tiff.value(ifd: tiff.ifd0, tag: 0x0112), 6)
        let exif = try XCTUnwrap(tiff.value(ifd: tiff.ifd0, tag: 0x8769))
        XCTAssertEqual(tiff.ascii(ifd: exif, tag: 0x9003), "2021:07:04 18:30:05")
        let ifd1 = try XCTUnwrap(tiff.nextIFD(after: tiff.ifd0))
        XCTAssertEqual(tiff.value(ifd: ifd1, tag: 0x0103), 6, "JPEG compression")
        let start = try XCTUnwrap(tiff.value(ifd: ifd1, tag: 0x0201)),
            length = try XCTUnwrap(tiff.value(ifd: ifd1, tag: 0x0202))
        XCTAssertEqual(Array(tiff.bytes[(tiff.base + start)..<(tiff.base + start + length)]), thumbnail)
        XCTAssertEqual(EXIF.orientation(inJPEG: bytes), 6, "the decoder reads the orientation")
        XCTAssertEqual(EXIF.dateTimeOriginal(inJPEG: bytes), "2021:07:04 18:30:05", "and the date")
        XCTAssertTrue(EXIF.dateParts("2021:07:04 18:30:05")! == (2021, 7, 4, 18, 30, 5))
        for unknown in [
            "0000:00:00 00:00:00", "                   ", "2021:13:04 18:30:05", "2021:07:04", "2021-07-04T18:30:05x",
        ] {
            XCTAssertNil(EXIF.dateParts(unknown), "\(unknown): not a date")
        }
        XCTAssertNil(
            EXIF.dateTimeOriginal(inJPEG: try SamplePhotos.jpegData(SamplePhotos.render(width: 8, height: 8, seed: 1))))
        let decoded = try ImageDecoder.thumbnail(
            bytes: bytes, name: "photo.jpg", spec: ThumbnailSpec(side: 64, fill: false))
        XCTAssertEqual([decoded.pixels.width, decoded.pixels.height], [48, 64], "shown turned upright")
    }

    func testWithoutAThumbnailThereIsNoIFD1AndShortStringsSitInTheirEntries() throws {
        let bytes = try EXIFWriter.inserting(
            CameraMetadata(make: "LG", model: "G6", dateTimeOriginal: "2020:01:01 00:00:00"),
            into: SamplePhotos.jpegData(SamplePhotos.render(width: 16, height: 16, seed: 1)))
        let tiff = try XCTUnwrap(TIFFBlock(jpeg: bytes))
        XCTAssertNil(tiff.nextIFD(after: tiff.ifd0))
        XCTAssertEqual(tiff.ascii(ifd: tiff.ifd0, tag: 0x010F), "LG")
        XCTAssertEqual(tiff.ascii(ifd: tiff.ifd0, tag: 0x0110), "G6")
        XCTAssertEqual(tiff.value(ifd: tiff.ifd0, tag: 0x0112), 1)
    }

    func testAThumbnailTooLargeForTheSegmentAndBytesThatAreNoJPEGAreRefused() {
        XCTAssertThrowsError(try photo(orientation: 1, thumbnail: [UInt8](repeating: 7, count: 70_000))) {
            guard case .tooLarge(let bytes) = $0 as? EXIFWriter.Failure else { return XCTFail("\($0)") }
            XCTAssertGreaterThan(bytes, 70_000, "the segment's size, thumbnail included")
        }
        XCTAssertThrowsError(
            try EXIFWriter.inserting(CameraMetadata(make: "a", model: "b", dateTimeOriginal: ""), into: [0x89, 0x50])
        ) {
            XCTAssertEqual($0 as? EXIFWriter.Failure, .notAJPEG)
        }
    }
}
