import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
#if canImport(Glibc)
    import Glibc
#endif

/// `bench scrub`: the photo browser over a large camera-like library (default: 100,000
/// photos of 240 px in `YYYY/MM/DD` folders, listed and indexed before the first frame), paced
/// at 60 Hz. Once the first screen is sharp, the date rail is dragged from top to bottom in
/// 2 s with the mouse, then released. Reports the janky frames while dragging and after,
/// sharp decodes started for photos only passed over (not on the screen where the drag
/// started or ended, nor in its prefetch window), and the time from the release to a sharp
/// screen.
@MainActor
final class ScrubBench: BenchScene {
    private(set) var n = 0
    private let folder: String
    private let index: LibraryIndex?
    private var page: BrowserPage!
    private var images: ImagePipeline!
    private var host: AppHost!
    private var inject: EventInjector!
    private var pacer = FramePacer()
    /// Paths whose sharp decode started, in order.
    private let sharpStarts = Locked<[String]>([])

    private enum Phase { case settling, dragging(frame: Int), settlingAfter, done }
    private var phase = Phase.settling
    private let dragFrames = 120  // 2 s at 60 Hz
    private var settleStart = 0.0
    private var startScreen: Set<String> = []
    private var startsBeforeDrag = 0
    private var releaseEnd: Double?
    private var releaseToSharpMs: Double?
    /// From the release to the first frame with an image (embedded or sharp) in every visible cell.
    private var releaseToScreenMs: Double?
    private var jankyWhileDragging = 0, jankyAfter = 0, framesWhileDragging = 0
    private var embeddedWhileDragging = 0

    init(folder: String, index: LibraryIndex?) {
        self.folder = folder
        self.index = index
    }

    func setUp(host: AppHost) throws {
        self.host = host
        inject = EventInjector(window: host.window)
        let starts = sharpStarts
        images = ImagePipeline(renderer: host.window.renderer) { key in
            starts.withLock { $0.append(key.path) }
            return ThumbnailLoader.decodeFile(key)
        }
        host.ui.images = images
        page = BrowserPage(root: folder, index: index)
        page.waitForScan()  // listed and dated: the rail has its months
        n = page.photos.count
        settleStart = MonotonicClock.seconds()
    }

    func beforeFrame(_ frame: Int) { pacer.wait() }

    var isFinished: Bool { if case .done = phase { true } else { false } }

    /// The visible cells and the prefetch window around them.
    private var window: Set<String> {
        guard let info = page.grid.info else { return [] }
        let photos = page.grid.photos
        return Set(([info.visible] + info.prefetch).flatMap { $0.map { photos[$0].path } })
    }

    private var isSharp: Bool {
        guard let lazy = host.profiler.lastFrame?.lazy else { return false }
        return lazy.visibleCells > 0 && lazy.cellsAwaitingSharpThumbnail == 0
    }

    func build(_ ui: UI, frame: Int) {
        let now = MonotonicClock.seconds()
        if let record = host.profiler.lastFrame, frame > 0 {
            let janky = record.isOverBudget(host.profiler.jankThresholdMs)
            switch phase {
            case .dragging:
                framesWhileDragging += 1
                jankyWhileDragging += janky ? 1 : 0
                embeddedWhileDragging += record.lazy.embeddedCells
            case .settlingAfter: jankyAfter += janky ? 1 : 0
            default: break
            }
        }
        switch phase {
        case .settling:
            if (isSharp && frame >= 30) || now - settleStart > 20, let rail = page.grid.railRect {
                startScreen = window
                startsBeforeDrag = sharpStarts.withLock { $0.count }
                let top = Point(rail.midX, rail.y + 10)
                inject.mouseMove(to: top)
                inject.mouseButton(.left, down: true, at: top)
                phase = .dragging(frame: 0)
            }
        case .dragging(let k):
            guard let rail = page.grid.railRect else { break }
            let t = Double(k + 1) / Double(dragFrames)
            let p = Point(rail.midX, rail.y + 10 + (rail.height - 20) * t)
            if k + 1 < dragFrames {
                inject.mouseMove(to: p, buttons: 1)
                phase = .dragging(frame: k + 1)
            } else {
                inject.mouseMove(to: p, buttons: 1)
                inject.mouseButton(.left, down: false, at: p)
                phase = .settlingAfter
            }
        case .settlingAfter:
            if let last = host.profiler.lastFrame, releaseEnd == nil {
                releaseEnd = Double(last.startNs + last.totalNs) / 1e9
            }
            if let releaseEnd, releaseToScreenMs == nil, let last = host.profiler.lastFrame, last.lazy.visibleCells > 0,
                last.lazy.placeholderCells == 0
            {
                releaseToScreenMs = (Double(last.startNs + last.totalNs) / 1e9 - releaseEnd) * 1000
            }
            if let releaseEnd, isSharp, let last = host.profiler.lastFrame {
                releaseToSharpMs = (Double(last.startNs + last.totalNs) / 1e9 - releaseEnd) * 1000
                phase = .done
            } else if let releaseEnd, now - releaseEnd > 30 {
                phase = .done
            }
        case .done:
            break
        }
        page.build(ui)
    }

    func measured(frame: FrameRecord) {}

    func fields() -> String {
        defer { images.shutdown() }
        let during = Array(sharpStarts.withLock { $0 }.dropFirst(startsBeforeDrag))
        let passedOver = Set(during).subtracting(startScreen).subtracting(window)
        func f(_ v: Double?) -> String { v.map { FrameTimeSummary.format($0) } ?? "null" }
        return ",\"sections\":\(page.grid.sections?.count ?? 0),\"drag_frames\":\(framesWhileDragging)"
            + ",\"janky_frames_while_dragging\":\(jankyWhileDragging),\"janky_frames_after_release\":\(jankyAfter)"
            + ",\"sharp_decodes_started_while_dragging_and_after\":\(during.count),\"sharp_decodes_for_photos_passed_over\":\(passedOver.count)"
            + ",\"embedded_cell_frames_while_dragging\":\(embeddedWhileDragging),\"embedded_decoded\":\(images.embeddedTotal)"
            + ",\"release_to_screen_ms\":\(f(releaseToScreenMs)),\"release_to_sharp_screen_ms\":\(f(releaseToSharpMs))"
            + ",\"janky_threshold_ms\":\(FrameTimeSummary.format(host.profiler.jankThresholdMs))"
    }
}
