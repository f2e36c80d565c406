import CSDL2
import XCTest

@testable import Imaging
@testable import Render2D

/// PNGs decoded row by row through libpng (`ImageDecoder.decodePNGRows`) against SDL2_image's
/// whole-image decode, in every colour type a camera folder or a screenshot tool writes.
final class PNGRowsTests: XCTestCase {
    /// A PNG of `width`×`height` with `channels` samples of `depth` bits a pixel (colour type
    /// `type`), its rows from `sample(x, y, channel)`, unfiltered; `chunks` go before the data.
    private func png(
        width: Int, height: Int, type: UInt8, depth: UInt8 = 8, channels: Int, interlaced: Bool = false,
        chunks: [(String, [UInt8])] = [], sample: (Int, Int, Int) -> Int
    ) -> [UInt8] {
        func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        func chunk(_ name: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(name.utf8) + data
            return be32(data.count) + body + be32(Int(crc32(0, body, UInt32(body.count))))
        }
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            var bits = 0, accumulator = 0
            for x in 0..<width {
                for c in 0..<channels {
                    let v = sample(x, y, c)
                    if depth == 16 {
                        raw += [UInt8(v >> 8), UInt8(v & 255)]
                    } else {
                        accumulator = accumulator << Int(depth) | v
                        bits += Int(depth)
                        if bits == 8 {
                            raw.append(UInt8(accumulator))
                            (bits, accumulator) = (0, 0)
                        }
                    }
                }
            }
            if bits > 0 { raw.append(UInt8(accumulator << (8 - bits))) }
        }
        var packed = [UInt8](repeating: 0, count: Int(compressBound(UInt(raw.count))))
        var size = UInt(packed.count)
        XCTAssertEqual(compress2(&packed, &size, raw, UInt(raw.count), 6), Z_OK)
        let header = be32(width) + be32(height) + [depth, type, 0, 0, interlaced ? 1 : 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunks.flatMap { chunk($0.0, $0.1) } + chunk("IDAT", Array(packed.prefix(Int(size)))) + chunk("IEND", [])
    }

    private func noise(_ x: Int, _ y: Int, _ c: Int) -> Int { (x &* 73 &+ y &* 151 &+ c &* 41 &+ x * y) & 255 }

    /// The thumbnail of `bytes` through libpng's rows and through SDL2_image, at a size that
    /// resamples (within 1 of each other) and at one that does not (the same bytes).
    private func assertMatchesSDLImage(
        _ bytes: [UInt8], _ what: String, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let info = try ImageDecoder.inspect(bytes, name: what)
        for spec in [ThumbnailSpec(side: 9, fill: false), ThumbnailSpec(side: 500)] {
            let rows = try XCTUnwrap(try ImageDecoder.decodePNGRows(bytes, info: info, spec: spec), what)
            let whole = try ImageDecoder.decodeWithSDLImage(bytes, info: info)
            let target = ImageDecoder.targetSize(width: whole.width, height: whole.height, spec: spec)
            let reference =
                target.width < whole.width
                ? ImageDecoder.resample(whole, width: target.width, height: target.height) : whole
            XCTAssertEqual(
                [rows.width, rows.height], [reference.width, reference.height], what, file: file, line: line)
            let worst = zip(rows.bytes, reference.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(
                worst, target.width < whole.width ? 1 : 0, "\(what) at \(spec)", file: file, line: line)
        }
    }

    func testEveryColourTypeMatchesSDLImage() throws {
        let (w, h) = (37, 23)
        try assertMatchesSDLImage(png(width: w, height: h, type: 6, channels: 4, sample: noise), "RGBA")
        try assertMatchesSDLImage(png(width: w, height: h, type: 2, channels: 3, sample: noise), "RGB")
        try assertMatchesSDLImage(png(width: w, height: h, type: 0, channels: 1, sample: noise), "grey")
        try assertMatchesSDLImage(png(width: w, height: h, type: 4, channels: 2, sample: noise), "grey and alpha")
        try assertMatchesSDLImage(
            png(width: w, height: h, type: 2, depth: 16, channels: 3) { noise($0, $1, $2) * 257 }, "16-bit RGB")
        try assertMatchesSDLImage(
            png(width: w, height: h, type: 0, depth: 2, channels: 1) { noise($0, $1, $2) & 3 }, "2-bit grey")
        // 16 colours, 4 bits a pixel, colours 0 and 1 see-through (tRNS).
        let palette: [UInt8] = (0..<16).flatMap { (i: Int) -> [UInt8] in
            [UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 5)]
        }
        try assertMatchesSDLImage(
            png(width: w, height: h, type: 3, depth: 4, channels: 1, chunks: [("PLTE", palette), ("tRNS", [0, 128])]) {
                noise($0, $1, $2) & 15
            }, "palette with transparency")
        // RGB whose black is see-through (tRNS names one colour).
        try assertMatchesSDLImage(
            png(width: w, height: h, type: 2, channels: 3, chunks: [("tRNS", [0, 0, 0, 0, 0, 0])]) {
                ($0 + $1) % 3 == 0 ? 0 : noise($0, $1, $2) | 1
            }, "RGB with a see-through colour")
        // An opaque RGBA image and one whose rows alternate opaque and see-through (the resampler
        // weights each row by alpha or not, row by row).
        try assertMatchesSDLImage(
            png(width: w, height: h, type: 6, channels: 4) { $2 == 3 ? 255 : noise($0, $1, $2) }, "opaque RGBA")
        try assertMatchesSDLImage(
            png(width: w, height: h, type: 6, channels: 4) {
                $2 == 3 ? ($1 % 2 == 0 ? 255 : $0 * 7) : noise($0, $1, $2)
            },
            "alternating rows")
    }

