import Foundation
import GRDB
import Render2D
import Imaging
import Profiling
import DemoSupport

/// The library index: each photo's facts (`PhotoFacts`), cached in SQLite through GRDB (WAL
/// mode) under `$XDG_CACHE_HOME/tessera/`, keyed by path and checked against the file's size
/// and modification time, so a second start reads the index instead of every photo. It holds
/// no user data (ratings live in the folders' sidecars): an index that cannot be opened or is
/// corrupt is moved aside and built again.
///
/// ```swift
/// let index = try LibraryIndex(path: PhotoLibrary.cacheFolder("library-index.sqlite"))
/// let known = try index.entries(under: "/photos")       // path → size, mtime, facts
/// try index.store([IndexEntry(path: p, size: s, modified: m, facts: f)])
/// ```
final class LibraryIndex: Sendable {
    /// The database file.
    let path: String
    private let database: DatabaseQueue

    /// Opens (or creates) the index at `path`. A file that is not a sound index (corrupt, or not
    /// SQLite at all) is moved aside (`<path>.corrupt`, replacing any older one: one aside copy
    /// at most) and a new one created. An index another instance holds is waited for 5 s
    /// (SQLite's busy timeout, `busyTimeout` seconds), and that, a full disk, a read-only file system or a folder that
    /// cannot be written are errors (`IndexError`): a live index is never moved aside for them.
    init(path: String, busyTimeout: Double = 5) throws {
        self.path = path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            database = try Self.open(path, busyTimeout: busyTimeout)
        } catch let error as DatabaseError where Self.isDamage(error) {
            let aside = path + ".corrupt"
            Log.warn("the library index \(path) is damaged (\(error)); moved it to \(aside) and building it again")
            guard rename(path, aside) == 0 else {
                throw IndexError.cannotMoveAside(path, String(cString: strerror(errno)))
            }
            for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
            database = try Self.open(path, busyTimeout: busyTimeout)
        } catch let error as DatabaseError {
            throw IndexError.unavailable(path, Self.reason(error))
        }
    }

    /// Why the index cannot be used now, when it is not damaged.
    enum IndexError: Error, CustomStringConvertible {
        case unavailable(String, String), cannotMoveAside(String, String)
        var description: String {
            switch self {
            case .unavailable(let path, let why):
                "the library index \(path) cannot be used now (\(why)); dates are read from the photos"
            case .cannotMoveAside(let path, let why):
                "the library index \(path) is damaged and cannot be moved aside (\(why))"
            }
        }
    }

    /// Whether `error` says the file is not a sound database (as opposed to busy, full, read-only…).
    static func isDamage(_ error: DatabaseError) -> Bool {
        [ResultCode.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT].contains(error.resultCode)
    }

    private static func reason(_ error: DatabaseError) -> String {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: "another instance holds it"
        case .SQLITE_FULL: "the disk is full"
        case .SQLITE_READONLY: "it is read-only"
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: "it cannot be opened: \(error.message ?? "\(error)")"
        default: "\(error)"
        }
    }

    /// The standard index, or nil (with a warning) when even a fresh one cannot be made.
    static func standard() -> LibraryIndex? {
        do { return try LibraryIndex(path: try PhotoLibrary.cacheFolder("library-index.sqlite")) } catch {
            Log.warn("no library index: \(error)")
            return nil
        }
    }

    private static func open(_ path: String, busyTimeout: Double) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)  // another instance writing: wait, then say so
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("photos v1") { db in
            try db.create(table: "photo") { t in
                t.primaryKey("path", .text)
            }
        }
        // v2: each photo's folder, to read a folder's photos as the walk finds it. The index holds
        // nothing that cannot be read again from the files: older rows are dropped, not converted.
        migrator.registerMigration("photos v2") { db in
            try db.drop(table: "photo")
            try db.create(table: "photo") { t in
                t.primaryKey("path", .text)
                t.column("folder", .text).notNull().indexed()
                t.column("size", .integer).notNull()
                t.column("modified", .double).notNull()
                t.column("taken", .double)
                t.column("month", .integer)
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("orientation", .integer).notNull()
            }
        }
        // v3: the marks of the XMP embedded in the photo, read with its facts.
        migrator.registerMigration("photos v3") { db in
            try db.alter(table: "photo") { t in
                t.add(column: "xmp_rating", .integer)
                t.add(column: "xmp_label", .text)
                t.add(column: "xmp_flag", .integer)
            }
        }
        try migrator.migrate(queue)
        // A damaged file opens; its first real read says so.
        try queue.read { db in
            let check = try String.fetchOne(db, sql: "PRAGMA quick_check") ?? "no answer"
            guard check == "ok" else { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: check) }
        }
        return queue
    }

    /// Every entry whose path lies under `root`.
    func entries(under root: String) throws -> [String: IndexEntry] {
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let end = String(prefix.dropLast()) + "0"  // "/" + 1: the first path past the folder's
        return try entries(where: "path >= ? AND path < ?", [prefix, end])
    }

    /// The entries of the photos in `folder` itself (not its subfolders).
    func entries(inFolder folder: String) throws -> [String: IndexEntry] {
        try entries(where: "folder = ?", [folder])
    }

    private func entries(where condition: String, _ arguments: StatementArguments) throws -> [String: IndexEntry] {
        try database.read { db in
            var found: [String: IndexEntry] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM photo WHERE " + condition, arguments: arguments)
            while let row = try rows.next() {
                // a row it cannot read is read from the file again
                if let entry = IndexEntry(row) { found[entry.path] = entry }
            }
            return found
        }
    }

    /// Drops the entries of `paths` (their facts changed in a way their files do not show).
    func forget(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try database.write { db in
            let statement = try db.makeStatement(sql: "DELETE FROM photo WHERE path = ?")
            for path in paths { try statement.execute(arguments: [path]) }
        }
    }

    /// Adds or replaces `entries`, in one transaction.
    func store(_ entries: [IndexEntry]) throws {
        guard !entries.isEmpty else { return }
        try database.write { db in
            let statement = try db.makeStatement(
                sql: """
                    INSERT OR REPLACE INTO photo (path, folder, size, modified, taken, month, width, height, orientation,
                                                  xmp_rating, xmp_label, xmp_flag)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for e in entries {
                let marks = e.facts.embedded
                try statement.execute(arguments: [
                    e.path, (e.path as NSString).deletingLastPathComponent, e.size, e.modified, e.facts.taken,
                    e.facts.month, e.facts.width, e.facts.height, e.facts.orientation,
                    marks.rating, marks.label, marks.flag,
                ])
            }
        }
    }
}

extension IndexEntry {
    /// Whether it still describes `photo` (the same size and modification time).
    func describes(_ photo: Photo) -> Bool { size == photo.size && modified == photo.modified }
}

/// Reads every photo's facts in the background: from the index when it knows the file at its
/// size and modification time, else from the file's header (then written to the index in
/// batches). The browser takes what was found at each frame; the grid stays usable meanwhile.
///
/// ```swift
/// let scan = FactsScan(photos: photos, root: root, index: index)
/// // each frame:
/// for (id, facts) in scan.take().facts { … }
/// ```
final class FactsScan: Sendable {
    struct Progress {
        var facts: [(id: Int, path: String, facts: PhotoFacts)]
        /// Photos done so far, of all; and how many of them were read from their files.
        var done: Int, total: Int, readFromFiles: Int
        var isDone: Bool
    }
    private struct State {
        var found: [(id: Int, path: String, facts: PhotoFacts)] = []
        var done = 0
        var readFromFiles = 0
        var isDone = false
        var cancelled = false
    }
    private let state = Locked(State())
    private let finished = DispatchSemaphore(value: 0)
    let total: Int

    /// Starts reading the facts of `photos` under `root`, from `index` where it knows them; the
    /// sizes found go straight into `dimensions` (from this thread: a frame need not). A photo
    /// dated already (by the walk, from the index) has its facts handed back only if its file
    /// changed. The list is read on the scan's thread: a frame only retains it.
    init(photos: [Photo], root: String, index: LibraryIndex?, dimensions: DimensionCache? = nil) {
        total = photos.count
        Thread.start(named: "tessera-facts", nice: 19) { [self] in
            run(photos, root: root, index: index, dimensions: dimensions)
        }
    }

    /// What was found since the last call, and how far the scan is.
    func take() -> Progress {
        state.withLock { s in
            defer { s.found = [] }
            return Progress(
                facts: s.found, done: s.done, total: total, readFromFiles: s.readFromFiles, isDone: s.isDone)
        }
    }

    /// Stops at the next photo.
    func cancel() { state.withLock { $0.cancelled = true } }

    /// Waits until it ends.
    func wait() {
        finished.wait()
        finished.signal()
    }

    /// The facts of the photo at `path` from its first 64 KB, with its embedded XMP's marks.
    static func read(_ path: String) -> PhotoFacts {
        let unknown = PhotoFacts(taken: nil, month: nil, width: 0, height: 0, orientation: 1)
        guard let head = try? ImageDecoder.readHeader(path, bytes: 64 << 10) else { return unknown }
        // (a frame header past the first 64 KB: no size)
        var facts = PhotoFacts.read(head: head, name: path) ?? unknown
        if let xmp = XMPSidecar.embedded(inJPEG: head, path: path) {
            facts.embedded = EmbeddedMarks(
                rating: xmp.rating > 0 ? xmp.rating : nil, label: xmp.label?.rawValue, flag: xmp.flag?.rawValue)
        }
        return facts
    }

    private func run(_ photos: [Photo], root: String, index: LibraryIndex?, dimensions: DimensionCache?) {
        defer {
            state.withLock { $0.isDone = true }
            finished.signal()
            FrameWaker.wake()
        }
        // The index's entries of one folder at a time (photos come folder by folder, in path
        // order): a million photos' entries at once would cost a quarter of a gigabyte.
        var known: [String: IndexEntry] = [:]
        var knownFolder: String?
        var indexWorks = index != nil
        func entry(of photo: Photo) -> IndexEntry? {
            guard indexWorks, let index else { return nil }
            if knownFolder != photo.folder {
                knownFolder = photo.folder
                do { known = try index.entries(inFolder: photo.folder) } catch {
                    Log.warn("cannot read the library index: \(error)")
                    indexWorks = false
                    known = [:]
                }
            }
            return known[photo.path]
        }
        var toStore: [IndexEntry] = []
        var batch: [(id: Int, path: String, facts: PhotoFacts)] = []
        var fromFiles = 0
        /// Hands the batch over and stores what was read; false once cancelled.
        func hand(_ done: Int) -> Bool {
            if let dimensions {
                for (_, path, facts) in batch where facts.width > 0 {
                    dimensions.remember(path, width: facts.width, height: facts.height)
                }
            }
            let (wake, go) = state.withLock { s -> (Bool, Bool) in
                s.found += batch
                s.done = done
                s.readFromFiles = fromFiles
                return (!batch.isEmpty, !s.cancelled)
            }
            batch.removeAll(keepingCapacity: true)
            if wake { FrameWaker.wake() }
            if let index, !toStore.isEmpty {
                do { try index.store(toStore) } catch { Log.warn("cannot write the library index: \(error)") }
                toStore.removeAll(keepingCapacity: true)
            }
            return go
        }
        for (n, photo) in photos.enumerated() {
            if let entry = entry(of: photo), entry.size == photo.size, entry.modified == photo.modified {
                if photo.taken != nil {
                    if let dimensions, entry.facts.width > 0 {
                        dimensions.remember(photo.path, width: entry.facts.width, height: entry.facts.height)
                    }
                } else {
                    batch.append((photo.id, photo.path, entry.facts))
                }
            } else {
                let facts = Self.read(photo.path)
                fromFiles += 1
                batch.append((photo.id, photo.path, facts))
                toStore.append(IndexEntry(path: photo.path, size: photo.size, modified: photo.modified, facts: facts))
            }
            if toStore.count >= 500 || batch.count >= 5_000, !hand(n + 1) { return }
        }
        _ = hand(photos.count)
    }
}
