import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// Renames a file within its folder, as a file manager does: the new name is checked first
/// (not empty, no `/`, not `.` or `..`, at most 255 bytes), and the rename never replaces a
/// file that has the name already (a clash is refused, with a message).
///
/// ```swift
/// if let problem = FileRename.rename(photo.path, to: "beach.jpg") { show(problem) }
/// ```
enum FileRename {
    /// Why `name` cannot be a file's name, or nil when it can.
    static func problem(with name: String) -> String? {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { return "a name cannot be empty" }
        if name.contains("/") { return "a name cannot contain “/”" }
        if name == "." || name == ".." { return "“\(name)” is not a file name" }
        if name.unicodeScalars.contains(where: { $0.value == 0 }) { return "a name cannot contain a NUL character" }
        if FileName.bytes(name).count > 255 { return "the name is longer than 255 bytes" }
        return nil
    }

    /// Renames `path` to `name` in the same folder; returns why it could not, or nil.
    static func rename(_ path: String, to name: String) -> String? {
        if let problem = problem(with: name) { return problem }
        let target = (path as NSString).deletingLastPathComponent + "/" + name
        guard target != path else { return nil }
        // link + unlink: the new name is taken only if it is free, and the file always has one
        // of its two names (no check-then-rename race, no moment without it).
        if FileName.withCString(path, { from in FileName.withCString(target) { link(from, $0) } }) == 0 {
            _ = FileName.withCString(path) { unlink($0) }
            return nil
        }
        let why = errno
        switch why {
        case EEXIST: return "a file named “\(name)” is already there"
        case EACCES, EROFS: return "the folder is read-only"
        case EPERM, EMLINK, EXDEV:
            // A file system without hard links: a rename, refused if the name is taken.
            if FileManager.default.fileExists(atPath: target) { return "a file named “\(name)” is already there" }
            guard FileName.withCString(path, { from in FileName.withCString(target) { Glibc.rename(from, $0) } }) == 0
            else {
                return errno == EACCES || errno == EROFS ? "the folder is read-only" : String(cString: strerror(errno))
            }
            return nil
        default:
            return String(cString: strerror(why))
        }
    }
}
