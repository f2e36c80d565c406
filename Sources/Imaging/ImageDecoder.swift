import CSDL2
#if canImport(Glibc)
    import Glibc
    import Render2D
#endif

/// Image file formats the decoder reads (recognized by content, not by name).
public enum ImageFormat: String, Sendable, CaseIterable {
    /// JPEG (JFIF or EXIF), decoded by libjpeg-turbo.
    case jpeg
    /// PNG.
    case png
    /// GIF: the first frame.
    case gif
    /// Windows bitmap.
    case bmp
    /// Truevision TGA (recognized by its name: it has no signature).
    case tga
    /// WebP.
    case webp

    /// File name extensions listed as images.
    public static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png", "gif", "bmp", "tga", "webp"]
}

/// Why an image could not be decoded; `description` is the reason shown on its error tile.
public enum ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read: the reason.
    case unreadable(String)
    /// The file is empty.
    case empty
    /// The bytes are no image format the decoder reads: what they start with.
    case notAnImage(String)
    /// The file ends before its image does.
    case truncated
    /// The image is too large to decode: its pixels at the smallest DCT scale a thumbnail
    /// allows are over `ImageDecoder.maxPixels` (a JPEG over 65535 on a side, or any other
    /// format over the cap at full size), or a progressive JPEG's coefficients are over
    /// `ImageDecoder.maxCoefficientBytes`.
    case tooLarge(width: Int, height: Int)
    /// The file is larger than `ImageDecoder.maxFileBytes`.
    case fileTooLarge(bytes: Int)
    /// The decoder rejected the data: its message.
    case corrupt(String)
    /// A variant the fast path does not handle (the decoder then tries another way).
    case unsupported(String)

    public var description: String {
        switch self {
        case .unreadable(let why): "cannot read the file: \(why)"
        case .empty: "the file is empty"
        case .notAnImage(let name): "not an image (named \(name))"
        case .truncated: "the file is truncated"
        case .tooLarge(let w, let h):
            "\(w)×\(h) is too large to decode within the \(ImageDecoder.maxPixels / 1_000_000)-megapixel limit"
        case .fileTooLarge(let bytes):
            "the file is too large (\(bytes >> 20) MB; the limit is \(ImageDecoder.maxFileBytes >> 20) MB)"
        case .corrupt(let why): "corrupt image: \(why)"
        case .unsupported(let why): "unsupported image: \(why)"
        }
    }
}

extension ImageError {
    init(_ error: RegularFile.ReadError) {
        switch error {
        case .unreadable(let why): self = .unreadable(why)
        case .notAFile: self = .unreadable(error.description)
        case .tooLarge(let bytes, _): self = .fileTooLarge(bytes: bytes)
        }
    }
}

/// What a file's header says.
public struct ImageInfo: Sendable, Equatable {
    /// The file's format, by its content.
    public var format: ImageFormat
    /// The width in pixels, as the header says.
    public var width: Int
    /// The height in pixels, as the header says.
    public var height: Int
    /// EXIF orientation, 1...8 (1 = as stored).
    public var orientation: Int
}

/// The size a thumbnail must reach: `side` pixels on its shorter edge (`fill`, for cells
/// that crop to fill) or on its longer edge (`fit`, for cells that letterbox).
public struct ThumbnailSpec: Hashable, Sendable {
    /// The thumbnail's size in pixels, on the edge `fill` chooses.
    public var side: Int
    /// Whether `side` is the shorter edge (the thumbnail covers a square cell) or the longer one (it fits in one).
    public var fill: Bool
    /// Whether the thumbnail is for a square frame of `side` pixels, so that it is drawn at
    /// its own size: its texture then samples the nearest texel, which shows the photo's own
    /// pixels even from a half-pixel offset, and leaves a software rasterizer's decoding
    /// threads more time than bilinear filtering does (see ARCHITECTURE.md).
    public var drawnAtSize: Bool
    /// A size of `side` pixels on the shorter edge (`fill`) or the longer one.
    ///
    /// ```swift
    /// let cell = ThumbnailSpec(side: 200, fill: true, drawnAtSize: true) // a 200×200 px grid cell
    /// ```
    public init(side: Int, fill: Bool = true, drawnAtSize: Bool = false) {
        self.side = max(1, side)
        self.fill = fill
        self.drawnAtSize = drawnAtSize
    }
}

