import CSDL2
import Foundation
import Render2D

/// Small app state that survives restarts (the role `UserDefaults` plays on Apple systems):
/// Codable values by key in one JSON file, saved atomically a moment after they change.
/// A corrupt or unreadable file is moved aside (`state.json.corrupt-<time>`), reported once
/// through `loadProblem` and the log, and the app starts from defaults.
///
/// ```swift
/// let store = PersistentStore.standard(app: "GalleryDemo")
/// var split = store.value("split.main", as: SplitState.self) ?? SplitState(fraction: 0.25)
/// store.set(split, for: "split.main")
/// ```
@MainActor
public final class PersistentStore {
    public let path: String
    /// What went wrong reading the file at start-up, if anything (reported once).
    public private(set) var loadProblem: String?
    private var values: [String: Data] = [:]
    private var dirtySince: Double?
    /// Seconds to wait after a change before writing.
    public var saveDelay = 0.5

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
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let stored = object["values"] as? [String: Any] else {
                throw StoreError.malformed("no \"values\" object")
            }
            for (key, value) in stored {
                values[key] = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            }
        } catch {
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            let moved = (try? FileManager.default.moveItem(atPath: path, toPath: aside)) != nil
            loadProblem = "state file \(path) could not be read (\(error)); starting from defaults"
                + (moved ? ", the old file is kept at \(aside)" : "")
            Log.warn(loadProblem!)
            values = [:]
        }
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

    public var hasUnsavedChanges: Bool { dirtySince != nil }

    /// Writes when a change is older than `saveDelay`; call once a frame.
    public func saveIfNeeded() {
        guard let since = dirtySince, MonotonicClock.seconds() - since >= saveDelay else { return }
        save()
    }

    /// Writes now (atomically: a temporary file renamed over the old one).
    public func save() {
        dirtySince = nil
        var object: [String: Any] = [:]
        for (key, data) in values {
            if let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) { object[key] = value }
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: ["version": 1, "values": object], options: [.sortedKeys, .prettyPrinted])
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            Log.error("could not save state to \(path): \(error)")
        }
    }
}
