import Foundation

/// A folder in the sidebar's tree. Its subfolders are read when it is first expanded.
public struct Folder: Identifiable, Sendable {
    public var path: String
    public var id: String { path }
    public var name: String { (path as NSString).lastPathComponent }

    public init(path: String) { self.path = path }
}

/// A file in the table. Its size and date are formatted once, when the folder is read: a
/// table calls its columns' text for every visible cell of every frame.
public struct FileEntry: Identifiable, Sendable {
    public var path: String
    public var name: String
    public var size: Int
    public var modified: Double
    public var sizeText: String
    public var modifiedText: String
    public var id: String { path }

    init(path: String, size: Int, modified: Double) {
        self.path = path
        name = (path as NSString).lastPathComponent
        self.size = size
        self.modified = modified
        sizeText = ByteCountFormatter.string(fromByteCount: Int64(size), countStyle: .file)
        modifiedText = Date(timeIntervalSince1970: modified).formatted(date: .numeric, time: .shortened)
    }
}

/// Reads folders. A file that cannot be read is listed with size 0; a folder that cannot be
/// read lists nothing. Links are not followed into folders, so a link loop cannot recurse.
public enum FolderReader {
    /// The subfolders of `path`, by name.
    public static func subfolders(of path: String) -> [Folder] {
        entries(of: path).filter { $0.isFolder }.map { Folder(path: $0.path) }
    }

    /// The files directly in `path`.
    public static func files(in path: String) -> [FileEntry] {
        entries(of: path).filter { !$0.isFolder }.map { FileEntry(path: $0.path, size: $0.size, modified: $0.modified) }
    }

    private struct Entry {
        var path: String
        var isFolder: Bool
        var size: Int
        var modified: Double
    }

    private static func entries(of path: String) -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { name in
            let full = (path as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(full, &info) == 0 else { return Entry(path: full, isFolder: false, size: 0, modified: 0) }
            return Entry(
                path: full, isFolder: info.st_mode & S_IFMT == S_IFDIR, size: Int(info.st_size),
                modified: Double(info.st_mtim.tv_sec))
        }
    }
}