/// A decoded, downscaled, upright thumbnail.
public struct DecodedThumbnail: Sendable {
    /// The thumbnail's pixels, upright.
    public var pixels: PixelBuffer
    /// What the file's header said.
    public var info: ImageInfo
    /// The JPEG DCT scaling used: 1, 2, 4 or 8 (the image was decoded at 1/scale); 1 for other formats.
    public var dctScale: Int
    /// Whether the pixels, as decoded, are all opaque (found on the decoding thread, so that
    /// the upload can draw them without blending at no cost to the frame).
    public let isOpaque: Bool

    /// A thumbnail of `pixels`, decoded from an image described by `info` at 1/`dctScale`.
    public init(pixels: PixelBuffer, info: ImageInfo, dctScale: Int) {
        self.pixels = pixels
        self.info = info
        self.dctScale = dctScale
        isOpaque = pixels.isOpaque
    }
}

/// Thumbnail decoding, safe to run on any thread: JPEG through libjpeg-turbo with DCT scaling
/// to the smallest size that still covers the target, each row into an area-averaging
/// downscale as it is decoded, then the EXIF orientation; PNG row by row through libpng the
/// same way (whole when interlaced); GIF (first frame) through our own reader; BMP, TGA and WebP
/// through SDL2_image, opened on first use (`SDLImageLibrary`). Headers are checked before
/// decoding: what a decode would allocate is known before anything is, and decodes over
/// `maxPixels` (counted after DCT scaling: a 200-megapixel JPEG's thumbnail decodes 3
/// megapixels) are refused. The file and the decode count against the memory every worker
/// shares (`DecodeMemory`) before the file is read.
///
/// ```swift
/// let thumb = try ImageDecoder.thumbnail(path: "/photos/a.jpg", spec: ThumbnailSpec(side: 256))
/// ```
public enum ImageDecoder {
    /// The most pixels a decode produces (width × height after DCT scaling); a decode that
    /// would produce more fails with `tooLarge` before any allocation. Every JPEG, up to
    /// 65535×65535, has thumbnails within it (at 1/8).
    public static let maxPixels = 100_000_000
    /// The most memory a progressive JPEG's coefficients may take (libjpeg holds them all,
    /// at full resolution, whatever the DCT scale): 1.2 GB covers a 200-megapixel 4:4:4 photo.
    public static let maxCoefficientBytes = 1_300 << 20
    /// Files larger than this are not read to make a thumbnail.
    public static let maxFileBytes = 512 << 20
    /// How much of a file is read first: the header, checked before the rest is read.
    public static let headerBytes = 256 << 10

    /// Reads and decodes the file at `path`. Its size (from `fstat`) and, once its header is
    /// read, the decode's memory count against `memory` before the rest of it is read.
    public static func thumbnail(path: String, spec: ThumbnailSpec) throws(ImageError) -> DecodedThumbnail {
        try thumbnail(path: path, spec: spec, memory: .shared)
    }

    static func thumbnail(path: String, spec: ThumbnailSpec, memory: DecodeMemory) throws(ImageError)
        -> DecodedThumbnail
    {
        try reading(path, toDecodeAt: spec, memory: memory) { bytes, info throws(ImageError) in
            try decode(bytes, info: info, spec: spec)
        }
    }

    /// Reads the file at `path` and runs `body` with its bytes and header, holding in `memory`
    /// what the bytes and a decode of them at `spec` take: the file's size (from `fstat`) and,
    /// once its header is read, the decode's memory are reserved before the rest is read, and
    /// held until `body` returns. `body` decodes with `decode(_:info:spec:)`, which reserves
    /// nothing more: a thread never waits for memory while it holds some.
    static func reading<T>(
        _ path: String, toDecodeAt spec: ThumbnailSpec, memory: DecodeMemory = .shared,
        _ body: ([UInt8], ImageInfo) throws(ImageError) -> T
    ) throws(ImageError) -> T {
        var held = 0
        defer { memory.release(held) }
        let bytes = try readWhole(path) { header, size throws(ImageError) in
            // What the header tells before the rest is read: a decode that cannot fit ends here,
            // and the memory the read and the decode will take is reserved.
            var needed = size
            if let info = try? inspect(header, name: path) {
                try checkDecodable(info, header, spec: spec, fileSize: size)
                needed += decodeMemory(info, header, spec: spec)
            }
            memory.acquire(needed)
            held = needed
        }
        let info = try inspect(bytes, name: path)
        try checkDecodable(info, bytes, spec: spec)
        let needed = bytes.count + decodeMemory(info, bytes, spec: spec)
        if needed > held {  // a header past the first read, or a file that grew: wait for the rest
            memory.release(held)
            held = needed
            memory.acquire(held)
        }
        return try body(bytes, info)
    }

