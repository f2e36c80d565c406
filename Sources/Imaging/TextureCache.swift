import Render2D

/// Thumbnail textures under a byte budget: when over it, the least recently drawn textures
/// that were not drawn this frame are destroyed first. Owns the textures it holds.
///
/// ```swift
/// let cache = TextureCache(budgetBytes: 256 << 20) { renderer.destroyTexture($0) }
/// cache.insert(key, texture: handle, width: w, height: h, frame: frame)
/// if let entry = cache.lookup(key, frame: frame) { draw(entry.texture) }
/// cache.evict(frame: frame)
/// ```
package final class TextureCache {
    public struct Entry: Sendable {
        public var texture: TextureHandle
        public var width: Int
        public var height: Int
        public var bytes: Int { width * height * 4 }
        public var lastDrawnFrame: Int
        /// Drawn at least once (so a cell that sees it for the first time can tell).
        public var wasDrawn = false
    }

    public var budgetBytes: Int
    public private(set) var bytes = 0
    public private(set) var evictions = 0
    // Looked up for every cell drawn, on the thread that draws (its owner, the main actor's
    // `ImagePipeline`): no dynamic exclusivity check.
    @exclusivity(unchecked) private var entries: [ThumbnailKey: Entry] = [:]
    /// Each path's most recently inserted sharp thumbnail (of any size) that is still held.
    private(set) var newestSharp: [String: ThumbnailKey] = [:]
    private let destroy: (TextureHandle) -> Void

    public init(budgetBytes: Int = 256 << 20, destroy: @escaping (TextureHandle) -> Void) {
        self.budgetBytes = max(0, budgetBytes)
        self.destroy = destroy
    }

    public var count: Int { entries.count }

    /// The entry for `key` (as it was), then marked as drawn in `frame`.
    public func lookup(_ key: ThumbnailKey, frame: Int) -> Entry? {
        guard let index = entries.index(forKey: key) else { return nil }  // hashed once
        let entry = entries.values[index]
        entries.values[index].lastDrawnFrame = frame
        entries.values[index].wasDrawn = true
        return entry
    }

    public func contains(_ key: ThumbnailKey) -> Bool { entries[key] != nil }

    /// The newest sharp thumbnail of `path` held at any size (what a cell that changed size
    /// draws until its own arrives), then marked as drawn in `frame`.
    public func lookupAnySize(_ path: String, frame: Int) -> Entry? {
        newestSharp[path].flatMap { lookup($0, frame: frame) }
    }

    /// Adds a texture (replacing and destroying any previous one for `key`).
    public func insert(_ key: ThumbnailKey, texture: TextureHandle, width: Int, height: Int, frame: Int) {
        if let old = entries.removeValue(forKey: key) {
            bytes -= old.bytes
            destroy(old.texture)
        }
        let entry = Entry(texture: texture, width: width, height: height, lastDrawnFrame: frame)
        entries[key] = entry
        bytes += entry.bytes
        if key.tier == .sharp { newestSharp[key.path] = key }
    }

    /// Destroys least-recently-drawn textures not drawn in `frame` until within budget.
    /// Returns how many went.
    @discardableResult
    public func evict(frame: Int) -> Int {
        guard bytes > budgetBytes else { return 0 }
        let candidates = entries.filter { $0.value.lastDrawnFrame < frame }.sorted {
            $0.value.lastDrawnFrame < $1.value.lastDrawnFrame
        }
        var gone = 0
        for (key, _) in candidates where bytes > budgetBytes {
            remove(key)
            gone += 1
        }
        evictions += gone
        return gone
    }

    /// Destroys the texture of `key`, if there is one.
    public func remove(_ key: ThumbnailKey) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        bytes -= entry.bytes
        destroy(entry.texture)
        if newestSharp[key.path] == key { newestSharp[key.path] = nil }
    }

    /// Destroys every texture.
    public func removeAll() {
        for entry in entries.values { destroy(entry.texture) }
        entries.removeAll()
        newestSharp.removeAll()
        bytes = 0
    }
}
