import CSDL2
import Foundation
import Render2D
import Imaging
import Profiling

/// Small app state that survives restarts (the role `UserDefaults` plays on Apple systems):
/// Codable values by key in one JSON file, saved atomically a moment after they change.
/// A corrupt file is moved aside (`state.json.corrupt-<time>-<pid>-<random>`), reported once
/// through `loadProblem` and the log, and the app starts from defaults. A file that cannot be
/// read at all (permissions, a FIFO, over 64 MB), or not moved aside, is never written over:
/// the store stays in memory (`isReadOnly`). A save that fails is tried again later.
///
/// ```swift
/// let store = PersistentStore.standard(app: "GalleryDemo")
/// var split = store.value("split.main", as: SplitState.self) ?? SplitState(fraction: 0.25)
/// store.set(split, for: "split.main")
/// ```
@MainActor
public final class PersistentStore {
    /// The JSON file the store reads and writes.
    public let path: String
    /// What went wrong reading the file at start-up, if anything (reported once).
    public private(set) var loadProblem: String?
    private var values: [String: Data] = [:]
    /// The values as last read or written: a save merges our changes since then.
    private var base: [String: Data] = [:]
    private var dirtySince: Double?
    /// The file could not be read: changes stay in memory and the file is left as it is.
    public private(set) var isReadOnly = false
    /// The largest state file read.
    public nonisolated static let maxBytes = 64 << 20
    /// Seconds to wait after a change before writing.
    public var saveDelay = 0.5

    /// A store kept in the JSON file at `path`, read now (a missing file starts empty).
    public init(path: String) {
        self.path = path
        load()
    }

    /// The store in SDL's per-user preference folder (e.g. `~/.local/share/Tessera/<app>/state.json`).
    /// Without one (no `HOME` nor `XDG_DATA_HOME`) the state is kept in memory only, with a
    /// warning: it is never written to a shared folder such as /tmp instead.
    public static func standard(app: String) -> PersistentStore {
        guard let raw = SDL_GetPrefPath("Tessera", app) else {  // SDL reads XDG_DATA_HOME, then HOME
            let store = PersistentStore(
                inMemoryBecause: "no preference folder (\(UserFolders.unknownReason)): "
                    + "window sizes, splits and sort orders are not kept after this session")
            return store
        }
        defer { SDL_free(raw) }
        return PersistentStore(path: String(cString: raw) + "state.json")
    }

    /// A store that keeps its values in memory only, for `reason` (reported as `loadProblem`).
    private init(inMemoryBecause reason: String) {
        path = ""
        isReadOnly = true
        loadProblem = reason
        Log.warn(reason)
    }

    private func load() {
        let bytes: [UInt8]
        do throws(RegularFile.ReadError) { bytes = try RegularFile.read(path, maxBytes: Self.maxBytes) } catch {
            if access(path, F_OK) != 0 && errno == ENOENT { return }  // no state yet
            isReadOnly = true
            loadProblem =
                "state file \(path) could not be read (\(error)); starting from defaults, and it is left as it is"
            Log.warn(loadProblem!)
            return
        }
        do {
            values = try Self.decodeValues(bytes)
            base = values
        } catch {
            let aside =
                path + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let moved = rename(path, aside) == 0
            isReadOnly = !moved
            loadProblem =
                "state file \(path) is corrupt (\(error)); starting from defaults"
                + (moved ? ", the old file is kept at \(aside)" : ", and it is left as it is")
            Log.warn(loadProblem!)
            values = [:]
        }
    }

    /// The values of a state file's bytes, by key (each as its JSON). Throws when they are
    /// not a JSON object with a "values" object.
    public nonisolated static func decodeValues(_ bytes: [UInt8]) throws -> [String: Data] {
        guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let stored = object["values"] as? [String: Any]
        else {
            throw StoreError.malformed("no \"values\" object")
        }
        var values: [String: Data] = [:]
        for (key, value) in stored {
            values[key] = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        }
        return values
    }

    enum StoreError: Error, CustomStringConvertible {
        case malformed(String)
        var description: String {
            switch self {
            case .malformed(let why): "malformed state file: \(why)"
            }
        }
    }

