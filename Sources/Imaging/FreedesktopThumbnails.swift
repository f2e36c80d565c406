import CSDL2
import Foundation
import Render2D
#if canImport(Glibc)
    import Glibc
#endif

/// Persistent thumbnails as the freedesktop.org Thumbnail Managing Standard lays them out,
/// so a second start shows thumbnails without decoding a photo, and file managers share them:
/// `$XDG_CACHE_HOME/thumbnails/{normal,large,x-large,xx-large}/<md5 of the file URI>.png`
/// (128, 256, 512, 1024 px on the longer side) with `Thumb::URI` and `Thumb::MTime`; a
/// thumbnail is valid only while its MTime is the file's. Failures are recorded under
/// `fail/<app>/` so a broken file is not decoded again until it changes.
///
/// ```swift
/// let thumbnails = FreedesktopThumbnails()
/// let loader = ThumbnailLoader { thumbnails.thumbnail(path: $0.path, spec: $0.spec) }
/// ```
public struct FreedesktopThumbnails: Sendable {
    /// The freedesktop size folders and their longest side in pixels.
    public static let sizes: [(folder: String, side: Int)] = [
        ("normal", 128), ("large", 256), ("x-large", 512), ("xx-large", 1024),
    ]

    /// The thumbnail folder (`$XDG_CACHE_HOME/thumbnails`).
    public let root: String
    /// This application's name, under which failures are recorded (`fail/<appName>/`).
    public let appName: String
    let writer = BackgroundWriter()

    /// Whether thumbnails are read and written at all: not when there is no user cache folder
    /// (no `$XDG_CACHE_HOME`, no home): a shared folder such as /tmp is never used instead.
    public var isEnabled: Bool { !root.isEmpty }

    /// `root` defaults to `$XDG_CACHE_HOME/thumbnails` (`~/.cache/thumbnails`).
    public init(root: String? = nil, appName: String = "tessera") {
        self.root = root ?? Self.defaultRoot() ?? ""
        self.appName = appName
        if self.root.isEmpty {
            Log.warn("no cache folder (XDG_CACHE_HOME and the home folder are unknown): thumbnails are not kept")
        }
    }

    static func defaultRoot() -> String? { UserFolders.cache.map { $0 + "/thumbnails" } }

    /// The file's URI as the standard hashes it, made by GLib's `g_filename_to_uri` (as GNOME's
    /// thumbnailers make it) from the file's absolute, canonical path.
    public static func uri(forPath path: String) -> String {
        var absolute = path
        if let resolved = FileName.withCString(path, { realpath($0, nil) }) {
            absolute = FileName.string(cString: resolved)
            free(resolved)
        } else if !path.hasPrefix("/") {
            absolute = FileManager.default.currentDirectoryPath + "/" + path
        }
        guard let raw = FileName.withCString(absolute, { g_filename_to_uri($0, nil, nil) }) else {
            return "file://" + absolute
        }
        defer { g_free(raw) }
        return String(cString: raw)
    }

    /// The MD5 of `text`'s UTF-8 bytes in lowercase hex, through GLib's `GChecksum`, as
    /// GNOME's own thumbnailers compute it.
    public static func md5Hex(_ text: String) -> String {
        guard let checksum = g_checksum_new(tessera_checksum_md5()) else { return "" }
        defer { g_checksum_free(checksum) }
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { g_checksum_update(checksum, $0.baseAddress, $0.count) }
        return String(cString: g_checksum_get_string(checksum))
    }

    /// Where the thumbnail of `file` is kept in the size folder `folder`: its URI's MD5, hex, `.png`.
    public func path(forFile file: String, folder: String) -> String {
        root + "/" + folder + "/" + Self.md5Hex(Self.uri(forPath: file)) + ".png"
    }

    /// Removes the cached thumbnails of `file` at every size, and any failure recorded for it:
    /// for a change the cache cannot see (the photo turned in its sidecar, its modification
    /// time the same), so they are made again.
    ///
    /// ```swift
    /// thumbnails.forget(file: "/photos/a.jpg")
    /// ```
    public func forget(file: String) {
        for size in Self.sizes { _ = FileName.withCString(path(forFile: file, folder: size.folder)) { unlink($0) } }
        _ = FileName.withCString(failurePath(forFile: file)) { unlink($0) }
    }

    /// Where a failure to make a thumbnail of `file` is recorded.
    public func failurePath(forFile file: String) -> String { path(forFile: file, folder: "fail/" + appName) }

