import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
#if canImport(Glibc)
    import Glibc
#endif

/// `bench gallery`: a folder of photos in the adaptive grid of hero cells
/// (`GridItem(.adaptive(minimum: 180), spacing: 8)`), cold caches, scrolled 30 px a frame
/// at a 60 Hz frame pace (1,800 px/s). Reports janky frames (and, for the first 12, what
/// cost each the most, as `profile` tells it), the share of visible cells
/// drawn as placeholders, thumbnail latency, time to the first full screen (every visible
/// cell showing an image of either tier) and to the first sharp one, decode throughput and
/// texture memory. As an app would, it starts decoding its first screen before the window is
/// made (`ThumbnailLoader.requestFirstScreen`).
@MainActor
final class GalleryBench: BenchScene {
    let n: Int
    private let processStart: Double
    private let grid: PhotoGrid
    private(set) var images: ImagePipeline!
    private var host: AppHost!
    private var firstScreenMs: Double?
    private var sharpScreenMs: Double?
    /// When the first frame ended (monotonic seconds).
    private var firstFrameEnd: Double?
    private var firstScreenAfterFirstFrameMs: Double?
    private var sharpScreenAfterFirstFrameMs: Double?
    private var visibleCellFrames = 0
    private var placeholderCellFrames = 0
    private var peakTextureBytes = 0
    private var pacer = FramePacer()
    /// When the first frame started (the run's wall clock, warm-up included: the cold start is the point).
    private var runStart: Double?

    /// Whether JPEGs' embedded EXIF thumbnails are drawn first (`--no-embedded`: only sharp decodes).
    private let usesEmbedded: Bool
    /// Whether the grid holds still until its first screen is sharp (`--hold`), so the first
    /// and sharp screens are those of a grid at rest; otherwise it scrolls from the first frame.
    private let holdsStill: Bool
    /// The frames it held still.
    private var heldFrames: Int?

    /// Decodes the grid's thumbnails: started before the window, on its first screen.
    private let loader: ThumbnailLoader

    /// Reads the folder and starts decoding what the grid will show first in a `window` of
    /// points at scale 1, before the window is made (`ThumbnailLoader.requestFirstScreen`).
    init(
        folder: String, processStart: Double, window: Size, thumbnailCache: FreedesktopThumbnails? = nil,
        usesEmbedded: Bool = true, holdsStill: Bool = false
    ) throws {
        self.holdsStill = holdsStill
        self.processStart = processStart
        self.usesEmbedded = usesEmbedded
        grid = PhotoGrid(photos: try PhotoLibrary.load(folder))
        n = grid.photos.count
        loader =
            thumbnailCache.map { cache in ThumbnailLoader { cache.thumbnail(path: $0.path, spec: $0.spec) } }
            ?? ThumbnailLoader()
        if let first = grid.firstScreen(viewport: window, scale: 1, theme: .light) {
            loader.requestFirstScreen(first.paths, spec: first.spec, embedded: usesEmbedded)
        }
    }

    func setUp(host: AppHost) throws {
        self.host = host
        images = ImagePipeline(renderer: host.window.renderer, loader: loader)
        images.usesEmbeddedThumbnails = usesEmbedded
        host.ui.images = images
    }

    /// Paces frames at 60 Hz so the scroll speed (and thumbnail latency) is real-world.
    func beforeFrame(_ frame: Int) { pacer.wait() }

    func build(_ ui: UI, frame: Int) {
        if runStart == nil { runStart = MonotonicClock.seconds() }
        // Every frame's lazy-path counters count, warm-up included: the cold start is the point.
        if frame > 0, let last = host.profiler.lastFrame { account(last) }
        // With `holdsStill`, the grid waits for its first sharp screen (3 s at most) before it scrolls.
        if holdsStill && heldFrames == nil && (sharpScreenMs != nil || MonotonicClock.seconds() - (runStart ?? 0) > 3) {
            heldFrames = frame
        }
        if let info = grid.info, !holdsStill || heldFrames != nil {
            let maxOffset = max(
                1,
                Double((n + info.columns - 1) / max(1, info.columns)) * (info.cellSize.height + 8)
                    - info.viewport.height)
            ui.scrollGrid(
                "photos", toOffset: (Double(frame - (heldFrames ?? 0)) * 30).truncatingRemainder(dividingBy: maxOffset))
        }
        grid.build(ui)
    }

    /// The first janky frames, to tell why each was slow.
    private var jankyFrames: [FrameRecord] = []

    func measured(frame record: FrameRecord) {
        if jankyFrames.count < 12 && record.isOverBudget(host.profiler.jankThresholdMs) { jankyFrames.append(record) }
    }

    private func account(_ record: FrameRecord) {
        let lazy = record.lazy
        visibleCellFrames += lazy.visibleCells
        placeholderCellFrames += lazy.placeholderCells
        peakTextureBytes = max(peakTextureBytes, lazy.cacheBytes)
        let end = Double(record.startNs + record.totalNs) / 1e9  // after present
        if firstFrameEnd == nil { firstFrameEnd = end }
        let sinceFirstFrame = (end - (firstFrameEnd ?? end)) * 1000
        if firstScreenMs == nil && lazy.visibleCells > 0 && lazy.placeholderCells == 0 {
            // The frame that drew every cell, from process start and from the first frame's end.
            firstScreenMs = (end - processStart) * 1000
            firstScreenAfterFirstFrameMs = sinceFirstFrame
        }
        if sharpScreenMs == nil && lazy.visibleCells > 0 && lazy.cellsAwaitingSharpThumbnail == 0 {
            sharpScreenMs = (end - processStart) * 1000
            sharpScreenAfterFirstFrameMs = sinceFirstFrame
        }
    }

