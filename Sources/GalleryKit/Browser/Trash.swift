import CSDL2
import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// The desktop's trash (the freedesktop trash specification), as file managers use it: files
/// go in with GIO's `g_file_trash`, which writes a `.trashinfo` recording where each came
/// from, and come back out with `restore`, which puts a file back where it was unless something
/// else has taken its name since.
///
/// ```swift
/// if case .success = Trash.move(photo.path) { trashed.append(photo.path) }
/// let items = Trash.find(trashed)              // where each went
/// items.values.forEach { _ = Trash.restore($0) } // Ctrl+Z
/// ```
enum Trash {
    /// A file in the trash, and where it came from.
    struct Item: Equatable, Sendable {
        /// Where it was.
        let original: String
        /// Where it is in the trash (`…/Trash/files/<name>`).
        let trashed: String
        /// Its `.trashinfo`.
        let info: String
    }

    /// Why a file could not go to the trash or come back.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    /// Moves `path` to the trash, or says why it could not (`find` tells where it went).
    static func move(_ path: String) -> Result<Void, Failure> {
        guard let file = FileName.withCString(path, { g_file_new_for_path($0) }) else {
            return .failure(Failure(description: "not a file name"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard g_file_trash(file, nil, &error) != 0 else {
            defer { g_error_free(error) }
            return .failure(Failure(description: error.map { String(cString: $0.pointee.message) } ?? "unknown error"))
        }
        return .success(())
    }

    /// Puts `item` back where it came from, and drops its `.trashinfo`. Never replaces a file
    /// that has taken its name since (that is refused, and the item stays in the trash).
    static func restore(_ item: Item) -> Failure? {
        // link + unlink: the name is taken only if it is free (no check-then-rename race), and
        // the file is in one place or the other at every moment.
        if FileName.withCString(item.trashed, { from in FileName.withCString(item.original) { link(from, $0) } }) != 0 {
            let why = errno
            if why == EEXIST {
                return Failure(
                    description: "a file named \(FileName.last(of: item.original)) is there now")
            }
            // Across file systems, or where links are not allowed: a rename that does not replace.
            guard why == EXDEV || why == EPERM || why == EMLINK else {
                return Failure(description: String(cString: strerror(why)))
            }
            if FileManager.default.fileExists(atPath: item.original) {
                return Failure(
                    description: "a file named \(FileName.last(of: item.original)) is there now")
            }
            guard
                FileName.withCString(item.trashed, { from in FileName.withCString(item.original) { rename(from, $0) } })
                    == 0
            else {
                return Failure(description: String(cString: strerror(errno)))
            }
        } else {
            _ = FileName.withCString(item.trashed) { unlink($0) }
        }
        _ = FileName.withCString(item.info) { unlink($0) }
        return nil
    }

    /// Where each of `paths` went: the newest item, in the trashes it could have gone to, whose
    /// `.trashinfo` names it. Missing: trashed somewhere this code does not know (not undoable
    /// from here). Each trash folder is listed once, and only the `.trashinfo` files named like
    /// one of `paths` are read (GIO names an item after its file, `photo.2.jpg` on a clash), so
    /// a full trash costs a listing, not a read of every file in it.
    static func find(_ paths: [String]) -> [String: Item] {
        let wanted = Set(paths)
        /// The part of a name before its first dot: what GIO keeps of it in a clashing item's name.
        func stem(_ name: String) -> Substring { name.prefix { $0 != "." } }
        let stems = Set(paths.map { stem(FileName.last(of: $0)) })
        var folders: [String] = []
        for path in paths {
            for folder in trashFolders(for: path) where !folders.contains(folder) { folders.append(folder) }
        }
        var newest: [String: (item: Item, date: Date)] = [:]
        for trash in folders {
            let infoFolder = trash + "/info"
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: infoFolder) else { continue }
            for name in names where name.hasSuffix(".trashinfo") && stems.contains(stem(name)) {
                let info = infoFolder + "/" + name
                guard let text = try? String(contentsOfFile: info, encoding: .utf8),
                    let original = originalPath(in: text),
                    wanted.contains(original)
                else { continue }
                let date =
                    (try? FileManager.default.attributesOfItem(atPath: info)[.modificationDate] as? Date)
                    ?? .distantPast
                if date >= newest[original]?.date ?? .distantPast {
                    let item = Item(
                        original: original, trashed: trash + "/files/" + String(name.dropLast(".trashinfo".count)),
                        info: info)
                    newest[original] = (item, date)
                }
            }
        }
        return newest.mapValues(\.item)
    }

    /// The `Path=` of a `.trashinfo`, unescaped (the spec escapes it as a URI path).
    static func originalPath(in info: String) -> String? {
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("Path=") }) else { return nil }
        return String(line.dropFirst("Path=".count)).removingPercentEncoding
    }

    /// Where the trash of `path` can be: the home trash (`$XDG_DATA_HOME/Trash`), and the
    /// trash at the top of its file system (`.Trash-<uid>`, or `.Trash/<uid>`), as GIO picks.
    static func trashFolders(for path: String) -> [String] {
        let environment = ProcessInfo.processInfo.environment
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory() + "/.local/share"
        var folders = [dataHome + "/Trash"]
        if let top = mountTop(of: (path as NSString).deletingLastPathComponent) {
            let base = top == "/" ? "" : top
            folders += [base + "/.Trash-\(getuid())", base + "/.Trash/\(getuid())"]
        }
        return folders
    }

    /// The top folder of the file system `folder` is on (its mount point).
    private static func mountTop(of folder: String) -> String? {
        var info = stat()
        guard FileName.withCString(folder, { stat($0, &info) }) == 0 else { return nil }
        var top = folder
        while top != "/" {
            let parent = (top as NSString).deletingLastPathComponent
            var up = stat()
            guard FileName.withCString(parent, { stat($0, &up) }) == 0, up.st_dev == info.st_dev else { break }
            top = parent
        }
        return top
    }
}
