import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// A folder of files that lie or are not files, built at test time class by class, each class
/// with its variants across the image formats, beside good photos that must still show.
///
/// ```swift
/// let folder = try HostileFolder(in: dir.file("Hostile"))
/// for (name, expected) in folder.expectations { ... }  // .unlisted, .errorTile("…"), .shown
/// ```
public final class HostileFolder {
    /// What the browser must make of a file.
    public enum Expectation: Equatable, Sendable {
        /// Not a file: not listed at all.
        case unlisted
        /// An error tile whose reason contains this text.
        case errorTile(String)
        /// A photo, decoded and drawn.
        case shown
    }

    public let path: String
    /// Every entry made, by name.
    public private(set) var expectations: [String: Expectation] = [:]
    /// Entries by class (`"not a file"`, `"dimensions"`, …), for messages.
    public private(set) var classes: [String: [String]] = [:]

    public init(in path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try notFiles()
        try lyingDimensions()
        try truncated()
        try notImages()
        try hugeFiles()
        try goodPhotos()
    }

    private func file(_ name: String) -> String { path + "/" + name }

    private func add(_ name: String, _ kind: String, _ expected: Expectation, _ bytes: [UInt8]? = nil) throws {
        if let bytes { try SamplePhotos.write(bytes, to: file(name)) }
        expectations[name] = expected
        classes[kind, default: []].append(name)
    }

    // MARK: Not files: FIFOs, sockets, folders, device links and dangling links, named like photos

    private func notFiles() throws {
        for ext in ["jpg", "png", "gif", "bmp", "webp"] {
            guard mkfifo(file("fifo.\(ext)"), 0o644) == 0 else { throw POSIXError(.EEXIST) }
            try add("fifo.\(ext)", "not a file", .unlisted)
            try bindSocket(file("socket.\(ext)"))
            try add("socket.\(ext)", "not a file", .unlisted)
            try FileManager.default.createDirectory(atPath: file("folder.\(ext)"), withIntermediateDirectories: false)
            try add("folder.\(ext)", "not a file", .unlisted)
            for (target, name) in [
                ("/dev/zero", "zero"), ("/dev/urandom", "urandom"), (file("fifo.\(ext)"), "to-fifo"),
                (file("nowhere.\(ext)"), "dangling"),
            ] {
                try FileManager.default.createSymbolicLink(
                    atPath: file("link-\(name).\(ext)"), withDestinationPath: target)
                try add("link-\(name).\(ext)", "not a file", .unlisted)
            }
        }
    }

