import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// A photo's color label, as Lightroom, darktable and digiKam write it (`xmp:Label`).
enum ColorLabel: String, CaseIterable, Sendable {
    case red = "Red", yellow = "Yellow", green = "Green", blue = "Blue"

    /// The label the number keys 6–9 set, as in Lightroom and darktable.
    init?(key digit: Int) {
        guard (6...9).contains(digit) else { return nil }
        self = Self.allCases[digit - 6]
    }
}

/// A photo picked or rejected (`P`, `X`).
enum PickFlag: Int, Sendable {
    case picked = 1, rejected = -1
}

/// Ratings, favorites, color labels, picks and tags of one folder's photos, kept in
/// `.tessera.json` beside them (and, but for favorites, in each photo's XMP sidecar: see
/// `PhotoSidecars`). A corrupt file is moved aside (`.tessera.json.corrupt-<time>`) and the
/// folder starts fresh.
@_spi(Fuzzing) public struct FolderSidecar: Codable, Equatable, Sendable {
    @_spi(Fuzzing) public var ratings: [String: Int] = [:]
    @_spi(Fuzzing) public var favorites: Set<String> = []
    @_spi(Fuzzing) public var tags: [String: String] = [:]
    /// Color labels by photo name ("Red", "Yellow", "Green", "Blue").
    var labels: [String: String] = [:]
    /// 1 picked, -1 rejected, by photo name.
    var flags: [String: Int] = [:]
    /// Photos whose XMP sidecar exists but could not be read: never written over.
    var unreadableXMP: Set<String> = []
    /// Photos whose values were read from outside this file (their XMP sidecar, or the XMP
    /// embedded in them): a save that finds the file without them keeps them (and so writes
    /// them there), rather than taking their absence for another instance's deletion.
    var readElsewhere: Set<String> = []
    /// Set when the sidecar exists but could not be read (or moved aside): it is then never
    /// written over, and the folder's edits stay in memory.
    @_spi(Fuzzing) public var isReadOnly = false
    /// Top-level keys this version does not know (a newer version's), kept as their JSON so a
    /// save writes them back unchanged.
    @_spi(Fuzzing) public var unknown: [String: Data] = [:]

    private enum CodingKeys: String, CodingKey, CaseIterable { case ratings, favorites, tags, labels, flags }

    init(
        ratings: [String: Int] = [:], favorites: Set<String> = [], tags: [String: String] = [:],
        isReadOnly: Bool = false
    ) {
        self.ratings = ratings
        self.favorites = favorites
        self.tags = tags
        self.isReadOnly = isReadOnly
    }

