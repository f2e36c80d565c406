import CSDL2
import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// What the browser keeps of a photo in XMP: its rating, color label, pick or reject, and tags.
struct PhotoXMP: Equatable, Sendable {
    /// 0...5 stars.
    var rating = 0
    var label: ColorLabel?
    var flag: PickFlag?
    /// Keywords (`dc:subject`), in order.
    var tags: [String] = []
    /// The orientation the sidecar records (`tiff:Orientation`, a turn made in darktable,
    /// digiKam or here), as read; written only by `XMPSidecar.setOrientation`.
    var orientation: Int?
}

/// XMP sidecars through exiv2 (gexiv2), the record of ratings that other programs read: a
/// photo's `photo.jpg.xmp` (darktable, digiKam) or `photo.xmp` (Lightroom). It reads and
/// writes `xmp:Rating` (-1 for a rejected photo, as darktable and Lightroom do), `xmp:Label`,
/// `dc:subject` and digiKam's `PickLabel` (1 rejected, 3 accepted), and keeps every other
/// property of the file as it was. A sidecar that cannot be read is never written over.
///
/// ```swift
/// var xmp = try XMPSidecar.read(for: "/photos/a.jpg") ?? PhotoXMP()
/// xmp.rating = 4
/// try XMPSidecar.write(xmp, for: "/photos/a.jpg")   // `exiv2 -px a.jpg.xmp` shows it
/// ```
enum XMPSidecar {
    /// Why a sidecar could not be read or written.
    struct Failure: Error, CustomStringConvertible, Equatable {
        let description: String
    }

    /// Sidecars over this size are refused (a sidecar is a few kilobytes).
    static let maxBytes = 16 << 20

    /// The sidecars `photo` may have, in the order they are read: `photo.jpg.xmp`, then `photo.xmp`.
    static func candidates(for photo: String) -> [String] {
        let slash = photo.lastIndex(of: "/").map { photo.index(after: $0) } ?? photo.startIndex
        guard let dot = photo[slash...].lastIndex(of: "."), dot > slash else { return [photo + ".xmp"] }
        return [photo + ".xmp", String(photo[..<dot]) + ".xmp"]
    }

    /// The sidecar a write goes to: the `photo.xmp` that exists when there is no
    /// `photo.jpg.xmp`, else `photo.jpg.xmp`.
    static func target(for photo: String) -> String {
        let names = candidates(for: photo)
        if names.count == 2, !exists(names[0]), exists(names[1]) { return names[1] }
        return names[0]
    }

