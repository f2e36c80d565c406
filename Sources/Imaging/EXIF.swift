import Render2D
/// What a JPEG's EXIF block (its APP1 segment) says: orientation, when it was taken, and
/// where the embedded thumbnail is. Every offset the block holds is checked against the
/// segment before it is followed: any bytes give an answer or nil, never a trap.
///
/// ```swift
/// let head = try ImageDecoder.readHeader(path, bytes: 64 << 10)
/// EXIF.orientation(inJPEG: head)        // 1...8
/// EXIF.dateTimeOriginal(inJPEG: head)   // "2024:05:12 14:03:09"
/// ```
public enum EXIF {
    /// 1...8, or 1 when there is no EXIF block or no orientation tag.
    public static func orientation(inJPEG b: [UInt8]) -> Int {
        guard let tiff = TIFFStructure(jpeg: b), let ifd0 = tiff.ifd0, let value = tiff.value(ifd: ifd0, tag: 0x0112)
        else { return 1 }
        return (1...8).contains(value) ? value : 1
    }

    /// `DateTimeOriginal` (the Exif IFD's tag 0x9003, "YYYY:MM:DD HH:MM:SS", the camera's
    /// local time), or nil when there is none.
    public static func dateTimeOriginal(inJPEG b: [UInt8]) -> String? {
        guard let tiff = TIFFStructure(jpeg: b), let ifd0 = tiff.ifd0, let exif = tiff.value(ifd: ifd0, tag: 0x8769)
        else { return nil }
        return tiff.ascii(ifd: exif, tag: 0x9003)
    }

    /// The parts of an EXIF date ("2024:05:12 14:03:09"), nil unless they are a real date
    /// and time: cameras write blanks or zeros ("0000:00:00 00:00:00") when they do not know.
    public static func dateParts(_ text: String) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    )? {
        let digits = Array(text.utf8)
        guard digits.count >= 19, [4, 7, 13, 16].allSatisfy({ digits[$0] == UInt8(ascii: ":") }),
            digits[10] == UInt8(ascii: " ")
        else { return nil }
        func number(_ from: Int, _ length: Int) -> Int? {
            var value = 0
            for i in from..<(from + length) {
                guard (48...57).contains(digits[i]) else { return nil }
                value = value * 10 + Int(digits[i] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            (1800...9999).contains(year), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        return (year, month, day, hour, minute, second)
    }
}

/// The TIFF structure of an EXIF block: byte order, IFDs and their entries, each read only
/// within `start..<end` (offsets count from `start`, as TIFF's do).
struct TIFFStructure {
    let bytes: [UInt8]
    let start: Int
    let end: Int
    let little: Bool

    /// The TIFF structure of the EXIF APP1 segment of a JPEG's first bytes, if it has one.
    init?(jpeg b: [UInt8]) {
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 < b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if marker == 0xDA || length < 2 { return nil }  // image data: no more headers
            if marker == 0xE1 && i + 10 < b.count && Array(b[(i + 4)..<(i + 10)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                self.init(b, start: i + 10, end: min(b.count, i + 2 + length))
                return
            }
            i += 2 + length
        }
        return nil
    }

    /// The TIFF structure at `start..<end` of `bytes`.
    init?(_ bytes: [UInt8], start: Int, end: Int) {
        guard start >= 0, end <= bytes.count, end - start >= 8 else { return nil }
        let little = bytes[start] == 0x49 && bytes[start + 1] == 0x49
        guard little || (bytes[start] == 0x4D && bytes[start + 1] == 0x4D) else { return nil }
        self.bytes = bytes
        self.start = start
        self.end = end
        self.little = little
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, start + at + 1 < end else { return nil }
        let a = Int(bytes[start + at]), b = Int(bytes[start + at + 1])
        return little ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let c = u16(at + 2) else { return nil }
        return little ? a | c << 16 : a << 16 | c
    }

    /// Where IFD0 is.
    var ifd0: Int? { u32(4) }

    /// Where the IFD after `ifd` is (nil at the end of the chain).
    func nextIFD(after ifd: Int) -> Int? {
        guard let count = u16(ifd), count < 1000, let next = u32(ifd + 2 + count * 12), next > 0, next != ifd else {
            return nil
        }
        return next
    }

    /// Where `ifd`'s entry for `tag` is.
    func entry(ifd: Int, tag: Int) -> Int? {
        guard let count = u16(ifd), count > 0, count < 1000 else { return nil }
        for e in 0..<count {
            let entry = ifd + 2 + e * 12
            guard let found = u16(entry) else { return nil }
            if found == tag { return entry }
        }
        return nil
    }

    /// `tag`'s value in `ifd` when it is a SHORT (type 3) or a LONG (type 4).
    func value(ifd: Int, tag: Int) -> Int? {
        guard let entry = entry(ifd: ifd, tag: tag), let type = u16(entry + 2) else { return nil }
        switch type {
        case 3: return u16(entry + 8)
        case 4: return u32(entry + 8)
        default: return nil
        }
    }

    /// `tag`'s ASCII string in `ifd` (type 2; kept in the entry when 4 bytes or fewer), without its trailing NULs.
    func ascii(ifd: Int, tag: Int) -> String? {
        guard let entry = entry(ifd: ifd, tag: tag), u16(entry + 2) == 2, let count = u32(entry + 4), count > 0,
            count <= 4096
        else { return nil }
        guard let at = count <= 4 ? entry + 8 : u32(entry + 8), at >= 0, start + at + count <= end else { return nil }
        var text = Array(bytes[(start + at)..<(start + at + count)])
        while text.last == 0 { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }
}
