import CSDL2
import Foundation
import Render2D

/// Turns JPEG photos a quarter turn without touching their pixels, as gThumb and Shotwell do:
/// the EXIF `Orientation` is changed (through exiv2), in a copy of the file renamed over it
/// only if the photo did not change meanwhile, so a crash or a refusal leaves the photo as it
/// was. Its new modification time gives it new thumbnails.
///
/// ```swift
/// if let problem = PhotoRotation.rotate("/photos/a.jpg", clockwise: true) { show(problem) }
/// ```
enum PhotoRotation {
    /// The EXIF orientation of a photo of orientation `orientation` turned a quarter turn
    /// clockwise, or counter-clockwise (mirrored orientations stay mirrored).
    static func turned(_ orientation: Int, clockwise: Bool) -> Int {
        let right = [1: 6, 6: 3, 3: 8, 8: 1, 2: 7, 7: 4, 4: 5, 5: 2]
        let left = Dictionary(uniqueKeysWithValues: right.map { ($0.value, $0.key) })
        return (clockwise ? right : left)[orientation] ?? (clockwise ? 6 : 8) // an unknown orientation counts as upright
    }

    /// Whether the photo at `path` can be turned (a JPEG).
    static func canRotate(_ path: String) -> Bool {
        ["jpg", "jpeg", "jpe"].contains((path as NSString).pathExtension.lowercased())
    }

    /// Turns the photo at `path` a quarter turn; returns why it could not, or nil.
    static func rotate(_ path: String, clockwise: Bool) -> String? {
        guard canRotate(path) else { return "only JPEG photos can be turned" }
        // File names as the file system has them (a Latin-1 name too), not as Swift re-encodes them.
        let file = FileCopy.cString(path)
        let copy = FileCopy.cString(path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { unlink(copy) }
        var before = stat()
        let source = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard source >= 0 else { return String(cString: strerror(errno)) }
        defer { close(source) }
        guard fstat(source, &before) == 0, before.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        if let problem = FileCopy.copy(source, to: copy, mode: before.st_mode & 0o7777) { return problem }
        guard let metadata = gexiv2_metadata_new() else { return "exiv2 could not start" }
        defer { g_object_unref(metadata) }
        var error: UnsafeMutablePointer<GError>?
        func failure(_ what: String) -> String {
            defer { g_clear_error(&error) }
            return what + ": " + (error.map { String(cString: $0.pointee.message) } ?? "unknown error")
        }
        guard gexiv2_metadata_open_path(metadata, copy, &error) != 0 else { return failure("exiv2 cannot read it") }
        let current = Int(gexiv2_metadata_try_get_orientation(metadata, &error).rawValue)
        g_clear_error(&error)
        gexiv2_metadata_try_set_orientation(metadata, GExiv2Orientation(rawValue: UInt32(turned(current, clockwise: clockwise))), &error)
        if error != nil { return failure("cannot set its orientation") }
        guard gexiv2_metadata_save_file(metadata, copy, &error) != 0 else { return failure("cannot write it") }
        // Renamed over the photo only if the photo is still the file that was copied.
        var now = stat()
        guard stat(file, &now) == 0, now.st_ino == before.st_ino, now.st_size == before.st_size,
              now.st_mtim.tv_sec == before.st_mtim.tv_sec, now.st_mtim.tv_nsec == before.st_mtim.tv_nsec else {
            return "it changed while being turned: left as it is"
        }
        guard rename(copy, file) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }
}
