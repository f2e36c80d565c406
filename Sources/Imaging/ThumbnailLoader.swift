import CSDL2
import Foundation
import Render2D

/// Which of an image's thumbnails: the one its file carries, or one decoded from the image.
public enum ThumbnailTier: Hashable, Sendable {
    /// The JPEG's EXIF thumbnail (`EmbeddedThumbnail`): small and blurry when scaled up, but
    /// ready in a few milliseconds. Drawn until the sharp one arrives.
    case embedded
    /// Decoded from the image at the size asked for.
    case sharp
    /// A rectangle of the image at full size or a DCT scale (`ImageDecoder.region`), for a
    /// viewer of photos too large to decode whole.
    case region(ImageRegion)
}

/// Which version of a file: its modification time and size, as `stat` gives them. A photo
/// edited by another program is a new version, with thumbnails of its own.
public struct FileVersion: Hashable, Sendable {
    /// The modification time, in nanoseconds since 1970.
    public var modifiedNs: Int64
    /// The size in bytes.
    public var size: Int64
    /// The orientation kept for it outside the file (`OrientationOverrides`), 0 for none: a
    /// photo turned in its sidecar is a new version, whose thumbnails are made again.
    public var orientation: Int
    /// No version known (the file could not be read, or its version is not asked).
    public static let unknown = FileVersion(modifiedNs: 0, size: -1)

    /// A version of `size` bytes modified at `modifiedNs`, turned to `orientation` (0: its own).
    public init(modifiedNs: Int64, size: Int64, orientation: Int = 0) {
        self.modifiedNs = modifiedNs
        self.size = size
        self.orientation = orientation
    }

    /// The version of the file at `path` now (`.unknown` when it cannot be read).
    ///
    /// ```swift
    /// let before = FileVersion.of("/photos/a.jpg")
    /// ```
    public static func of(_ path: String) -> FileVersion {
        var st = stat()
        guard FileName.withCString(path, { stat($0, &st) }) == 0 else { return .unknown }
        return FileVersion(
            modifiedNs: Int64(st.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(st.st_mtim.tv_nsec), size: Int64(st.st_size),
            orientation: OrientationOverrides.shared.orientation(for: path) ?? 0)
    }
}

/// One thumbnail to make: a version of a file at a size, from one tier.
public struct ThumbnailKey: Hashable, Sendable {
    /// The image file.
    public var path: String { didSet { pathHash = path.hashValue } }
    /// `path`'s hash, worked out once: a frame looks each visible cell's key up several times,
    /// and hashing the path each time was most of what that cost.
    private var pathHash: Int
    /// The size to make.
    public var spec: ThumbnailSpec
    /// Where it comes from.
    public var tier: ThumbnailTier
    /// The version of the file it is of: another version is another key, so an edited photo
    /// never shows the thumbnail of what it was.
    public var version: FileVersion
    /// The thumbnail of `path` (at `version`) at `spec`, from `tier`.
    public init(path: String, spec: ThumbnailSpec, tier: ThumbnailTier = .sharp, version: FileVersion = .unknown) {
        self.path = path
        pathHash = path.hashValue
        self.spec = spec
        self.tier = tier
        self.version = version
    }

    /// The key of `path` hashed already.
    init(_ path: HashedPath, spec: ThumbnailSpec, tier: ThumbnailTier, version: FileVersion) {
        self.path = path.path
        pathHash = path.hash
        self.spec = spec
        self.tier = tier
        self.version = version
    }

    /// Whether two keys name the same thumbnail: the same path, spec, tier and version.
    public static func == (a: ThumbnailKey, b: ThumbnailKey) -> Bool {
        a.pathHash == b.pathHash && a.path == b.path && a.spec == b.spec && a.tier == b.tier && a.version == b.version
    }

