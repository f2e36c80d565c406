import CSDL2
#if canImport(Glibc)
import Glibc
#endif

/// Deterministic photo-like images (a sky gradient, a soft sun, layered hills, a few shapes
/// and grain: no flat colors, so JPEG decoding costs what real photos cost), and their
/// encoders. Thread-safe: used by `generate-samples` workers and by tests.
///
/// ```swift
/// let pixels = SamplePhotos.render(width: 1920, height: 1280, seed: 7)
/// try SamplePhotos.writeJPEG(pixels, to: "/tmp/a.jpg", quality: 85)
/// ```
public enum SamplePhotos {
    /// Renders image `seed` at `width`×`height`.
    public static func render(width: Int, height: Int, seed: UInt64) -> PixelBuffer {
        let w = max(1, width), h = max(1, height)
        var rng = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 1)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        func color() -> (Double, Double, Double) { (unit(), unit(), unit()) }
        let skyTop = color(), skyLow = (0.6 + 0.4 * unit(), 0.5 + 0.5 * unit(), 0.4 + 0.6 * unit())
        let sun = (x: unit() * Double(w), y: (0.1 + 0.4 * unit()) * Double(h), r: (0.05 + 0.1 * unit()) * Double(min(w, h)))
        let hills = (0..<3).map { layer -> (base: Double, amp: Double, freq: Double, phase: Double, color: (Double, Double, Double)) in
            let depth = Double(layer) / 3
            let tint = color()
            return (0.45 + 0.15 * Double(layer) + 0.1 * unit(), (0.04 + 0.08 * unit()) * Double(h), (1 + 4 * unit()) * 2 * .pi / Double(w),
                    unit() * 2 * .pi, (tint.0 * (0.6 - depth * 0.4), tint.1 * (0.7 - depth * 0.4), tint.2 * (0.5 - depth * 0.3)))
        }
        let discs = (0..<4).map { _ in (x: unit() * Double(w), y: unit() * Double(h), r: (0.03 + 0.08 * unit()) * Double(min(w, h)), c: color()) }
        var bytes = [UInt8](repeating: 255, count: w * h * 4)
        // Hill ridges per column, computed once.
        let ridges = hills.map { hill in (0..<w).map { x in
            hill.base * Double(h) + hill.amp * sin(Double(x) * hill.freq + hill.phase) + 0.4 * hill.amp * sin(Double(x) * hill.freq * 3.1)
        } }
        var noise = UInt32(truncatingIfNeeded: seed) | 1
        bytes.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                let t = Double(y) / Double(h)
                let sky = (skyTop.0 + (skyLow.0 - skyTop.0) * t, skyTop.1 + (skyLow.1 - skyTop.1) * t, skyTop.2 + (skyLow.2 - skyTop.2) * t)
                for x in 0..<w {
                    var c = sky
                    let dx = Double(x) - sun.x, dy = Double(y) - sun.y
                    let d = (dx * dx + dy * dy).squareRoot()
                    if d < sun.r * 2 {
                        let glow = max(0, 1 - d / (sun.r * 2))
                        let k = d < sun.r ? 1 : glow * glow
                        c = (c.0 + (1 - c.0) * k, c.1 + (0.95 - c.1) * k, c.2 + (0.7 - c.2) * k)
                    }
                    for (l, hill) in hills.enumerated() where Double(y) > ridges[l][x] {
                        let shade = 0.75 + 0.25 * (1 - (Double(y) - ridges[l][x]) / Double(h))
                        c = (hill.color.0 * shade, hill.color.1 * shade, hill.color.2 * shade)
                    }
                    for disc in discs {
                        let ex = Double(x) - disc.x, ey = Double(y) - disc.y
                        if ex * ex + ey * ey < disc.r * disc.r { c = (c.0 * 0.4 + disc.c.0 * 0.6, c.1 * 0.4 + disc.c.1 * 0.6, c.2 * 0.4 + disc.c.2 * 0.6) }
                    }
                    noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5
                    let grain = Double(Int(noise & 15) - 8) / 255
                    let i = (y * w + x) * 4
                    out[i] = UInt8(max(0, min(255, (c.0 + grain) * 255)))
                    out[i + 1] = UInt8(max(0, min(255, (c.1 + grain) * 255)))
                    out[i + 2] = UInt8(max(0, min(255, (c.2 + grain) * 255)))
                }
            }
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    /// Encodes `pixels` as a baseline 4:2:0 JPEG.
    public static func jpegData(_ pixels: PixelBuffer, quality: Int = 85) throws(ImageError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .corrupt("TurboJPEG is unavailable") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = pixels.bytes.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(pixels.width), Int32(pixels.width * 4), Int32(pixels.height),
                        Int32(TJPF_RGBA.rawValue), &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer else { throw .corrupt(String(cString: tjGetErrorStr2(handle))) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    public static func writeJPEG(_ pixels: PixelBuffer, to path: String, quality: Int = 85) throws(ImageError) {
        try write(try jpegData(pixels, quality: quality), to: path)
    }

    /// Writes `bytes` to `path` (replacing it).
    public static func write(_ bytes: [UInt8], to path: String) throws(ImageError) {
        guard let file = fopen(path, "wb") else { throw .unreadable("\(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, file) }
        guard written == bytes.count else { throw .unreadable("\(path): short write") }
    }
}
