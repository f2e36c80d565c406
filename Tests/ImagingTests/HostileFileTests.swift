import XCTest
import Foundation
import TestSupport
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Files that lie or are not files: each is refused with a clear error, promptly, without a
/// trap, a hang or an allocation the size of what a header claims.
final class HostileFileTests: XCTestCase {
    /// Runs `body` on a thread and fails (instead of hanging the suite) when it takes over `seconds`.
    private func finishes<T: Sendable>(
        within seconds: Double, _ body: @escaping @Sendable () -> T,
        file: StaticString = #filePath, line: UInt = #line
    ) -> T? {
        let result = Locked<T?>(nil)
        let thread = Thread {
            let value = body()
            result.withLock { $0 = value }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let value = result.withLock({ $0 }) { return value }
            usleep(2_000)
        }
        XCTFail("did not finish within \(seconds) s (hung)", file: file, line: line)
        return nil
    }

    private func error(decoding path: String) -> ImageError? {
        finishes(within: 5) { () -> ImageError? in
            do throws(ImageError) {
                _ = try ImageDecoder.thumbnail(path: path, spec: ThumbnailSpec(side: 64))
                return nil
            } catch { return error }
        } ?? nil
    }

    /// A PNG signature and an IHDR claiming `width`×`height` (24 bytes).
    private static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be(width)
            + be(height)
    }

    func testAHeaderWhoseDimensionsOverflowIsRefusedNotTrapped() throws {
        let dir = try ScratchFolder("hostile-dims")
        try SamplePhotos.write(Self.pngHeader(width: .max, height: .max), to: dir.file("x.png"))
        XCTAssertEqual(error(decoding: dir.file("x.png")), .tooLarge(width: 4_294_967_295, height: 4_294_967_295))
        try SamplePhotos.write(Self.pngHeader(width: 20_000, height: 20_000), to: dir.file("big.png"))
        XCTAssertEqual(error(decoding: dir.file("big.png")), .tooLarge(width: 20_000, height: 20_000))
        XCTAssertThrowsError(
            try ImageDecoder.thumbnail(
                bytes: Self.pngHeader(width: 1 << 31, height: 1 << 31), name: "m.png",
                spec: ThumbnailSpec(side: 64)))
    }

    func testAFIFOASocketAndAFolderNamedLikePhotosAreRefusedWithoutBlocking() throws {
        let dir = try ScratchFolder("hostile-special")
        XCTAssertEqual(mkfifo(dir.file("x.jpg"), 0o644), 0)
        XCTAssertEqual(
            error(decoding: dir.file("x.jpg")), .unreadable("a FIFO, not a file"),
            "no writer: open would block for ever")
        XCTAssertThrowsError(try ImageDecoder.readHeader(dir.file("x.jpg")))
        try FileManager.default.createDirectory(atPath: dir.file("album.jpg"), withIntermediateDirectories: true)
        XCTAssertEqual(error(decoding: dir.file("album.jpg")), .unreadable("a folder, not a file"))
        XCTAssertEqual(error(decoding: "/dev/zero"), .unreadable("a device, not a file"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("link.jpg"), withDestinationPath: dir.file("x.jpg"))
        XCTAssertEqual(
            error(decoding: dir.file("link.jpg")), .unreadable("a FIFO, not a file"), "a link to a FIFO is a FIFO")
    }

    func testAHugeOrSparseFileIsRefusedBeforeItIsRead() throws {
        let dir = try ScratchFolder("hostile-size")
        // 1 TB of holes: refused by its size, nothing read.
        XCTAssertTrue(FileManager.default.createFile(atPath: dir.file("big.jpg"), contents: nil))
        XCTAssertEqual(truncate(dir.file("big.jpg"), 1 << 40), 0)
        XCTAssertEqual(error(decoding: dir.file("big.jpg")), .fileTooLarge(bytes: 1 << 40))
        // 300 MB (under the cap) whose header claims 60000×60000: refused after the header,
        // before the other 300 MB are read.
        let header = Self.pngHeader(width: 60_000, height: 60_000)
        try SamplePhotos.write(header, to: dir.file("claims.png"))
        XCTAssertEqual(truncate(dir.file("claims.png"), 300 << 20), 0)
        let start = Date()
        XCTAssertEqual(error(decoding: dir.file("claims.png")), .tooLarge(width: 60_000, height: 60_000))
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "the rest was not read")
    }

    func testAGIFWhoseFirstFrameIsHugeIsRefused() throws {
        // A 1×1 screen, no color table, and a 23170×23170 image descriptor.
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        gif += [0x21, 0xF9, 4, 0, 0, 0, 0, 0]  // a graphic control extension first
        gif += [0x2C, 0, 0, 0, 0, 0x82, 0x5A, 0x82, 0x5A, 0] + [2, 2, 0x4C, 0x01, 0, 0x3B]
        XCTAssertEqual(ImageDecoder.gifFirstFrameSize(gif)?.width, 23170)
        XCTAssertThrowsError(try ImageDecoder.inspect(gif, name: "bomb.gif")) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 23170, height: 23170))
        }
        XCTAssertThrowsError(try ImageDecoder.thumbnail(bytes: gif, name: "bomb.gif", spec: ThumbnailSpec(side: 64)))
    }

    func testAGIFOrTGACutShortIsTruncatedNotDrawnWithMissingRows() throws {
        for (ext, bytes) in try HostileFolder.goodFiles() where ext == "gif" || ext == "tga" {
            XCTAssertNoThrow(try ImageDecoder.thumbnail(bytes: bytes, name: "x.\(ext)", spec: ThumbnailSpec(side: 64)))
            for cut in [bytes.count / 2, bytes.count - 2] {
                XCTAssertThrowsError(
                    try ImageDecoder.thumbnail(
                        bytes: Array(bytes.prefix(cut)), name: "x.\(ext)", spec: ThumbnailSpec(side: 64))
                ) {
                    XCTAssertEqual($0 as? ImageError, .truncated, "\(ext) cut at \(cut) of \(bytes.count)")
                }
            }
        }
    }

    func testTheJPEGSegmentWalkSkipsStuffedZerosAsLibjpegDoes() {
        // SOI, a stray FF 00 (not a marker: no length follows), then SOF0 for 32×16.
        let jpeg: [UInt8] = [
            0xFF, 0xD8, 0xFF, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x20, 0x03, 0, 0, 0, 0, 0, 0, 0, 0,
            0,
        ]
        XCTAssertEqual(ImageDecoder.jpegSize(jpeg)?.width, 32)
        XCTAssertEqual(ImageDecoder.jpegSize(jpeg)?.height, 16)
    }

    func testAnOS2CoreHeaderBMPHasSixteenBitDimensions() throws {
        // BITMAPCOREHEADER: size 12, then 16-bit width 40 and height 30.
        var bmp = Array("BM".utf8) + [UInt8](repeating: 0, count: 12)
        bmp += [12, 0, 0, 0, 40, 0, 30, 0, 1, 0, 24, 0] + [UInt8](repeating: 0, count: 20)
        let info = try ImageDecoder.inspect(bmp, name: "core.bmp")
        XCTAssertEqual(info.width, 40)
        XCTAssertEqual(info.height, 30, "not the next field's bytes read as a 32-bit height")
    }

    func testDecodesWaitForMemoryBeyondTheSharedBudget() {
        let budget = DecodeMemory(limit: 100)
        budget.acquire(60)
        let second = Locked(false)
        let thread = Thread {
            budget.acquire(60)
            second.withLock { $0 = true }
            budget.release(60)
        }
        thread.start()
        usleep(100_000)
        XCTAssertFalse(second.withLock { $0 }, "60 + 60 is over 100: the second waits")
        budget.release(60)
        let deadline = Date().addingTimeInterval(60)  // generous: sanitizers and busy machines
        while !second.withLock({ $0 }) && Date() < deadline { usleep(1_000) }
        XCTAssertTrue(second.withLock { $0 }, "and runs once the first is done")
        XCTAssertEqual(budget.peakBytes, 60)
        budget.acquire(500)  // larger than the whole budget: runs alone rather than never
        budget.release(500)
    }
}
