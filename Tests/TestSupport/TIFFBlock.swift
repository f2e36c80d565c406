/// A little-endian TIFF block as camera JPEGs carry it, read entry by entry: independent of
/// `EXIFWriter`, for the tests of EXIF blocks.
public struct TIFFBlock {
    public let bytes: [UInt8]
    /// Where the TIFF header starts in `bytes`.
    public let base: Int
    /// Where IFD0 starts, from the header.
    public var ifd0: Int { u32(4) }

    /// The block of `jpeg`, or nil when its first segment is no little-endian EXIF block.
    public init?(jpeg: [UInt8]) {
        guard jpeg.count > 12, jpeg[2] == 0xFF, jpeg[3] == 0xE1, Array(jpeg[6..<12]) == Array("Exif".utf8) + [0, 0],
            jpeg[12] == 0x49, jpeg[13] == 0x49
        else { return nil }
        bytes = jpeg
        base = 12
    }

    /// The 16-bit word at `at` (from the header).
    public func u16(_ at: Int) -> Int { Int(bytes[base + at]) | Int(bytes[base + at + 1]) << 8 }
    /// The 32-bit word at `at` (from the header).
    public func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }

    private func entry(ifd: Int, tag: Int) -> Int? {
        (0..<u16(ifd)).map { ifd + 2 + 12 * $0 }.first { u16($0) == tag }
    }

    /// A SHORT or LONG value (or an offset).
    public func value(ifd: Int, tag: Int) -> Int? {
        entry(ifd: ifd, tag: tag).map { u16($0 + 2) == 3 ? u16($0 + 8) : u32($0 + 8) }
    }

    /// An ASCII value without its NUL.
    public func ascii(ifd: Int, tag: Int) -> String? {
        guard let e = entry(ifd: ifd, tag: tag) else { return nil }
        let count = u32(e + 4), at = count <= 4 ? e + 8 : u32(e + 8)
        return String(decoding: bytes[(base + at)..<(base + at + count - 1)], as: UTF8.self)
    }

    /// The IFD after `ifd`, if any.
    public func nextIFD(after ifd: Int) -> Int? {
        let next = u32(ifd + 2 + 12 * u16(ifd))
        return next == 0 ? nil : next
    }
}
