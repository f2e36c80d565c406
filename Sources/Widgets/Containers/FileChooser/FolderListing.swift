import Foundation
import Render2D
import Imaging
import Profiling

/// One entry of a folder as the file chooser lists it.
public struct FolderEntry: Identifiable, Sendable, Equatable {
    /// Its place in the listing.
    public var id: Int
    /// Its name (bytes that are not UTF-8 kept as `FileName` escapes, so the path still opens).
    public var name: String
    /// Whether it is a folder, or a link to one.
    public var isFolder: Bool
    /// Its size in bytes (0 for folders).
    public var size: Int64
    /// When it was last modified (Unix seconds).
    public var modified: Int64
    /// Whether its name starts with a dot.
    public let isHidden: Bool
    /// Its name lowercased, for the filter (folded once, on the listing's thread).
    let foldedName: String

    init(id: Int, name: String, isFolder: Bool, size: Int64, modified: Int64) {
        self.id = id
        self.name = name
        self.isFolder = isFolder
        self.size = size
        self.modified = modified
        isHidden = name.hasPrefix(".")
        foldedName = name.lowercased()
    }
}

/// Lists a folder on a background thread: folders first, then files, each in natural order
/// ("IMG_9" before "IMG_10"), links shown as what they point to (never followed into a loop:
/// only the one entry is looked at). A folder of 100,000 entries lists in the background while
/// the chooser stays responsive; a new `list` makes any listing still running irrelevant.
///
/// ```swift
/// let listing = FolderListing()
/// listing.list("/home/ada/Pictures")
/// if case .listed(let entries)? = listing.result(for: "/home/ada/Pictures") { show(entries) }
/// ```
public final class FolderListing: Sendable {
    /// What a listing gave.
    public enum Outcome: Sendable, Equatable {
        /// The entries, sorted.
        case listed([FolderEntry])
        /// Why the folder could not be read.
        case failed(String)
    }

    private struct State {
        var generation = 0
        var path: String?
        var outcome: Outcome?
    }

    private let state = Locked(State())

    /// An idle listing.
    public init() {}

    /// Starts listing `path` (the previous listing's result is dropped).
    public func list(_ path: String) {
        let generation = state.withLock { s -> Int in
            s.generation += 1
            s.path = path
            s.outcome = nil
            return s.generation
        }
        Thread.start(named: "tessera-listing", nice: 5) { [state] in
            let outcome = Self.read(path)
            let current = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                s.outcome = outcome
                return true
            }
            if current { FrameWaker.wake() }
        }
    }

    /// The outcome for `path`, once its listing has finished; nil while it runs (or for another path).
    public func result(for path: String) -> Outcome? {
        state.withLock { $0.path == path ? $0.outcome : nil }
    }

    /// Reads `path` now (on the calling thread): the entries sorted, or why not.
    public static func read(_ path: String) -> Outcome {
        guard let dir = FileName.withCString(path, { opendir($0) }) else {
            return .failed(String(cString: strerror(errno)))
        }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        var entries: [FolderEntry] = []
        while let entry = readdir(dir) {
            // in place: a record may be shorter than a dirent
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { FileName.string(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            let found =
                FileName.withCString(name) { fstatat(fd, $0, &info, 0) == 0 }  // a link: what it points to
                || FileName.withCString(name) { fstatat(fd, $0, &info, AT_SYMLINK_NOFOLLOW) == 0 }
            let isFolder = found && (info.st_mode & S_IFMT) == S_IFDIR
            entries.append(
                FolderEntry(
                    id: 0, name: name, isFolder: isFolder, size: isFolder || !found ? 0 : Int64(info.st_size),
                    modified: found ? Int64(info.st_mtim.tv_sec) : 0))
        }
        let keys = entries.map { NaturalOrder.key($0.name) }
        var order = Array(entries.indices)
        order.sort { a, b in
            if entries[a].isFolder != entries[b].isFolder { return entries[a].isFolder }
            return keys[a].lexicographicallyPrecedes(keys[b])
        }
        return .listed(
            order.enumerated().map { n, i in
                var entry = entries[i]
                entry.id = n
                return entry
            })
    }
}
