import Histogram
import Render2D

/// What a cell can draw for its image right now.
public enum ThumbnailState: Equatable, Sendable {
    /// The image is on the GPU: its texture and size in pixels.
    case ready(TextureHandle, width: Int, height: Int)
    /// The image is queued or decoding; draw a placeholder.
    case loading
    /// The image cannot be decoded: the reason, for an error tile.
    case failed(String)
}

/// The lazy image path's counters for one frame, recorded in `FrameRecord.lazy`.
public struct LazyPathCounters: Sendable, Equatable {
    /// Cells that asked for an image this frame.
    public var visibleCells = 0
    /// Visible cells drawn without their thumbnail (placeholder or still loading).
    public var placeholderCells = 0
    /// Visible cells drawn with their photo's embedded EXIF thumbnail while the sharp one is on its way.
    public var embeddedCells = 0
    /// Visible cells that changed size (a zoom, a resize) drawn with their thumbnail of the
    /// old size while the one of the new size is on its way.
    public var resizedCells = 0
    /// Visible cells not yet drawn with their sharp thumbnail at their own size (placeholders,
    /// embedded thumbnails and thumbnails of an old size): 0 once the screen is complete.
    public var cellsAwaitingSharpThumbnail: Int { placeholderCells + embeddedCells + resizedCells }
    /// Embedded thumbnails uploaded this frame (counted in `uploads` too).
    public var embeddedUploads = 0
    /// Decodes waiting for a worker.
    public var queued = 0
    /// Decodes running now.
    public var running = 0
    /// Decodes that finished / were cancelled since the previous frame.
    public var finished = 0
    /// Queued decodes cancelled this frame because no cell wants them any more.
    public var cancelled = 0
    /// Textures uploaded this frame.
    public var uploads = 0
    /// Bytes uploaded this frame.
    public var uploadBytes = 0
    /// Time spent uploading this frame, in nanoseconds.
    public var uploadNs: UInt64 = 0
    /// Bytes held by the texture cache.
    public var cacheBytes = 0
    /// Textures evicted from the cache this frame.
    public var evictions = 0
    /// Zero counters.
    public init() {}
}

/// One image's way through the pipeline (monotonic nanoseconds; 0 = not yet): requested →
/// embedded thumbnail decoded, uploaded and drawn (JPEGs that carry one) → sharp thumbnail
/// decoded → uploaded → drawn.
public struct ImageTimeline: Sendable {
    /// The image file.
    public var path: String
    /// When a cell first asked for it.
    public var requestedNs: UInt64 = 0
    /// When it was first visible.
    public var firstVisibleNs: UInt64 = 0
    /// When its embedded thumbnail finished decoding.
    public var embeddedDecodedNs: UInt64 = 0
    /// When its embedded thumbnail was uploaded.
    public var embeddedUploadedNs: UInt64 = 0
    /// When a cell first drew its embedded thumbnail.
    public var embeddedDrawnNs: UInt64 = 0
    /// When a worker started decoding it.
    public var startedNs: UInt64 = 0
    /// When the decode finished.
    public var decodedNs: UInt64 = 0
    /// When its texture was uploaded.
    public var uploadedNs: UInt64 = 0
    /// When a cell first drew it.
    public var firstDrawnNs: UInt64 = 0
    /// The worker that decoded it.
    public var worker = 0
    /// The JPEG DCT scale it was decoded at (1: full size).
    public var dctScale = 1
    /// Why it could not be decoded, if it could not.
    public var failure: String?
}