    /// The same thumbnail from the JPEG's EXIF thumbnail (`.embedded`), when the file may carry
    /// one: its name ends in .jpg, .jpeg or .jpe, in any case.
    var embeddedTier: ThumbnailKey? {
        let dot = path.utf8.lastIndex(of: UInt8(ascii: "."))
        guard let dot, ["jpg", "jpeg", "jpe"].contains(path[path.index(after: dot)...].lowercased()) else {
            return nil
        }
        return ThumbnailKey(path: path, spec: spec, tier: .embedded, version: version)
    }

    /// Mixes the key into `hasher`: the path's hash alone, worked out once. A path has a few
    /// keys at most (its sizes and tiers), which `==` tells apart, and a frame looks each
    /// visible cell's keys up several times.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(pathHash)
    }
}

/// A path with its hash, worked out once: the key of the dictionaries a frame looks each
/// visible cell's path up in.
struct HashedPath: Hashable {
    let path: String
    let hash: Int

    init(_ path: String) {
        self.path = path
        hash = path.hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    static func == (a: HashedPath, b: HashedPath) -> Bool { a.hash == b.hash && a.path == b.path }
}

/// A finished decode job, with its timeline (monotonic nanoseconds).
public struct ThumbnailResult: Sendable {
    /// What was asked for.
    public var key: ThumbnailKey
    /// The thumbnail, or why there is none.
    public var outcome: Result<DecodedThumbnail, ImageError>
    /// When it was requested (monotonic nanoseconds).
    public var requestedNs: UInt64
    /// When a worker started it.
    public var startedNs: UInt64
    /// When it finished.
    public var decodedNs: UInt64
    /// Which worker decoded it (0-based; one trace thread each).
    public var worker: Int
}

extension ThumbnailResult {
    /// The decoded pixels' size in bytes (0 for a failure).
    var pixelBytes: Int {
        guard case .success(let thumbnail) = outcome else { return 0 }
        return thumbnail.pixels.bytes.count
    }
}

/// The loader's counters (cumulative unless noted).
public struct ThumbnailLoaderStats: Sendable, Equatable {
    /// Waiting now.
    public var queued = 0
    /// Decoding now.
    public var running = 0
    /// Decodes finished.
    public var finished = 0
    /// Queued decodes cancelled before they started.
    public var cancelled = 0
    /// Decodes requested.
    public var requested = 0
    /// Time the workers spent decoding, summed over workers (nanoseconds).
    public var busyNs: UInt64 = 0
}

/// Decodes thumbnails on worker threads (`WorkerPools.decodeThreads` by default), most urgent first. Keys of
/// the embedded tier are read with `EmbeddedThumbnail`; the others with `decode`.
///
/// Every frame the app says which thumbnails it wants and how urgently (`request`): lower
/// priority values go first (visible cells, then the prefetch window ahead, then behind).
/// Waiting jobs that are no longer wanted are cancelled before they start; a key that is
/// queued, running or finished-but-not-taken is never decoded twice. Finished results are
/// collected on the main thread with `takeFinished`. Call `shutdown` when done: the worker
/// threads keep the loader alive until then.
///
/// ```swift
/// let loader = ThumbnailLoader()
/// loader.request([(key, 0.0)])              // each frame
/// for result in loader.takeFinished(limit: 8) { upload(result) }
/// ```
public final class ThumbnailLoader: @unchecked Sendable {
    private struct Job {
        var priority: Double
        var sequence: Int
        var requestedNs: UInt64
    }

    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var queued: [ThumbnailKey: Job] = [:]
    private var running: Set<ThumbnailKey> = []
    private var finished: [ThumbnailResult] = []
    private var stats = ThumbnailLoaderStats()
    private var sequence = 0
    private var stopping = false
    private var threads: [Thread] = []
    private var liveWorkers = 0

    /// How many worker threads decode.
    public let workerCount: Int
    private let decode: @Sendable (ThumbnailKey) -> Result<DecodedThumbnail, ImageError>

