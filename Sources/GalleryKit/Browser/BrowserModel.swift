import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// What the browser's sidebar can select.
enum SidebarItem: Hashable, Sendable {
    case allPhotos, favorites, recent
    case folder(String)
    /// A library opened before (the Recent Libraries section).
    case library(String)
}

/// A row of the sidebar's Library section.
struct LibraryEntry: Identifiable, Sendable {
    let id: SidebarItem
    let title: String
    let icon: Icon
}

/// A folder in the sidebar's outline. Its subfolders are listed only when it is expanded
/// (or drawn, to know whether it has any); symbolic links back to an ancestor are shown as
/// loops and not followed; a folder already in the tree under another path (links that fan
/// out) is shown as such and not expanded twice, so the tree holds each folder once however
/// the links run; folders that cannot be listed are marked unreadable.
struct FolderNode: Identifiable, Sendable {
    enum Status: Sendable { case readable, unreadable(String), loop, elsewhere(String) }
    let path: String
    let name: String
    let status: Status
    /// (device, inode) of this folder and its ancestors, to recognize loops.
    let lineage: [FileIdentity]
    /// Every folder of this tree met so far, by (device, inode), with the path it was met at.
    let walk: Walk
    var id: SidebarItem { .folder(path) }

    struct FileIdentity: Hashable, Sendable { let device: UInt64, inode: UInt64 }

    /// The folders one tree has met (shared by all its nodes).
    final class Walk: Sendable {
        private let seen = Locked<[FileIdentity: String]>([:])
        /// Where `identity` was first met: `path` itself when it is new.
        func claim(_ identity: FileIdentity, at path: String) -> String {
            seen.withLock { seen in
                if let first = seen[identity] { return first }
                seen[identity] = path
                return path
            }
        }
    }

    static func identity(_ path: String) -> FileIdentity? {
        var st = stat()
        guard FileName.withCString(path, { stat($0, &st) }) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    static func root(_ path: String) -> FolderNode {
        let walk = Walk(), identity = identity(path)
        if let identity { _ = walk.claim(identity, at: path) }
        return FolderNode(
            path: path, name: FileName.last(of: path), status: .readable,
            lineage: identity.map { [$0] } ?? [],
            walk: walk)
    }

    /// The subfolders (sorted, hidden ones skipped); nil when there are none or this one is
    /// unreadable or a loop.
    var subfolders: [FolderNode]? {
        guard case .readable = status else { return nil }
        guard let names = Self.names(in: path) else { return nil }
        var nodes: [FolderNode] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let child = path + "/" + name
            var st = stat()
            guard FileName.withCString(child, { stat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFDIR else { continue }
            let identity = FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
            let first = walk.claim(identity, at: child)
            if lineage.contains(identity) {
                nodes.append(FolderNode(path: child, name: name, status: .loop, lineage: lineage, walk: walk))
            } else if first != child {
                nodes.append(
                    FolderNode(path: child, name: name, status: .elsewhere(first), lineage: lineage, walk: walk))
            } else if let problem = Self.listingProblem(child) {
                nodes.append(
                    FolderNode(
                        path: child, name: name, status: .unreadable(problem), lineage: lineage + [identity], walk: walk
                    ))
            } else {
                nodes.append(
                    FolderNode(path: child, name: name, status: .readable, lineage: lineage + [identity], walk: walk))
            }
        }
        return nodes.isEmpty ? nil : nodes
    }

    /// The names in the folder at `path`, every byte of each kept (see `FileName`); nil when it cannot be listed.
    static func names(in path: String) -> [String]? {
        guard let dir = FileName.withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                FileName.string(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Why `path` cannot be listed (nil when it can).
    static func listingProblem(_ path: String) -> String? {
        guard let dir = FileName.withCString(path, { opendir($0) }) else { return String(cString: strerror(errno)) }
        closedir(dir)
        return nil
    }
}

/// File facts for the table and the inspector.
extension Photo {
    var kind: String {
        let ext = (name as NSString).pathExtension.lowercased()
        return ext == "jpg" || ext == "jpeg" || ext == "jpe" ? "JPEG image" : ext.uppercased() + " image"
    }
}

/// Image dimensions read from file headers (the first 64 KB at most, never from a FIFO or a
/// device) on a background queue: asking for a file not read yet returns nil at once and
/// starts the read, so scrolling a table over a cold disk never waits for it. An unreadable
/// file is remembered as such, not read again every frame.
final class DimensionCache: Sendable {
    private enum Entry { case reading, known(width: Int, height: Int), unreadable }
    /// Entries kept at most: past it, what was read is forgotten (and read again if asked).
    let capacity: Int
    init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }
    /// Entries held now.
    var count: Int { entries.withLock { $0.count } }
    private let entries = Locked<[String: Entry]>([:])
    private let queue = DispatchQueue(label: "tessera.dimensions", qos: .utility)

    /// The dimensions when known; nil while being read (or unreadable).
    func dimensions(of path: String) -> (width: Int, height: Int)? {
        let entry = entries.withLock { state -> Entry? in
            if let entry = state[path] { return entry }
            state[path] = .reading
            return nil
        }
        switch entry {
        case .known(let w, let h)?: return (w, h)
        case .reading?, .unreadable?: return nil
        case nil: break
        }
        queue.async { [self] in
            let result = Self.read(path)
            entries.withLock { state in
                // Past the capacity, what was read before is forgotten (read again if asked).
                if state.count > capacity {
                    state = state.filter { if case .reading = $0.value { true } else { false } }
                }
                state[path] = result.map { .known(width: $0.width, height: $0.height) } ?? .unreadable
            }
            FrameWaker.wake()  // the table shows them in the next frame
        }
        return nil
    }

    /// Forgets what was read of `path` (the file changed: it is read again when asked).
    func forget(_ path: String) {
        entries.withLock { _ = $0.removeValue(forKey: path) }
    }

    /// Takes dimensions known from elsewhere (the library index).
    func remember(_ path: String, width: Int, height: Int) {
        entries.withLock { state in
            if state.count > capacity { state = state.filter { if case .reading = $0.value { true } else { false } } }
            state[path] = .known(width: width, height: height)
        }
    }

    private static func read(_ path: String) -> (width: Int, height: Int)? {
        guard let head = try? ImageDecoder.readHeader(path, bytes: 64 * 1024),
            let info = try? ImageDecoder.inspect(head, name: path)
        else { return nil }
        return info.orientation >= 5 ? (info.height, info.width) : (info.width, info.height)
    }
}