    func fields() -> String {
        let profiler = host.profiler
        let loader = images.loader.snapshot
        let wallSeconds = MonotonicClock.seconds() - (runStart ?? MonotonicClock.seconds())
        let pct = visibleCellFrames == 0 ? 0 : Double(placeholderCellFrames) * 100 / Double(visibleCellFrames)
        defer { images.shutdown() }
        func f(_ v: Double?) -> String { v.map { FrameTimeSummary.format($0) } ?? "null" }
        // Decodes per wall-clock second of the run (they are paced by the scroll, not flat out:
        // `bench decode` measures flat-out throughput); the time one decode keeps a worker busy.
        return
            ",\"janky_frames\":\(profiler.jankyFrames),\"janky\":\(JankReport(frames: jankyFrames, budgetMs: profiler.jankThresholdMs).jankyJSON())"
            + ",\"placeholder_cell_frames_pct\":\(FrameTimeSummary.format(pct))"
            + "," + images.latencyJSON
            + ",\"embedded_thumbnails\":\(usesEmbedded),\"held_still_frames\":\(holdsStill ? String(heldFrames ?? 0) : "null")"
            + ",\"first_screen_ms\":\(f(firstScreenMs)),\"first_screen_after_first_frame_ms\":\(f(firstScreenAfterFirstFrameMs))"
            + ",\"sharp_screen_ms\":\(f(sharpScreenMs)),\"sharp_screen_after_first_frame_ms\":\(f(sharpScreenAfterFirstFrameMs))"
            + ",\"embedded_decoded\":\(images.embeddedTotal),\"decoded\":\(images.decodedTotal),\"cancelled\":\(loader.cancelled),\"failed\":\(images.failedTotal),\"dropped\":\(images.droppedTotal)"
            + ",\"decode_images_per_s\":\(FrameTimeSummary.format(wallSeconds > 0 ? Double(loader.finished) / wallSeconds : 0))"
            + ",\"decode_busy_ms_mean\":\(FrameTimeSummary.format(Double(loader.busyNs) / 1e6 / Double(max(1, loader.finished))))"
            + ",\"texture_mb\":\(FrameTimeSummary.format(Double(images.cache.bytes) / 1_048_576))"
            + ",\"texture_peak_mb\":\(FrameTimeSummary.format(Double(peakTextureBytes) / 1_048_576))"
            + ",\"texture_budget_mb\":\(images.cache.budgetBytes >> 20)"
            + ",\"uploads\":\(images.uploadsTotal),\"upload_ms_mean\":\(FrameTimeSummary.format(Double(images.uploadNsTotal) / 1e6 / Double(max(1, images.uploadsTotal))))"
    }
}

/// `bench decode`: every image of a folder to a drawable thumbnail (decoded, downscaled to
/// fit `side`, upright RGBA in memory) on the `ThumbnailLoader`'s workers, flat out, no window:
/// the figure to hold against `vipsthumbnail -s 256` run as two processes.
enum DecodeBench {
    static func run(folder: String, side: Int, workers: Int) throws -> String {
        let photos = try PhotoLibrary.load(folder)
        let loader = ThumbnailLoader(workers: workers)
        defer { loader.shutdown() }
        let spec = ThumbnailSpec(side: side, fill: false)
        let start = MonotonicClock.seconds()
        loader.request(photos.enumerated().map { (ThumbnailKey(path: $0.element.path, spec: spec), Double($0.offset)) })
        var done = 0, failed = 0, pixels = 0
        while done < photos.count {
            let results = loader.takeFinished()
            if results.isEmpty {
                usleep(500)
                continue
            }
            for result in results {
                done += 1
                switch result.outcome {
                case .success(let thumb): pixels += thumb.pixels.width * thumb.pixels.height
                case .failure: failed += 1
                }
            }
        }
        let seconds = MonotonicClock.seconds() - start
        return
            "{\"scene\":\"decode\",\"n\":\(photos.count),\"workers\":\(workers),\"side\":\(side),\"seconds\":\(FrameTimeSummary.format(seconds))"
            + ",\"images_per_s\":\(FrameTimeSummary.format(Double(photos.count) / seconds)),\"failed\":\(failed)"
            + ",\"mean_thumbnail_pixels\":\(pixels / max(1, photos.count - failed)),\"peak_rss_mb\":\(peakRSSMegabytes())}"
    }
}

/// Paces a bench's frames at a display's rate (60 Hz), so scroll speeds and latencies are
/// what a user sees; an interval of 0 runs flat out.
struct FramePacer {
    var interval = 1.0 / 60
    private var nextFrameAt = 0.0

    /// Sleeps until the next frame is due.
    mutating func wait() {
        guard interval > 0 else { return }
        let now = MonotonicClock.seconds()
        if nextFrameAt > now { usleep(UInt32((nextFrameAt - now) * 1e6)) }
        nextFrameAt = max(now, nextFrameAt) + interval
    }
}