    /// Lenient: a missing key is empty, and a rating of any size or sign is clamped to 0...5
    /// rather than the whole file declared corrupt. Each key is read on its own: one of another
    /// shape (a newer version's, a hand edit) costs only that key, which `decode` keeps as it
    /// was read, and the sidecar is then not written over.
    @_spi(Fuzzing) public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var unreadable: [CodingKeys] = []
        func read<T: Decodable>(_ key: CodingKeys, as type: T.Type) -> T? {
            guard c.contains(key), (try? c.decodeNil(forKey: key)) != true else { return nil }  // absent or null: empty
            guard let value = try? c.decode(T.self, forKey: key) else {
                unreadable.append(key)
                return nil
            }
            return value
        }
        let raw = read(.ratings, as: [String: Double].self) ?? [:]
        ratings = raw.mapValues { $0.isFinite ? Int(min(max($0, 0), 5)) : 0 }.filter { $0.value > 0 }
        favorites = read(.favorites, as: Set<String>.self) ?? []
        tags = read(.tags, as: [String: String].self) ?? [:]
        labels = (read(.labels, as: [String: String].self) ?? [:]).filter { ColorLabel(rawValue: $0.value) != nil }
        flags = (read(.flags, as: [String: Int].self) ?? [:]).filter { $0.value == 1 || $0.value == -1 }
        unreadableKeys = Set(unreadable.map(\.rawValue))
        isReadOnly = !unreadable.isEmpty
    }

    /// Known keys of a shape this version cannot read (kept as they were in `unknown`).
    var unreadableKeys: Set<String> = []

    /// One photo's values, to carry them to another name or folder.
    struct Entry: Equatable {
        var rating: Int?
        var isFavorite = false
        var tags: String?
        var label: String?
        var flag: Int?
    }

    /// Photo `name`'s values (all empty when it has none).
    func entry(for name: String) -> Entry {
        Entry(
            rating: ratings[name], isFavorite: favorites.contains(name), tags: tags[name], label: labels[name],
            flag: flags[name])
    }

    /// Sets photo `name`'s values (nil: removes them).
    mutating func set(_ entry: Entry?, for name: String) {
        ratings[name] = entry?.rating
        if entry?.isFavorite == true { favorites.insert(name) } else { favorites.remove(name) }
        tags[name] = entry?.tags
        labels[name] = entry?.label
        flags[name] = entry?.flag
    }

    static func path(for folder: String) -> String { folder + "/.tessera.json" }

    /// The sidecar in `bytes` (a file's contents), unknown top-level keys kept; throws when
    /// they are not a JSON object of the expected shape.
    @_spi(Fuzzing) public static func decode(_ bytes: [UInt8]) throws -> FolderSidecar {
        let data = Data(bytes)
        var sidecar = try JSONDecoder().decode(FolderSidecar.self, from: data)
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            let known = Set(CodingKeys.allCases.map(\.rawValue)).subtracting(sidecar.unreadableKeys)
            for (key, value) in object where !known.contains(key) {
                sidecar.unknown[key] = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            }
        }
        return sidecar
    }

    /// The file's contents for this sidecar: known keys, then unknown ones written back as read.
    @_spi(Fuzzing) public func encoded() throws -> Data {
        var object = (try JSONSerialization.jsonObject(with: JSONEncoder().encode(self)) as? [String: Any]) ?? [:]
        for (key, data) in unknown {
            object[key] = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The sidecar of `folder`: empty when there is none, read-only when it exists but cannot
    /// be read, and empty after moving a corrupt one aside. A corrupt file is moved aside only
    /// under the folder's lock (taken here unless `lockHeld`) and only if it is still the file
    /// that was read (the same inode): another instance's repaired file is never renamed away.
    static func load(folder: String, lockHeld: Bool = false) -> FolderSidecar {
        let file = path(for: folder)
        let data: [UInt8], identity: (device: UInt64, inode: UInt64)
        do throws(RegularFile.ReadError) {
            let (fd, size) = try RegularFile.open(file)
            defer { close(fd) }
            guard size <= 64 << 20 else { throw .tooLarge(bytes: size, limit: 64 << 20) }
            var st = stat()
            fstat(fd, &st)
            identity = (UInt64(st.st_dev), UInt64(st.st_ino))
            var bytes: [UInt8] = []
            try RegularFile.read(fd, into: &bytes, upTo: (64 << 20) + 1)
            data = bytes
        } catch {
            if case .unreadable = error, FileName.withCString(file, { access($0, F_OK) }) != 0 && errno == ENOENT {
                return FolderSidecar()
            }  // none yet
            Log.warn("cannot read \(file) (\(error)): this folder's ratings are read-only")
            return FolderSidecar(isReadOnly: true)
        }
        let decoded: FolderSidecar
        do { decoded = try decode(data) } catch {
            return moveAside(folder: folder, identity: identity, lockHeld: lockHeld, why: "\(error)")
        }
        if !decoded.unreadableKeys.isEmpty {
            Log.warn(
                "\(file): \(decoded.unreadableKeys.sorted().joined(separator: ", ")) of a shape this version cannot read; "
                    + "kept as they are, and this folder's ratings are read-only")
        }
        return decoded
    }

    /// Moves the corrupt sidecar of `folder` aside, if it is still the file read (`identity`)
    /// and the folder's lock can be had; else it is left alone and the folder is read-only.
    static func moveAside(folder: String, identity: (device: UInt64, inode: UInt64), lockHeld: Bool, why: String)
        -> FolderSidecar
    {
        let file = path(for: folder)
        var lock: Int32 = -1
        if !lockHeld {
            lock = lockFolder(folder)
            guard lock >= 0 else {
                Log.warn(
                    "\(file) is corrupt (\(why)) and another instance holds its lock: left alone, this folder's ratings are read-only"
                )
                return FolderSidecar(isReadOnly: true)
            }
        }
        defer { if lock >= 0 { close(lock) } }
        var st = stat()
        guard FileName.withCString(file, { lstat($0, &st) }) == 0, UInt64(st.st_dev) == identity.device,
            UInt64(st.st_ino) == identity.inode
        else {
            Log.warn(
                "\(file) changed while it was read: left alone, this folder's ratings are read-only until it is read again"
            )
            return FolderSidecar(isReadOnly: true)
        }
        // Kept aside under a name no other file has; if that fails, it is not written over.
        let aside =
            file + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard FileName.withCString(file, { from in FileName.withCString(aside) { rename(from, $0) } }) == 0 else {
            Log.warn("\(file) is corrupt (\(why)) and cannot be moved aside: this folder's ratings are read-only")
            return FolderSidecar(isReadOnly: true)
        }
        Log.warn("\(file) is corrupt (\(why)); moved it to \(aside) and started with no ratings")
        return FolderSidecar()
    }

    /// The folder's lock (`.tessera.lock`, mode 0600), taken without waiting: its descriptor
    /// (closing it lets go), or -1 when it cannot be made or another instance holds it.
    static func lockFolder(_ folder: String) -> Int32 {
        let lock = FileName.withCString(folder + "/.tessera.lock") {
            Glibc.open($0, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        guard lock >= 0 else { return -1 }
        var status: Int32
        repeat { status = flock(lock, LOCK_EX | LOCK_NB) } while status != 0 && errno == EINTR
        guard status == 0 else {
            close(lock)
            return -1
        }
        return lock
    }

    /// Our changes since `base` (what was read) laid over `theirs` (what is in the file now,
    /// another instance's edits included): a three-way merge, name by name.
    @_spi(Fuzzing) public static func merge(base: FolderSidecar, ours: FolderSidecar, theirs: FolderSidecar)
        -> FolderSidecar
    {
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
        for name in Set(base.labels.keys).union(ours.labels.keys) where base.labels[name] != ours.labels[name] {
            merged.labels[name] = ours.labels[name]
        }
        for name in Set(base.flags.keys).union(ours.flags.keys) where base.flags[name] != ours.flags[name] {
            merged.flags[name] = ours.flags[name]
        }
        merged.unknown = theirs.unknown.merging(ours.unknown) { theirs, _ in theirs }
        // What was read from XMP is not in the file until a save puts it there: kept, not lost.
        for name in ours.readElsewhere where merged.entry(for: name) == Entry() {
            merged.set(ours.entry(for: name), for: name)
        }
        merged.readElsewhere = ours.readElsewhere.union(theirs.readElsewhere)
        merged.unreadableXMP = ours.unreadableXMP.union(theirs.unreadableXMP)  // never written over, after a save too
        return merged
    }

    /// Saves our changes since `base` under an advisory lock (`.tessera.lock`, mode 0600, never
    /// waited for: when another instance holds it, nothing is written and the caller tries
    /// again): the file is read again and merged (`merge`), so two instances editing one folder
    /// keep each other's edits; unknown keys are written back; the file keeps its permissions.
    /// Returns what is on disk now (the next save's base), or nil when nothing could be written
    /// (then try again).
    func save(folder: String, base: FolderSidecar) -> FolderSidecar? {
        guard !isReadOnly else { return nil }
        let file = Self.path(for: folder)
        let lock = Self.lockFolder(folder)
        guard lock >= 0 else {
            Log.warn("cannot lock \(folder)/.tessera.lock (\(String(cString: strerror(errno)))): tried again later")
            return nil
        }
        defer { close(lock) }  // releases the lock
        let theirs = Self.load(folder: folder, lockHeld: true)
        guard !theirs.isReadOnly else { return nil }  // changed into something unreadable meanwhile: not written over
        let merged = Self.merge(base: base, ours: self, theirs: theirs)
        do {
            let data = try merged.encoded()
            var old = stat()
            let mode = FileName.withCString(file, { stat($0, &old) }) == 0 ? old.st_mode & 0o7777 : 0o644
            try RegularFile.replace(Array(data), at: file, mode: mode)
            FileName.withCString(file) { _ = chmod($0, mode) }  // as it was, whatever the umask
            return merged
        } catch {
            Log.warn("cannot save ratings in \(folder): \(error)")
            return nil
        }
    }
}