    /// A thumbnail for `path` at `spec`: from the cache when a valid one covers it (no photo
    /// decoded), else decoded and written to the smallest standard size that covers `spec`.
    public func thumbnail(path: String, spec: ThumbnailSpec) -> Result<DecodedThumbnail, ImageError> {
        guard isEnabled else { return ThumbnailLoader.decodeFile(ThumbnailKey(path: path, spec: spec)) }
        var st = stat()
        guard FileName.withCString(path, { stat($0, &st) }) == 0 else {
            return .failure(.unreadable(String(cString: strerror(errno))))
        }
        let mtime = String(st.st_mtim.tv_sec)
        let uri = Self.uri(forPath: path)
        if let cached = cachedThumbnail(for: path, uri: uri, mtime: mtime, fileSize: Int(st.st_size), spec: spec) {
            return .success(cached)
        }
        if let failure = recordedFailure(for: path, uri: uri, mtime: mtime, fileSize: Int(st.st_size)) {
            return .failure(failure)
        }
        do throws(ImageError) {
            // The file and its decode count against the decode budget before it is read.
            return .success(
                try ImageDecoder.reading(path, toDecodeAt: spec) { bytes, info throws(ImageError) in
                    try decodeAndCache(
                        path: path, bytes: bytes, info: info, spec: spec, uri: uri, mtime: mtime,
                        fileSize: Int(st.st_size))
                })
        } catch {
            if Self.isLasting(error, modified: Double(st.st_mtim.tv_sec)) {
                write(
                    PixelBuffer(width: 1, height: 1), to: failurePath(forFile: path), uri: uri, mtime: mtime,
                    size: Int(st.st_size),
                    info: nil, error: error.description)
            }
            return .failure(error)
        }
    }

    /// The thumbnail of `bytes` (the file at `path`, read) at `spec`; the standard size that
    /// covers it is queued for the cache.
    private func decodeAndCache(
        path: String, bytes: [UInt8], info: ImageInfo, spec: ThumbnailSpec, uri: String, mtime: String,
        fileSize: Int
    ) throws(ImageError) -> DecodedThumbnail {
        // The standard size to write: the smallest whose thumbnail still covers `spec`.
        let (w, h) = info.orientation >= 5 ? (info.height, info.width) : (info.width, info.height)
        let needed =
            spec.fill
            ? Int((Double(spec.side) * Double(max(w, h)) / Double(max(1, min(w, h)))).rounded(.up)) : spec.side
        guard let size = Self.sizes.first(where: { $0.side >= needed }) else {
            return try ImageDecoder.decode(bytes, info: info, spec: spec)
        }
        // The caller gets the fast decode for its own size now; the standard-size thumbnail is
        // made later by the writer at idle priority, so caching never slows the screen that
        // is waiting. The writer keeps the bytes read here (the file is read once, and the
        // thumbnail is of the version whose mtime it records) while its byte budget allows;
        // past it, it reads the file again.
        let standardSpec = ThumbnailSpec(side: size.side, fill: false)
        let save: @Sendable (DecodedThumbnail?) -> Void = { [self] standard in
            guard let standard else { return }
            write(
                standard.pixels, to: self.path(forFile: path, folder: size.folder), uri: uri, mtime: mtime,
                size: fileSize, info: info)
        }
        if !writer.enqueue(
            holding: bytes.count, { save(try? ImageDecoder.thumbnail(bytes: bytes, name: path, spec: standardSpec)) })
        {
            writer.enqueue { save(try? ImageDecoder.thumbnail(path: path, spec: standardSpec)) }
        }
        return try ImageDecoder.decode(bytes, info: info, spec: spec)
    }

