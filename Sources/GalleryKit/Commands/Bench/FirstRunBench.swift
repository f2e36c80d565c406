import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// `bench firstrun`: the first run as a user sees it. The whole demo window opens on an empty
/// folder while `SampleGeneration` writes 60 camera-like photos of 1280 px into it, in
/// `YYYY/MM/DD` folders, in the background (each photo that lands starts a walk of the tree), and
/// the on-demand loop draws what lands. Reports the frames drawn meanwhile, their work time and
/// janky frames (work over 16.7 ms), and the times from the window to the last photo landing and
/// to a complete first screen.
@MainActor
enum FirstRunBench {
    static func run(host: AppHost) throws -> String {
        let folder = NSTemporaryDirectory() + "tessera-firstrun-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let images = ImagePipeline(renderer: host.window.renderer)
        host.ui.images = images
        defer { images.shutdown() }
        let app = DemoApp(page: .photos, darkTheme: false, library: folder)
        let generation = SampleGeneration(
            folder: folder, count: 60, width: 1280, height: 853, layout: .camera(flat: false))
        app.browser.sampleGeneration = generation
        let build: (UI) -> Void = { ui in app.build(ui, host: host) }
        host.runOnce(timeout: 0, build)  // the window's first frame: an empty folder, being filled
        let start = MonotonicClock.seconds()
        try generation.start()
        var landedMs: Double?, completeMs: Double?
        while MonotonicClock.seconds() - start < 60 {
            host.runOnce(timeout: 0.5, build)
            if landedMs == nil && generation.isDone { landedMs = (MonotonicClock.seconds() - start) * 1000 }
            let lazy = host.profiler.lastFrame?.lazy ?? LazyPathCounters()
            if landedMs != nil, app.browser.shown.count == 60, lazy.visibleCells > 0,
                lazy.cellsAwaitingSharpThumbnail == 0
            {
                completeMs = (MonotonicClock.seconds() - start) * 1000
                break
            }
        }
        let frames = host.profiler.recentFrames.dropFirst()  // after the first
        let work = FrameTimeSummary(samples: frames.map(\.workMs))
        func f(_ v: Double?) -> String { v.map { FrameTimeSummary.format($0) } ?? "null" }
        return
            "{\"scene\":\"firstrun\",\"n\":60,\"renderer\":\"\(host.window.renderer.name)\",\"frames\":\(frames.count)"
            + ",\"work_ms\":\(work.json),\"janky_frames\":\(frames.filter { $0.workMs > 1000.0 / 60 }.count)"
            + ",\"all_landed_ms\":\(f(landedMs)),\"first_screen_complete_ms\":\(f(completeMs)),\"failure\":\(generation.failure.map { "\"\($0)\"" } ?? "null")"
            + ",\"peak_rss_mb\":\(peakRSSMegabytes())}"
    }
}
