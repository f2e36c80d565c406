import CSDL2
import Render2D
import Imaging
import Profiling
import DemoSupport

/// Photos as large as phones write them, made in a second: a grayscale JPEG of one gray with
/// a darker left half compresses to almost nothing, and TurboJPEG writes 200 megapixels of it
/// in about a second.
///
/// ```swift
/// try SamplePhotos.write(try LargeJPEG.gray(width: 12_000, height: 9_000), to: dir.file("108mp.jpg"))
/// ```
public enum LargeJPEG {
    public struct Failure: Error { public let code: Int32 }

    public static func gray(width: Int, height: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 180, count: width * height)
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height { memset(p.baseAddress! + y * width, 60, width / 2) }
        }
        guard let handle = tjInitCompress() else { throw Failure(code: -1) }
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(
            handle, pixels, Int32(width), 0, Int32(height), Int32(TJPF_GRAY.rawValue), &out, &size,
            Int32(TJSAMP_GRAY.rawValue), 50, TJFLAG_FASTDCT)
        defer { tjFree(out) }
        guard status == 0, let out else { throw Failure(code: status) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }
}
