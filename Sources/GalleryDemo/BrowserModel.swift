import Foundation
import Synchronization
import Render2D
import Widgets

/// What the browser's sidebar can select.
enum SidebarItem: Hashable, Sendable {
    case allPhotos, favorites, recent
    case folder(String)
}

/// A row of the sidebar's Library section.
struct LibraryEntry: Identifiable, Sendable {
    let id: SidebarItem
    let title: String
    let icon: Icon
}

/// A folder in the sidebar's outline. Its subfolders are listed only when it is expanded
/// (or drawn, to know whether it has any); symbolic links back to an ancestor are shown as
/// loops and not followed; folders that cannot be listed are marked unreadable.
struct FolderNode: Identifiable, Sendable {
    enum Status: Sendable { case readable, unreadable(String), loop }
    let path: String
    let name: String
    let status: Status
    /// (device, inode) of this folder and its ancestors, to recognize loops.
    let lineage: [FileIdentity]
    var id: SidebarItem { .folder(path) }

    struct FileIdentity: Hashable, Sendable { let device: UInt64, inode: UInt64 }

    static func identity(_ path: String) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    static func root(_ path: String) -> FolderNode {
        FolderNode(path: path, name: (path as NSString).lastPathComponent, status: .readable, lineage: identity(path).map { [$0] } ?? [])
    }

    /// The subfolders (sorted, hidden ones skipped); nil when there are none or this one is
    /// unreadable or a loop.
    var subfolders: [FolderNode]? {
        guard case .readable = status else { return nil }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        var nodes: [FolderNode] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let child = path + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            guard let identity = Self.identity(child) else { continue }
            if lineage.contains(identity) {
                nodes.append(FolderNode(path: child, name: name, status: .loop, lineage: lineage))
            } else if let problem = Self.listingProblem(child) {
                nodes.append(FolderNode(path: child, name: name, status: .unreadable(problem), lineage: lineage + [identity]))
            } else {
                nodes.append(FolderNode(path: child, name: name, status: .readable, lineage: lineage + [identity]))
            }
        }
        return nodes.isEmpty ? nil : nodes
    }

    /// Why `path` cannot be listed (nil when it can).
    static func listingProblem(_ path: String) -> String? {
        guard let dir = opendir(path) else { return String(cString: strerror(errno)) }
        closedir(dir)
        return nil
    }
}

/// Ratings, favorites and tags of one folder's photos, kept in `.tessera.json` beside them.
/// A corrupt file is moved aside (`.tessera.json.corrupt-<time>`) and the folder starts fresh.
struct FolderSidecar: Codable, Equatable {
    var ratings: [String: Int] = [:]
    var favorites: Set<String> = []
    var tags: [String: String] = [:]

    static func path(for folder: String) -> String { folder + "/.tessera.json" }

    static func load(folder: String) -> FolderSidecar {
        let file = path(for: folder)
        guard let data = FileManager.default.contents(atPath: file) else { return FolderSidecar() }
        do { return try JSONDecoder().decode(FolderSidecar.self, from: data) } catch {
            let aside = file + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            try? FileManager.default.moveItem(atPath: file, toPath: aside)
            Log.warn("\(file) is corrupt (\(error)); moved it to \(aside) and started with no ratings")
            return FolderSidecar()
        }
    }

    func save(folder: String) {
        do {
            let data = try JSONEncoder().encode(self)
            try data.write(to: URL(fileURLWithPath: Self.path(for: folder)), options: .atomic)
        } catch {
            Log.warn("cannot save ratings in \(folder): \(error)")
        }
    }
}

/// File facts for the table and the inspector.
extension Photo {
    var kind: String {
        let ext = (name as NSString).pathExtension.lowercased()
        return ext == "jpg" || ext == "jpeg" || ext == "jpe" ? "JPEG image" : ext.uppercased() + " image"
    }
}

/// Image dimensions read from file headers (the first 64 KB at most) on a background queue:
/// asking for a file not read yet returns nil at once and starts the read, so scrolling a
/// table over a cold disk never waits for it.
final class DimensionCache: Sendable {
    private let known = Mutex<[String: (width: Int, height: Int)?]>([:])
    private let queue = DispatchQueue(label: "tessera.dimensions", qos: .utility)

    /// The dimensions when known; nil while being read (or unreadable).
    func dimensions(of path: String) -> (width: Int, height: Int)? {
        let cached = known.withLock { state -> (width: Int, height: Int)?? in
            if let entry = state[path] { return .some(entry) }
            state[path] = .some(nil) // reading
            return nil
        }
        if let cached { return cached }
        queue.async { [self] in
            let result = Self.read(path)
            known.withLock { $0[path] = result }
            FrameWaker.wake() // the table shows them in the next frame
        }
        return nil
    }

    /// Reads them now (the viewer, which needs them to lay out 1:1).
    func dimensionsNow(of path: String) -> (width: Int, height: Int)? {
        if let cached = known.withLock({ $0[path] }), let value = cached { return value }
        let result = Self.read(path)
        known.withLock { $0[path] = result }
        return result
    }

    private static func read(_ path: String) -> (width: Int, height: Int)? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var head = [UInt8](repeating: 0, count: 64 * 1024)
        let n = head.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard let info = try? ImageDecoder.inspect(Array(head.prefix(n)), name: path) else { return nil }
        return info.orientation >= 5 ? (info.height, info.width) : (info.width, info.height)
    }
}
