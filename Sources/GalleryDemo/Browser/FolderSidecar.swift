import Foundation
import Render2D

/// Ratings, favorites and tags of one folder's photos, kept in `.tessera.json` beside them.
/// A corrupt file is moved aside (`.tessera.json.corrupt-<time>`) and the folder starts fresh.
struct FolderSidecar: Codable, Equatable {
    var ratings: [String: Int] = [:]
    var favorites: Set<String> = []
    var tags: [String: String] = [:]
    /// Set when the sidecar exists but could not be read (or moved aside): it is then never
    /// written over, and the folder's edits stay in memory.
    var isReadOnly = false
    /// Top-level keys this version does not know (a newer version's), kept as their JSON so a
    /// save writes them back unchanged.
    var unknown: [String: Data] = [:]

    private enum CodingKeys: String, CodingKey, CaseIterable { case ratings, favorites, tags }

    init(ratings: [String: Int] = [:], favorites: Set<String> = [], tags: [String: String] = [:], isReadOnly: Bool = false) {
        self.ratings = ratings; self.favorites = favorites; self.tags = tags; self.isReadOnly = isReadOnly
    }

    /// Lenient: a missing key is empty, and a rating of any size or sign is clamped to 0...5
    /// rather than the whole file declared corrupt.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try c.decodeIfPresent([String: Double].self, forKey: .ratings) ?? [:]
        ratings = raw.mapValues { $0.isFinite ? Int(min(max($0, 0), 5)) : 0 }.filter { $0.value > 0 }
        favorites = try c.decodeIfPresent(Set<String>.self, forKey: .favorites) ?? []
        tags = try c.decodeIfPresent([String: String].self, forKey: .tags) ?? [:]
    }

    static func path(for folder: String) -> String { folder + "/.tessera.json" }

    /// The sidecar in `bytes` (a file's contents), unknown top-level keys kept; throws when
    /// they are not a JSON object of the expected shape.
    static func decode(_ bytes: [UInt8]) throws -> FolderSidecar {
        let data = Data(bytes)
        var sidecar = try JSONDecoder().decode(FolderSidecar.self, from: data)
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let known = Set(CodingKeys.allCases.map(\.rawValue))
            for (key, value) in object where !known.contains(key) {
                sidecar.unknown[key] = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            }
        }
        return sidecar
    }

    /// The file's contents for this sidecar: known keys, then unknown ones written back as read.
    func encoded() throws -> Data {
        var object = (try JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: Any]) ?? [:]
        for (key, data) in unknown { object[key] = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The sidecar of `folder`: empty when there is none, read-only when it exists but cannot
    /// be read, and empty after moving a corrupt one aside.
    static func load(folder: String) -> FolderSidecar {
        let file = path(for: folder)
        let data: [UInt8]
        do throws(RegularFile.ReadError) { data = try RegularFile.read(file, maxBytes: 64 << 20) } catch {
            if case .unreadable = error, access(file, F_OK) != 0 && errno == ENOENT { return FolderSidecar() } // none yet
            Log.warn("cannot read \(file) (\(error)): this folder's ratings are read-only")
            return FolderSidecar(isReadOnly: true)
        }
        do {
            return try decode(data)
        } catch {
            // Kept aside under a name no other file has; if that fails, it is not written over.
            let aside = file + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard rename(file, aside) == 0 else {
                Log.warn("\(file) is corrupt (\(error)) and cannot be moved aside: this folder's ratings are read-only")
                return FolderSidecar(isReadOnly: true)
            }
            Log.warn("\(file) is corrupt (\(error)); moved it to \(aside) and started with no ratings")
            return FolderSidecar()
        }
    }

    /// Our changes since `base` (what was read) laid over `theirs` (what is in the file now,
    /// another instance's edits included): a three-way merge, name by name.
    static func merge(base: FolderSidecar, ours: FolderSidecar, theirs: FolderSidecar) -> FolderSidecar {
        var merged = theirs
        for name in Set(base.ratings.keys).union(ours.ratings.keys) where base.ratings[name] != ours.ratings[name] {
            merged.ratings[name] = ours.ratings[name]
        }
        for name in base.favorites.symmetricDifference(ours.favorites) {
            if ours.favorites.contains(name) { merged.favorites.insert(name) } else { merged.favorites.remove(name) }
        }
        for name in Set(base.tags.keys).union(ours.tags.keys) where base.tags[name] != ours.tags[name] {
            merged.tags[name] = ours.tags[name]
        }
        merged.unknown = theirs.unknown.merging(ours.unknown) { theirs, _ in theirs }
        return merged
    }

    /// Saves our changes since `base` under an advisory lock (`.tessera.lock`): the file is
    /// read again and merged (`merge`), so two instances editing one folder keep each other's
    /// edits; unknown keys are written back; the file keeps its permissions. Returns what is on
    /// disk now (the next save's base), or nil when nothing could be written (then try again).
    func save(folder: String, base: FolderSidecar) -> FolderSidecar? {
        guard !isReadOnly else { return nil }
        let file = Self.path(for: folder)
        let lock = Glibc.open(folder + "/.tessera.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard lock >= 0 else {
            Log.warn("cannot lock \(folder)/.tessera.lock: \(String(cString: strerror(errno)))")
            return nil
        }
        defer { close(lock) } // releases the lock
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        let theirs = Self.load(folder: folder)
        guard !theirs.isReadOnly else { return nil } // changed into something unreadable meanwhile: not written over
        let merged = Self.merge(base: base, ours: self, theirs: theirs)
        do {
            let data = try merged.encoded()
            var old = stat()
            let mode = stat(file, &old) == 0 ? old.st_mode & 0o7777 : nil
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
            if let mode { chmod(file, mode) }
            return merged
        } catch {
            Log.warn("cannot save ratings in \(folder): \(error)")
            return nil
        }
    }
}
