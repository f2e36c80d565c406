import XCTest
import Foundation
@testable import Render2D
@testable import Imaging
@testable import Profiling
@testable import DemoSupport

/// Our GIF decoder against SDL2_image's on valid files (Pillow made them: 256 colors over
/// 4096 LZW codes, interlaced, transparent), and on damaged ones, where it stops cleanly.
final class GIFDecoderTests: XCTestCase {
    private func fixture(_ name: String) throws -> [UInt8] {
        Array(
            try Data(
                contentsOf: URL(
                    fileURLWithPath: (#filePath as NSString).deletingLastPathComponent + "/Fixtures/" + name)))
    }

    func testValidGIFsDecodeAsSDLImageDecodesThem() throws {
        for name in ["noise256.gif", "interlaced16.gif", "transparent2.gif"] {
            let bytes = try fixture(name)
            let ours = try GIFDecoder.firstImage(bytes)
            let info = try ImageDecoder.inspect(bytes, name: name)
            let theirs = try ImageDecoder.decodeWithSDLImage(bytes, info: info)
            XCTAssertEqual([ours.width, ours.height], [theirs.width, theirs.height], name)
            var differing = 0
            for p in 0..<(ours.width * ours.height) {
                let o = p * 4
                let a = Array(ours.bytes[o..<(o + 4)]), b = Array(theirs.bytes[o..<(o + 4)])
                if a[3] != b[3] || (a[3] == 255 && a[0..<3] != b[0..<3]) { differing += 1 }
            }
            XCTAssertEqual(differing, 0, "\(name): every pixel as SDL2_image has it")
        }
        let transparent = try GIFDecoder.firstImage(try fixture("transparent2.gif"))
        XCTAssertEqual(Array(transparent.bytes[0..<4]), [0, 0, 255, 255], "(0,0) is color 1: blue")
        XCTAssertEqual(transparent.bytes[7], 0, "(1,0) is color 0, the transparent one")
    }

    func testDamagedGIFsStopCleanly() throws {
        let bytes = try fixture("noise256.gif")
        for cut in stride(from: 13, to: bytes.count, by: 97) {
            if let image = try? GIFDecoder.firstImage(Array(bytes.prefix(cut))) {
                XCTAssertEqual(image.bytes.count, image.width * image.height * 4)
            }
        }
        var scrambled = bytes
        for k in stride(from: 800, to: scrambled.count, by: 13) { scrambled[k] ^= 0x5A }
        if let image = try? GIFDecoder.firstImage(scrambled) { XCTAssertEqual(image.width, 160) }
        // Codes past the table, an end code first, a code size of 12: no image or part of one, no trap.
        XCTAssertTrue(GIFDecoder.decodeLZW([0xFF, 0xFF, 0xFF, 0xFF], minimumCodeSize: 2, count: 100).count <= 100)
        XCTAssertEqual(GIFDecoder.decodeLZW([0x05], minimumCodeSize: 2, count: 100), [])
        XCTAssertTrue(
            GIFDecoder.decodeLZW([UInt8](repeating: 0xAB, count: 10_000), minimumCodeSize: 11, count: 50_000).count
                <= 50_000)
    }

    func testTheSDLImageCrashInputIsDecodedSafely() throws {
        let finding = Array(
            try Data(
                contentsOf: URL(
                    fileURLWithPath: (#filePath as NSString).deletingLastPathComponent
                        + "/Findings/gif-sdl-image-segv.bin")))
        // Whatever it holds, our decoder reads it within bounds (SDL2_image 2.6 wrote out of them).
        if let image = try? ImageDecoder.thumbnail(
            bytes: Array(finding.dropFirst()), name: "x.gif", spec: ThumbnailSpec(side: 48))
        {
            XCTAssertEqual(image.pixels.bytes.count, image.pixels.width * image.pixels.height * 4)
        }
    }
}
