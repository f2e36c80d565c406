import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
#if canImport(Glibc)
    import Glibc
#endif

/// One folder of a library as a walk finds it: its photos (sorted by name) and its sidecar.
struct FoundFolder: Sendable {
    /// The folder's path as walked: the library's root followed by the names walked through.
    let path: String
    /// Its photos, each with `id` -1 (whoever gathers them numbers them).
    let photos: [Photo]
    /// Its `.tessera.json`, read (nil when it has none).
    let sidecar: FolderSidecar?
    /// When the walk began listing it (`MonotonicClock.nanoseconds`): its sidecar is as old as
    /// that at most, so a rating saved after it is newer than what `sidecar` says.
    let listedAt: UInt64

    /// The folder with its photos dated from `entries` (the index's, by path) where they still describe them.
    /// The marks of their embedded XMP go into the folder's sidecar where it has none of them.
    func dated(by entries: [String: IndexEntry]) -> FoundFolder {
        guard !entries.isEmpty else { return self }
        var marked = sidecar
        let dated = photos.map { photo -> Photo in
            guard let entry = entries[photo.path], entry.describes(photo) else { return photo }
            var photo = photo
            photo.taken = entry.facts.taken
            if let month = entry.facts.month { photo.month = month }
            photo.aspectRatio = entry.facts.aspectRatio
            if !entry.facts.embedded.isEmpty {
                var book = marked ?? FolderSidecar()
                if PhotoSidecars.applyEmbedded(entry.facts.embedded, to: &book, name: photo.name, path: photo.path) {
                    marked = book
                }
            }
            return photo
        }
        return FoundFolder(path: path, photos: dated, sidecar: marked, listedAt: listedAt)
    }
}

/// Walks a library: a folder and its subfolders at any depth, depth first, each folder's
/// photos in name order and then its subfolders in name order, so the photos come out in the
/// order of their paths. What is listed follows the hostile-folder rules:
/// - a photo is a regular file (or a link to one) named like an image; FIFOs, sockets,
///   devices and dangling links named `.jpg` are skipped;
/// - hidden files and folders are skipped;
/// - a folder met twice (a link loop, or links that fan out to one folder) is walked once;
/// - a link to a folder outside the library is not followed (`skipped` lists it);
/// - a subfolder that cannot be listed is reported in `problems`, and the walk goes on;
/// - past `limit` photos the walk stops and says so, so no folder makes it allocate without bound.
///
/// ```swift
/// var walk = LibraryWalk(root: "/photos")
/// try walk.run { folder in print(folder.path, folder.photos.count); return true }
/// ```
struct LibraryWalk {
    let root: String
    /// Photos listed at most.
    let limit: Int
    /// Subfolders that could not be listed, and why; and a note when the limit cut the walk short.
    private(set) var problems: [(path: String, why: String)] = []
    /// Folders not walked: links out of the library, and folders already walked under another path.
    private(set) var skipped: [String] = []
    private(set) var photoCount = 0

    /// Whether to trust the entry types `readdir` gives; false plays a file system that gives
    /// none (`DT_UNKNOWN`, as some NFS, FUSE and XFS mounts do), so every entry is `lstat`ed.
    let trustsEntryTypes: Bool