    /// The value stored for `key`, or nil when absent or of another shape.
    public func value<T: Decodable>(_ key: String, as type: T.Type) -> T? {
        guard let data = values[key] else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    /// Stores `value` for `key` (written to disk `saveDelay` seconds later by `saveIfNeeded`).
    public func set<T: Encodable>(_ value: T, for key: String) {
        guard let data = try? JSONEncoder().encode(value), values[key] != data else { return }
        values[key] = data
        if dirtySince == nil { dirtySince = MonotonicClock.seconds() }
    }

    /// Whether a change has not been written yet.
    public var hasUnsavedChanges: Bool { dirtySince != nil }

    /// Writes when a change is older than `saveDelay`, on a background queue (no frame waits
    /// for a lock, a write or an fsync); call once a frame. What the last write did is taken
    /// here too.
    public func saveIfNeeded() {
        takeWritten()
        guard !writing, let since = dirtySince, MonotonicClock.seconds() - since >= saveDelay else { return }
        guard !isReadOnly else {
            dirtySince = nil
            return
        }
        let sent = values, base = self.base, path = self.path, outcomes = self.outcomes
        writing = true
        dirtySince = nil  // a change made while it is written sets it again
        writer.async {
            let outcome = Self.write(path: path, ours: sent, base: base)
            outcomes.withLock { $0.append(Written(sent: sent, outcome: outcome)) }
            FrameWaker.wake()
        }
    }

    /// Writes in flight on `writer`, and what those that ran did (values sent, outcome).
    private var writing = false
    private let writer = DispatchQueue(label: "tessera.state", qos: .utility)
    private let outcomes = Locked<[Written]>([])
    /// A background write: the values sent, and what it did.
    private struct Written: Sendable {
        let sent: [String: Data]
        let outcome: WriteOutcome
    }

    /// Applies what the background writes did.
    private func takeWritten() {
        let taken = outcomes.withLock { (list: inout [Written]) -> [Written] in
            let taken = list
            list.removeAll()
            return taken
        }
        for written in taken {
            writing = false
            apply(written.outcome, sent: written.sent)
        }
    }

    /// Our changes since `base` laid over `theirs` (the file as it is now), key by key.
    nonisolated static func merge(base: [String: Data], ours: [String: Data], theirs: [String: Data]) -> [String: Data]
    {
        var merged = theirs
        for key in Set(base.keys).union(ours.keys) where base[key] != ours[key] { merged[key] = ours[key] }
        return merged
    }

    /// Why the last save did not write, if it did not: the file became unreadable after it was
    /// read (it is then never written over, and the store keeps its values in memory), another
    /// instance holds the lock (tried again), or the write failed (tried again).
    public private(set) var saveProblem: String?

    /// Writes now, under an advisory lock (`<file>.lock`, mode 0600, never waited for: when
    /// another instance, or a stopped one, holds it, the save is tried again `saveDelay` seconds
    /// later), merged with what another instance wrote since we read it (our changed keys win,
    /// the rest is theirs); atomically, with the old file's permissions (0600 for a new one). A
    /// file that became unreadable since it was read is not written over; one that became
    /// corrupt is moved aside first. A failed write is tried again `saveDelay` seconds later.
    /// Waits for a write `saveIfNeeded` started (quitting calls this).
    public func save() {
        writer.sync {}
        takeWritten()
        guard !isReadOnly else {
            dirtySince = nil
            return
        }
        let sent = values
        apply(Self.write(path: path, ours: sent, base: base), sent: sent)
    }

    /// What a write did: the values now on disk, or why it will be tried again, or why the file
    /// is left alone from now on.
    enum WriteOutcome: Sendable {
        case written([String: Data]), retry(String), keepInMemory(String)
    }

    /// Our values written to `path`: under the lock, merged with the file as it is now.
    nonisolated static func write(path: String, ours: [String: Data], base: [String: Data]) -> WriteOutcome {
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let lock = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0 {
            var status: Int32
            repeat { status = flock(lock, LOCK_EX | LOCK_NB) } while status != 0 && errno == EINTR
            if status != 0 { return .retry("another instance holds \(path).lock") }
        }
        var merged = ours
        switch readForMerge(path) {
        case .none: break
        case .values(let theirs): merged = merge(base: base, ours: ours, theirs: theirs)
        case .corrupt(let why):
            let aside =
                path + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard rename(path, aside) == 0 else {
                return .keepInMemory("state file \(path) became corrupt (\(why)) and cannot be moved aside")
            }
            Log.warn("state file \(path) became corrupt (\(why)); the old file is kept at \(aside)")
        case .unreadable(let why):
            return .keepInMemory("state file \(path) can no longer be read (\(why))")
        }
        var object: [String: Any] = [:]
        for (key, data) in merged {
            if let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
                object[key] = value
            }
        }
        do {
            let data = try JSONSerialization.data(
                withJSONObject: ["version": 1, "values": object], options: [.sortedKeys, .prettyPrinted])
            var old = stat()
            let mode = stat(path, &old) == 0 ? old.st_mode & 0o7777 : 0o600
            try RegularFile.replace(Array(data), at: path, mode: mode)
            chmod(path, mode)  // as it was, whatever the umask
            return .written(merged)
        } catch {
            return .retry("could not save state to \(path): \(error)")
        }
    }

    /// Takes what a write of `sent` did: on disk now is the base, and changes made meanwhile stay on top.
    private func apply(_ outcome: WriteOutcome, sent: [String: Data]) {
        switch outcome {
        case .written(let merged):
            values = Self.merge(base: sent, ours: values, theirs: merged)
            base = merged
            if values == merged { dirtySince = nil }
            saveProblem = nil
            saveFailureLogged = false
        case .retry(let why):
            retryLater(why)
        case .keepInMemory(let why):
            keepInMemory(why)
        }
    }

    /// What a save finds in the file before merging.
    private enum OnDisk { case none, values([String: Data]), corrupt(String), unreadable(String) }

    nonisolated private static func readForMerge(_ path: String) -> OnDisk {
        let bytes: [UInt8]
        do throws(RegularFile.ReadError) { bytes = try RegularFile.read(path, maxBytes: maxBytes) } catch {
            return access(path, F_OK) != 0 && errno == ENOENT ? .none : .unreadable(error.description)
        }
        do { return .values(try decodeValues(bytes)) } catch { return .corrupt("\(error)") }
    }

    /// Stays dirty: tried again after `saveDelay`; the reason is logged once.
    private func retryLater(_ why: String) {
        dirtySince = MonotonicClock.seconds()
        saveProblem = why + "; will try again"
        if !saveFailureLogged { Log.error(saveProblem!) }
        saveFailureLogged = true
    }

    /// The file is not written over from now on: values stay in memory.
    private func keepInMemory(_ why: String) {
        isReadOnly = true
        dirtySince = nil
        saveProblem = why + "; it is left as it is, and changes are kept in memory only"
        Log.warn(saveProblem!)
    }
    private var saveFailureLogged = false
}
