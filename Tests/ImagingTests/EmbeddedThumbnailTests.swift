import TestSupport
import XCTest
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// The EXIF thumbnail tier's reader: found through IFD1, decoded upright and cropped to the
/// photo's shape; a missing, broken or oversized one is refused with a reason, never trusted.
final class EmbeddedThumbnailTests: XCTestCase {
    /// A 16:9 photo (red) whose 4:3 thumbnail letterboxes it between black bars, as cameras do.
    private func letterboxedPhoto(orientation: Int = 1) throws -> (bytes: [UInt8], thumbnail: [UInt8]) {
        let photo = try SamplePhotos.jpegData(PixelBuffer(width: 160, height: 90, color: .red))
        var pixels = [UInt8](repeating: 0, count: 64 * 48 * 4)
        for y in 0..<48 {
            for x in 0..<64 {
                let inside = y >= 6 && y < 42  // 64×36 of photo, 6 rows of black above and below
                pixels.replaceSubrange(
                    ((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 4), with: inside ? [255, 0, 0, 255] : [0, 0, 0, 255])
            }
        }
        let thumbnail = try SamplePhotos.jpegData(PixelBuffer(width: 64, height: 48, bytes: pixels))
        let bytes = try EXIFWriter.inserting(
            CameraMetadata(
                make: "Canon", model: "EOS R6", dateTimeOriginal: "2024:05:12 14:03:09",
                orientation: orientation, thumbnail: thumbnail), into: photo)
        return (bytes, thumbnail)
    }

    /// Where IFD1's `tag` entry keeps its value in `bytes`.
    private func valueOffset(_ bytes: [UInt8], tag: Int) throws -> Int {
        let tiff = try XCTUnwrap(TIFFBlock(jpeg: bytes))
        let ifd1 = try XCTUnwrap(tiff.nextIFD(after: tiff.ifd0))
        for e in 0..<tiff.u16(ifd1) where tiff.u16(ifd1 + 2 + e * 12) == tag {
            return tiff.base + ifd1 + 2 + e * 12 + 8
        }
        throw XCTSkip("no tag \(tag)")
    }

    private func patch(_ bytes: inout [UInt8], at offset: Int, _ value: Int) {
        for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: value >> (8 * k)) }
    }

    private func isRed(_ p: PixelBuffer, _ x: Int, _ y: Int) -> Bool {
        let i = (y * p.width + x) * 4
        return p.bytes[i] > 200 && p.bytes[i + 1] < 60 && p.bytes[i + 2] < 60
    }

    func testTheThumbnailIsFoundCroppedToThePhotosShapeAndTurnedUpright() throws {
        let (bytes, thumbnail) = try letterboxedPhoto()
        let range = try XCTUnwrap(EmbeddedThumbnail.range(inJPEG: bytes))
        XCTAssertEqual(Array(bytes[range]), thumbnail)
        let decoded = try EmbeddedThumbnail.decode(bytes: bytes, name: "photo.jpg")
        XCTAssertEqual(
            [decoded.pixels.width, decoded.pixels.height], [64, 36], "the black bars are cut away: 16:9 like the photo")
        for (x, y) in [(0, 0), (63, 0), (32, 18), (0, 35), (63, 35)] {
            XCTAssertTrue(isRed(decoded.pixels, x, y), "(\(x), \(y)) is photo, not bar")
        }
        XCTAssertEqual([decoded.info.width, decoded.info.height], [160, 90], "the photo's own header")

        let portrait = try EmbeddedThumbnail.decode(bytes: letterboxedPhoto(orientation: 6).bytes, name: "portrait.jpg")
        XCTAssertEqual(
            [portrait.pixels.width, portrait.pixels.height], [36, 64], "orientation 6: shown upright, like the photo")

        // From a file: only its first bytes are read.
        let dir = try ScratchFolder("embedded")
        try SamplePhotos.write(bytes, to: dir.file("a.jpg"))
        XCTAssertEqual(try EmbeddedThumbnail.decode(path: dir.file("a.jpg")).pixels.width, 64)
    }

    func testAMissingBrokenOrOversizedThumbnailIsRefusedWithAReason() throws {
        let plain = try SamplePhotos.jpegData(PixelBuffer(width: 32, height: 24, color: .red))
        XCTAssertNil(EmbeddedThumbnail.range(inJPEG: plain), "no EXIF at all")
        XCTAssertThrowsError(try EmbeddedThumbnail.decode(bytes: plain, name: "plain.jpg")) {
            XCTAssertEqual($0 as? ImageError, .unsupported("no embedded thumbnail"))
        }
        let withoutIFD1 = try EXIFWriter.inserting(
            CameraMetadata(make: "LG", model: "G6", dateTimeOriginal: "2020:01:01 00:00:00"), into: plain)
        XCTAssertNil(EmbeddedThumbnail.range(inJPEG: withoutIFD1), "EXIF without IFD1")
        XCTAssertThrowsError(try EmbeddedThumbnail.decode(bytes: [0x89, 0x50, 0x4E, 0x47], name: "x.png"))

        let (good, thumbnail) = try letterboxedPhoto()
        let offset = try valueOffset(good, tag: 0x0201), length = try valueOffset(good, tag: 0x0202)
        var outside = good
        patch(&outside, at: offset, 70_000)  // past the APP1 segment
        XCTAssertNil(EmbeddedThumbnail.range(inJPEG: outside))
        var tooLong = good
        patch(&tooLong, at: length, thumbnail.count + 60_000)
        XCTAssertNil(EmbeddedThumbnail.range(inJPEG: tooLong))
        var notJPEG = good
        patch(&notJPEG, at: offset, 8)  // IFD0: not a JPEG's start
        XCTAssertNil(EmbeddedThumbnail.range(inJPEG: notJPEG))
        var negative = good
        patch(&negative, at: offset, -16)
        XCTAssertNil(EmbeddedThumbnail.range(inJPEG: negative))
        var damaged = good
        let range = try XCTUnwrap(EmbeddedThumbnail.range(inJPEG: good))
        // the tables and scan overwritten
        for i in (range.lowerBound + 20)..<(range.upperBound - 2) { damaged[i] = 0x5A }
        XCTAssertThrowsError(
            try EmbeddedThumbnail.decode(bytes: damaged, name: "damaged.jpg"), "damaged data is an error, not a trap")
        // truncated anywhere: an error or a thumbnail, never a trap
        for cut in stride(from: 0, to: good.count, by: 97) {
            _ = try? EmbeddedThumbnail.decode(bytes: Array(good.prefix(cut)), name: "cut.jpg")
        }

        // A thumbnail larger than its photo is not a thumbnail: the photo is decoded instead.
        let small = try SamplePhotos.jpegData(PixelBuffer(width: 40, height: 30, color: .red))
        let big = try SamplePhotos.jpegData(PixelBuffer(width: 80, height: 60, color: .blue))
        let oversized = try EXIFWriter.inserting(
            CameraMetadata(make: "a", model: "b", dateTimeOriginal: "", thumbnail: big), into: small)
        XCTAssertNotNil(EmbeddedThumbnail.range(inJPEG: oversized))
        XCTAssertThrowsError(try EmbeddedThumbnail.decode(bytes: oversized, name: "oversized.jpg")) {
            XCTAssertTrue("\($0)".contains("larger than its 40×30 photo"), "\($0)")
        }
    }
}
