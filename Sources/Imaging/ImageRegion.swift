import CSDL2
import Render2D

/// A rectangle of an image, in pixels of the image upright (its EXIF orientation applied) and
/// scaled by 1/`scale`: what a viewer at 1:1 (`scale` 1) or zoomed out decodes of a photo too
/// large to decode whole, one tile at a time.
///
/// ```swift
/// let tile = ImageRegion(x: 4096, y: 2048, width: 1024, height: 1024)
/// let pixels = try ImageDecoder.region(path: "/photos/200mp.jpg", tile)
/// ```
public struct ImageRegion: Hashable, Sendable {
    /// The left edge, in upright pixels at 1/`scale`.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int
    /// The DCT scale: 1, 2, 4 or 8.
    public var scale: Int

    /// The rectangle at (`x`, `y`) of `width`×`height` of the image scaled by 1/`scale`.
    public init(x: Int, y: Int, width: Int, height: Int, scale: Int = 1) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.scale = [1, 2, 4, 8].contains(scale) ? scale : 1
    }

    /// The same pixels in the image as stored, `storedWidth`×`storedHeight` (at this scale),
    /// before `orientation` turns it upright: what the decoder crops.
    public func stored(orientation: Int, storedWidth w: Int, storedHeight h: Int) -> ImageRegion {
        let (x, y, dw, dh) = (self.x, self.y, width, height)
        let (sx, sy, sw, sh): (Int, Int, Int, Int) =
            switch orientation {
            case 2: (w - x - dw, y, dw, dh)
            case 3: (w - x - dw, h - y - dh, dw, dh)
            case 4: (x, h - y - dh, dw, dh)
            case 5: (y, x, dh, dw)
            case 6: (y, h - x - dw, dh, dw)
            case 7: (w - y - dh, h - x - dw, dh, dw)
            case 8: (w - y - dh, x, dh, dw)
            default: (x, y, dw, dh)
            }
        return ImageRegion(x: sx, y: sy, width: sw, height: sh, scale: scale)
    }
}

extension ImageDecoder {
    /// The pixels of `region` of the JPEG at `path`, upright: only the blocks of the region's
    /// rows and columns are decoded (libjpeg-turbo's cropping and scanline skipping), so a 1:1
    /// view of a 200-megapixel photo costs a screenful of pixels. The file and the region (and
    /// a progressive JPEG's coefficients, which libjpeg keeps whole) are reserved in the decode
    /// budget before the file is read. Other formats, and regions outside the image, throw.
    public static func region(path: String, _ region: ImageRegion) throws(ImageError) -> PixelBuffer {
        try regionThumbnail(path: path, region).pixels
    }

    /// `region(path:_:)`, with what the file's header said (the loader's result carries it).
    static func regionThumbnail(path: String, _ region: ImageRegion) throws(ImageError) -> DecodedThumbnail {
        let head = try readHeader(path)
        let info = try inspect(head, name: path)
        guard info.format == .jpeg else { throw .unsupported("regions are decoded from JPEGs only") }
        guard region.width > 0, region.height > 0, region.width <= 8192, region.height <= 8192 else {
            throw .unsupported("a region of \(region.width)×\(region.height)")
        }
        let frame = jpegFrame(head)
        let coefficients = frame?.progressive == true ? frame?.coefficientBytes ?? 0 : 0
        guard coefficients <= maxCoefficientBytes else { throw .tooLarge(width: info.width, height: info.height) }
        let storedWidth = (info.width + region.scale - 1) / region.scale,
            storedHeight = (info.height + region.scale - 1) / region.scale
        let uprightWidth = info.orientation >= 5 ? storedHeight : storedWidth
        let uprightHeight = info.orientation >= 5 ? storedWidth : storedHeight
        guard region.x >= 0, region.y >= 0, region.x <= uprightWidth - region.width,
            region.y <= uprightHeight - region.height
        else {
            throw .unsupported("the region is outside the \(uprightWidth)×\(uprightHeight) image")
        }
        let stored = region.stored(orientation: info.orientation, storedWidth: storedWidth, storedHeight: storedHeight)
        let (fd, size) = try openRegularFile(path)
        close(fd)
        guard size <= maxFileBytes else { throw .fileTooLarge(bytes: size) }
        let held = size + 8 * region.width * region.height + 4 * storedWidth + coefficients
        DecodeMemory.shared.acquire(held)
        defer { DecodeMemory.shared.release(held) }
        let bytes = try readFile(path)
        var out = [UInt8](repeating: 0, count: stored.width * stored.height * 4)
        var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
        let status = bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                tessera_jpeg_decode_region(
                    src.baseAddress, UInt(src.count), Int32(region.scale), Int32(stored.x), Int32(stored.y),
                    Int32(stored.width), Int32(stored.height), dst.baseAddress, &message)
            }
        }
        guard status == 0 else {
            let why = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw why.contains("Premature end") || why.contains("premature") ? .truncated : .corrupt(why)
        }
        return DecodedThumbnail(
            pixels: orient(PixelBuffer(width: stored.width, height: stored.height, bytes: out), info.orientation),
            info: info, dctScale: region.scale)
    }
}