    private func bindSocket(_ path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }  // the socket file stays
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw -> Bool in
            guard path.utf8.count < raw.count else { return false }
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
            return true
        }
        guard fits else { throw POSIXError(.ENAMETOOLONG) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    // MARK: Headers whose dimensions overflow or would cost gigabytes

    private static let overLimit = "megapixel limit"

    private func lyingDimensions() throws {
        let sizes: [(String, UInt32, UInt32)] = [
            ("max", .max, .max), ("2e31", 1 << 31, 1 << 31), ("60k", 60_000, 60_000),
            ("tall", 1, 200_000_000), ("wide", 150_000, 1_000),
        ]
        for (label, w, h) in sizes {
            try add(
                "png-\(label).png", "dimensions", .errorTile(Self.overLimit),
                Self.pngHeader(width: w, height: h) + [UInt8](repeating: 0, count: 64))
            // BMP keeps 32-bit signed fields: the largest positive values stand for "max".
            let bw = Int32(clamping: w), bh = Int32(clamping: h)
            try add(
                "bmp-\(label).bmp", "dimensions", .errorTile(Self.overLimit),
                Self.bmpHeader(width: bw, height: bh) + [UInt8](repeating: 0, count: 64))
        }
        try add(
            "bmp-top-down-min.bmp", "dimensions", .errorTile(""),
            Self.bmpHeader(width: 100_000, height: .min) + [UInt8](repeating: 0, count: 64))
        for (label, w, h) in [("max", UInt16.max, UInt16.max), ("60k", 60_000, 60_000), ("wide", 65_000, 2_000)]
            as [(String, UInt16, UInt16)]
        {
            for (marker, kind) in [(0xC0, "baseline"), (0xC2, "progressive")] as [(UInt8, String)] {
                // Sizes a JPEG may have (its thumbnail decodes at 1/8): a header without the data for them is cut short.
                try add(
                    "jpeg-\(kind)-\(label).jpg", "dimensions", .errorTile("truncated"),
                    Self.jpegHeader(marker: marker, width: w, height: h))
            }
            try add(
                "gif-screen-\(label).gif", "dimensions", .errorTile(Self.overLimit),
                Self.gif(screen: (w, h), frame: (w, h)))
            try add(
                "gif-frame-\(label).gif", "dimensions", .errorTile(Self.overLimit),
                Self.gif(screen: (1, 1), frame: (w, h)))
            try add(
                "gif-frame-after-extension-\(label).gif", "dimensions", .errorTile(Self.overLimit),
                Self.gif(screen: (1, 1), frame: (w, h), extensionFirst: true))
            try add(
                "gif-frame-stray-byte-\(label).gif", "dimensions", .errorTile(Self.overLimit),
                Self.gif(screen: (1, 1), frame: (w, h), strayByte: true))
            try add(
                "tga-\(label).tga", "dimensions", .errorTile(Self.overLimit),
                Self.tgaHeader(width: w, height: h) + [UInt8](repeating: 0, count: 64))
        }
    }

    /// A PNG signature and an IHDR claiming `width`×`height`.
    public static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + be32(width) + be32(height)
            + [8, 2, 0, 0, 0, 0, 0, 0, 0]
    }

    /// SOI and a start-of-frame segment (`0xC0` baseline, `0xC2` progressive) claiming `width`×`height`.
    public static func jpegHeader(marker: UInt8, width: UInt16, height: UInt16) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, marker, 0x00, 0x11, 0x08] + be16(height) + be16(width) + [0x03]
            + [UInt8](repeating: 0, count: 24)
    }

    /// A GIF with a logical screen and one image descriptor (no color table, a stub of data).
    public static func gif(
        screen: (UInt16, UInt16), frame: (UInt16, UInt16), extensionFirst: Bool = false, strayByte: Bool = false
    ) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + le16(screen.0) + le16(screen.1) + [0, 0, 0]
        if strayByte { bytes.append(0) }
        if extensionFirst { bytes += [0x21, 0xF9, 4, 0, 0, 0, 0, 0] }
        return bytes + [0x2C, 0, 0, 0, 0] + le16(frame.0) + le16(frame.1) + [0, 2, 2, 0x4C, 0x01, 0, 0x3B]
    }

    /// A BITMAPINFOHEADER BMP claiming `width`×`height` at 24 bits.
    public static func bmpHeader(width: Int32, height: Int32) -> [UInt8] {
        Array("BM".utf8) + le32(0) + le32(0) + le32(54) + le32(40) + le32(UInt32(bitPattern: width))
            + le32(UInt32(bitPattern: height))
            + le16(1) + le16(24) + [UInt8](repeating: 0, count: 24)
    }

    /// An uncompressed true-color TGA header claiming `width`×`height`.
    public static func tgaHeader(width: UInt16, height: UInt16) -> [UInt8] {
        [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0] + le16(width) + le16(height) + [24, 0x20]
    }

    private static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
    }
    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 255)] }
    private static func le32(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), UInt8(v >> 24)]
    }
    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8)] }

    // MARK: Good files cut short: after the header, halfway, one byte from the end of the data

    private func truncated() throws {
        for (ext, bytes) in try Self.goodFiles() {
            for (label, count) in [
                ("header", min(40, bytes.count / 4)), ("half", bytes.count / 2), ("most", bytes.count * 9 / 10),
            ] {
                try add("truncated-\(label).\(ext)", "truncated", .errorTile(""), Array(bytes.prefix(count)))
            }
        }
    }

    // MARK: Not images at all, under every image extension

    private func notImages() throws {
        var rng = SplitMix64(seed: 7)
        let noise = (0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        for ext in ["jpg", "png", "gif", "bmp", "tga", "webp"] {
            try add("empty.\(ext)", "not an image", .errorTile("empty"), [])
            try add("text.\(ext)", "not an image", .errorTile(""), Array("notes from a trip, not a photo\n".utf8))
            try add("noise.\(ext)", "not an image", .errorTile(""), noise)
            try add("zeros.\(ext)", "not an image", .errorTile(""), [UInt8](repeating: 0, count: 4096))
        }
    }

    // MARK: Files too large to read for a thumbnail (sparse: no disk spent)

    private func hugeFiles() throws {
        for (label, size) in [("1tb", Int64(1) << 40), ("over-cap", Int64(ImageDecoder.maxFileBytes) + 1)] {
            for ext in ["jpg", "png"] {
                guard FileManager.default.createFile(atPath: file("huge-\(label).\(ext)"), contents: nil),
                    truncate(file("huge-\(label).\(ext)"), off_t(size)) == 0
                else { throw POSIXError(.EIO) }
                try add("huge-\(label).\(ext)", "too large", .errorTile("too large"))
            }
        }
    }

    // MARK: Good photos, some under names that surprise

    private func goodPhotos() throws {
        for (ext, bytes) in try Self.goodFiles() {
            try add("good.\(ext)", "good", .shown, bytes)
            try add("GOOD-UPPER.\(ext.uppercased())", "good", .shown, bytes)
        }
        let jpeg = try Self.goodFiles()[0].bytes
        let png = try Self.goodFiles()[1].bytes
        try add("png-named.jpg", "good", .shown, png)
        try add("jpeg-named.png", "good", .shown, jpeg)
        try add("-leading dash and spaces.jpg", "good", .shown, jpeg)
        try add("new\nline.jpg", "good", .shown, jpeg)
        try add("Ünïcödé 写真 📷.jpg", "good", .shown, jpeg)
        try add(String(repeating: "n", count: 251) + ".jpg", "good", .shown, jpeg)  // the longest name a file can have
        try FileManager.default.createSymbolicLink(
            atPath: file("link-to-good.jpg"), withDestinationPath: file("good.jpg"))
        try add("link-to-good.jpg", "good", .shown)
    }

    /// One small valid file per format this folder uses, by extension.
    public static func goodFiles() throws -> [(ext: String, bytes: [UInt8])] {
        let pixels = SamplePhotos.render(width: 96, height: 64, seed: 11)
        var bmp = bmpHeader(width: 8, height: 8)
        bmp[2..<6] = ArraySlice(le32(UInt32(54 + 8 * 8 * 3)))
        for i in 0..<64 { bmp += [UInt8(i * 4), 128, UInt8(255 - i * 4)] }
        var tga = tgaHeader(width: 8, height: 8)
        for i in 0..<64 { tga += [UInt8(i * 4), 64, 200] }
        let gifPath = (#filePath as NSString).deletingLastPathComponent + "/../ImagingTests/Fixtures/noise256.gif"
        let jpeg = try SamplePhotos.jpegData(pixels)
        let png = try PNGEncoder.encode(pixels)
        let gif = Array(try Data(contentsOf: URL(fileURLWithPath: gifPath)))
        return [("jpg", jpeg), ("png", png), ("bmp", bmp), ("tga", tga), ("gif", gif)]
    }
}
