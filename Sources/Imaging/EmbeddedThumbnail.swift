import Render2D
/// The small JPEG a camera stores in its EXIF block (IFD1, about 160×120): found by walking
/// the TIFF structure of the APP1 segment, checked against the segment's bounds, decoded in a
/// few milliseconds where even a 1/8 DCT decode of the photo takes tens.
///
/// ```swift
/// let head = try ImageDecoder.readHeader(path, bytes: EmbeddedThumbnail.headerBytes)
/// if let range = EmbeddedThumbnail.range(inJPEG: head) { … head[range] is a JPEG … }
/// let quick = try EmbeddedThumbnail.decode(path: path) // upright, cropped to the photo's shape
/// ```
public enum EmbeddedThumbnail {
    /// How much of a file is read to find and decode it: an APP1 segment is at most 64 KB and
    /// comes first.
    public static let headerBytes = 72 << 10
    /// The largest embedded thumbnail decoded, on either side (EXIF's own limit is 64 KB of JPEG).
    public static let maxSide = 1024

    /// Where the IFD1 JPEG lies in `b` (a JPEG file's first bytes); nil when there is no EXIF
    /// block, no IFD1, no JPEG in it, or its offset and length leave the APP1 segment.
    public static func range(inJPEG b: [UInt8]) -> Range<Int>? {
        guard let tiff = TIFFStructure(jpeg: b), let ifd0 = tiff.ifd0, let ifd1 = tiff.nextIFD(after: ifd0),
            let offset = tiff.value(ifd: ifd1, tag: 0x0201),  // JPEGInterchangeFormat
            let length = tiff.value(ifd: ifd1, tag: 0x0202),  // JPEGInterchangeFormatLength
            length >= 4, offset > 0, tiff.start + offset + length <= tiff.end
        else { return nil }
        let from = tiff.start + offset
        guard b[from] == 0xFF, b[from + 1] == 0xD8 else { return nil }
        return from..<(from + length)
    }

    /// The embedded thumbnail of the JPEG at `path`: decoded, cropped to the photo's aspect
    /// ratio (cameras letterbox 3:2 and 16:9 photos into 4:3 thumbnails) and turned upright by
    /// the photo's orientation. Throws when there is none, it is damaged, or it is larger
    /// than the photo (then the photo itself is decoded instead).
    public static func decode(path: String) throws(ImageError) -> DecodedThumbnail {
        try decode(bytes: ImageDecoder.readHeader(path, bytes: headerBytes), name: path)
    }

    /// The embedded thumbnail of a JPEG whose first bytes are `head`.
    public static func decode(bytes head: [UInt8], name: String) throws(ImageError) -> DecodedThumbnail {
        let info = try ImageDecoder.inspect(head, name: name)
        guard info.format == .jpeg else { throw .unsupported("no embedded thumbnail: not a JPEG") }
        // The photo may be of any size (a 200-megapixel one is why its own thumbnail is read):
        // only the embedded JPEG is decoded, and it is bounded by `maxSide`.
        guard info.width > 0, info.height > 0 else { throw .corrupt("zero-sized image") }
        guard let range = range(inJPEG: head) else { throw .unsupported("no embedded thumbnail") }
        let jpeg = Array(head[range])
        guard let size = ImageDecoder.jpegSize(jpeg), size.width > 0, size.height > 0 else {
            throw .corrupt("embedded thumbnail: no frame header")
        }
        guard size.width <= min(info.width, maxSide), size.height <= min(info.height, maxSide) else {
            throw .unsupported(
                "embedded thumbnail of \(size.width)×\(size.height) is larger than its \(info.width)×\(info.height) photo"
            )
        }
        let small = ImageInfo(format: .jpeg, width: size.width, height: size.height, orientation: 1)
        let decoded = try ImageDecoder.decodeJPEG(
            jpeg, info: small, spec: ThumbnailSpec(side: max(size.width, size.height)))
        let cropped = crop(decoded.pixels, toAspectOf: info.width, info.height)
        return DecodedThumbnail(pixels: ImageDecoder.orient(cropped, info.orientation), info: info, dctScale: 1)
    }

    /// The centre of `p` with the aspect ratio of `width`×`height` (unchanged when within 2 %):
    /// the bars a camera adds around a thumbnail of another shape are cut away.
    static func crop(_ p: PixelBuffer, toAspectOf width: Int, _ height: Int) -> PixelBuffer {
        let target = Double(width) / Double(height), actual = Double(p.width) / Double(p.height)
        guard abs(actual / target - 1) > 0.02 else { return p }
        let w = actual > target ? max(1, Int((Double(p.height) * target).rounded())) : p.width
        let h = actual > target ? p.height : max(1, Int((Double(p.width) / target).rounded()))
        let x0 = (p.width - w) / 2, y0 = (p.height - h) / 2
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let from = ((y0 + y) * p.width + x0) * 4
            out.replaceSubrange((y * w * 4)..<((y + 1) * w * 4), with: p.bytes[from..<(from + w * 4)])
        }
        return PixelBuffer(width: w, height: h, bytes: out)
    }
}
