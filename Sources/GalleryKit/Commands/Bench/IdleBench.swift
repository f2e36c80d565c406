import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
#if canImport(Glibc)
    import Glibc
#endif

/// `bench idle`: the photo browser (the whole demo window) on a photo folder, run by
/// `AppHost`'s on-demand loop as a user runs it. It waits until every visible thumbnail is
/// drawn, then nobody touches it for `seconds`, and reports the process's CPU time
/// (`getrusage`, user + system), the frames drawn and the loop's wake-ups in that time.
///
/// Variants: `plain`; `caret`, with the filter field focused so its caret blinks; `hud`, with
/// the frame-time HUD open (it runs at the display's rate, on purpose); `animation`, with the
/// Dark switch flipped in a `withAnimation(.spring)` just before the quiet stretch (its knob
/// springs across: `frames_settling` counts the frames it drew, then it must draw none). With `windows` > 1, more
/// browser windows are open (File ▸ New Window's), each settled before the quiet stretch; the
/// variant applies to the first, and frames are counted in all.
@MainActor
enum IdleBench {
    nonisolated static let variants = ["plain", "caret", "hud", "animation"]

    static func run(host: AppHost, folder: String, variant: String, seconds: Double, windows: Int = 1) -> String {
        let thumbnails = FreedesktopThumbnails()
        let pipeline = { (renderer: Renderer) in
            ImagePipeline(renderer: renderer) { thumbnails.thumbnail(path: $0.path, spec: $0.spec) }
        }
        let images = pipeline(host.window.renderer)
        host.ui.images = images
        DemoApp.prepare(host, pipeline: pipeline)
        defer {
            for window in host.windows { window.ui.images?.shutdown() }
        }
        host.schedule = .onDemand
        let app = DemoApp(page: .photos, darkTheme: false, library: folder)
        let build: (UI) -> Void = { ui in app.build(ui, host: host) }
        for _ in 1..<max(1, windows) { host.openWindow(value: folder) }

        // Settle: the first screen of thumbnails, loaded as the loop is woken by the decoders.
        let settleStart = MonotonicClock.seconds()
        let settled = settle(host, app: app, build: build)
        let settleMs = (MonotonicClock.seconds() - settleStart) * 1000
        startVariant(variant, host: host, app: app)
        // Let the variant's own input settle, then measure a quiet stretch.
        let settlingFrames0 = host.windows.map(\.framesDrawn).reduce(0, +)
        let quietStart = MonotonicClock.seconds()
        while MonotonicClock.seconds() - quietStart < 1 {
            host.runOnce(timeout: 1 - (MonotonicClock.seconds() - quietStart), build)
        }
        let settlingFrames = host.windows.map(\.framesDrawn).reduce(0, +) - settlingFrames0
        let focused = host.ui.wantsTextInput
        let frames0 = host.windows.map(\.framesDrawn), wakeups0 = host.wakeups, wakeEvents0 = FrameWaker.wakeEventsSent
        let cpu0 = processCPUSeconds()
        let start = MonotonicClock.seconds()
        while true {
            let left = seconds - (MonotonicClock.seconds() - start)
            if left <= 0 { break }
            host.runOnce(timeout: left, build)
        }
        let wall = MonotonicClock.seconds() - start
        let cpu = processCPUSeconds() - cpu0
        let perWindow = zip(host.windows, frames0).map { $0.framesDrawn - $1 }
        let frames = perWindow.reduce(0, +)
        var json =
            "{\"scene\":\"idle\",\"variant\":\"\(variant)\",\"n\":\(app.browser.photos.count),\"renderer\":\"\(host.window.renderer.name)\""
        json +=
            ",\"video_driver\":\"\(SDLContext.videoDriver)\",\"settled\":\(settled),\"settle_ms\":\(FrameTimeSummary.format(settleMs))"
        json +=
            ",\"frames_settling\":\(settlingFrames),\"idle_s\":\(FrameTimeSummary.format(wall)),\"cpu_seconds\":\(FrameTimeSummary.format(cpu))"
        json += ",\"cpu_pct\":\(FrameTimeSummary.format(cpu / wall * 100)),\"frames_while_idle\":\(frames)"
        json +=
            ",\"frames_per_s\":\(FrameTimeSummary.format(Double(frames) / wall)),\"wakeups\":\(host.wakeups - wakeups0)"
        json += ",\"worker_wake_events\":\(FrameWaker.wakeEventsSent - wakeEvents0)"
        json +=
            ",\"windows\":\(host.windows.count),\"frames_per_window\":[\(perWindow.map(String.init).joined(separator: ","))]"
        json += ",\"refresh_hz\":\(FrameTimeSummary.format(1 / host.window.refreshInterval))"
        if variant == "caret" { json += ",\"text_field_focused\":\(focused),\"blink_period_s\":1" }
        if variant == "hud" { json += ",\"paced_at_display_rate\":true" }
        return json + ",\"peak_rss_mb\":\(peakRSSMegabytes())}"
    }

    /// Runs frames until every window shows its first screen of sharp thumbnails, with no
    /// decode queued or running, and `app`'s browser has read its photos' dates (which move
    /// photos between months and change the toolbar's count): a minute at most. Returns
    /// whether they all did.
    static func settle(_ host: AppHost, app: DemoApp, build: (UI) -> Void) -> Bool {
        settle(host, build: build) { app.browser.factsProgress == nil }
    }

    /// Runs frames until every window's first screen is sharp and `done` says whatever else
    /// the bench waits for has finished too (a minute at most).
    static func settle(_ host: AppHost, build: (UI) -> Void, until done: () -> Bool) -> Bool {
        let settleStart = MonotonicClock.seconds()
        while MonotonicClock.seconds() - settleStart < 60 {
            host.runOnce(timeout: 0.5, build)
            let settledWindows = host.windows.filter { window in
                let lazy = window.profiler.lastFrame?.lazy ?? LazyPathCounters()
                return lazy.visibleCells > 0 && lazy.cellsAwaitingSharpThumbnail == 0 && lazy.queued == 0
                    && lazy.running == 0
            }
            if settledWindows.count == host.windows.count && done() { return true }
        }
        return false
    }

    /// What the variant leaves running: a focused text field's caret, the HUD, or a spring
    /// animation started outside a frame, as a timer or a worker would.
    private static func startVariant(_ variant: String, host: AppHost, app: DemoApp) {
        switch variant {
        case "caret":
            let inject = EventInjector(window: host.window)
            let field = app.browser.filterOrigin + Point(80, 13)
            inject.mouseMove(to: field)
            inject.mouseButton(.left, down: true, at: field)
            inject.mouseButton(.left, down: false, at: field)
        case "hud":
            host.showsHUD = true
        case "animation":
            host.ui.withAnimation(.spring) { app.darkTheme = true }
            FrameWaker.wake()  // the loop draws it
        default:
            break
        }
    }

    /// User + system CPU seconds of this process so far.
    nonisolated static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
