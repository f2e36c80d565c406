import CSDL2

/// RGBA pixels as a PNG file: one IDAT chunk deflated by zlib at `level`, rows unfiltered.
/// Level 1 (the default) is several times faster than libpng's default and still lossless:
/// what generated samples and screenshots want.
///
/// ```swift
/// try RegularFile.replace(try PNGEncoder.encode(pixels), at: "/tmp/shot.png")
/// ```
package enum PNGEncoder {
    /// Why pixels could not be encoded.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Encodes RGBA pixels as PNG at zlib compression `level` (1: fast, 9: small).
    package static func encode(_ pixels: PixelBuffer, level: Int32 = 1) throws(Failure) -> [UInt8] {
        let w = pixels.width, h = pixels.height
        guard w > 0, h > 0, w <= Int(Int32.max) / 4, h <= Int(Int32.max) else {
            throw Failure(description: "no PNG of \(w)×\(h) pixels")
        }
        // Each row: filter type 0 (none), then its bytes.
        let stride = w * 4
        var raw = [UInt8](repeating: 0, count: (stride + 1) * h)
        raw.withUnsafeMutableBufferPointer { out in
            pixels.bytes.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    (out.baseAddress! + y * (stride + 1) + 1).update(from: src.baseAddress! + y * stride, count: stride)
                }
            }
        }
        var deflated = [UInt8](repeating: 0, count: Int(compressBound(uLong(raw.count))))
        var deflatedCount = uLongf(deflated.count)
        let status = deflated.withUnsafeMutableBufferPointer { out in
            raw.withUnsafeBufferPointer {
                compress2(out.baseAddress, &deflatedCount, $0.baseAddress, uLong(raw.count), level)
            }
        }
        guard status == Z_OK else { throw Failure(description: "zlib error \(status)") }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
        }
        func chunk(_ type: String, _ data: ArraySlice<UInt8>) {
            let body = Array(type.utf8) + data
            png += be32(data.count) + body
            png += be32(Int(body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }))
        }
        // 8 bits, RGBA, deflate, no filter, no interlace
        chunk("IHDR", ArraySlice(be32(w) + be32(h) + [8, 6, 0, 0, 0]))
        chunk("IDAT", deflated[0..<Int(deflatedCount)])
        chunk("IEND", [])
        return png
    }
}