    /// Decodes an image held in memory; `name` is used in errors (and for TGA, which has no signature).
    public static func thumbnail(bytes: [UInt8], name: String, spec: ThumbnailSpec) throws(ImageError)
        -> DecodedThumbnail
    {
        let info = try inspect(bytes, name: name)
        try checkDecodable(info, bytes, spec: spec)
        // Memory for the decode, shared by every worker: a many-core machine decoding 100 MP
        // images waits for memory instead of running out of it.
        let held = bytes.count + decodeMemory(info, bytes, spec: spec)
        DecodeMemory.shared.acquire(held)
        defer { DecodeMemory.shared.release(held) }
        return try decode(bytes, info: info, spec: spec)
    }

    /// Throws `tooLarge` unless a thumbnail of `info` (read from `bytes`) fits the caps: the
    /// pixels decoded at the DCT scale `spec` allows (for a JPEG) or at full size (the others;
    /// a GIF's first frame), and a progressive JPEG's coefficients.
    /// `fileSize` is the whole file's, when `bytes` are its first bytes only.
    static func checkDecodable(_ info: ImageInfo, _ bytes: [UInt8], spec: ThumbnailSpec, fileSize: Int? = nil)
        throws(ImageError)
    {
        guard info.width > 0, info.height > 0 else { throw .corrupt("zero-sized image") }
        switch info.format {
        case .jpeg:
            let scale = jpegScale(width: info.width, height: info.height, spec: spec)
            try checkDecodedPixels(width: info.width, height: info.height, scale: scale)
            // A few hundred bytes claiming 60000×60000 would have the decoder allocate its output
            // before finding no data: a JPEG spends at least a few bits on each 8×8 block (a
            // uniform 200 MP photo takes 1 MB), so one with under a bit per 128 pixels of its
            // header's is cut short.
            if (fileSize ?? bytes.count) < info.width / 128 * info.height / 8 { throw .truncated }
            if let frame = jpegFrame(bytes), frame.progressive, frame.coefficientBytes > maxCoefficientBytes {
                throw .tooLarge(width: info.width, height: info.height)
            }
        case .gif:
            if let frame = gifFirstFrameSize(bytes) { try checkDimensions(frame.width, frame.height) }
        default:
            try checkDimensions(info.width, info.height)
        }
    }

