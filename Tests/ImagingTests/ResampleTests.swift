import XCTest
@testable import Imaging
import Render2D

/// `ImageDecoder.resample` against a plain area average in doubles, opaque and translucent:
/// within one step of it.
final class ResampleTests: XCTestCase {
    /// Random pixels; the rows `opaqueRow` picks have alpha 255.
    private func image(width: Int, height: Int, opaqueRow: (Int) -> Bool) -> PixelBuffer {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[i] = UInt8(truncatingIfNeeded: state >> 56)
            if i % 4 == 3 && opaqueRow(i / (width * 4)) { bytes[i] = 255 }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    /// The area average of `src` at output (`ox`, `oy`), alpha-weighted, in doubles.
    private func reference(_ src: PixelBuffer, _ dw: Int, _ dh: Int, _ ox: Int, _ oy: Int) -> [Double] {
        let rx = Double(src.width) / Double(dw), ry = Double(src.height) / Double(dh)
        var sums = [Double](repeating: 0, count: 4)
        for y in 0..<src.height {
            let cy = max(0, min(Double(y + 1), Double(oy + 1) * ry) - max(Double(y), Double(oy) * ry))
            guard cy > 0 else { continue }
            for x in 0..<src.width {
                let cx = max(0, min(Double(x + 1), Double(ox + 1) * rx) - max(Double(x), Double(ox) * rx))
                guard cx > 0 else { continue }
                let p = src.pixel(x: x, y: y), w = cx * cy, alpha = Double(p.a) * w
                sums[0] += Double(p.r) * alpha
                sums[1] += Double(p.g) * alpha
                sums[2] += Double(p.b) * alpha
                sums[3] += alpha
            }
        }
        let a = sums[3]
        return [sums[0] / max(a, 1e-12), sums[1] / max(a, 1e-12), sums[2] / max(a, 1e-12), a / (rx * ry)]
    }

    private func assertMatchesReference(
        opaque: Bool, from: (width: Int, height: Int) = (97, 61), to: (width: Int, height: Int) = (40, 25),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let src = image(width: from.width, height: from.height) { opaque || $0 % 3 == 1 }
        XCTAssertEqual(src.isOpaque, opaque)
        let (dw, dh) = to
        let out = ImageDecoder.resample(src, width: dw, height: dh)
        var worst = 0.0
        for y in 0..<dh {
            for x in 0..<dw {
                let want = reference(src, dw, dh, x, y), got = out.pixel(x: x, y: y)
                let channels = [Double(got.r), Double(got.g), Double(got.b), Double(got.a)]
                for c in 0..<4 where want[3] > 0.5 || c == 3 { worst = max(worst, abs(channels[c] - want[c])) }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1.0, "largest difference from the area average", file: file, line: line)
        XCTAssertEqual(out.isOpaque, opaque, file: file, line: line)
    }

    func testOpaqueImagesAreTheAreaAverage() { assertMatchesReference(opaque: true) }

    /// Every third row of the translucent image is opaque: those rows skip the alpha weighting
    /// and must still add to the same premultiplied sums as the others.
    func testTranslucentImagesAreTheAlphaWeightedAreaAverage() { assertMatchesReference(opaque: false) }

    /// Only one side shrinks: the other's spans are one pixel each, of weight 1.
    func testImagesNarrowedOrShortenedOnlyAreTheAreaAverage() {
        for opaque in [true, false] {
            assertMatchesReference(opaque: opaque, from: (97, 25), to: (40, 25))
            assertMatchesReference(opaque: opaque, from: (40, 61), to: (40, 25))
        }
    }

    /// A uniform image stays that colour exactly, 0 and 255 included (the rounding to bytes has
    /// no range check a lane), whether the opaque or the alpha-weighted path averages it.
    func testUniformColoursComeOutExactly() {
        for colour in [
            Color(r: 0, g: 128, b: 255, a: 255), Color(r: 255, g: 3, b: 0, a: 77), Color(r: 9, g: 9, b: 9, a: 0),
        ] {
            let bytes = [UInt8]((0..<(97 * 61)).flatMap { _ in [colour.r, colour.g, colour.b, colour.a] })
            let out = ImageDecoder.resample(PixelBuffer(width: 97, height: 61, bytes: bytes), width: 40, height: 25)
            for y in 0..<25 {
                for x in 0..<40 {
                    let got = out.pixel(x: x, y: y)
                    // A fully transparent pixel has no colour to keep, only its alpha.
                    XCTAssertEqual(colour.a == 0 ? Color(r: 0, g: 0, b: 0, a: 0) : colour, got, "at \(x), \(y)")
                    if got != colour && colour.a != 0 { return }
                }
            }
        }
    }
}
