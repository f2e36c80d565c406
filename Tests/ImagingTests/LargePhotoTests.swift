import CSDL2
import Foundation
import TestSupport
import XCTest
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Photos as large as phones and cameras write them (108 and 200 megapixels), and the limits that
/// keep decoding them bounded: the pixel cap counts what is decoded, after DCT scaling.
final class LargePhotoTests: XCTestCase {
    /// A JPEG header alone: SOI, then a frame header for `width`×`height` with three 4:2:0
    /// components, of the kind `marker` (0xC0 baseline, 0xC2 progressive).
    private func frameHeader(width: Int, height: Int, marker: UInt8 = 0xC0) -> [UInt8] {
        [
            0xFF, 0xD8, 0xFF, marker, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 255), UInt8(width >> 8),
            UInt8(width & 255), 3,
            1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
        ] + [UInt8](repeating: 0, count: 16)
    }

    func testPhonePhotosOf108And200MegapixelsGetTheirThumbnails() throws {
        let dir = try ScratchFolder("large-photos")
        for (width, height) in [(12_000, 9_000), (16_384, 12_288)] {
            let path = dir.file("\(width).jpg")
            try SamplePhotos.write(try LargeJPEG.gray(width: width, height: height), to: path)
            let thumb = try ImageDecoder.thumbnail(path: path, spec: ThumbnailSpec(side: 256))
            XCTAssertEqual(thumb.dctScale, 8, "\(width)×\(height): decoded at 1/8, not refused by its header")
            XCTAssertEqual(thumb.pixels.height, 256)
            XCTAssertEqual(thumb.info.width, width)
            // The left half is the dark one.
            XCTAssertLessThan(thumb.pixels.bytes[(128 * thumb.pixels.width + 10) * 4], 100)
            XCTAssertGreaterThan(thumb.pixels.bytes[(128 * thumb.pixels.width + thumb.pixels.width - 10) * 4], 150)
            // A viewer's fitted size decodes too.
            let fitted = try ImageDecoder.thumbnail(path: path, spec: ThumbnailSpec(side: 1400, fill: false))
            XCTAssertEqual(fitted.pixels.width, 1400)
        }
    }

    func testTheCapCountsDecodedPixelsNotTheHeadersClaim() throws {
        // The largest JPEG there is: a thumbnail decodes 8192×8192 at 1/8, within the cap...
        let largest = frameHeader(width: 65_535, height: 65_535)
        let info = try ImageDecoder.inspect(largest, name: "huge.jpg")
        let full = 40 << 20  // a file of 40 MB
        XCTAssertNoThrow(try ImageDecoder.checkDecodable(info, largest, spec: ThumbnailSpec(side: 256), fileSize: full))
        XCTAssertNoThrow(
            try ImageDecoder.checkDecodable(info, largest, spec: ThumbnailSpec(side: 2560, fill: false), fileSize: full)
        )
        // ...but not at full size, and a PNG of that size is refused as it is decoded at full size.
        XCTAssertThrowsError(
            try ImageDecoder.checkDecodable(info, largest, spec: ThumbnailSpec(side: 65_535), fileSize: full)
        ) {
            XCTAssertEqual($0 as? ImageError, .tooLarge(width: 65_535, height: 65_535))
        }
        let png = ImageInfo(format: .png, width: 12_000, height: 9_000, orientation: 1)
        XCTAssertThrowsError(try ImageDecoder.checkDecodable(png, [], spec: ThumbnailSpec(side: 256)))
        // ...as long as the file could hold that many pixels: a header alone is cut short.
        XCTAssertThrowsError(
            try ImageDecoder.checkDecodable(info, largest, spec: ThumbnailSpec(side: 256), fileSize: 40_000)
        ) {
            XCTAssertEqual($0 as? ImageError, .truncated)
        }
        // A progressive one keeps every coefficient at full size: 200 MP fits, 65535² does not.
        let progressive200 = frameHeader(width: 16_384, height: 12_288, marker: 0xC2)
        XCTAssertEqual(ImageDecoder.jpegFrame(progressive200)?.progressive, true)
        XCTAssertEqual(ImageDecoder.jpegFrame(progressive200)?.coefficientBytes, 16_384 * 12_288 * 3)
        XCTAssertNoThrow(
            try ImageDecoder.checkDecodable(
                try ImageDecoder.inspect(progressive200, name: "p.jpg"), progressive200,
                spec: ThumbnailSpec(side: 256), fileSize: full))
        let progressiveHuge = frameHeader(width: 65_535, height: 65_535, marker: 0xC2)
        XCTAssertThrowsError(
            try ImageDecoder.checkDecodable(
                try ImageDecoder.inspect(progressiveHuge, name: "p.jpg"), progressiveHuge,
                spec: ThumbnailSpec(side: 256), fileSize: full)
        ) {
            XCTAssertEqual($0 as? ImageError, .tooLarge(width: 65_535, height: 65_535))
        }
    }

    /// The embedded tier of a 200-megapixel photo is its small EXIF JPEG: the photo's size is no reason to refuse it.
    func testTheEmbeddedThumbnailOfAHugePhotoIsRead() throws {
        let photo = try SamplePhotos.jpegData(PixelBuffer(width: 160, height: 120, color: .red))
        let small = try SamplePhotos.jpegData(PixelBuffer(width: 64, height: 48, color: .red))
        var bytes = try EXIFWriter.inserting(
            CameraMetadata(
                make: "Samsung", model: "S23 Ultra", dateTimeOriginal: "2024:05:12 14:03:09",
                orientation: 1, thumbnail: small), into: photo)
        // The frame header now says 16384×12288.
        // the photo's, after the thumbnail's
        let sof = try XCTUnwrap((2..<(bytes.count - 9)).last { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: [0x30, 0x00, 0x40, 0x00])
        let thumb = try EmbeddedThumbnail.decode(bytes: bytes, name: "huge.jpg")
        XCTAssertEqual(thumb.info.width, 16_384)
        XCTAssertEqual([thumb.pixels.width, thumb.pixels.height], [64, 48])
    }

    /// A progressive 16×16 JPEG of 610 scans (Pillow's, its last scan repeated 600 times) is
    /// refused at TurboJPEG's scan limit (500) instead of holding a worker for every scan.
    func testAJPEGWithThousandsOfScansIsRefused() throws {
        let dir = (#filePath as NSString).deletingLastPathComponent + "/Fixtures/"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir + "scans610.jpg")))
        XCTAssertEqual(ImageDecoder.jpegFrame(bytes)?.progressive, true)
        XCTAssertThrowsError(
            try ImageDecoder.thumbnail(bytes: bytes, name: "scans610.jpg", spec: ThumbnailSpec(side: 32))
        ) {
            guard case .corrupt(let why)? = $0 as? ImageError else { return XCTFail("\($0)") }
            XCTAssertTrue(why.lowercased().contains("scan"), why)
        }
    }

    /// A GIF's decode reserves its first frame, not the widest and tallest of screen and frame
    /// (a 65535×1 screen with a 1×65535 frame reserved 34 GB).
    func testAGIFReservesItsFirstFrameOnly() throws {
        let gif: [UInt8] =
            Array("GIF89a".utf8) + [0xFF, 0xFF, 1, 0, 0, 0, 0] + [
                0x2C, 0, 0, 0, 0, 1, 0, 0xFF, 0xFF, 0, 2, 2, 0x44, 1, 0, 0x3B,
            ]
        let info = try ImageDecoder.inspect(gif, name: "tall.gif")
        XCTAssertEqual([info.width, info.height], [65_535, 1])
        XCTAssertLessThan(ImageDecoder.decodeMemory(info, gif, spec: ThumbnailSpec(side: 256)), 8 << 20)
    }

    /// The file's bytes count against the shared budget before it is read: a decode waiting
    /// for memory asks for at least the file's size, and waits its turn.
    func testAFileIsReadOnlyOnceItsBytesFitTheBudget() throws {
        let dir = try ScratchFolder("budget-first")
        let path = dir.file("a.jpg")
        try SamplePhotos.writeJPEG(SamplePhotos.render(width: 640, height: 480, seed: 1), to: path)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let budget = DecodeMemory(limit: 1000)
        budget.acquire(1000)  // all of it, held by "another worker"
        let done = Locked(false)
        let worker = Thread {
            _ = try? ImageDecoder.thumbnail(path: path, spec: ThumbnailSpec(side: 64), memory: budget)
            done.withLock { $0 = true }
        }
        worker.start()
        let deadline = MonotonicClock.seconds() + 60
        while budget.waitingBytes.isEmpty && MonotonicClock.seconds() < deadline { usleep(1000) }
        let asked = try XCTUnwrap(budget.waitingBytes.first)
        // The file, a row at 1/4 (160 px), the resampler's two rows of float column sums (as wide
        // as that row) and the 85×64 thumbnail.
        XCTAssertEqual(
            asked, size + 160 * 4 + 2 * 16 * 160 + 85 * 64 * 4,
            "the file and the decode's memory, asked for before the read")
        XCTAssertFalse(done.withLock { $0 })
        budget.release(1000)
        while !done.withLock({ $0 }) && MonotonicClock.seconds() < deadline { usleep(1000) }
        XCTAssertTrue(done.withLock { $0 })
    }

    /// Memory is handed out first come, first served: a small request that would fit waits
    /// behind a large one that came first, so large decodes are never starved.
    func testTheBudgetServesRequestsInTheOrderTheyCame() {
        let budget = DecodeMemory(limit: 100)
        budget.acquire(60)
        let order = Locked<[String]>([])
        let large = Thread {
            budget.acquire(80)
            order.withLock { $0.append("large") }
            usleep(50_000)
            budget.release(80)
        }
        large.start()
        let deadline = MonotonicClock.seconds() + 60
        while budget.waitingBytes.count < 1 && MonotonicClock.seconds() < deadline { usleep(1000) }
        let small = Thread {
            budget.acquire(30)
            order.withLock { $0.append("small") }
            budget.release(30)
        }
        small.start()
        while budget.waitingBytes.count < 2 && order.withLock({ $0.isEmpty }) && MonotonicClock.seconds() < deadline {
            usleep(1000)
        }
        usleep(50_000)
        XCTAssertEqual(order.withLock { $0 }, [], "30 fits beside 60, but the 80 asked first")
        budget.release(60)
        while order.withLock({ $0.count }) < 2 && MonotonicClock.seconds() < deadline { usleep(1000) }
        XCTAssertEqual(order.withLock { $0 }, ["large", "small"])
    }

    /// A region of a photo decodes to the same pixels as that part of the whole decode, upright
    /// whatever the EXIF orientation: the decoder crops the stored image where the upright
    /// rectangle lies.
    func testARegionIsThatPartOfTheWholePhotoUprightInEveryOrientation() throws {
        let dir = try ScratchFolder("regions")
        let source = SamplePhotos.render(width: 320, height: 200, seed: 9)
        for orientation in 1...8 {
            let jpeg = try SamplePhotos.jpegData(source, quality: 95)
            let path = dir.file("o\(orientation).jpg")
            try SamplePhotos.write(
                try EXIFWriter.inserting(
                    CameraMetadata(
                        make: "a", model: "b", dateTimeOriginal: "2024:01:01 00:00:00",
                        orientation: orientation), into: jpeg), to: path)
            // upright, at 1:1
            let whole = try ImageDecoder.thumbnail(path: path, spec: ThumbnailSpec(side: 4000)).pixels
            let region = ImageRegion(x: 40, y: 24, width: 64, height: 48)
            let part = try ImageDecoder.region(path: path, region)
            XCTAssertEqual([part.width, part.height], [64, 48], "orientation \(orientation)")
            var crop = [UInt8](repeating: 0, count: 64 * 48 * 4)
            for y in 0..<48 {
                let from = ((24 + y) * whole.width + 40) * 4
                crop.replaceSubrange((y * 64 * 4)..<((y + 1) * 64 * 4), with: whole.bytes[from..<(from + 64 * 4)])
            }
            XCTAssertLessThan(
                meanDifference(part, PixelBuffer(width: 64, height: 48, bytes: crop)), 3, "orientation \(orientation)")
        }
        XCTAssertThrowsError(
            try ImageDecoder.region(path: dir.file("o1.jpg"), ImageRegion(x: 300, y: 0, width: 64, height: 64)),
            "a region past the edge is refused")
    }
}