    init(root: String, limit: Int = 1_000_000, trustsEntryTypes: Bool = true) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.limit = max(1, limit)
        self.trustsEntryTypes = trustsEntryTypes
    }

    /// Walks the tree, handing each folder to `visit` (folders without photos too); `visit`
    /// returns false to stop. Throws when the root itself is missing, a file, or unreadable.
    mutating func run(_ visit: (FoundFolder) -> Bool) throws(PhotoLibrary.LoadError) {
        var st = stat()
        guard FileName.withCString(root, { stat($0, &st) }) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw .missing(root) }
            throw .unreadable(root, String(cString: strerror(errno)))
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .notAFolder(root) }
        let rootReal = Self.canonical(root) ?? root
        var seen: Set<FolderNode.FileIdentity> = [
            FolderNode.FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        ]
        var stack = [root]
        while let folder = stack.popLast() {
            let listedAt = MonotonicClock.nanoseconds()
            guard let listing = Self.list(folder, trustingTypes: trustsEntryTypes) else {
                let why = String(cString: strerror(errno))
                if folder == root { throw .unreadable(root, why) }
                problems.append((folder, why))
                continue
            }
            var photos: [Photo] = []
            var subfolders: [String] = []
            var passedOver = false  // a photo past the limit: the walk stops after this folder
            for entry in listing.entries {
                let path = folder == "/" ? "/" + entry.name : folder + "/" + entry.name
                var st = stat()
                if entry.looksLikeImage {
                    guard FileName.withCString(path, { stat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFREG else {
                        continue
                    }
                    guard photoCount < limit else {
                        passedOver = true
                        continue
                    }
                    photoCount += 1
                    let modified = Double(st.st_mtim.tv_sec)
                    photos.append(
                        Photo(
                            id: -1, path: path, name: entry.name, folder: folder, rating: Self.pseudoRating(entry.name),
                            size: Int64(st.st_size), modified: modified, month: PhotoMonth.key(of: modified)))
                } else if entry.mayBeFolder, FileName.withCString(path, { stat($0, &st) }) == 0,
                    st.st_mode & S_IFMT == S_IFDIR
                {
                    let identity = FolderNode.FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
                    if entry.isLink, let real = Self.canonical(path), real != rootReal,
                        !real.hasPrefix(rootReal == "/" ? "/" : rootReal + "/")
                    {
                        skipped.append(path)  // a link out of the library
                    } else if !seen.insert(identity).inserted {
                        skipped.append(path)  // a loop, or a folder already walked
                    } else {
                        subfolders.append(path)
                    }
                }
            }
            var sidecar = listing.hasSidecar ? FolderSidecar.load(folder: folder) : nil
            if !listing.xmpNames.isEmpty {
                var overlaid = sidecar ?? FolderSidecar()
                PhotoSidecars.overlayXMP(
                    &overlaid, folder: folder, photos: photos.map(\.name), xmpNames: listing.xmpNames)
                sidecar = overlaid
            }
            guard visit(FoundFolder(path: folder, photos: photos, sidecar: sidecar, listedAt: listedAt)) else { return }
            if passedOver {  // (a library of exactly `limit` photos is listed whole, and says nothing)
                problems.append((root, "more than \(limit) photos: the rest are not listed"))
                return
            }
            stack.append(contentsOf: subfolders.reversed())
        }
    }

    /// A stable pseudo-rating from the name, so benches' banners show stars (the browser
    /// replaces it with the sidecar's).
    static func pseudoRating(_ name: String) -> Int {
        var hash: UInt64 = 1469598103934665603
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
        return Int(hash % 6)
    }

    private struct Entry {
        let name: String
        let looksLikeImage: Bool
        /// A folder, a link (to anything), or a file system that does not say.
        let mayBeFolder: Bool
        let isLink: Bool
    }

    /// The folder's visible entries sorted by name, whether it has a sidecar, and its XMP
    /// sidecars' names; nil (errno
    /// set) when it cannot be listed. An entry whose type the file system does not give (or
    /// that is not trusted) is `lstat`ed, so a link is always known as one.
    private static func list(_ folder: String, trustingTypes: Bool) -> (
        entries: [Entry], hasSidecar: Bool, xmpNames: Set<String>
    )? {
        guard let dir = FileName.withCString(folder, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var entries: [Entry] = []
        var hasSidecar = false
        var xmpNames: Set<String> = []
        while let raw = readdir(dir) {
            var type = trustingTypes ? raw.pointee.d_type : UInt8(DT_UNKNOWN)
            // Every byte kept, UTF-8 or not: a Latin-1 name is listed (and shown with U+FFFD), not lost.
            let name = withUnsafePointer(to: &raw.pointee.d_name) {
                FileName.string(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name.hasPrefix(".") {
                if name == ".tessera.json" { hasSidecar = true }
                continue
            }
            if name.hasSuffix(".xmp") {
                xmpNames.insert(name)
                continue
            }
            if type == UInt8(DT_UNKNOWN) {
                var st = stat()
                let path = folder == "/" ? "/" + name : folder + "/" + name
                if FileName.withCString(path, { lstat($0, &st) }) == 0 {
                    let kind = st.st_mode & S_IFMT
                    type = UInt8(
                        kind == S_IFLNK ? DT_LNK : kind == S_IFDIR ? DT_DIR : kind == S_IFREG ? DT_REG : DT_UNKNOWN)
                }
            }
            let isLink = type == UInt8(DT_LNK)
            let looksLikeImage =
                name.lastIndex(of: ".").map {
                    ImageFormat.extensions.contains(name[name.index(after: $0)...].lowercased())
                } ?? false
            entries.append(
                Entry(
                    name: name, looksLikeImage: looksLikeImage,
                    mayBeFolder: type == UInt8(DT_DIR) || isLink || type == UInt8(DT_UNKNOWN), isLink: isLink))
        }
        entries.sort { $0.name < $1.name }
        return (entries, hasSidecar, xmpNames)
    }

    /// `path` with links resolved (nil when it cannot be).
    static func canonical(_ path: String) -> String? {
        guard let resolved = FileName.withCString(path, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FileName.string(cString: resolved)
    }
}

/// A `LibraryWalk` on a background thread: the browser takes what it found so far at each
/// frame (`take`), so the grid fills in as folders are walked and no frame waits for a disk.
/// With an index, each folder's photos come with the dates the index knows for them (files
/// unchanged since), so a second start groups them by month from the first frame. The first
/// folder found after a `take` wakes the frame loop (`FrameWaker`); the end does too.
///
/// ```swift
/// let scan = LibraryScan(root: "/photos")
/// // each frame:
/// let found = scan.take()
/// photos += found.folders.flatMap(\.photos)
/// if found.isDone { … }
/// ```
final class LibraryScan: Sendable {
    let root: String
    private struct State {
        var found: [FoundFolder] = []
        var folders = 0
        var photos = 0
        var isDone = false
        var failure: PhotoLibrary.LoadError?
        var skipped: [String] = []
        var cancelled = false
    }
    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)

    /// Starts walking `root` (at most `limit` photos), dating photos from `index` when it knows them.
    init(root: String, limit: Int = 1_000_000, index: LibraryIndex? = nil) {
        self.root = root
        // At nice 19: a frame the walk shares two cores with gets its core back at once.
        Thread.start(named: "tessera-scan", nice: 19) { [self] in walk(limit: limit, index: index) }
    }

    /// What was found since the last call, and how the walk stands.
    struct Progress {
        var folders: [FoundFolder]
        /// Folders and photos found so far, in all.
        var folderCount: Int, photoCount: Int
        var isDone: Bool
        var failure: PhotoLibrary.LoadError?
        /// Folders not walked (links out of the library, folders met twice).
        var skipped: [String]
    }

    func take() -> Progress {
        state.withLock { s in
            defer { s.found = [] }
            return Progress(
                folders: s.found, folderCount: s.folders, photoCount: s.photos, isDone: s.isDone, failure: s.failure,
                skipped: s.skipped)
        }
    }

    var isDone: Bool { state.withLock { $0.isDone } }

    /// Stops the walk at the next folder (what it found so far stays to take).
    func cancel() { state.withLock { $0.cancelled = true } }

    /// Waits until the walk ends (tests, and commands that need the whole library).
    func wait() {
        finished.wait()
        finished.signal()  // and for the next waiter
    }

    private func walk(limit: Int, index: LibraryIndex?) {
        var walk = LibraryWalk(root: root, limit: limit)
        var failure: PhotoLibrary.LoadError?
        var indexWorks = index != nil
        do {
            try walk.run { found in
                var folder = found
                if indexWorks, let index, !found.photos.isEmpty {
                    do { folder = found.dated(by: try index.entries(inFolder: found.path)) } catch {
                        Log.warn("cannot read the library index: \(error)")
                        indexWorks = false
                    }
                }
                let (wake, go) = state.withLock { s -> (Bool, Bool) in
                    s.found.append(folder)
                    s.folders += 1
                    s.photos += folder.photos.count
                    return (s.found.count == 1, !s.cancelled)
                }
                if wake { FrameWaker.wake() }
                return go
            }
        } catch {
            failure = error
        }
        for problem in walk.problems { Log.warn("\(problem.path): \(problem.why)") }
        let skipped = walk.skipped
        state.withLock { s in
            s.isDone = true
            s.failure = failure
            s.skipped = skipped
        }
        finished.signal()
        FrameWaker.wake()
    }
}
