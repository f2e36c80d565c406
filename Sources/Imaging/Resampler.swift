import Render2D

/// An area-averaging downscale fed one input row at a time, top to bottom: each output pixel
/// is the coverage-weighted mean of the input pixels under it, alpha-weighted so transparent
/// pixels do not darken edges. It holds two input-wide rows of floats, so a large image need
/// not be in memory whole (a PNG's rows go in as libpng decodes them).
///
/// Each input row is added, weighted by its coverage, to the column sums of the (at most two)
/// output rows it lies under: one multiply-add a pixel, none depending on another, so the work
/// an input pixel costs does not wait on the pixel before. Once an output row's last input row
/// is in, its column sums are averaged across, once, and written out as bytes.
///
/// ```swift
/// var resampler = Resampler(from: (1920, 1280), to: (308, 205), opaque: false)
/// for row in rows { resampler.add(row: row) }  // 1,280 rows of 1,920 RGBA pixels
/// let thumbnail = resampler.finish()
/// ```
struct Resampler {
    private let sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
    private let xs: AreaSpans, ys: AreaSpans
    /// Whether every row is opaque: the sums then hold plain colours, otherwise premultiplied ones.
    private let opaque: Bool
    /// The column sums of the output rows being summed: row `y` in slot `y % 2`, input-wide.
    private var columns: [SIMD4<Float>]
    private var out: [UInt8]
    private var rowsIn = 0
    /// The first output row not written yet.
    private var nextOut = 0

    /// The bytes a resampler from a `sourceWidth`-wide image holds besides its output.
    static func workingBytes(sourceWidth: Int) -> Int { 2 * sourceWidth * MemoryLayout<SIMD4<Float>>.stride }

    /// A resampler from `from` to `to` pixels (each at least 1); `opaque` when every row will be.
    init(from: (width: Int, height: Int), to: (width: Int, height: Int), opaque: Bool) {
        (sourceWidth, sourceHeight) = (max(1, from.width), max(1, from.height))
        (width, height) = (max(1, to.width), max(1, to.height))
        xs = AreaSpans(from: sourceWidth, to: width)
        ys = AreaSpans(from: sourceHeight, to: height)
        self.opaque = opaque
        columns = Array(repeating: .zero, count: 2 * sourceWidth)
        out = Array(repeating: 0, count: width * height * 4)
    }

    /// Adds the next input row: `sourceWidth` RGBA pixels. Rows past the last are ignored.
    mutating func add(row: UnsafePointer<UInt8>) {
        let i = rowsIn
        guard i < sourceHeight else { return }
        rowsIn += 1
        // A row without transparency skips the alpha weighting; in an image that has some, its
        // colours are scaled to premultiplied (alpha 255) through the weights.
        let plain = opaque || Self.isOpaque(row, count: sourceWidth)
        let premultiply: SIMD4<Float> = opaque ? .one : SIMD4(255, 255, 255, 1)
        let count = sourceWidth
        // The (at most two) output rows this row lies under, each with its coverage.
        var y = nextOut
        while y < height && ys.starts[y] <= i {
            let first = ys.offsets[y], taps = ys.offsets[y + 1] - first, tap = i - ys.starts[y]
            if tap < taps {
                let weight = ys.weights[first + tap], slot = (y % 2) * count
                columns.withUnsafeMutableBufferPointer { columns in
                    let sums = UnsafeMutableBufferPointer(rebasing: columns[slot..<slot + count])
                    if plain {
                        Self.accumulate(row, into: sums, scale: premultiply * weight, first: tap == 0)
                    } else {
                        Self.accumulatePremultiplied(row, into: sums, weight: weight, first: tap == 0)
                    }
                }
                if tap == taps - 1 {
                    write(y)
                    nextOut = y + 1
                }
            }
            y += 1
        }
    }

    /// `sums[x] = pixel × scale` (`first`) or `sums[x] += pixel × scale`, for each pixel of `row`.
    @inline(__always)
    private static func accumulate(
        _ row: UnsafePointer<UInt8>, into sums: UnsafeMutableBufferPointer<SIMD4<Float>>, scale: SIMD4<Float>,
        first: Bool
    ) {
        let pixels = UnsafeRawPointer(row)
        if first {
            for x in 0..<sums.count { sums[x] = pixel(pixels, x) * scale }
        } else {
            for x in 0..<sums.count { sums[x] += pixel(pixels, x) * scale }
        }
    }