    /// Starts `workers` threads (1 to `WorkerPools.maximum`; default `WorkerPools.decodeThreads`);
    /// `decode` defaults to `ImageDecoder.thumbnail(path:spec:)`.
    public init(
        workers: Int = WorkerPools.decodeThreads,
        decode: @escaping @Sendable (ThumbnailKey) -> Result<DecodedThumbnail, ImageError> = ThumbnailLoader.decodeFile
    ) {
        workerCount = min(WorkerPools.maximum, max(1, workers))
        self.decode = decode
        liveWorkers = workerCount
        for index in 0..<workerCount {
            // The workers keep the loader alive until `shutdown`.
            threads.append(Thread.start(named: threadName("tessera-decode", index: index)) { self.work(index) })
        }
    }

    /// The decoder the workers run by default: `ImageDecoder.thumbnail(path:spec:)`.
    public static let decodeFile: @Sendable (ThumbnailKey) -> Result<DecodedThumbnail, ImageError> = { key in
        Result { () throws(ImageError) in try ImageDecoder.thumbnail(path: key.path, spec: key.spec) }
    }

    /// Replaces the wanted set: new keys are queued, queued keys get their new priority, and
    /// queued keys not listed are cancelled. Returns how many were cancelled.
    @discardableResult
    public func request(_ wanted: [(key: ThumbnailKey, priority: Double)]) -> Int {
        let now = MonotonicClock.nanoseconds()
        condition.lock()
        defer { condition.unlock() }
        var keep = Set<ThumbnailKey>(minimumCapacity: wanted.count)
        var added = false
        for (key, priority) in wanted {
            keep.insert(key)
            if queued[key] != nil {
                queued[key]!.priority = priority
            } else if !running.contains(key) && !finished.contains(where: { $0.key == key }) {
                sequence += 1
                queued[key] = Job(priority: priority, sequence: sequence, requestedNs: now)
                stats.requested += 1
                added = true
            }
        }
        var cancelled = 0
        for key in queued.keys where !keep.contains(key) {
            queued[key] = nil
            cancelled += 1
        }
        stats.cancelled += cancelled
        if added { condition.broadcast() }
        return cancelled
    }

    /// Starts on the thumbnails a window will show first, before the window and its renderer
    /// are made (that takes tens of milliseconds a decode worker can use): `paths` in the
    /// order they should arrive, each at `spec`, with every JPEG's embedded thumbnail first
    /// when `embedded`. The keys are those `ImagePipeline` asks for (the file's version as
    /// `stat` tells it now), so a cell built after its thumbnail finished draws it on sight.
    /// The first frame's `request` takes over: what it does not want is cancelled.
    ///
    /// ```swift
    /// let first = LazyGridInfo.firstScreen(columns: columns, count: photos.count, viewport: Size(1280, 800))
    /// loader.requestFirstScreen(photos[first.visible].map(\.path),
    ///                           spec: ImageFraming.thumbnailSpec(for: first.cellSize, scale: 1, mode: .fill))
    /// ```
    public func requestFirstScreen(_ paths: [String], spec: ThumbnailSpec, embedded: Bool = true) {
        var wanted: [(key: ThumbnailKey, priority: Double)] = []
        let step = 1 / Double(max(1, paths.count))
        for (i, path) in paths.enumerated() {
            let key = ThumbnailKey(path: path, spec: spec, version: FileVersion.of(path))
            // Embedded thumbnails go before every sharp decode, as a visible cell's do.
            if embedded, let small = key.embeddedTier { wanted.append((small, Double(i) * step - 1)) }
            wanted.append((key, Double(i) * step * 0.99))
        }
        request(wanted)
    }

    /// Up to `limit` finished results, oldest first.
    public func takeFinished(limit: Int = .max) -> [ThumbnailResult] {
        condition.lock()
        defer { condition.unlock() }
        let n = min(limit, finished.count)
        let taken = Array(finished.prefix(n))
        finished.removeFirst(n)
        return taken
    }