    func testAnInterlacedPNGIsLeftToSDLImage() throws {
        // 1×1, Adam7: only the first pass has a pixel.
        let colour = [200, 10, 90]
        let bytes = png(width: 1, height: 1, type: 2, channels: 3, interlaced: true) { colour[$2] + $0 + $1 }
        let info = try ImageDecoder.inspect(bytes, name: "interlaced.png")
        XCTAssertNil(try ImageDecoder.decodePNGRows(bytes, info: info, spec: ThumbnailSpec(side: 1)))
        let thumbnail = try ImageDecoder.thumbnail(bytes: bytes, name: "interlaced.png", spec: ThumbnailSpec(side: 1))
        XCTAssertEqual(thumbnail.pixels.pixel(x: 0, y: 0), Color(r: 200, g: 10, b: 90, a: 255))
    }

    func testDamagedImageDataIsAnErrorNotAPicture() throws {
        var bytes = png(width: 40, height: 30, type: 2, channels: 3, sample: noise)
        let data = try XCTUnwrap(bytes.indices.first { bytes[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
        for i in (data + 10)..<(data + 40) { bytes[i] ^= 0x5A }  // the compressed rows, not their length
        let info = try ImageDecoder.inspect(bytes, name: "damaged.png")
        XCTAssertThrowsError(try ImageDecoder.decodePNGRows(bytes, info: info, spec: ThumbnailSpec(side: 10)))
        // A header that says another size than the one inspected is refused too.
        let other = ImageInfo(format: .png, width: 41, height: 30, orientation: 1)
        XCTAssertThrowsError(try ImageDecoder.decodePNGRows(bytes, info: other, spec: ThumbnailSpec(side: 10)))
        // So is one past what a decode may hold, before anything is converted for libpng.
        let huge = ImageInfo(format: .png, width: 3_000_000_000, height: 1, orientation: 1)
        XCTAssertThrowsError(try ImageDecoder.decodePNGRows(bytes, info: huge, spec: ThumbnailSpec(side: 10)))
    }

    /// A PNG decoded by rows reserves a row of its pixels, an interlaced one all of them.
    func testOnlyAnInterlacedPNGReservesItsWholeImage() throws {
        for interlaced in [false, true] {
            let bytes = png(width: 2000, height: 1000, type: 0, channels: 1, interlaced: interlaced) { _, _, _ in 7 }
            let info = try ImageDecoder.inspect(bytes, name: "large.png")
            let reserved = ImageDecoder.decodeMemory(info, bytes, spec: ThumbnailSpec(side: 100))
            // Besides the thumbnail (200×100) and the resampler's two rows of float column sums: a
            // row, or all 2000×1000.
            let thumbnail = 200 * 100 * 4 + 2 * 2000 * 16
            XCTAssertEqual(reserved - thumbnail, interlaced ? 2000 * 1000 * 4 : 2000 * 4, "interlaced: \(interlaced)")
        }
    }
}