    /// As `accumulate`, each colour weighted by its pixel's alpha (premultiplied).
    @inline(__always)
    private static func accumulatePremultiplied(
        _ row: UnsafePointer<UInt8>, into sums: UnsafeMutableBufferPointer<SIMD4<Float>>, weight: Float, first: Bool
    ) {
        let pixels = UnsafeRawPointer(row)
        for x in 0..<sums.count {
            let p = pixel(pixels, x)
            let weighted = SIMD4(p.x, p.y, p.z, 1) * (p.w * weight)
            sums[x] = first ? weighted : sums[x] + weighted
        }
    }

    @inline(__always)
    private static func pixel(_ pixels: UnsafeRawPointer, _ x: Int) -> SIMD4<Float> {
        SIMD4<Float>(pixels.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt8>.self))
    }

    /// The output: rows whose input rows did not all come stay transparent black.
    consuming func finish() -> PixelBuffer { PixelBuffer(width: width, height: height, bytes: out) }

    /// Averages output row `y`'s column sums across and writes them out as bytes.
    private mutating func write(_ y: Int) {
        let (width, opaque, slot) = (self.width, self.opaque, (y % 2) * sourceWidth)
        columns.withUnsafeBufferPointer { columns in
            xs.starts.withUnsafeBufferPointer { starts in
                xs.offsets.withUnsafeBufferPointer { offsets in
                    xs.weights.withUnsafeBufferPointer { weights in
                        out.withUnsafeMutableBytes { out in
                            var k = 0
                            for x in 0..<width {
                                let end = offsets[x &+ 1]
                                var at = slot &+ starts[x], v = SIMD4<Float>.zero
                                while k < end {
                                    v += columns[at] * weights[k]
                                    at &+= 1
                                    k &+= 1
                                }
                                var c = opaque ? v : v * (v.w > 0 ? 1 / v.w : 0)
                                c.w = v.w
                                out.storeBytes(
                                    of: Self.bytes(c), toByteOffset: (y &* width &+ x) &* 4, as: SIMD4<UInt8>.self)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func isOpaque(_ row: UnsafePointer<UInt8>, count: Int) -> Bool {
        var alphas: UInt32 = 0xFF00_0000
        UnsafeRawPointer(row).withMemoryRebound(to: UInt32.self, capacity: count) { pixels in
            for x in 0..<count { alphas &= pixels[x] }  // RGBA in memory: alpha is the high byte
        }
        return alphas == 0xFF00_0000
    }

    /// Channels of 0 to 255 (and a rounding error over) to bytes, rounded to the nearest.
    /// Adding 1.5 × 2²³ leaves a float whose low mantissa bits are the rounded integer: no
    /// conversion a lane, no range check a lane.
    @inline(__always)
    private static func bytes(_ channels: SIMD4<Float>) -> SIMD4<UInt8> {
        let shifted = channels.replacing(with: 255, where: channels .> 255) + 12_582_912
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt32>.self))
    }
}

/// For each output index of an area-averaging resize from `from` to `to` samples: the first
/// input sample under it and the coverage of each input sample from there (summing to 1), in
/// one flat array (`weights[offsets[i]..<offsets[i + 1]]`).
struct AreaSpans {
    var starts: [Int] = []
    var offsets: [Int] = [0]
    var weights: [Float] = []

    init(from: Int, to: Int) {
        let ratio = Double(from) / Double(to)
        starts.reserveCapacity(to)
        offsets.reserveCapacity(to + 1)
        weights.reserveCapacity(to * (Int(ratio.rounded(.up)) + 1))
        for o in 0..<to {
            let a = Double(o) * ratio, b = min(Double(from), Double(o + 1) * ratio)
            let first = Int(a), last = min(from - 1, Int((b - 1e-9).rounded(.down)))
            starts.append(first)
            for i in first...max(first, last) {
                weights.append(Float((min(b, Double(i + 1)) - max(a, Double(i))) / ratio))
            }
            offsets.append(weights.count)
        }
    }
}