    /// The finished result for `key`, taken (nil when it has not finished, or was taken).
    ///
    /// ```swift
    /// if let result = loader.takeFinished(key) { upload(result) }  // a cell wants it now
    /// ```
    public func takeFinished(_ key: ThumbnailKey) -> ThumbnailResult? {
        condition.lock()
        defer { condition.unlock() }
        guard let index = finished.firstIndex(where: { $0.key == key }) else { return nil }
        return finished.remove(at: index)
    }

    /// Whether finished results wait to be taken.
    public var hasFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !finished.isEmpty
    }

    /// The counters now.
    public var snapshot: ThumbnailLoaderStats {
        condition.lock()
        defer { condition.unlock() }
        var s = stats
        s.queued = queued.count
        s.running = running.count
        return s
    }

    /// Cancels what is queued, and returns once every worker has finished its current job and
    /// stopped, or after `seconds` (a decode of a 200-megapixel photo, or one stuck on a dead
    /// disk, is not waited for at quit). Returns whether every worker stopped; one still in a
    /// decode stops as soon as the decode returns, its result dropped.
    @discardableResult
    public func shutdown(within seconds: Double = 2) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        queued.removeAll()
        condition.broadcast()
        // A year stands for "for ever": NSCondition.wait(until:) traps on Linux past a far date.
        let deadline = Date().addingTimeInterval(min(max(0, seconds), 365 * 86_400))
        while liveWorkers > 0 && condition.wait(until: deadline) {}
        return liveWorkers == 0
    }

    /// Worker threads still running (0 once `shutdown` has seen them all stop).
    public var runningWorkers: Int {
        condition.lock()
        defer { condition.unlock() }
        return liveWorkers
    }

    /// Decoding never delays a frame. Every worker but the first runs in the idle scheduling
    /// class: only on a core that nothing else wants, preempted the moment the UI or the
    /// rasterizer wakes. (At nice 10 a worker kept its core until its time slice ran out, and
    /// on a machine without a GPU that stretched the frame's present past its budget.) The first
    /// worker stays in the normal class at nice 19, so a machine busy with other programs still
    /// decodes.
    static func lowerPriority(worker index: Int) {
        if index == 0 || tessera_idle_current_thread() != 0 { tessera_nice_current_thread(19) }
    }

    /// A worker: takes the most urgent job (lowest priority, then oldest), decodes it unlocked.
    private func work(_ index: Int) {
        Self.lowerPriority(worker: index)
        while true {
            condition.lock()
            while queued.isEmpty && !stopping { condition.wait() }
            if stopping {
                liveWorkers -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            var best: (key: ThumbnailKey, job: Job)?
            for (key, job) in queued {
                if let b = best, (b.job.priority, b.job.sequence) <= (job.priority, job.sequence) { continue }
                best = (key, job)
            }
            let (key, job) = best!
            queued[key] = nil
            running.insert(key)
            condition.unlock()

            let started = MonotonicClock.nanoseconds()
            // The embedded tier is always the file's own thumbnail; `decode` makes the sharp one.
            let outcome: Result<DecodedThumbnail, ImageError> =
                switch key.tier {
                case .embedded: Result { () throws(ImageError) in try EmbeddedThumbnail.decode(path: key.path) }
                case .region(let region):
                    Result { () throws(ImageError) in try ImageDecoder.regionThumbnail(path: key.path, region) }
                case .sharp: decode(key)
                }
            let done = MonotonicClock.nanoseconds()

            condition.lock()
            running.remove(key)
            if stopping {  // shut down while decoding: the result is not wanted
                condition.unlock()
                continue
            }
            finished.append(
                ThumbnailResult(
                    key: key, outcome: outcome, requestedNs: job.requestedNs, startedNs: started,
                    decodedNs: done, worker: index))
            stats.finished += 1
            stats.busyNs += done - started
            condition.unlock()
            FrameWaker.wake(for: .images)  // the main thread uploads it in its next frame
        }
    }
}
