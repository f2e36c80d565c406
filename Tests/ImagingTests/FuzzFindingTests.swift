import XCTest
import Foundation
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Every input a fuzzer found (`scripts/fuzz.sh`) stays fixed: each file in `Findings/` is
/// decoded as `FuzzThumbnail` decodes its inputs (the first byte picks the name's extension
/// and fill), and must give a thumbnail or a clear error, never a trap or a runaway allocation.
final class FuzzFindingTests: XCTestCase {
    private var findings: String { (#filePath as NSString).deletingLastPathComponent + "/Findings" }

    private func decode(_ input: [UInt8]) throws -> DecodedThumbnail {
        let name = ["x.jpg", "x.png", "x.tga", "x.bmp"][Int(input[0] & 3)]
        return try ImageDecoder.thumbnail(
            bytes: Array(input.dropFirst()), name: name, spec: ThumbnailSpec(side: 48, fill: input[0] & 4 != 0))
    }

    func testEveryFindingDecodesOrIsRefused() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: findings).sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let input = Array(try Data(contentsOf: URL(fileURLWithPath: findings + "/" + file)))
            guard input.count > 1 else { continue }
            if let thumb = try? decode(input) {
                XCTAssertEqual(thumb.pixels.bytes.count, thumb.pixels.width * thumb.pixels.height * 4, file)
            }
        }
    }

    func testAStrayByteBeforeAHugeGIFFrameDoesNotHideIt() throws {
        // Found by FuzzThumbnail: SDL2_image skips the stray byte and allocated 2.1 GB for the frame.
        let input = Array(
            try Data(contentsOf: URL(fileURLWithPath: findings + "/gif-stray-byte-before-huge-frame.bin")))
        // Refused by the header, before the decoder allocates (not after, by the surface's size).
        XCTAssertThrowsError(try ImageDecoder.inspect(Array(input.dropFirst()), name: "x.gif")) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 23170, height: 23170))
        }
        XCTAssertThrowsError(try decode(input))
    }

    func testAGIFWhoseDataCoversFewPixelsOfAHugeFrameIsTruncatedNotDrawn() throws {
        // Found by FuzzThumbnail (12 s under ASan): a 1×1 screen, a 1279×54484 frame, 385 bytes.
        let input = Array(try Data(contentsOf: URL(fileURLWithPath: findings + "/gif-short-data-huge-frame-slow.bin")))
        XCTAssertEqual(ImageDecoder.gifFirstFrameSize(Array(input.dropFirst()))?.height, 54484)
        XCTAssertThrowsError(try decode(input)) { XCTAssertEqual($0 as? ImageError, .truncated) }
    }
}
