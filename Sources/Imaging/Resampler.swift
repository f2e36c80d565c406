import Render2D

/// An area-averaging downscale fed one input row at a time, top to bottom: each output pixel
/// is the coverage-weighted mean of the input pixels under it, alpha-weighted so transparent
/// pixels do not darken edges. It holds two output rows of floats, so a large image need not be
/// in memory whole (a PNG's rows go in as libpng decodes them).
///
/// Each input row is averaged across into an output-wide row of `SIMD4<Float>`, then added with
/// its weight to the (at most two) output rows it lies under; an output row is written out as
/// bytes once its last input row is in.
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
    private var across: [SIMD4<Float>]
    /// Output rows being summed: row `y` in slot `y % 2`.
    private var sums: [SIMD4<Float>]
    private var out: [UInt8]
    private var rowsIn = 0
    /// The first output row not written yet.
    private var nextOut = 0

    /// A resampler from `from` to `to` pixels (each at least 1); `opaque` when every row will be.
    init(from: (width: Int, height: Int), to: (width: Int, height: Int), opaque: Bool) {
        (sourceWidth, sourceHeight) = (max(1, from.width), max(1, from.height))
        (width, height) = (max(1, to.width), max(1, to.height))
        xs = AreaSpans(from: sourceWidth, to: width)
        ys = AreaSpans(from: sourceHeight, to: height)
        self.opaque = opaque
        across = Array(repeating: .zero, count: width)
        sums = Array(repeating: .zero, count: 2 * width)
        out = Array(repeating: 0, count: width * height * 4)
    }

    /// Adds the next input row: `sourceWidth` RGBA pixels. Rows past the last are ignored.
    mutating func add(row: UnsafePointer<UInt8>) {
        let i = rowsIn
        guard i < sourceHeight else { return }
        rowsIn += 1
        let (width, opaque) = (self.width, self.opaque)
        // A row without transparency skips the alpha weighting, then is scaled to premultiplied.
        let plain = opaque || Self.isOpaque(row, count: sourceWidth)
        across.withUnsafeMutableBufferPointer { across in
            xs.average(row: row, into: across, opaque: plain)
            if plain && !opaque {
                for x in 0..<width { across[x] *= SIMD4(255, 255, 255, 1) }
            }
        }
        var y = nextOut
        while y < height && ys.starts[y] <= i {
            let first = ys.offsets[y], taps = ys.offsets[y + 1] - first, tap = i - ys.starts[y]
            if tap < taps {
                let w = ys.weights[first + tap], slot = (y % 2) * width
                sums.withUnsafeMutableBufferPointer { sums in
                    across.withUnsafeBufferPointer { across in
                        if tap == 0 {
                            for x in 0..<width { sums[slot + x] = across[x] * w }
                        } else {
                            for x in 0..<width { sums[slot + x] += across[x] * w }
                        }
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

    /// The output: rows whose input rows did not all come stay transparent black.
    consuming func finish() -> PixelBuffer { PixelBuffer(width: width, height: height, bytes: out) }

    private mutating func write(_ y: Int) {
        let (width, opaque, slot) = (self.width, self.opaque, (y % 2) * self.width)
        sums.withUnsafeBufferPointer { sums in
            out.withUnsafeMutableBytes { out in
                for x in 0..<width {
                    let v = sums[slot + x]
                    var c = opaque ? v : v * (v.w > 0 ? 1 / v.w : 0)
                    c.w = v.w
                    out.storeBytes(of: Self.bytes(c), toByteOffset: (y * width + x) * 4, as: SIMD4<UInt8>.self)
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

    /// Averages the RGBA pixels of `row` (as wide as `from`) into `out` (as wide as `to`),
    /// premultiplied, alpha in the last lane; `opaque` (every alpha 255) skips the weighting by
    /// alpha, which then leaves each colour as it is.
    func average(row: UnsafePointer<UInt8>, into out: UnsafeMutableBufferPointer<SIMD4<Float>>, opaque: Bool) {
        let pixels = UnsafeRawPointer(row)
        func pixel(_ at: Int) -> SIMD4<Float> {
            SIMD4<Float>(pixels.loadUnaligned(fromByteOffset: at, as: SIMD4<UInt8>.self))
        }
        starts.withUnsafeBufferPointer { starts in
            offsets.withUnsafeBufferPointer { offsets in
                weights.withUnsafeBufferPointer { weights in
                    var k = 0
                    // Two loops, so that the opaque one has no branch and no alpha a tap.
                    if opaque {
                        for x in 0..<out.count {
                            let end = offsets[x &+ 1]
                            var at = starts[x] &* 4, sum = SIMD4<Float>.zero
                            while k < end {
                                sum += pixel(at) * weights[k]
                                at &+= 4
                                k &+= 1
                            }
                            out[x] = sum
                        }
                    } else {
                        for x in 0..<out.count {
                            let end = offsets[x &+ 1]
                            var at = starts[x] &* 4, sum = SIMD4<Float>.zero
                            while k < end {
                                let p = pixel(at)
                                sum += SIMD4(p.x, p.y, p.z, 1) * (p.w * weights[k])
                                at &+= 4
                                k &+= 1
                            }
                            out[x] = sum
                        }
                    }
                }
            }
        }
    }
}
