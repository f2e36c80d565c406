#if canImport(Glibc)
    import Glibc
#endif

/// File names as the file system keeps them: bytes, which need not be UTF-8 (Latin-1 names from
/// old zips, Samba shares and camera cards). A name read from a folder becomes a `String` that
/// keeps every byte: bytes that are not UTF-8 are kept as the private-use scalars U+10FF00 +
/// byte (and a name's own scalars in that range are kept the same way, byte by byte, so any
/// bytes come back exactly). `withCString` gives the file system its bytes back; text drawing
/// shows the kept bytes as U+FFFD, the replacement character.
///
/// ```swift
/// let name = FileName.string(fromBytes: rawName)                 // "caf\u{10FFE9}.jpg" for Latin-1 "café.jpg"
/// FileName.withCString(folder + "/" + name) { stat($0, &st) }    // the file's own bytes
/// ```
public enum FileName {
    /// The first of the 256 scalars that stand for bytes that are not UTF-8.
    public static let escapeBase: UInt32 = 0x10FF00

    /// A name or path read from the file system, every byte kept (see `FileName`).
    public static func string(fromBytes bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.value >= escapeBase })
        {
            return text
        }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeScalar(bytes, at: i), scalar.value < escapeBase {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The last component of `path`, as `NSString.lastPathComponent` gives it: trailing
    /// slashes are ignored, the root is "/" (however many slashes), and a path without a slash
    /// is its own name. It costs a scan of the path's bytes, where Foundation's takes about
    /// 30,000 instructions, which a window title or a label asked for in every frame would pay
    /// each time.
    ///
    /// ```swift
    /// FileName.last(of: "/home/ana/Photos/")  // "Photos"
    /// ```
    public static func last(of path: String) -> String {
        let bytes = path.utf8
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") {
            end = bytes.index(before: end)
        }
        if end == bytes.startIndex { return path.isEmpty ? "" : "/" }
        var start = end
        while start > bytes.startIndex, bytes[bytes.index(before: start)] != UInt8(ascii: "/") {
            start = bytes.index(before: start)
        }
        return String(path[start..<end])
    }

    /// A NUL-terminated name or path from the system (`readdir`, `realpath`), every byte kept.
    public static func string(cString: UnsafePointer<CChar>) -> String {
        cString.withMemoryRebound(to: UInt8.self, capacity: strlen(cString) + 1) {
            string(fromBytes: UnsafeBufferPointer(start: $0, count: strlen(cString)))
        }
    }

    /// A name or path read from the file system, every byte kept.
    public static func string(fromBytes bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { string(fromBytes: $0) }
    }

    /// The file system's bytes for `path` (a path made of names from `string(fromBytes:)`).
    public static func bytes(_ path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if scalar.value >= escapeBase {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out += Array(String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with `path` as the file system's bytes, NUL-terminated: use it wherever a
    /// path from a folder's listing is handed to the system.
    public static func withCString<R>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        guard path.unicodeScalars.contains(where: { $0.value >= escapeBase }) else { return try path.withCString(body) }
        let raw = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The well-formed UTF-8 scalar at `i`, and its length (nil for a byte that starts none).
    private static func decodeScalar(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int)? {
        let b0 = b[i]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC2 ? 2 : 0
        guard length > 0, b0 < 0xF5, i + length <= b.count else { return nil }
        var value = UInt32(b0) & (0xFF >> (length + 1))
        for k in 1..<length {
            guard b[i + k] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b[i + k] & 0x3F)
        }
        let least: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= least, let scalar = Unicode.Scalar(value) else { return nil }  // overlong or a surrogate
        return (scalar, length)
    }
}