    /// Whether a failure says something about the file itself, to be recorded until it changes:
    /// not a passing condition (permissions, too many open files, I/O errors), and not a file
    /// changed in the last 3 s (most likely still being copied: truncated now, whole soon).
    static func isLasting(_ error: ImageError, modified: Double) -> Bool {
        if case .unreadable = error { return false }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) - modified >= 3
    }

    /// A valid cached thumbnail that covers `spec`, decoded and scaled to it.
    func cachedThumbnail(for path: String, uri: String, mtime: String, fileSize: Int, spec: ThumbnailSpec)
        -> DecodedThumbnail?
    {
        for size in Self.sizes {
            let file = self.path(forFile: path, folder: size.folder)
            guard let bytes = try? ImageDecoder.readFile(file),
                let thumb = Self.cachedThumbnail(fromPNG: bytes, uri: uri, mtime: mtime, fileSize: fileSize, spec: spec)
            else { continue }
            return thumb
        }
        return nil
    }

    /// The thumbnail in a cache file's bytes, decoded and scaled to `spec`, when the file is a
    /// valid entry for the file of `uri`, `mtime` and `fileSize` (its `Thumb::` keys) and
    /// covers `spec`; nil for anything else, whatever the bytes (fuzzed by FuzzThumbnailCache).
    ///
    /// ```swift
    /// let thumb = FreedesktopThumbnails.cachedThumbnail(fromPNG: bytes, uri: "file:///photos/a.jpg", mtime: "1700000000",
    ///                                                    fileSize: 123_456, spec: ThumbnailSpec(side: 256))
    /// ```
    public static func cachedThumbnail(
        fromPNG bytes: [UInt8], uri: String, mtime: String, fileSize: Int,
        spec: ThumbnailSpec
    ) -> DecodedThumbnail? {
        let png = PNGText.read(bytes)
        guard png.text["Thumb::URI"] == uri, png.text["Thumb::MTime"] == mtime else { return nil }
        // A size, when given, must be the file's too (the same second can hold two versions).
        if let recorded = png.text["Thumb::Size"], recorded != String(fileSize) { return nil }
        // The original's size tells whether this thumbnail is the whole image. Another app's
        // entry without it counts only as what its folder promises.
        let original = (
            Int(png.text["Thumb::Image::Width"] ?? "") ?? .max, Int(png.text["Thumb::Image::Height"] ?? "") ?? .max
        )
        let isWhole = png.width >= original.0 && png.height >= original.1
        let edge = spec.fill ? min(png.width, png.height) : max(png.width, png.height)
        guard edge >= spec.side || isWhole else { return nil }
        guard var thumb = try? ImageDecoder.thumbnail(bytes: bytes, name: "thumbnail.png", spec: spec) else {
            return nil
        }
        thumb.info = ImageInfo(
            format: thumb.info.format, width: original.0 == .max || original.0 <= 0 ? png.width : original.0,
            height: original.1 == .max || original.1 <= 0 ? png.height : original.1, orientation: 1)
        thumb.dctScale = 0
        return thumb
    }

    /// The failure recorded for the file at `path`, when it is recorded for this version of it:
    /// its URI, modification time and, when the record gives one, size.
    func recordedFailure(for path: String, uri: String, mtime: String, fileSize: Int) -> ImageError? {
        guard let bytes = try? ImageDecoder.readFile(failurePath(forFile: path)) else { return nil }
        let png = PNGText.read(bytes)
        guard png.text["Thumb::URI"] == uri, png.text["Thumb::MTime"] == mtime else { return nil }
        // The same second can hold two versions: a size, when given, must be the file's too.
        if let recorded = png.text["Thumb::Size"], recorded != String(fileSize) { return nil }
        return .corrupt(png.text["Tessera::Error"] ?? "failed before")
    }

    /// Writes a thumbnail PNG with the standard's keys, atomically, private to the user.
    func write(
        _ pixels: PixelBuffer, to file: String, uri: String, mtime: String, size: Int, info: ImageInfo?,
        error: String? = nil
    ) {
        var text = [
            ("Thumb::URI", uri), ("Thumb::MTime", mtime), ("Thumb::Size", String(size)), ("Software", "Tessera"),
        ]
        if let info {
            text += [("Thumb::Image::Width", String(info.width)), ("Thumb::Image::Height", String(info.height))]
        }
        if let error { text.append(("Tessera::Error", error)) }
        let folder = String(file[..<file.lastIndex(of: "/")!])
        guard Self.makeFolders(folder) else { return }
        // A new file of our own (never through a link, never over another file), renamed into place.
        let temporary = file + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard (try? RegularFile.writeNew(PNGText.encode(pixels, text: text), to: temporary, mode: 0o600)) != nil else {
            return
        }
        if rename(temporary, file) != 0 { unlink(temporary) }
    }

    /// Waits until every queued thumbnail is on disk, `seconds` at most (at quit: the ones not
    /// written yet are made again next time); returns whether they all are.
    ///
    /// ```swift
    /// thumbnails.flush(within: 2) // before exiting
    /// ```
    @discardableResult
    public func flush(within seconds: Double = .infinity) -> Bool { writer.flush(within: seconds) }

    static func makeFolders(_ path: String) -> Bool {
        var built = ""
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST { return false }
        }
        return true
    }
}

