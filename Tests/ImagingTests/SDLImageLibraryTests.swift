import Foundation
import XCTest

@testable import Imaging
@testable import Render2D

/// SDL2_image is opened when an image first needs it, never linked into the process at start.
final class SDLImageLibraryTests: XCTestCase {
    /// A 24-bit BMP of `width` × `height` whose pixel (x, y) has `color(x, y)` as (r, g, b).
    private func bmp(width: Int, height: Int, color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: v >> $0) } }
        func le16(_ v: Int) -> [UInt8] { [0, 8].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let stride = (width * 3 + 3) / 4 * 4
        var rows: [UInt8] = []
        for y in (0..<height).reversed() {  // bottom-up
            var row: [UInt8] = []
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                row += [b, g, r]
            }
            rows += row + [UInt8](repeating: 0, count: stride - row.count)
        }
        let header =
            le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + le32(0) + le32(rows.count)
            + le32(2835) + le32(2835) + le32(0) + le32(0)
        return Array("BM".utf8) + le32(14 + header.count + rows.count) + le32(0) + le32(14 + header.count) + header
            + rows
    }

    func testTheProcessDoesNotLinkSDL2ImageAndTheFirstBMPOpensIt() throws {
        // What the loader maps at start: the test runner's own libraries (ldd, from libc-bin).
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [executable]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let linked = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        XCTAssertTrue(linked.contains("libSDL2-2.0"), "ldd listed the libraries: \(linked.prefix(200))")
        XCTAssertFalse(linked.contains("libSDL2_image"), "SDL2_image is not linked: \(linked)")
        XCTAssertFalse(linked.contains("libtiff"), "nor what it brings along")

        let bytes = bmp(width: 6, height: 4) { x, y in (UInt8(40 * x), UInt8(60 * y), 200) }
        let decoded = try ImageDecoder.thumbnail(bytes: bytes, name: "small.bmp", spec: ThumbnailSpec(side: 64))
        XCTAssertEqual([decoded.pixels.width, decoded.pixels.height], [6, 4])
        XCTAssertEqual(Array(decoded.pixels.bytes[0..<4]), [0, 0, 200, 255], "(0, 0) as written")
        let last = (3 * 6 + 5) * 4
        XCTAssertEqual(Array(decoded.pixels.bytes[last..<(last + 4)]), [200, 180, 200, 255], "(5, 3) as written")
        // (Read in chunks to its end: /proc's files give their size as 0.)
        let maps = String(decoding: try RegularFile.read("/proc/self/maps", maxBytes: 64 << 20), as: UTF8.self)
        XCTAssertTrue(maps.contains("/libSDL2_image-2.0.so"), "a BMP opened SDL2_image")
    }

    func testALibraryThatCannotBeOpenedOrIsNotSDL2ImageIsAClearError() {
        guard case .failure(let absent) = SDLImageLibrary.open("libSDL2_image-absent.so.0") else {
            return XCTFail("no such library")
        }
        XCTAssertTrue(absent.description.contains("libSDL2_image-absent.so.0"), absent.description)
        XCTAssertTrue(absent.description.contains("install libsdl2-image-2.0-0"), absent.description)
        guard case .failure(let other) = SDLImageLibrary.open("libz.so.1") else {
            return XCTFail("zlib is not SDL2_image")
        }
        XCTAssertEqual(other.description, "libz.so.1 is not SDL2_image: it has no IMG_LoadTyped_RW")
    }
}
