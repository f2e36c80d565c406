import Render2D
/// The first image of a GIF, decoded to RGBA at the image's own size (as SDL2_image gave it):
/// the LZW data, interlacing, the local or global color table and the transparent color of
/// the graphic control extension. Written here with every index checked, because SDL2_image
/// 2.6's GIF reader writes out of bounds on some damaged files (found by `FuzzThumbnail`).
///
/// ```swift
/// let pixels = try GIFDecoder.firstImage(bytes)
/// ```
enum GIFDecoder {
    static func firstImage(_ b: [UInt8]) throws(ImageError) -> PixelBuffer {
        guard b.count >= 13, b.starts(with: Array("GIF8".utf8)) else { throw .truncated }
        var i = 13
        var global: ArraySlice<UInt8> = []
        if b[10] & 0x80 != 0 {
            let size = 3 << (Int(b[10] & 7) + 1)
            guard i + size <= b.count else { throw .truncated }
            global = b[i..<(i + size)]
            i += size
        }
        var transparent: Int?
        while i < b.count {
            switch b[i] {
            case 0x21:  // an extension: a graphic control one gives the transparent color
                guard i + 1 < b.count else { throw .truncated }
                if b[i + 1] == 0xF9, i + 6 < b.count, b[i + 2] >= 4, b[i + 3] & 1 != 0 { transparent = Int(b[i + 6]) }
                i += 2
                while i < b.count && b[i] != 0 { i += Int(b[i]) + 1 }
                i += 1
            case 0x2C:
                return try image(b, at: i, global: global, transparent: transparent)
            case 0x3B:
                throw .corrupt("a GIF with no image")
            default:
                i += 1  // a byte that starts no block: skipped, as other readers do
            }
        }
        throw .truncated
    }

    /// The image whose descriptor is at `start`.
    private static func image(_ b: [UInt8], at start: Int, global: ArraySlice<UInt8>, transparent: Int?)
        throws(ImageError) -> PixelBuffer
    {
        guard start + 10 <= b.count else { throw .truncated }
        let width = Int(b[start + 5]) | Int(b[start + 6]) << 8, height = Int(b[start + 7]) | Int(b[start + 8]) << 8
        try ImageDecoder.checkDimensions(width, height)
        let flags = b[start + 9]
        var i = start + 10
        var palette = global
        if flags & 0x80 != 0 {
            let size = 3 << (Int(flags & 7) + 1)
            guard i + size <= b.count else { throw .truncated }
            palette = b[i..<(i + size)]
            i += size
        }
        guard i < b.count else { throw .truncated }
        let minimumCodeSize = Int(b[i])
        guard (1...11).contains(minimumCodeSize) else { throw .corrupt("LZW code size \(minimumCodeSize)") }
        i += 1
        // The image data's sub-blocks, joined.
        var data: [UInt8] = []
        while i < b.count && b[i] != 0 {
            let n = Int(b[i])
            data.append(contentsOf: b[(i + 1)..<min(b.count, i + 1 + n)])
            i += n + 1
        }
        guard i < b.count else { throw .truncated }  // the file ends inside the image data
        let indices = decodeLZW(data, minimumCodeSize: minimumCodeSize, count: width * height)
        guard !indices.isEmpty else { throw .corrupt("no image data") }
        // Data for fewer pixels than the frame has is a damaged or cut file: refused before the
        // frame is allocated (found by FuzzThumbnail: 385 bytes claiming a 1279×54484 frame cost
        // 280 MB and seconds of resampling for an image of a few pixels).
        guard indices.count == width * height else { throw .truncated }
        // Rows in file order: interlaced images store every 8th row from 0, then from 4, 2 and 1.
        var rows = Array(0..<height)
        if flags & 0x40 != 0 {
            rows =
                Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8))
                + Array(stride(from: 2, to: height, by: 4)) + Array(stride(from: 1, to: height, by: 2))
        }
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let colors = palette.count / 3, base = palette.startIndex
        for (k, index) in indices.enumerated() {
            let y = rows[k / width], x = k % width
            let o = (y * width + x) * 4
            let c = Int(index)
            if c == transparent { continue }  // stays transparent black
            if c < colors {
                out[o] = palette[base + c * 3]
                out[o + 1] = palette[base + c * 3 + 1]
                out[o + 2] = palette[base + c * 3 + 2]
            } else {
                out[o] = index
                out[o + 1] = index
                out[o + 2] = index  // no table: gray levels
            }
            out[o + 3] = 255
        }
        return PixelBuffer(width: width, height: height, bytes: out)
    }

    /// Variable-length LZW codes (least significant bit first) to at most `count` color
    /// indices. Damaged data ends the image early; nothing is read or written out of bounds.
    static func decodeLZW(_ data: [UInt8], minimumCodeSize: Int, count: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var prefix = [Int](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var first = [UInt8](repeating: 0, count: 4096)  // the first index of each code's string
        for code in 0..<min(clear, 4096) {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = suffix[code]
        }
        var out: [UInt8] = []
        out.reserveCapacity(min(count, data.count * 8))  // grows past that only for data that really expands
        var stack = [UInt8](repeating: 0, count: 4097)
        var codeSize = minimumCodeSize + 1, next = clear + 2
        var previous = -1
        var bitBuffer = 0, bits = 0, position = 0
        while out.count < count {
            while bits < codeSize && position < data.count {
                bitBuffer |= Int(data[position]) << bits
                bits += 8
                position += 1
            }
            guard bits >= codeSize else { break }
            let code = bitBuffer & ((1 << codeSize) - 1)
            bitBuffer >>= codeSize
            bits -= codeSize
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = -1
                continue
            }
            if code == end { break }
            var current: Int
            if previous < 0 {
                guard code < clear else { break }  // the first code must be a color
                out.append(suffix[code])
                previous = code
                continue
            }
            if code < next {
                current = code
            } else if code == next {
                current = previous  // the KwKwK case: the previous string plus its own first index
            } else {
                break  // a code not defined yet: damage
            }
            // Unwind `current` onto the stack (at most 4096 links: the table has no cycles).
            var depth = 0
            if code == next {
                stack[depth] = first[previous]
                depth += 1
            }
            while current >= clear && depth < 4096 {
                stack[depth] = suffix[current]
                depth += 1
                current = prefix[current]
                if current < 0 { break }
            }
            guard current >= 0, current < clear else { break }
            stack[depth] = suffix[current]
            depth += 1
            while depth > 0 && out.count < count {
                depth -= 1
                out.append(stack[depth])
            }
            if next < 4096 {
                prefix[next] = previous
                suffix[next] = first[current]  // the previous string, then this one's first index
                first[next] = first[previous]
                next += 1
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
            previous = code
        }
        return out
    }
}
