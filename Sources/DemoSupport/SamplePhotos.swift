import CSDL2
#if canImport(Glibc)
    import Glibc
    import Render2D
    import Imaging
    import Profiling
#endif

/// Deterministic photo-like images (a sky gradient, a soft sun, layered hills, a few shapes
/// and grain: no flat colors, so JPEG decoding costs what real photos cost), and their
/// encoders. Thread-safe: used by `generate-samples` workers and by tests.
///
/// ```swift
/// let pixels = SamplePhotos.render(width: 1920, height: 1280, seed: 7)
/// try SamplePhotos.writeJPEG(pixels, to: "/tmp/a.jpg", quality: 85)
/// ```
package enum SamplePhotos {
    /// Renders image `seed` at `width`×`height`; the same seed gives the same pixels.
    ///
    /// Drawn row by row on spans with integer arithmetic on plain channel rows (the sky is a
    /// fill per row, the sun and the discs touch only the spans their circles cut from a row),
    /// so it stays fast in a debug build.
    package static func render(width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        let w = max(1, min(width, 1 << 15)), h = max(1, min(height, 1 << 15))
        let painter = SampleRowPainter(SampleScene(width: w, height: h, seed: seed))
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        var noise = UInt32(truncatingIfNeeded: seed) | 1
        bytes.withUnsafeMutableBytes { raw in
            var out = raw.baseAddress!.bindMemory(to: UInt32.self, capacity: w * h)
            for y in 0..<h {
                painter.paintSky(y)
                painter.paintSun(y)
                painter.paintHills(y)
                painter.paintDiscs(y)
                painter.pack(into: &out, noise: &noise)
            }
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    /// Encodes `pixels` as a baseline 4:2:0 JPEG.
    package static func jpegData(_ pixels: PixelBuffer, quality: Int = 85) throws(ImageError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .corrupt("TurboJPEG is unavailable") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = pixels.bytes.withUnsafeBufferPointer {
            tjCompress2(
                handle, $0.baseAddress, Int32(pixels.width), Int32(pixels.width * 4), Int32(pixels.height),
                Int32(TJPF_RGBA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(quality), TJFLAG_FASTDCT)
        }
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer else { throw .corrupt(String(cString: tjGetErrorStr2(handle))) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// Writes `pixels` as a JPEG of `quality` (1...100) at `path`, replacing it.
    package static func writeJPEG(_ pixels: PixelBuffer, to path: String, quality: Int = 85) throws(ImageError) {
        try write(try jpegData(pixels, quality: quality), to: path)
    }

    /// Writes `bytes` to `path` (replacing it).
    package static func write(_ bytes: [UInt8], to path: String) throws(ImageError) {
        guard let file = fopen(path, "wb") else { throw .unreadable("\(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, file) }
        guard written == bytes.count else { throw .unreadable("\(path): short write") }
    }
}

/// What a sample photo shows, drawn from its seed: a sky fading down, a sun with its glow,
/// three hills with wavy ridges (nearest last), and four translucent discs.
private struct SampleScene {
    let width: Int
    let height: Int
    /// Colors as 0...255 channels.
    let skyTop: [Int32], skyLow: [Int32]
    let sunX: Double, sunY: Double, sunRadius: Double
    /// Each hill's ridge height by column, inside the image, and its color.
    let ridges: [[Int32]], hillColors: [[Int32]]
    let discs: [(x: Double, y: Double, r: Double, color: [Int32])]
    let sunColor: [Int32] = [255, 242, 178]

    init(width w: Int, height h: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 1)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        func rgb(_ r: Double, _ g: Double, _ b: Double) -> [Int32] {
            [r, g, b].map { Int32(max(0, min(255, $0 * 255))) }
        }
        width = w
        height = h
        skyTop = rgb(unit(), unit(), unit())
        skyLow = rgb(0.6 + 0.4 * unit(), 0.5 + 0.5 * unit(), 0.4 + 0.6 * unit())
        sunX = unit() * Double(w)
        sunY = (0.1 + 0.4 * unit()) * Double(h)
        sunRadius = (0.05 + 0.1 * unit()) * Double(min(w, h))
        var ridges: [[Int32]] = [], hillColors: [[Int32]] = []
        for layer in 0..<3 {
            let depth = Double(layer) / 3
            let base = 0.45 + 0.15 * Double(layer) + 0.1 * unit(), amp = (0.04 + 0.08 * unit()) * Double(h)
            let freq = (1 + 4 * unit()) * 2 * .pi / Double(w), phase = unit() * 2 * .pi
            hillColors.append(
                rgb(unit() * (0.6 - depth * 0.4), unit() * (0.7 - depth * 0.4), unit() * (0.5 - depth * 0.3)))
            ridges.append(
                (0..<w).map { x in  // inside the image, so a depth below it indexes `shades`
                    Int32(
                        max(
                            0,
                            min(
                                Double(h),
                                base * Double(h) + amp * sin(Double(x) * freq + phase) + 0.4 * amp
                                    * sin(Double(x) * freq * 3.1))))
                })
        }
        self.ridges = ridges
        self.hillColors = hillColors
        discs = (0..<4).map { _ in
            (
                x: unit() * Double(w), y: unit() * Double(h), r: (0.03 + 0.08 * unit()) * Double(min(w, h)),
                color: rgb(unit(), unit(), unit())
            )
        }
    }

    /// The columns a circle at (cx, cy) of radius r covers in row y (empty when it misses).
    func span(_ cx: Double, _ cy: Double, _ r: Double, _ y: Int) -> Range<Int> {
        let dy = Double(y) + 0.5 - cy
        guard abs(dy) < r else { return 0..<0 }
        let half = (r * r - dy * dy).squareRoot()
        let lo = max(0, Int(max(-1, cx - half))), hi = min(width, Int(min(Double(width), cx + half)) + 1)
        return lo < hi ? lo..<hi : 0..<0
    }
}

/// Paints a sample photo one row at a time into channel rows, then packs the row as RGBA.
/// Plain pointers and `while` loops: an unoptimized build pays a call per iteration of a
/// range or a buffer subscript, and these loops run a million times a photo.
private final class SampleRowPainter {
    let scene: SampleScene
    let r: UnsafeMutablePointer<Int32>, g: UnsafeMutablePointer<Int32>, b: UnsafeMutablePointer<Int32>
    /// The hills' ridges, far to near.
    let ridge: [UnsafeMutablePointer<Int32>]
    /// A hill's shade by depth below its ridge: 256 at the ridge, 192 a whole height below.
    let shades: UnsafeMutablePointer<Int32>

    init(_ scene: SampleScene) {
        self.scene = scene
        let w = scene.width, h = scene.height
        r = .allocate(capacity: w)
        g = .allocate(capacity: w)
        b = .allocate(capacity: w)
        ridge = scene.ridges.map { row in
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: w)
            p.initialize(from: row, count: w)
            return p
        }
        shades = .allocate(capacity: h + 1)
        for depth in 0...h { shades[depth] = Int32(256 - 64 * depth / h) }
    }

    deinit {
        for p in [r, g, b, shades] + ridge { p.deallocate() }
    }

    /// Sky: one color for the whole row.
    func paintSky(_ y: Int) {
        let t = Int32(y * 256 / scene.height), top = scene.skyTop, low = scene.skyLow, w = scene.width
        r.update(repeating: top[0] + (low[0] - top[0]) * t / 256, count: w)
        g.update(repeating: top[1] + (low[1] - top[1]) * t / 256, count: w)
        b.update(repeating: top[2] + (low[2] - top[2]) * t / 256, count: w)
    }

    /// Sun: a disc and its glow, on the span of the glow's circle only.
    func paintSun(_ y: Int) {
        let sunX = scene.sunX, sunR = scene.sunRadius, color = scene.sunColor
        let glow = scene.span(sunX, scene.sunY, sunR * 2, y)
        var x = glow.lowerBound
        let dy = Double(y) - scene.sunY
        while x < glow.upperBound {
            let dx = Double(x) - sunX
            let d = (dx * dx + dy * dy).squareRoot()
            let fade = 1 - d / (sunR * 2)
            let k = d < sunR ? 256 : Int32(fade * fade * 256)
            r[x] += (color[0] - r[x]) * k / 256
            g[x] += (color[1] - g[x]) * k / 256
            b[x] += (color[2] - b[x]) * k / 256
            x += 1
        }
    }

    /// Hills: the nearest one below whose ridge the pixel lies colors it, darker with depth
    /// below the ridge.
    func paintHills(_ y: Int) {
        let (r0, r1, r2) = (ridge[0], ridge[1], ridge[2])
        let hc = scene.hillColors
        let (h0r, h0g, h0b, h1r, h1g, h1b, h2r, h2g, h2b) = (
            hc[0][0], hc[0][1], hc[0][2], hc[1][0], hc[1][1], hc[1][2], hc[2][0], hc[2][1], hc[2][2]
        )
        let y32 = Int32(y), w = scene.width
        var x = 0
        while x < w {
            var depth = y32 - r2[x]
            if depth > 0 {
                let shade = shades[Int(depth)]
                r[x] = h2r * shade >> 8
                g[x] = h2g * shade >> 8
                b[x] = h2b * shade >> 8
            } else {
                depth = y32 - r1[x]
                if depth > 0 {
                    let shade = shades[Int(depth)]
                    r[x] = h1r * shade >> 8
                    g[x] = h1g * shade >> 8
                    b[x] = h1b * shade >> 8
                } else {
                    depth = y32 - r0[x]
                    if depth > 0 {
                        let shade = shades[Int(depth)]
                        r[x] = h0r * shade >> 8
                        g[x] = h0g * shade >> 8
                        b[x] = h0b * shade >> 8
                    }
                }
            }
            x += 1
        }
    }

    /// Discs: translucent circles over everything.
    func paintDiscs(_ y: Int) {
        for disc in scene.discs {
            let cover = scene.span(disc.x, disc.y, disc.r, y)
            let (cr, cg, cb) = (disc.color[0] * 3, disc.color[1] * 3, disc.color[2] * 3)
            var x = cover.lowerBound
            while x < cover.upperBound {
                r[x] = (r[x] * 2 + cr) / 5
                g[x] = (g[x] * 2 + cg) / 5
                b[x] = (b[x] * 2 + cb) / 5
                x += 1
            }
        }
    }

    /// Grain (the same offset on the three channels), packed as RGBA bytes at `out`, which moves on.
    func pack(into out: inout UnsafeMutablePointer<UInt32>, noise: inout UInt32) {
        var x = 0
        while x < scene.width {
            noise ^= noise << 13
            noise ^= noise >> 17
            noise ^= noise << 5
            let grain = Int32(bitPattern: noise & 15) - 8
            var cr = r[x] + grain, cg = g[x] + grain, cb = b[x] + grain
            cr = cr < 0 ? 0 : cr > 255 ? 255 : cr
            cg = cg < 0 ? 0 : cg > 255 ? 255 : cg
            cb = cb < 0 ? 0 : cb > 255 ? 255 : cb
            out.pointee = (UInt32(bitPattern: cr | cg << 8 | cb << 16) | 0xFF00_0000).littleEndian
            out += 1
            x += 1
        }
    }
}