    /// The sidecars that belong to `photo` alone, and so go where it goes (renamed, trashed):
    /// its `photo.jpg.xmp`, and its `photo.xmp` unless another file shares that stem (a RAW
    /// and its JPEG share Lightroom's sidecar, which then stays for the other).
    static func ownSidecars(of photo: String) -> [String] {
        let names = candidates(for: photo)
        var own = names.prefix(1).filter(exists)
        if names.count == 2, exists(names[1]) {
            let folder = (photo as NSString).deletingLastPathComponent, name = FileName.last(of: photo)
            let stem = (name as NSString).deletingPathExtension + "."
            let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasPrefix(stem) && $0 != name && !$0.hasSuffix(".xmp") }
            if siblings.isEmpty { own.append(names[1]) }
        }
        return own
    }

    /// Renames the sidecars that belong to the photo at `old` alone (`ownSidecars`) to go
    /// with its new name `new` (the photo itself already renamed); returns the problems.
    static func renameSidecars(from old: String, to new: String) -> [String] {
        let oldNames = candidates(for: old), newNames = candidates(for: new)
        var problems: [String] = []
        for sidecar in ownSidecars(of: old) {
            guard let k = oldNames.firstIndex(of: sidecar), k < newNames.count else { continue }
            if let problem = FileRename.rename(sidecar, to: FileName.last(of: newNames[k])) {
                problems.append("\(FileName.last(of: sidecar)): \(problem)")
            }
        }
        return problems
    }

    /// The XMP embedded in a JPEG (an APP1 segment named `http://ns.adobe.com/xap/1.0/`, as
    /// Lightroom, darktable and cameras write it), from its first bytes `head`; a segment that
    /// lies past them (after a large EXIF block) is read from the file at `path`. Nil when it
    /// has none or exiv2 cannot read it. At most 16 segments are looked at, each at most 64 KB.
    static func embedded(inJPEG head: [UInt8], path: String) -> PhotoXMP? {
        guard head.count > 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        let namespace = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        var file: Int32 = -1
        defer { if file >= 0 { close(file) } }
        /// `count` bytes at `offset`: from `head`, else read from the file.
        func bytes(at offset: Int, count: Int) -> [UInt8]? {
            if offset + count <= head.count { return Array(head[offset..<(offset + count)]) }
            if file < 0 {
                // (A photo may be a link to a file, as the walk allows; never a FIFO or a device.)
                file = FileName.withCString(path) { Glibc.open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
                var info = stat()
                if file >= 0 && (fstat(file, &info) != 0 || info.st_mode & S_IFMT != S_IFREG) {
                    close(file)
                    file = -2  // not tried again
                }
            }
            guard file >= 0 else { return nil }
            var out = [UInt8](repeating: 0, count: count)
            let n = out.withUnsafeMutableBytes { pread(file, $0.baseAddress, count, off_t(offset)) }
            return n == count ? out : nil
        }
        var offset = 2
        for _ in 0..<16 {  // the segments before the image data: a handful in a real file
            guard let marker = bytes(at: offset, count: 4), marker[0] == 0xFF else { return nil }
            let length = Int(marker[2]) << 8 | Int(marker[3])
            if marker[1] == 0xDA || marker[1] == 0xD9 || length < 2 { return nil }  // the image data: no XMP before it
            if marker[1] == 0xE1, length > 2 + namespace.count,
                bytes(at: offset + 4, count: namespace.count) == namespace,
                let packet = bytes(at: offset + 4 + namespace.count, count: length - 2 - namespace.count),
                let metadata = try? open(bytes: packet, name: path)
            {
                defer { g_object_unref(metadata) }
                return values(of: metadata)
            }
            offset += 2 + length
        }
        return nil
    }

    /// The photo's XMP from its sidecar (nil when it has none); throws when one exists but
    /// cannot be read.
    static func read(for photo: String) throws(Failure) -> PhotoXMP? {
        guard let path = candidates(for: photo).first(where: exists) else { return nil }
        return try read(path)
    }

    /// The XMP of the sidecar at `path`.
    static func read(_ path: String) throws(Failure) -> PhotoXMP {
        let metadata = try open(path)
        defer { g_object_unref(metadata) }
        return values(of: metadata)
    }

    /// Writes `xmp` into the photo's sidecar (`target(for:)`), keeping what else the file
    /// holds; a new sidecar when it has none. The file is replaced whole (a new file renamed
    /// over it), and never when it could not be read.
    static func write(_ xmp: PhotoXMP, for photo: String) throws(Failure) {
        try update(photo) { metadata, path throws(Failure) in try set(xmp, in: metadata, path: path) }
    }

    /// The photo's orientation as its sidecar records it (`tiff:Orientation`, 1...8), as
    /// darktable and digiKam turn a photo; nil when it has no sidecar or the sidecar none.
    static func orientation(for photo: String) throws(Failure) -> Int? {
        guard let path = candidates(for: photo).first(where: exists) else { return nil }
        return try read(path).orientation
    }

    /// Records the photo's orientation in its sidecar (nil: removes it), keeping the rest.
    static func setOrientation(_ orientation: Int?, for photo: String) throws(Failure) {
        try update(photo) { metadata, path throws(Failure) in
            var error: UnsafeMutablePointer<GError>?
            if let orientation {
                guard
                    tessera_gexiv2_metadata_try_set_tag_string(
                        metadata, "Xmp.tiff.Orientation", String(orientation), &error)
                        != 0
                else {
                    throw Failure(description: "cannot set the orientation in \(path): \(message(error))")
                }
            } else {
                _ = tessera_gexiv2_metadata_try_clear_tag(metadata, "Xmp.tiff.Orientation", &error)
                g_clear_error(&error)
            }
        }
    }

    /// Changes the photo's sidecar with `change`, keeping what else the file holds; a new
    /// sidecar when it has none. The file is replaced whole (a new file renamed over it), and
    /// never when it could not be read.
    private static func update(_ photo: String, _ change: (Metadata, String) throws(Failure) -> Void) throws(Failure) {
        let path = target(for: photo)
        let original: [UInt8]?
        do throws(RegularFile.ReadError) {
            original = exists(path) ? try RegularFile.read(path, maxBytes: maxBytes) : nil
        } catch {
            throw Failure(description: "\(path) could not be read, so it is not written over: \(error)")
        }
        let bytes = original ?? emptyPacket
        let metadata = try open(bytes: bytes, name: path)
        defer { g_object_unref(metadata) }
        try change(metadata, path)
        var error: UnsafeMutablePointer<GError>?
        guard
            let packet = tessera_gexiv2_metadata_try_generate_xmp_packet(
                metadata, GExiv2XmpFormatFlags(rawValue: 0), 0, &error)
        else {
            throw Failure(description: "cannot write \(path): \(message(error))")
        }
        let text = Array(String(cString: packet).utf8)
        g_free(packet)
        // Into a new file beside it, then over it: a crash leaves the old sidecar or the new one.
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do throws(RegularFile.ReadError) { try RegularFile.writeNew(text, to: temporary, mode: 0o644) } catch {
            throw Failure(description: "cannot write beside \(path): \(error)")
        }
        // A sidecar another program made meanwhile is not replaced; ours (read above) is.
        // File names as the file system has them (a Latin-1 name too), not as Swift re-encodes them.
        let published = FileName.withCString(temporary) { from in
            FileName.withCString(path) { to in original == nil ? link(from, to) == 0 : rename(from, to) == 0 }
        }
        let why = String(cString: strerror(errno))
        _ = FileName.withCString(temporary) { unlink($0) }
        guard published else { throw Failure(description: "cannot write \(path): \(why)") }
    }

    // MARK: exiv2

    private typealias Metadata = UnsafeMutablePointer<GExiv2Metadata>

    /// A sidecar's start when there is none: an empty XMP packet, which exiv2 fills.
    private static let emptyPacket = Array(
        """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>
        <?xpacket end="w"?>
        """.utf8)

    /// exiv2 is set up once, before any thread uses it (its XMP toolkit is not thread-safe to start).
    private static let initialized: Bool = tessera_gexiv2_initialize() != 0

    static func exists(_ path: String) -> Bool { FileName.withCString(path) { access($0, F_OK) } == 0 }

    private static func open(_ path: String) throws(Failure) -> Metadata {
        let bytes: [UInt8]
        do throws(RegularFile.ReadError) { bytes = try RegularFile.read(path, maxBytes: maxBytes) } catch {
            throw Failure(description: "cannot read \(path): \(error)")
        }
        return try open(bytes: bytes, name: path)
    }

    private static func open(bytes: [UInt8], name: String) throws(Failure) -> Metadata {
        guard initialized, let metadata = tessera_gexiv2_metadata_new() else {
            throw Failure(
                description: tessera_gexiv2_available() == 0
                    ? "libgexiv2.so.2 could not be loaded (Debian: apt-get install libgexiv2-2)"
                    : "exiv2 could not start")
        }
        var error: UnsafeMutablePointer<GError>?
        let opened =
            bytes.withUnsafeBufferPointer {
                tessera_gexiv2_metadata_open_buf(metadata, $0.baseAddress, glong($0.count), &error)
            } != 0
        guard opened else {
            g_object_unref(metadata)
            throw Failure(description: "\(name) is not XMP exiv2 can read: \(message(error))")
        }
        return metadata
    }

    private static func values(of metadata: Metadata) -> PhotoXMP {
        var xmp = PhotoXMP()
        if let rating = string(metadata, "Xmp.xmp.Rating").flatMap(Double.init), rating.isFinite {
            if rating < 0 { xmp.flag = .rejected } else { xmp.rating = Int(min(rating, 5)) }
        }
        xmp.label = string(metadata, "Xmp.xmp.Label").flatMap { ColorLabel(rawValue: $0.capitalized) }
        switch string(metadata, "Xmp.digiKam.PickLabel") {
        case "1": xmp.flag = .rejected
        case "3": xmp.flag = .picked
        default: break
        }
        xmp.tags = strings(metadata, "Xmp.dc.subject")
        xmp.orientation = string(metadata, "Xmp.tiff.Orientation").flatMap(Int.init).flatMap {
            (1...8).contains($0) ? $0 : nil
        }
        return xmp
    }

    private static func set(_ xmp: PhotoXMP, in metadata: Metadata, path: String) throws(Failure) {
        func put(_ tag: String, _ value: String?) throws(Failure) {
            var error: UnsafeMutablePointer<GError>?
            if let value {
                guard tessera_gexiv2_metadata_try_set_tag_string(metadata, tag, value, &error) != 0 else {
                    throw Failure(description: "cannot set \(tag) in \(path): \(message(error))")
                }
            } else {
                _ = tessera_gexiv2_metadata_try_clear_tag(metadata, tag, &error)
                g_clear_error(&error)
            }
        }
        try put("Xmp.xmp.Rating", xmp.flag == .rejected ? "-1" : xmp.rating > 0 ? String(min(xmp.rating, 5)) : nil)
        try put("Xmp.xmp.Label", xmp.label?.rawValue)
        try put("Xmp.digiKam.PickLabel", xmp.flag.map { $0 == .picked ? "3" : "1" })
        var error: UnsafeMutablePointer<GError>?
        _ = tessera_gexiv2_metadata_try_clear_tag(metadata, "Xmp.dc.subject", &error)
        g_clear_error(&error)
        guard !xmp.tags.isEmpty else { return }
        let copies = xmp.tags.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var list: [UnsafePointer<gchar>?] = copies.map { UnsafePointer($0) } + [nil]
        guard tessera_gexiv2_metadata_try_set_tag_multiple(metadata, "Xmp.dc.subject", &list, &error) != 0 else {
            throw Failure(description: "cannot set the tags in \(path): \(message(error))")
        }
    }

    private static func string(_ metadata: Metadata, _ tag: String) -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard tessera_gexiv2_metadata_try_has_tag(metadata, tag, &error) != 0,
            let value = tessera_gexiv2_metadata_try_get_tag_string(metadata, tag, &error)
        else {
            g_clear_error(&error)
            return nil
        }
        defer { g_free(value) }
        return String(cString: value)
    }

    private static func strings(_ metadata: Metadata, _ tag: String) -> [String] {
        var error: UnsafeMutablePointer<GError>?
        guard tessera_gexiv2_metadata_try_has_tag(metadata, tag, &error) != 0,
            let values = tessera_gexiv2_metadata_try_get_tag_multiple(metadata, tag, &error)
        else {
            g_clear_error(&error)
            return []
        }
        defer { g_strfreev(values) }
        var result: [String] = []
        var i = 0
        while let value = values[i] {
            result.append(String(cString: value))
            i += 1
        }
        return result
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}
