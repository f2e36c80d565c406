import CSDL2
import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// What a photo's EXIF says about how it was taken, in words exiv2 formats ("1/250 s",
/// "F2.8"), for the viewer's info overlay (`I`).
struct PhotoInfo: Equatable, Sendable {
    /// (what, value) in the order shown: camera, lens, exposure, aperture, ISO, focal length, taken.
    var lines: [(String, String)]

    static func == (a: PhotoInfo, b: PhotoInfo) -> Bool {
        a.lines.map { $0.0 + "\u{0}" + $0.1 } == b.lines.map { $0.0 + "\u{0}" + $0.1 }
    }

    private static let tags: [(String, [String])] = [
        ("Camera", ["Exif.Image.Make", "Exif.Image.Model"]),
        ("Lens", ["Exif.Photo.LensModel"]),
        ("Exposure", ["Exif.Photo.ExposureTime"]),
        ("Aperture", ["Exif.Photo.FNumber"]),
        ("ISO", ["Exif.Photo.ISOSpeedRatings"]),
        ("Focal length", ["Exif.Photo.FocalLength"]),
        ("Taken", ["Exif.Photo.DateTimeOriginal"]),
    ]

    /// The photo's EXIF at `path` (a regular file: never a FIFO or a device), or nil when it
    /// has none exiv2 can read.
    static func read(_ path: String) -> PhotoInfo? {
        let file = FileName.bytes(path).map { CChar(bitPattern: $0) } + [0]
        let fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        let regular = fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG
        close(fd)
        guard regular, let metadata = tessera_gexiv2_metadata_new() else { return nil }
        defer { g_object_unref(metadata) }
        var error: UnsafeMutablePointer<GError>?
        guard tessera_gexiv2_metadata_open_path(metadata, file, &error) != 0 else {
            g_clear_error(&error)
            return nil
        }
        var lines: [(String, String)] = []
        for (what, keys) in tags {
            let values = keys.compactMap { key -> String? in
                guard let raw = tessera_gexiv2_metadata_try_get_tag_interpreted_string(metadata, key, &error) else {
                    g_clear_error(&error)
                    return nil
                }
                defer { g_free(raw) }
                let value = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
                return value.isEmpty ? nil : String(value.prefix(80))
            }
            if !values.isEmpty { lines.append((what, values.joined(separator: " "))) }
        }
        return lines.isEmpty ? nil : PhotoInfo(lines: lines)
    }
}

/// Photos' EXIF read on a background queue, as `DimensionCache` reads sizes: asking for one not
/// read yet returns nil at once and starts the read; the frame loop is woken when it lands.
final class PhotoInfoCache: Sendable {
    private enum Entry { case reading, read(PhotoInfo?) }
    private let entries = Locked<[String: Entry]>([:])
    private let queue = DispatchQueue(label: "tessera.photo-info", qos: .utility)
    /// Entries kept at most (a viewer shows one photo at a time).
    static let capacity = 256

    /// The photo's info, once read (`.some(nil)`: it has none).
    func info(of path: String) -> PhotoInfo?? {
        let entry = entries.withLock { state -> Entry? in
            if let entry = state[path] { return entry }
            if state.count >= Self.capacity { state.removeAll() }
            state[path] = .reading
            return nil
        }
        switch entry {
        case .read(let info)?: return .some(info)
        case .reading?: return nil
        case nil: break
        }
        queue.async { [self] in
            let info = PhotoInfo.read(path)
            entries.withLock { $0[path] = .read(info) }
            FrameWaker.wake()
        }
        return nil
    }

    /// Forgets what was read of `path` (the file changed).
    func forget(_ path: String) {
        entries.withLock { _ = $0.removeValue(forKey: path) }
    }
}