/// Minimal PNG writing (RGBA, zlib) with text chunks, and text-chunk reading.
enum PNGText {
    static func encode(_ pixels: PixelBuffer, text: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        func be32(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)]
        }
        func chunk(_ type: String, _ data: [UInt8]) {
            let body = Array(type.utf8) + data
            out += be32(data.count) + body
            let crc = body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
            out += be32(Int(crc))
        }
        chunk("IHDR", be32(pixels.width) + be32(pixels.height) + [8, 6, 0, 0, 0])
        for (key, value) in text { chunk("tEXt", Array(key.utf8) + [0] + Array(value.utf8)) }
        // Scanlines, each with the "Up" filter (good for smooth photos), deflated.
        let stride = pixels.width * 4
        var raw = [UInt8](repeating: 0, count: (stride + 1) * pixels.height)
        pixels.bytes.withUnsafeBufferPointer { src in
            for y in 0..<pixels.height {
                let o = y * (stride + 1)
                raw[o] = 2
                for x in 0..<stride {
                    let above = y > 0 ? src[(y - 1) * stride + x] : 0
                    raw[o + 1 + x] = src[y * stride + x] &- above
                }
            }
        }
        var compressedSize = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedSize))
        _ = compressed.withUnsafeMutableBufferPointer { dst in
            raw.withUnsafeBufferPointer {
                compress2(dst.baseAddress, &compressedSize, $0.baseAddress, uLong(raw.count), 1)
            }
        }
        chunk("IDAT", Array(compressed.prefix(Int(compressedSize))))
        chunk("IEND", [])
        return out
    }

    /// The size and text chunks of a PNG (empty for anything else).
    static func read(_ b: [UInt8]) -> (width: Int, height: Int, text: [String: String]) {
        guard b.count > 33, b.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return (0, 0, [:]) }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        var text: [String: String] = [:]
        var i = 8
        while i + 8 <= b.count {
            let length = be32(i)
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let start = i + 8, end = start + length
            guard length >= 0, end + 4 <= b.count else { break }
            if type == "tEXt", let zero = b[start..<end].firstIndex(of: 0) {
                text[String(decoding: b[start..<zero], as: UTF8.self)] = String(
                    decoding: b[(zero + 1)..<end], as: UTF8.self)
            }
            if type == "IDAT" || type == "IEND" { break }  // the keys come before the image data
            i = end + 4
        }
        return (be32(16), be32(20), text)
    }
}

/// One thread at the lowest priority that runs queued writes in order (so it works when the
/// machine is otherwise idle); when it falls far behind, new writes are dropped (a thumbnail
/// not cached is made again next time). Jobs that hold memory (a photo's bytes) are queued
/// only while what all of them hold stays within `maxHeldBytes`.
final class BackgroundWriter: @unchecked Sendable {
    // `jobs`, `heldBytes`, `busy` and `thread` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var jobs: [(held: Int, run: @Sendable () -> Void)] = []
    private var heldBytes = 0
    private var busy = false
    private var thread: Thread?
    let maxQueued = 256
    let maxHeldBytes: Int

    init(maxHeldBytes: Int = 256 << 20) { self.maxHeldBytes = maxHeldBytes }

    /// Queues `job`, which holds `held` bytes until it has run. Returns false, queuing nothing,
    /// when the queue is full or those bytes would pass `maxHeldBytes`.
    @discardableResult
    func enqueue(holding held: Int = 0, _ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard jobs.count < maxQueued, held <= maxHeldBytes - heldBytes else { return false }
        jobs.append((held, job))
        heldBytes += held
        if thread == nil {
            // lives as long as the process once used
            thread = Thread.start(named: "tessera-thumbs", nice: 19) { self.run() }
        }
        condition.signal()
        return true
    }

    /// Waits until every queued job has run, `seconds` at most; returns whether they all did.
    @discardableResult
    func flush(within seconds: Double = .infinity) -> Bool {
        // (Foundation's NSCondition.wait(until: .distantFuture) traps on Linux: no deadline then.)
        let deadline = seconds.isFinite ? Date().addingTimeInterval(max(0, seconds)) : nil
        condition.lock()
        defer { condition.unlock() }
        while !jobs.isEmpty || busy {
            guard let deadline else {
                condition.wait()
                continue
            }
            if !condition.wait(until: deadline) { return jobs.isEmpty && !busy }
        }
        return true
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            busy = true
            condition.unlock()
            job.run()
            condition.lock()
            heldBytes -= job.held
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