/// Lazy thumbnails for grids and lists: cells ask for their image every frame and draw what
/// is ready; the pipeline decodes on `ThumbnailLoader` workers by priority, uploads finished
/// decodes on the main thread under a per-frame time budget, keeps textures in a
/// `TextureCache` under a byte budget, and counts everything for the profiler. A visible
/// cell whose decode has finished takes it on sight, whatever the budget: it draws it in the
/// frame it is built in, not the one after.
///
/// Thumbnails come in two tiers. A JPEG's embedded EXIF thumbnail (`EmbeddedThumbnail`) is
/// asked for ahead of its sharp decode (a visible cell's ahead of every sharp decode) and
/// drawn as soon as it is there, upright and cropped
/// like the photo; the sharp thumbnail replaces it as soon as it is decoded, with no
/// placeholder in between. While `defersSharpTier` is set (a grid flung or scrubbed fast),
/// cells that can show an embedded thumbnail ask for nothing else.
///
/// ```swift
/// let images = ImagePipeline(renderer: host.window.renderer)
/// host.imagePipeline = images                        // AppHost calls beginFrame/endFrame
/// switch images.thumbnail(for: path, spec: ThumbnailSpec(side: 256), priority: 0) {
/// case .ready(let texture, _, _): drawList.addImage(texture, in: rect)
/// case .loading: drawPlaceholder()
/// case .failed(let why): drawErrorTile(why)
/// }
/// ```
@MainActor
public final class ImagePipeline {
    /// The worker threads that decode.
    public let loader: ThumbnailLoader
    /// The textures of the thumbnails, under a byte budget.
    package let cache: TextureCache
    /// Milliseconds of texture uploads allowed per frame (at least one upload always happens).
    public var uploadBudgetMs = 3.0
    /// Read JPEGs' embedded EXIF thumbnails first and draw them until the sharp ones arrive.
    public var usesEmbeddedThumbnails = true
    /// While true, cells whose image has (or may have) an embedded thumbnail ask only for it:
    /// set by a grid moving faster than it can decode, so cells only passed over cost no sharp
    /// decode. The sharp tier is asked for in the first frame it is false again.
    public var defersSharpTier = false
    /// Keep every image's timeline for a trace export (off: only latency statistics).
    public var keepsTimelines = false
    /// The images' timelines, while `keepsTimelines` is on.
    public private(set) var timelines: [ImageTimeline] = []
    /// The last 1,024 finished timelines (first drawn or failed), kept whatever
    /// `keepsTimelines` says, for the frame inspector. In no particular order.
    public private(set) var recentTimelines: [ImageTimeline] = []
    private var recentNext = 0
    /// Cell first visible → thumbnail first drawn, microseconds, over the cells that waited
    /// (drew a placeholder first). Thumbnails ready when their cell came into view are counted
    /// in `prefetchedInTime` instead. A cell that left the view before its sharp thumbnail came
    /// counts the time it was in view (it waited at least that long; `leftBeforeSharp`).
    public private(set) var latency = Histogram<UInt64>(
        highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
    /// Cells whose thumbnail was ready the moment they first became visible.
    public private(set) var prefetchedInTime = 0
    /// Cells that first became visible without their sharp thumbnail but with their embedded
    /// one, drawn in that first frame.
    public private(set) var embeddedOnFirstSight = 0
    /// Cells that first became visible with neither (a placeholder): their embedded thumbnail,
    /// if the file has one, was not read yet.
    public private(set) var placeholderOnFirstSight = 0
    /// Cells that left the view before their sharp thumbnail was drawn.
    public private(set) var leftBeforeSharp = 0
    /// The cells waiting for their sharp thumbnail in the last frame, and in this one.
    private var waitingVisible: Set<ThumbnailKey> = [], waitingNow: Set<ThumbnailKey> = []
    /// Decodes finished since the start.
    public private(set) var decodedTotal = 0
    /// Embedded thumbnails decoded since the start (not counted in `decodedTotal`).
    public private(set) var embeddedTotal = 0
    /// Decodes failed since the start.
    public private(set) var failedTotal = 0
    /// Finished decodes dropped since the start because nothing wanted them any more.
    public private(set) var droppedTotal = 0
    /// Textures uploaded since the start.
    public private(set) var uploadsTotal = 0
    /// Time spent uploading since the start, in nanoseconds.
    public private(set) var uploadNsTotal: UInt64 = 0
    /// This frame's counters (complete after `endFrame`).
    // (Counted for every cell and main actor only: no dynamic exclusivity check.)
    @exclusivity(unchecked) public private(set) var counters = LazyPathCounters()

    private let renderer: Renderer
    private var frame = 0
    private var wanted: [ThumbnailKey: Double] = [:]
    private var failures: [ThumbnailKey: String] = [:]
    private var pending: [ThumbnailKey: ImageTimeline] = [:]
    private var lastCancelled = 0
    private var lastFinished = 0
    /// Failures remembered at most (oldest forgotten first: retried if they come back).
    public var maxRememberedFailures = 10_000
    /// Failures remembered now.
    public var rememberedFailures: Int { failures.count }
    private var failureOrder: [ThumbnailKey] = []
    /// Images known to have no usable embedded thumbnail (forgotten past `maxRememberedFailures`).
    private var withoutEmbedded: Set<String> = []
    /// The priority of the embedded thumbnail of an image asked for at `priority`: a visible
    /// cell's (priority below 1) goes before every sharp decode, so the whole screen shows an
    /// image first; one of the prefetch window goes just before its own sharp decode, after the
    /// visible cells' sharp ones.
    private static func embeddedPriority(_ priority: Double) -> Double { priority < 1 ? priority - 1 : priority - 1e-6 }

    /// A visible cell's priority (below 1) once it has waited: divided by one more than the
    /// frames (at 60 Hz) it has been visible, so the cells that came into view first are
    /// decoded first, nearest the centre first among those that came together, and a row
    /// scrolling in waits behind the screen already showing placeholders.
    nonisolated static func waitingPriority(
        _ priority: Double, visibleSince: UInt64, now: UInt64 = MonotonicClock.nanoseconds()
    )
        -> Double
    {
        guard priority >= 0, priority < 1, visibleSince > 0, now > visibleSince else { return priority }
        return priority / (1 + Double(now - visibleSince) / 16_666_667)
    }

    /// A pipeline drawing with `renderer`, keeping at most `budgetBytes` of textures, decoding on `workers` threads (default: `WorkerPools.decodeThreads`).
    public convenience init(
        renderer: Renderer, budgetBytes: Int = 256 << 20, workers: Int? = nil,
        decode: @escaping @Sendable (ThumbnailKey) -> Result<DecodedThumbnail, ImageError> = ThumbnailLoader.decodeFile
    ) {
        self.init(
            renderer: renderer, budgetBytes: budgetBytes,
            loader: workers.map { ThumbnailLoader(workers: $0, decode: decode) } ?? ThumbnailLoader(decode: decode))
    }

    /// A pipeline drawing with `renderer` the thumbnails `loader` decodes: one started before
    /// the window, already decoding the first screen (`ThumbnailLoader.requestFirstScreen`).
    /// Cells whose thumbnail finished meanwhile draw it in the first frame they are built.
    ///
    /// ```swift
    /// let loader = ThumbnailLoader()
    /// loader.requestFirstScreen(firstPaths, spec: spec)  // while the window is made
    /// let host = try AppHost(options: .init(title: "Photos"))
    /// host.ui.images = ImagePipeline(renderer: host.window.renderer, loader: loader)
    /// ```
    public init(renderer: Renderer, budgetBytes: Int = 256 << 20, loader: ThumbnailLoader) {
        self.renderer = renderer
        self.loader = loader
        cache = TextureCache(budgetBytes: budgetBytes) { [unowned renderer] in renderer.destroyTexture($0) }
    }

    /// Stops the decode workers (waiting `seconds` at most: see `ThumbnailLoader.shutdown(within:)`)
    /// and frees the textures; returns whether every worker stopped.
    @discardableResult
    public func shutdown(within seconds: Double = 2) -> Bool {
        defer { cache.removeAll() }
        return loader.shutdown(within: seconds)
    }

    /// Starts a frame: the cells of this frame will ask for their images.
    public func beginFrame() {
        frame += 1
        wanted.removeAll(keepingCapacity: true)
        counters = LazyPathCounters()
    }

    /// What a visible cell should draw for `path`: the sharp thumbnail when it is there, else
    /// the embedded one, else a placeholder; asks for what is missing (at `priority`, lower first).
    public func thumbnail(for path: String, spec: ThumbnailSpec, priority: Double) -> ThumbnailState {
        let key = key(for: path, spec: spec)
        let priority = Self.waitingPriority(priority, visibleSince: pending[key]?.firstVisibleNs ?? 0)
        counters.visibleCells += 1
        if let entry = cache.lookup(key, frame: frame) ?? takeOnSight(key) {
            if var timeline = pending.removeValue(forKey: key) {
                finish(&timeline, drawnAt: MonotonicClock.nanoseconds())
            } else if !entry.wasDrawn {
                prefetchedInTime += 1
            }
            return .ready(entry.texture, width: entry.width, height: entry.height)
        }
        if let failure = failures[key] { return .failed(failure) }
        waitingNow.insert(key)
        let now = MonotonicClock.nanoseconds()
        let firstSight = (pending[key]?.firstVisibleNs ?? 0) == 0
        if pending[key] == nil {
            pending[key] = ImageTimeline(path: path, requestedNs: now, firstVisibleNs: now)
        } else if firstSight {
            pending[key]!.firstVisibleNs = now
        }
        if let entry = cache.lookupAnySize(path, frame: frame) {
            counters.resizedCells += 1
            if !defersSharpTier { want(key, priority) }
            return .ready(entry.texture, width: entry.width, height: entry.height)
        }
        var embedded = embeddedKey(for: key)
        var embeddedEntry: TextureCache.Entry?
        if let candidate = embedded {
            embeddedEntry = cache.lookup(candidate, frame: frame) ?? takeOnSight(candidate)
            if embeddedEntry == nil && withoutEmbedded.contains(key.path) { embedded = nil }  // its read found none
        }
        if let entry = embeddedEntry {
            counters.embeddedCells += 1
            if firstSight { embeddedOnFirstSight += 1 }
            if pending[key]!.embeddedDrawnNs == 0 { pending[key]!.embeddedDrawnNs = MonotonicClock.nanoseconds() }
            if !defersSharpTier { want(key, priority) }
            return .ready(entry.texture, width: entry.width, height: entry.height)
        }
        counters.placeholderCells += 1
        if firstSight { placeholderOnFirstSight += 1 }
        if let embedded { want(embedded, Self.embeddedPriority(priority)) }
        if embedded == nil || !defersSharpTier { want(key, priority) }
        return .loading
    }

    /// What a visible tile of a large image should draw: `region` of the file at `path`
    /// (`ImageDecoder.region`) when decoded, else `.loading` (asking for it at `priority`).
    ///
    /// ```swift
    /// if case .ready(let texture, _, _) = images.tile("/photos/200mp.jpg", region: tile, priority: 0) { … }
    /// ```
    public func tile(_ path: String, region: ImageRegion, priority: Double) -> ThumbnailState {
        let key = key(for: path, spec: ThumbnailSpec(side: max(region.width, region.height)), tier: .region(region))
        if let entry = cache.lookup(key, frame: frame) {
            return .ready(entry.texture, width: entry.width, height: entry.height)
        }
        if let failure = failures[key] { return .failed(failure) }
        want(key, priority)
        return .loading
    }

    /// Uploads `key`'s decode if it finished after this frame's uploads began (or was left
    /// over by their budget): a visible cell draws a thumbnail in the frame it can, whatever the
    /// budget (a screen holds few cells, and an embedded thumbnail is small).
    /// Returns its cache entry then (marked drawn in this frame), nil when there is none.
    @discardableResult
    private func takeOnSight(_ key: ThumbnailKey) -> TextureCache.Entry? {
        guard let result = loader.takeFinished(key) else { return nil }
        let start = MonotonicClock.nanoseconds()
        if let timesUpload {
            timesUpload { accept(result, forVisibleCell: true) }
        } else {
            accept(result, forVisibleCell: true)
        }
        letGo(of: consume result)
        counters.uploadNs += MonotonicClock.nanoseconds() - start
        return cache.lookup(key, frame: frame)
    }

    /// Decoded pixels of at least this many bytes are freed off the frame thread once uploaded.
    static let pixelBytesFreedInBackground = 1 << 20

    /// Finished decodes whose pixels went to `BackgroundRelease` to be freed.
    private(set) var decodesFreedInBackground = 0

    /// Drops a finished decode once its texture is made (or it was not wanted). Pixels of a
    /// megabyte or more go to `BackgroundRelease`: giving a large buffer's pages back to the
    /// system would hold up the frame that uploaded it (a 200 MP photo's pixels are 800 MB).
    /// A thumbnail's are freed here.
    private func letGo(of result: consuming ThumbnailResult) {
        guard result.pixelBytes >= Self.pixelBytesFreedInBackground else { return }
        decodesFreedInBackground += 1
        BackgroundRelease.release(result)
    }

    /// Runs each upload a visible cell takes on sight, in the middle of the frame's build, so
    /// a profiler can time it (`AppHost` opens its uploads scope around it, as around the
    /// uploads at the end of the frame).
    ///
    /// ```swift
    /// images.timesUpload = { upload in profiler.beginScope("uploads", "images"); upload(); profiler.endScope() }
    /// ```
    public var timesUpload: ((_ upload: () -> Void) -> Void)?

    /// Asks for a thumbnail that is not on screen yet (the prefetch window).
    public func prefetch(_ path: String, spec: ThumbnailSpec, priority: Double) {
        let key = key(for: path, spec: spec)
        guard !cache.contains(key), failures[key] == nil else { return }
        if pending[key] == nil { pending[key] = ImageTimeline(path: path, requestedNs: MonotonicClock.nanoseconds()) }
        let embedded = embeddedKey(for: key)
        if let embedded, !cache.contains(embedded) { want(embedded, Self.embeddedPriority(priority)) }
        if embedded == nil || !defersSharpTier { want(key, priority) }
    }

    /// The embedded tier of `key`, when its file may carry one (a JPEG by name not known to lack it).
    private func embeddedKey(for key: ThumbnailKey) -> ThumbnailKey? {
        guard usesEmbeddedThumbnails, !withoutEmbedded.contains(key.path) else { return nil }
        return key.embeddedTier
    }

    private func want(_ key: ThumbnailKey, _ priority: Double) {
        if let old = wanted[key], old <= priority { return }
        wanted[key] = priority
    }

    /// Submits this frame's wanted set, uploads finished decodes within the budget, evicts
    /// over-budget textures, and returns the frame's counters.
    @discardableResult
    public func endFrame() -> LazyPathCounters {
        loader.request(wanted.map { ($0.key, $0.value) })
        countCellsThatLeftWaiting()
        // Pending timelines of images that left the window without being drawn are forgotten.
        if pending.count > wanted.count * 2 + 64 {
            pending = pending.filter { wanted[$0.key] != nil }
        }
        let start = MonotonicClock.nanoseconds()
        let budgetNs = UInt64(max(0, uploadBudgetMs) * 1e6)
        let takenOnSight = counters.uploads
        while counters.uploads == takenOnSight || MonotonicClock.nanoseconds() - start < budgetNs {
            guard let result = loader.takeFinished(limit: 1).first else { break }
            accept(result)
            letGo(of: consume result)
        }
        uploadedForNextFrame = counters.uploads > takenOnSight
        counters.uploadNs += MonotonicClock.nanoseconds() - start
        uploadsTotal += counters.uploads
        uploadNsTotal += counters.uploads > 0 ? counters.uploadNs : 0
        counters.evictions = cache.evict(frame: frame)
        let stats = loader.snapshot
        counters.queued = stats.queued
        counters.running = stats.running
        counters.finished = stats.finished - lastFinished
        counters.cancelled = stats.cancelled - lastCancelled
        lastFinished = stats.finished
        lastCancelled = stats.cancelled
        counters.cacheBytes = cache.bytes
        return counters
    }

    /// Uploads a finished decode if a cell still wants it (`forVisibleCell`: one does now).
    private func accept(_ result: ThumbnailResult, forVisibleCell: Bool = false) {
        if result.key.tier == .embedded { return acceptEmbedded(result, forVisibleCell: forVisibleCell) }
        var embedded = result.key
        embedded.tier = .embedded
        cache.remove(embedded)  // the sharp one replaces it
        var timeline = pending[result.key] ?? ImageTimeline(path: result.key.path, requestedNs: result.requestedNs)
        timeline.startedNs = result.startedNs
        timeline.decodedNs = result.decodedNs
        timeline.worker = result.worker
        switch result.outcome {
        case .failure(let error):
            failedTotal += 1
            remember(failure: error.description, for: result.key)
            Log.warn("\(result.key.path): \(error)")
            timeline.failure = error.description
            pending[result.key] = nil
            keep(timeline)
        case .success(let thumb):
            decodedTotal += 1
            // Scrolled far away meanwhile: not worth a texture.
            guard forVisibleCell || wanted[result.key] != nil else {
                droppedTotal += 1
                return
            }
            let pixels = thumb.pixels, spec = result.key.spec
            let atSize =
                spec.drawnAtSize
                && (spec.fill ? min(pixels.width, pixels.height) : max(pixels.width, pixels.height)) == spec.side
            guard
                let texture = try? renderer.makeTexture(
                    width: pixels.width, height: pixels.height, pixels: pixels,
                    filter: atSize ? .nearest : .linear, opaque: thumb.isOpaque)
            else {
                remember(failure: "could not create a \(pixels.width)×\(pixels.height) texture", for: result.key)
                return
            }
            cache.insert(result.key, texture: texture, width: pixels.width, height: pixels.height, frame: frame - 1)
            counters.uploads += 1
            counters.uploadBytes += pixels.bytes.count
            timeline.uploadedNs = MonotonicClock.nanoseconds()
            timeline.dctScale = thumb.dctScale
            pending[result.key] = timeline
        }
    }

    /// An embedded thumbnail: uploaded when its sharp one is not there yet; when there is none
    /// (or it is damaged), the image is remembered as having none and only the sharp tier is asked for.
    private func acceptEmbedded(_ result: ThumbnailResult, forVisibleCell: Bool) {
        var sharp = result.key
        sharp.tier = .sharp
        guard case .success(let thumb) = result.outcome else {
            if withoutEmbedded.count >= max(1, maxRememberedFailures) { withoutEmbedded.removeAll() }
            withoutEmbedded.insert(result.key.path)
            return
        }
        embeddedTotal += 1
        guard forVisibleCell || wanted[result.key] != nil || wanted[sharp] != nil, !cache.contains(sharp) else {
            return
        }
        let pixels = thumb.pixels
        guard
            let texture = try? renderer.makeTexture(
                width: pixels.width, height: pixels.height, pixels: pixels, opaque: thumb.isOpaque)
        else { return }
        cache.insert(result.key, texture: texture, width: pixels.width, height: pixels.height, frame: frame - 1)
        counters.uploads += 1
        counters.embeddedUploads += 1
        counters.uploadBytes += pixels.bytes.count
        if pending[sharp] == nil { pending[sharp] = ImageTimeline(path: sharp.path, requestedNs: result.requestedNs) }
        pending[sharp]!.embeddedDecodedNs = result.decodedNs
        pending[sharp]!.embeddedUploadedNs = MonotonicClock.nanoseconds()
    }

    /// Cells that waited in the last frame and are gone from this one without their sharp
    /// thumbnail: each counts the time it was in view as its latency (a lower bound).
    private func countCellsThatLeftWaiting() {
        let now = MonotonicClock.nanoseconds()
        for key in waitingVisible where !waitingNow.contains(key) {
            guard let since = pending[key]?.firstVisibleNs, since > 0, now > since else { continue }
            _ = latency.record(max(1, (now - since) / 1000))
            leftBeforeSharp += 1
            pending[key]!.firstVisibleNs = 0  // back in view, it is a new sighting
        }
        swap(&waitingVisible, &waitingNow)
        waitingNow.removeAll(keepingCapacity: true)
    }

    private func finish(_ timeline: inout ImageTimeline, drawnAt now: UInt64) {
        timeline.firstDrawnNs = now
        if timeline.firstVisibleNs > 0 {
            _ = latency.record(max(1, (now - timeline.firstVisibleNs) / 1000))
        } else {
            prefetchedInTime += 1  // uploaded before its cell came into view: drawn on sight
        }
        keep(timeline)
    }

    private func keep(_ timeline: ImageTimeline) {
        if keepsTimelines { timelines.append(timeline) }
        if recentTimelines.count < 1024 {
            recentTimelines.append(timeline)
        } else {
            recentTimelines[recentNext] = timeline
        }
        recentNext = (recentNext + 1) % 1024
    }

    /// Whether the next frame has something to show without any input: textures uploaded at
    /// the end of this frame (cells draw them next frame), or finished decodes left over by the
    /// upload budget.
    public var needsFrame: Bool { uploadedForNextFrame || loader.hasFinished }
    private var uploadedForNextFrame = false

    /// Forgets the kept timelines (a new recording starts empty).
    public func clearTimelines() { timelines.removeAll() }

    /// Each file's version as last seen (`stat`, once a file is first asked for and once after
    /// each `filesMayHaveChanged`), with the check it was seen in.
    @exclusivity(unchecked) private var versions: [HashedPath: (version: FileVersion, check: Int)] = [:]
    /// Bumped by `filesMayHaveChanged`: versions seen before it are checked again when asked for.
    private var versionCheck = 0

    /// The version of `path`'s file that its thumbnails are of.
    private func version(of path: HashedPath) -> FileVersion {
        if let known = versions[path], known.check == versionCheck { return known.version }
        let version = FileVersion.of(path.path)
        versions[path] = (version, versionCheck)
        return version
    }

    /// The key of `path`'s thumbnail at `spec` from `tier`, of the file's version (the path
    /// hashed once for both).
    private func key(for path: String, spec: ThumbnailSpec, tier: ThumbnailTier = .sharp) -> ThumbnailKey {
        let hashed = HashedPath(path)
        return ThumbnailKey(hashed, spec: spec, tier: tier, version: version(of: hashed))
    }

    /// Files may have been changed by another program (a folder watcher said so): each file is
    /// checked again (`stat`) when next asked for, and one whose modification time or size
    /// changed is decoded again (its old thumbnail shown until the new one is ready); failures
    /// are forgotten, so a file that reads now is tried again.
    ///
    /// ```swift
    /// if watcher.takeChange() { ui.images?.filesMayHaveChanged() }
    /// ```
    public func filesMayHaveChanged() {
        versionCheck += 1
        if versions.count > 200_000 { versions.removeAll() }  // bounded: a version is read again when needed
        clearFailures()
    }

    /// Forgets failures (to retry after files changed).
    public func clearFailures() {
        failures.removeAll()
        failureOrder.removeAll()
        withoutEmbedded.removeAll()
    }

    /// Keeps `reason` for `key`, forgetting the older half when over `maxRememberedFailures`.
    private func remember(failure reason: String, for key: ThumbnailKey) {
        if failures.updateValue(reason, forKey: key) == nil { failureOrder.append(key) }
        guard failureOrder.count > max(1, maxRememberedFailures) else { return }
        let forgotten = failureOrder.prefix(failureOrder.count / 2)
        for key in forgotten { failures[key] = nil }
        failureOrder.removeFirst(forgotten.count)
    }
}
