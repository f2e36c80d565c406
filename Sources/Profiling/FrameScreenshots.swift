import Render2D
import Imaging
/// A small picture of a janky frame, taken while profiling (`FrameProfiler.capturesJankScreenshots`):
/// the frame as it was about to be presented, shrunk to fit 320×180, and as a PNG.
public struct FrameScreenshot: Sendable {
    /// The frame's `FrameRecord.index`.
    public var frame: Int
    /// When it was taken (monotonic nanoseconds): the frame's work was done.
    public var takenNs: UInt64
    /// The frame's work before its present, nanoseconds (what made it janky).
    public var workNs: UInt64
    /// The picture, at most `FrameScreenshots.width` × `FrameScreenshots.height`.
    public var pixels: PixelBuffer
    /// The picture as a PNG file's bytes.
    public var png: [UInt8]
}

/// The screenshots of one capture's janky frames, kept to a budget: at most `maxCount` of
/// them and `maxBytes` of PNG in all; when full, a slower frame's picture takes the place of
/// the fastest one kept, so a capture keeps its worst frames.
///
/// ```swift
/// for shot in profiler.screenshots.all { try write(shot.png, to: "frame-\(shot.frame).png") }
/// ```
public struct FrameScreenshots: Sendable {
    /// The largest picture, in pixels.
    public static let width = 320, height = 180
    /// At most this many pictures a capture.
    public static let maxCount = 64
    /// At most this many bytes of PNG a capture.
    public static let maxBytes = 4 << 20

    /// The pictures kept, in the order their frames ran.
    public private(set) var all: [FrameScreenshot] = []
    /// The PNG bytes kept.
    public private(set) var bytes = 0

    /// No pictures yet.
    public init() {}

    /// Whether a frame whose work took `workNs` would be kept.
    public func wouldKeep(workNs: UInt64) -> Bool {
        all.count < Self.maxCount && bytes < Self.maxBytes || all.contains { $0.workNs < workNs }
    }

    /// Keeps `shot`, making room by dropping the fastest frames kept when it is slower than them.
    public mutating func keep(_ shot: FrameScreenshot) {
        guard shot.png.count <= Self.maxBytes else { return }
        while all.count >= Self.maxCount || bytes + shot.png.count > Self.maxBytes {
            guard let fastest = all.indices.min(by: { all[$0].workNs < all[$1].workNs }),
                all[fastest].workNs < shot.workNs
            else { return }
            bytes -= all[fastest].png.count
            all.remove(at: fastest)
        }
        let at = all.firstIndex { $0.frame > shot.frame } ?? all.count
        all.insert(shot, at: at)
        bytes += shot.png.count
    }

    /// The picture of frame `index`, if one was kept.
    public func screenshot(ofFrame index: Int) -> FrameScreenshot? { all.first { $0.frame == index } }

    /// Forgets every picture.
    public mutating func removeAll() {
        all.removeAll()
        bytes = 0
    }
}

extension PixelBuffer {
    /// The picture shrunk to fit `maxWidth` × `maxHeight` with its proportions kept (never
    /// enlarged), each pixel the mean of the ones it covers.
    public func shrunk(toFit maxWidth: Int, _ maxHeight: Int) -> PixelBuffer {
        guard width > 0, height > 0 else { return self }
        let scale = min(1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        let w = max(1, Int((Double(width) * scale).rounded())), h = max(1, Int((Double(height) * scale).rounded()))
        if w == width && h == height { return self }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        bytes.withUnsafeBufferPointer { src in
            for y in 0..<h {
                let y0 = y * height / h, y1 = max(y0 + 1, (y + 1) * height / h)
                for x in 0..<w {
                    let x0 = x * width / w, x1 = max(x0 + 1, (x + 1) * width / w)
                    var sum = (0, 0, 0, 0)
                    for sy in y0..<y1 {
                        var i = (sy * width + x0) * 4
                        for _ in x0..<x1 {
                            sum.0 += Int(src[i])
                            sum.1 += Int(src[i + 1])
                            sum.2 += Int(src[i + 2])
                            sum.3 += Int(src[i + 3])
                            i += 4
                        }
                    }
                    let n = (y1 - y0) * (x1 - x0), o = (y * w + x) * 4
                    out[o] = UInt8(sum.0 / n)
                    out[o + 1] = UInt8(sum.1 / n)
                    out[o + 2] = UInt8(sum.2 / n)
                    out[o + 3] = UInt8(sum.3 / n)
                }
            }
        }
        return PixelBuffer(width: w, height: h, bytes: out)
    }
}

/// Base64 (RFC 4648, with padding), for pictures inside JSON traces.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let n = Int(bytes[i]) << 16 | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            out += [alphabet[n >> 18], alphabet[n >> 12 & 63], alphabet[n >> 6 & 63], alphabet[n & 63]]
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = Int(bytes[i]) << 16 | (rest == 2 ? Int(bytes[i + 1]) << 8 : 0)
            out += [
                alphabet[n >> 18], alphabet[n >> 12 & 63], rest == 2 ? alphabet[n >> 6 & 63] : UInt8(ascii: "="),
                UInt8(ascii: "="),
            ]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