    /// `width`×`height` decoded at 1/`scale` (rounded up, as libjpeg does) is at most `maxPixels`.
    static func checkDecodedPixels(width: Int, height: Int, scale: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .corrupt("zero-sized image") }
        let w = (width + scale - 1) / scale, h = (height + scale - 1) / scale
        let (pixels, overflow) = w.multipliedReportingOverflow(by: h)
        guard !overflow, pixels <= maxPixels else { throw .tooLarge(width: width, height: height) }
    }

    /// The memory a decode of `info` (read from `bytes`) to `spec` holds at its peak, besides
    /// the file's bytes: the pixels decoded (a row at a time for a JPEG at its DCT scale and a
    /// PNG that is not interlaced; whole for the others, a GIF's first frame at its own size),
    /// the resampler's buffers, and a progressive JPEG's coefficients. `checkDecodable` bounds
    /// each term.
    static func decodeMemory(_ info: ImageInfo, _ bytes: [UInt8], spec: ThumbnailSpec) -> Int {
        var width = info.width, height = info.height, coefficients = 0, byRows = false
        switch info.format {
        case .jpeg:
            let scale = jpegScale(width: width, height: height, spec: spec)
            width = (width + scale - 1) / scale
            height = (height + scale - 1) / scale
            if let frame = jpegFrame(bytes), frame.progressive { coefficients = frame.coefficientBytes }
            byRows = true
        case .png:
            byRows = bytes.count > 28 && bytes[28] == 0  // IHDR's interlace method: none
        case .gif:
            let frame = gifFirstFrameSize(bytes) ?? (0, 0)  // the decoder allocates the first frame, not the screen
            (width, height) = frame
        default:
            break
        }
        let target = targetSize(width: max(1, width), height: max(1, height), spec: spec)
        // Decoded RGBA (a row, or all of it), the resampler's float rows and its output.
        return 4 * width * (byRows ? 1 : height) + Resampler.workingBytes(sourceWidth: width)
            + 4 * target.width * target.height + coefficients
    }

    /// Decodes `bytes`, whose header said `info` and has been checked (`checkDecodable`), with
    /// the memory it takes already reserved.
    static func decode(_ bytes: [UInt8], info: ImageInfo, spec: ThumbnailSpec) throws(ImageError) -> DecodedThumbnail {
        var decoded: (pixels: PixelBuffer, scale: Int)
        if info.format == .jpeg {
            do throws(ImageError) {
                decoded = try decodeJPEG(bytes, info: info, spec: spec)
            } catch .unsupported {
                // CMYK and other JPEGs libjpeg will not turn into RGBA: SDL2_image decodes at full size.
                try checkDimensions(info.width, info.height)
                decoded = (try decodeWithSDLImage(bytes, info: info), 1)
            }
        } else if info.format == .gif {
            decoded = (try GIFDecoder.firstImage(bytes), 1)
        } else {
            if info.format == .tga { try checkTGAComplete(bytes, info: info) }
            if info.format == .png { try checkPNGChunks(bytes) }
            if info.format == .png, let thumbnail = try decodePNGRows(bytes, info: info, spec: spec) {
                decoded = (thumbnail, 1)
            } else {
                decoded = (try decodeWithSDLImage(bytes, info: info), 1)
            }
        }
        let target = targetSize(width: decoded.pixels.width, height: decoded.pixels.height, spec: spec)
        var pixels = decoded.pixels
        if target.width < pixels.width || target.height < pixels.height {
            pixels = resample(pixels, width: target.width, height: target.height)
        }
        return DecodedThumbnail(pixels: orient(pixels, info.orientation), info: info, dctScale: decoded.scale)
    }

    /// `width`×`height` is a decodable size: positive, and at most `maxPixels` (checked
    /// without overflow, whatever a header claims).
    static func checkDimensions(_ width: Int, _ height: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .corrupt("zero-sized image") }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else { throw .tooLarge(width: width, height: height) }
    }

    // MARK: Files and headers

    /// Opens `path` safely (see `RegularFile`), with its errors as image errors.
    static func openRegularFile(_ path: String) throws(ImageError) -> (fd: Int32, size: Int) {
        do throws(RegularFile.ReadError) { return try RegularFile.open(path) } catch { throw ImageError(error) }
    }

    private static func read(_ fd: Int32, into bytes: inout [UInt8], upTo limit: Int) throws(ImageError) {
        do throws(RegularFile.ReadError) { try RegularFile.read(fd, into: &bytes, upTo: limit) } catch {
            throw ImageError(error)
        }
    }

    /// The first `headerBytes` of a file, opened safely (see `openRegularFile`).
    public static func readHeader(_ path: String, bytes limit: Int = headerBytes) throws(ImageError) -> [UInt8] {
        let (fd, size) = try openRegularFile(path)
        defer { close(fd) }
        guard size > 0 else { throw .empty }
        var bytes: [UInt8] = []
        try read(fd, into: &bytes, upTo: min(limit, size))
        return bytes
    }

    /// The whole file, read only once its header names a size this decoder will take (a JPEG's
    /// at 1/8): never more than `maxFileBytes`, never a FIFO or device, never allocated up front.
    static func readFile(_ path: String) throws(ImageError) -> [UInt8] {
        try readWhole(path) { header, size throws(ImageError) in
            // A header that names an impossible size ends it here, before the rest is read.
            if let info = try? inspect(header, name: path) {
                try checkDecodable(info, header, spec: ThumbnailSpec(side: 1), fileSize: size)
            }
        }
    }

    /// The file at `path` (opened safely, at most `maxFileBytes`), with `beforeTheRest` run on
    /// its first `headerBytes` and its size before the rest is read.
    private static func readWhole(_ path: String, beforeTheRest: ([UInt8], Int) throws(ImageError) -> Void)
        throws(ImageError) -> [UInt8]
    {
        let (fd, size) = try openRegularFile(path)
        defer { close(fd) }
        guard size > 0 else { throw .empty }
        guard size <= maxFileBytes else { throw .fileTooLarge(bytes: size) }
        var bytes: [UInt8] = []
        try read(fd, into: &bytes, upTo: min(size, headerBytes))
        try beforeTheRest(bytes, size)
        if size > bytes.count {
            try read(fd, into: &bytes, upTo: maxFileBytes + 1)
            guard bytes.count <= maxFileBytes else { throw .fileTooLarge(bytes: bytes.count) }
        }
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count >= size else { throw .truncated }  // shrank under us while read
        return bytes
    }

    /// The format (from the content's signature), dimensions and orientation: the file's own,
    /// or the one `OrientationOverrides.shared` holds for `name` (a path).
    public static func inspect(_ b: [UInt8], name: String) throws(ImageError) -> ImageInfo {
        var info = try inspectFile(b, name: name)
        if let orientation = OrientationOverrides.shared.orientation(for: name) { info.orientation = orientation }
        return info
    }

    /// The format, dimensions and orientation the file's own bytes say.
    private static func inspectFile(_ b: [UInt8], name: String) throws(ImageError) -> ImageInfo {
        guard !b.isEmpty else { throw .empty }
        func be16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) << 8 | Int(b[i + 1]) : 0 }
        func le16(_ i: Int) -> Int { i + 1 < b.count ? Int(b[i]) | Int(b[i + 1]) << 8 : 0 }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
        func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + sig.count && Array(b[offset..<(offset + sig.count)]) == sig
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            guard let size = jpegSize(b) else { throw .truncated }
            return ImageInfo(
                format: .jpeg, width: size.width, height: size.height, orientation: EXIF.orientation(inJPEG: b))
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard b.count >= 24 else { throw .truncated }
            return ImageInfo(format: .png, width: be32(16), height: be32(20), orientation: 1)
        }
        if starts(Array("GIF8".utf8)) {
            guard b.count >= 10 else { throw .truncated }
            // The decoder allocates for the first frame, which may be larger than the screen.
            if let frame = gifFirstFrameSize(b) { try checkDimensions(frame.width, frame.height) }
            return ImageInfo(format: .gif, width: le16(6), height: le16(8), orientation: 1)
        }
        if starts(Array("BM".utf8)) {
            guard b.count >= 26 else { throw .truncated }
            if le32(14) == 12 {  // an OS/2 core header: 16-bit width and height
                return ImageInfo(format: .bmp, width: le16(18), height: le16(20), orientation: 1)
            }
            return ImageInfo(
                format: .bmp, width: abs(Int(Int32(truncatingIfNeeded: le32(18)))),
                height: abs(Int(Int32(truncatingIfNeeded: le32(22)))), orientation: 1)
        }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            guard b.count >= 30 else { throw .truncated }
            if starts(Array("VP8X".utf8), at: 12) {
                return ImageInfo(
                    format: .webp, width: 1 + (Int(b[24]) | Int(b[25]) << 8 | Int(b[26]) << 16),
                    height: 1 + (Int(b[27]) | Int(b[28]) << 8 | Int(b[29]) << 16), orientation: 1)
            }
            if starts(Array("VP8L".utf8), at: 12) {
                let bits = le32(21)
                return ImageInfo(
                    format: .webp, width: 1 + bits & 0x3FFF, height: 1 + (bits >> 14) & 0x3FFF, orientation: 1)
            }
            return ImageInfo(format: .webp, width: le16(26) & 0x3FFF, height: le16(28) & 0x3FFF, orientation: 1)
        }
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if ext == "tga" && b.count >= 18 && [1, 2, 3, 9, 10, 11].contains(b[2]) {
            return ImageInfo(format: .tga, width: le16(12), height: le16(14), orientation: 1)
        }
        throw .notAnImage(name.split(separator: "/").last.map(String.init) ?? name)
    }

    /// The size of a GIF's first image (its frame descriptor), when the header reaches it.
    /// Read as SDL2_image reads it: a byte that starts no block is skipped, not an end.
    static func gifFirstFrameSize(_ b: [UInt8]) -> (width: Int, height: Int)? {
        guard b.count >= 13 else { return nil }
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }  // the global color table
        while i < b.count {
            switch b[i] {
            case 0x2C:  // image descriptor: left, top, width, height
                guard i + 8 < b.count else { return nil }
                return (Int(b[i + 5]) | Int(b[i + 6]) << 8, Int(b[i + 7]) | Int(b[i + 8]) << 8)
            case 0x21:  // extension: label, then sub-blocks until an empty one
                i += 2
                while i < b.count && b[i] != 0 { i += Int(b[i]) + 1 }
                i += 1
            case 0x3B:  // trailer: no image
                return nil
            default:
                i += 1
            }
        }
        return nil
    }

    /// Width and height from the first SOF marker, walking the segments as libjpeg does.
    static func jpegSize(_ b: [UInt8]) -> (width: Int, height: Int)? {
        jpegFrame(b).map { ($0.width, $0.height) }
    }

    /// What a JPEG's frame header (its first SOF marker) says.
    struct JPEGFrame: Equatable {
        var width: Int
        var height: Int
        /// A progressive (or lossless) frame: libjpeg keeps every coefficient in memory.
        var progressive: Bool
        /// The memory the frame's coefficients take when all are kept: per component, its
        /// blocks of 64 two-byte coefficients at its own sampling.
        var coefficientBytes: Int
    }

    /// The first SOF marker's frame, walking the segments as libjpeg does.
    static func jpegFrame(_ b: [UInt8]) -> JPEGFrame? {
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else {
                i += 1
                continue
            }
            let marker = b[i + 1]
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0x00 {
                i += 2
                continue
            }  // a stuffed zero: not a marker
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                let width = Int(b[i + 7]) << 8 | Int(b[i + 8]), height = Int(b[i + 5]) << 8 | Int(b[i + 6])
                // Components: id, sampling (horizontal << 4 | vertical), table; 3 assumed when cut off.
                let count = Int(b[i + 9])
                var sampling: [(h: Int, v: Int)] = []
                for k in 0..<count where i + 11 + 3 * k < b.count {
                    let factors = b[i + 11 + 3 * k]
                    sampling.append((max(1, Int(factors >> 4)), max(1, Int(factors & 15))))
                }
                if sampling.isEmpty { sampling = Array(repeating: (1, 1), count: 3) }
                let hMax = sampling.map(\.h).max()!, vMax = sampling.map(\.v).max()!
                var coefficients = 0
                for (h, v) in sampling {
                    let blocksWide = ((width * h + hMax - 1) / hMax + 7) / 8,
                        blocksHigh = ((height * v + vMax - 1) / vMax + 7) / 8
                    coefficients += blocksWide * blocksHigh * 128
                }
                let progressive = [0xC2, 0xC3, 0xC6, 0xC7, 0xCA, 0xCB, 0xCE, 0xCF].contains(marker)
                return JPEGFrame(width: width, height: height, progressive: progressive, coefficientBytes: coefficients)
            }
            i += 2 + length
        }
        return nil
    }

    // MARK: Sizes

    /// The thumbnail size for a `width`×`height` image: scaled to `spec`, never enlarged.
    public static func targetSize(width: Int, height: Int, spec: ThumbnailSpec) -> (width: Int, height: Int) {
        let edge = Double(spec.fill ? min(width, height) : max(width, height))
        let factor = min(1, Double(spec.side) / max(1, edge))
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    /// The largest DCT scale denominator (1, 2, 4, 8) whose decoded size still covers `spec`.
    public static func jpegScale(width: Int, height: Int, spec: ThumbnailSpec) -> Int {
        for denominator in [8, 4, 2] {
            let w = (width + denominator - 1) / denominator, h = (height + denominator - 1) / denominator
            if (spec.fill ? min(w, h) : max(w, h)) >= spec.side { return denominator }
        }
        return 1
    }

    // MARK: Decoding

    /// A JPEG's thumbnail: decoded at the DCT scale `spec` allows, its rows resampled to the
    /// thumbnail's size as libjpeg decodes them (the scaled image is never whole in memory).
    static func decodeJPEG(_ bytes: [UInt8], info: ImageInfo, spec: ThumbnailSpec) throws(ImageError) -> (
        pixels: PixelBuffer, scale: Int
    ) {
        // Our walk of the header sizes the rows; libjpeg, reading it again, must find the same size.
        guard let size = jpegSize(bytes) else { throw .truncated }
        let scale = jpegScale(width: size.width, height: size.height, spec: spec)
        try checkDecodedPixels(width: size.width, height: size.height, scale: scale)
        let w = (size.width + scale - 1) / scale, h = (size.height + scale - 1) / scale
        var rows = RowSink(from: (w, h), to: targetSize(width: w, height: h, spec: spec), opaque: true)
        var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
        var warnings: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { data in
            rows.receive { sink, add in
                tessera_jpeg_rows(
                    data.baseAddress, UInt(data.count), Int32(scale), Int32(w), Int32(h), sink, add, &warnings, &message
                )
            }
        }
        let why = RowSink.text(message)
        if status != 0 || warnings > 0 {
            if why.lowercased().contains("premature end") { throw .truncated }
            // Stray bytes before the end marker (some cameras write them) are harmless; anything else is damage.
            if status != 0 || !why.contains("marker 0xd9") {
                throw why.lowercased().contains("color") ? .unsupported(why) : .corrupt(why)
            }
        }
        return (rows.finish(), scale)
    }

    /// An uncompressed TGA holds all its pixels: SDL2_image fills a short file's missing rows
    /// with whatever the surface held, where it should say the file is truncated.
    static func checkTGAComplete(_ b: [UInt8], info: ImageInfo) throws(ImageError) {
        guard b.count >= 18, [1, 2, 3].contains(b[2]) else { return }  // run-length ones end where their data ends
        let colorMap = (Int(b[5]) | Int(b[6]) << 8) * ((Int(b[7]) + 7) / 8)
        let pixels = info.width * info.height * ((Int(b[16]) + 7) / 8)  // checkDimensions bounds the product
        guard b.count >= 18 + Int(b[0]) + colorMap + pixels else { throw .truncated }
    }

    /// Every chunk of a PNG lies within the file: libpng, handed a chunk that claims more bytes
    /// than the file has (found by FuzzThumbnailCache: a 486-byte file with a 262,168-byte
    /// text chunk), spun in its checksum until the fuzzer's 10 s ran out.
    static func checkPNGChunks(_ b: [UInt8]) throws(ImageError) {
        var i = 8
        while i + 8 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length <= b.count - i - 12 else { throw .truncated }  // the chunk, its type and its checksum
            if b[(i + 4)..<(i + 8)].elementsEqual("IEND".utf8) { return }
            i += 12 + length
        }
        throw .truncated
    }

    /// A PNG's thumbnail, its rows resampled as libpng decodes them (no full-size image in
    /// memory); nil when the PNG is interlaced (its rows are whole only at the end).
    static func decodePNGRows(_ bytes: [UInt8], info: ImageInfo, spec: ThumbnailSpec) throws(ImageError)
        -> PixelBuffer?
    {
        try checkDimensions(info.width, info.height)  // within maxPixels: each side fits libpng's Int32
        var rows = RowSink(
            from: (info.width, info.height), to: targetSize(width: info.width, height: info.height, spec: spec),
            opaque: false)
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer { data in
            rows.receive { sink, add in
                tessera_png_rows(
                    data.baseAddress, data.count, Int32(info.width), Int32(info.height), sink, add, &message)
            }
        }
        guard status <= 0 else { return nil }
        guard status == 0 else {
            let why = RowSink.text(message)
            throw why.contains("premature end") ? .truncated : .corrupt(why)
        }
        return rows.finish()
    }

    /// Where a decoder's rows go, top to bottom: a `Resampler` to `target`, or (an image no
    /// larger than `target`) a copy. `opaque` when every row will be (a JPEG's).
    private struct RowSink {
        private var resampler: Resampler?
        private var copy: [UInt8] = []
        private let rowBytes: Int

        init(from size: (width: Int, height: Int), to target: (width: Int, height: Int), opaque: Bool) {
            rowBytes = size.width * 4
            if target.width < size.width || target.height < size.height {
                resampler = Resampler(from: size, to: target, opaque: opaque)
            } else {
                copy.reserveCapacity(rowBytes * size.height)
            }
        }

        mutating func add(_ row: UnsafePointer<UInt8>) {
            if resampler != nil {
                resampler!.add(row: row)
            } else {
                copy.append(contentsOf: UnsafeBufferPointer(start: row, count: rowBytes))
            }
        }

        consuming func finish() -> PixelBuffer {
            resampler?.finish() ?? PixelBuffer(width: rowBytes / 4, height: copy.count / max(1, rowBytes), bytes: copy)
        }

        /// Runs a C decoder with this sink as its context and `add` as its row callback.
        mutating func receive(
            _ decode: (
                UnsafeMutableRawPointer, @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?) -> Void
            )
                -> Int32
        ) -> Int32 {
            withUnsafeMutablePointer(to: &self) { sink in
                decode(sink) { sink, pixels in sink!.assumingMemoryBound(to: RowSink.self).pointee.add(pixels!) }
            }
        }

        /// A C decoder's message, up to its terminating zero.
        static func text(_ message: [CChar]) -> String {
            String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Interlaced PNGs, GIF, BMP, TGA, WebP (and JPEGs libjpeg will not turn into RGBA, such as
    /// CMYK ones) through SDL2_image, as RGBA.
    static func decodeWithSDLImage(_ bytes: [UInt8], info: ImageInfo) throws(ImageError) -> PixelBuffer {
        let loadTyped: SDLImageLibrary.LoadTyped
        switch SDLImageLibrary.loadTyped {
        case .success(let load): loadTyped = load
        case .failure(let missing): throw .corrupt(missing.description)
        }
        let type: String =
            switch info.format {
            case .jpeg: "JPG"
            case .png: "PNG"
            case .gif: "GIF"
            case .bmp: "BMP"
            case .tga: "TGA"
            case .webp: "WEBP"
            }
        let surface: UnsafeMutablePointer<SDL_Surface>? = bytes.withUnsafeBytes { raw in
            guard let rw = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else { return nil }
            return loadTyped(rw, 1, type)
        }
        guard let surface else {
            let why = String(cString: SDL_GetError())
            throw why.lowercased().contains("premature") || why.lowercased().contains("truncat")
                ? .truncated : .corrupt(why)
        }
        defer { SDL_FreeSurface(surface) }
        guard let rgba = SDL_ConvertSurfaceFormat(surface, tessera_pixelformat_rgba32(), 0) else {
            throw .corrupt(String(cString: SDL_GetError()))
        }
        defer { SDL_FreeSurface(rgba) }
        let w = Int(rgba.pointee.w), h = Int(rgba.pointee.h), pitch = Int(rgba.pointee.pitch)
        try checkDimensions(w, h)
        guard let base = rgba.pointee.pixels else { throw .corrupt("empty surface") }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        out.withUnsafeMutableBytes { dst in
            for y in 0..<h { memcpy(dst.baseAddress! + y * w * 4, base + y * pitch, w * 4) }
        }
        return PixelBuffer(width: w, height: h, bytes: out)
    }

    // MARK: Resampling and orientation

    /// Area-averaging downscale (each output pixel is the coverage-weighted mean of the input
    /// pixels under it), alpha-weighted so transparent pixels do not darken edges. The rows go
    /// through a `Resampler`, which holds two rows of floats whatever the input's height.
    ///
    /// ```swift
    /// let small = ImageDecoder.resample(decoded, width: 256, height: 171)
    /// ```
    public static func resample(_ src: PixelBuffer, width dw: Int, height dh: Int) -> PixelBuffer {
        let sw = src.width, sh = src.height
        guard dw > 0, dh > 0, sw > 0, sh > 0, src.bytes.count >= sw * sh * 4 else {
            return PixelBuffer(width: max(0, dw), height: max(0, dh))
        }
        var resampler = Resampler(from: (sw, sh), to: (dw, dh), opaque: src.isOpaque)
        src.bytes.withUnsafeBufferPointer { s in
            for y in 0..<sh { resampler.add(row: s.baseAddress! + y * sw * 4) }
        }
        return resampler.finish()
    }

    /// Applies EXIF orientation `o` (2-8 flip and/or rotate; 1 and unknown values leave it).
    public static func orient(_ src: PixelBuffer, _ o: Int) -> PixelBuffer {
        guard (2...8).contains(o) else { return src }
        let w = src.width, h = src.height
        let (dw, dh) = o >= 5 ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        src.bytes.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                for y in 0..<dh {
                    for x in 0..<dw {
                        let (sx, sy): (Int, Int) =
                            switch o {
                            case 2: (w - 1 - x, y)
                            case 3: (w - 1 - x, h - 1 - y)
                            case 4: (x, h - 1 - y)
                            case 5: (y, x)
                            case 6: (y, h - 1 - x)
                            case 7: (w - 1 - y, h - 1 - x)
                            default: (w - 1 - y, x)
                            }
                        let si = (sy * w + sx) * 4, di = (y * dw + x) * 4
                        d[di] = s[si]
                        d[di + 1] = s[si + 1]
                        d[di + 2] = s[si + 2]
                        d[di + 3] = s[si + 3]
                    }
                }
            }
        }
        return PixelBuffer(width: dw, height: dh, bytes: out)
    }
}
