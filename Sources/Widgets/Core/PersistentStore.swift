import CSDL2
import Foundation
import Render2D

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
    public static let maxBytes = 64 << 20
    /// Seconds to wait after a change before writing.
    public var saveDelay = 0.5

    /// A store kept in the JSON file at `path`, read now (a missing file starts empty).
    public init(path: String) {
        self.path = path
        load()
    }

    /// The store in SDL's per-user preference folder (e.g. `~/.local/share/Tessera/<app>/state.json`).
    public static func standard(app: String) -> PersistentStore {
        var folder = FileManager.default.temporaryDirectory.path + "/"
        if let raw = SDL_GetPrefPath("Tessera", app) {
            folder = String(cString: raw)
            SDL_free(raw)
        } else {
            Log.warn("no preference folder (\(String(cString: SDL_GetError()))); saving state to \(folder)")
        }
        return PersistentStore(path: folder + "state.json")
    }

    private func load() {
        let bytes: [UInt8]
        do throws(RegularFile.ReadError) { bytes = try RegularFile.read(path, maxBytes: Self.maxBytes) } catch {
            if access(path, F_OK) != 0 && errno == ENOENT { return } // no state yet
            isReadOnly = true
            loadProblem = "state file \(path) could not be read (\(error)); starting from defaults, and it is left as it is"
            Log.warn(loadProblem!)
            return
        }
        do {
            values = try Self.decodeValues(bytes)
            base = values
        } catch {
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let moved = rename(path, aside) == 0
            isReadOnly = !moved
            loadProblem = "state file \(path) is corrupt (\(error)); starting from defaults"
                + (moved ? ", the old file is kept at \(aside)" : ", and it is left as it is")
            Log.warn(loadProblem!)
            values = [:]
        }
    }

    /// The values of a state file's bytes, by key (each as its JSON). Throws when they are
    /// not a JSON object with a "values" object.
    public nonisolated static func decodeValues(_ bytes: [UInt8]) throws -> [String: Data] {
        guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let stored = object["values"] as? [String: Any] else {
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
        var description: String { switch self { case .malformed(let why): "malformed state file: \(why)" } }
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

    /// Writes when a change is older than `saveDelay`; call once a frame.
    public func saveIfNeeded() {
        guard let since = dirtySince, MonotonicClock.seconds() - since >= saveDelay else { return }
        save()
    }

    /// Our changes since `base` laid over `theirs` (the file as it is now), key by key.
    nonisolated static func merge(base: [String: Data], ours: [String: Data], theirs: [String: Data]) -> [String: Data] {
        var merged = theirs
        for key in Set(base.keys).union(ours.keys) where base[key] != ours[key] { merged[key] = ours[key] }
        return merged
    }

    /// Writes now, under an advisory lock (`<file>.lock`), merged with what another instance
    /// wrote since we read it (our changed keys win, the rest is theirs); atomically, with the
    /// old file's permissions. A failed write is tried again `saveDelay` seconds later, and its
    /// error logged once.
    public func save() {
        guard !isReadOnly else { dirtySince = nil; return }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let lock = Glibc.open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0 { while flock(lock, LOCK_EX) != 0 && errno == EINTR {} }
        if let bytes = try? RegularFile.read(path, maxBytes: Self.maxBytes), let theirs = try? Self.decodeValues(bytes) {
            values = Self.merge(base: base, ours: values, theirs: theirs)
        }
        var object: [String: Any] = [:]
        for (key, data) in values {
            if let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) { object[key] = value }
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: ["version": 1, "values": object], options: [.sortedKeys, .prettyPrinted])
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            var old = stat()
            let mode = stat(path, &old) == 0 ? old.st_mode & 0o7777 : nil
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            if let mode { chmod(path, mode) }
            base = values
            dirtySince = nil
            saveFailureLogged = false
        } catch {
            dirtySince = MonotonicClock.seconds() // stays dirty: tried again after `saveDelay`
            if !saveFailureLogged { Log.error("could not save state to \(path): \(error); will try again") }
            saveFailureLogged = true
        }
    }
    private var saveFailureLogged = false
}
