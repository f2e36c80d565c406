import Foundation
import ArgumentParser
import CSDL2
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// The `GalleryDemo` command line: `run` (the default), `bench`, `profile` and
/// `generate-samples`. The executable is one call:
///
/// ```swift
/// GalleryCommand.main()
/// ```
public struct GalleryCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "GalleryDemo",
        abstract: "Tessera's showcase and frame-time profiling tool.",
        subcommands: [Run.self, Bench.self, Profile.self, GenerateSamples.self],
        defaultSubcommand: Run.self)

    /// Parses the command line and runs the command. A write to a closed pipe (the progress of
    /// `generate-samples | head`, a recording to a FIFO whose reader quit) fails with EPIPE,
    /// handled where it happens, instead of killing the process with SIGPIPE.
    public static func main() {
        StartupReport.mainNs = MonotonicClock.nanoseconds()
        signal(SIGPIPE, SIG_IGN)
        main(nil)
    }

    public init() {}
}

/// Options shared by every command that opens a window.
struct WindowOptions: ParsableArguments {
    @Flag(
        help:
            "Use SDL's offscreen video driver (no display needed). Implied when DISPLAY and WAYLAND_DISPLAY are unset.")
    var offscreen = false

    @Option(help: "Run this many frames, then exit.")
    var frames: Int?

    @Option(help: "Save a PNG of the last frame to this path.")
    var screenshot: String?

    @Option(help: "UI scale (default: from the display's DPI).")
    var scale: Double?

    @Flag(help: "Use the dark theme (default: follow the desktop's light or dark preference).")
    var dark = false

    @Flag(help: "Use the light theme (default: follow the desktop's light or dark preference).")
    var light = false

    /// The theme asked for on the command line; nil follows the desktop.
    var themeOverride: Bool? { dark ? true : light ? false : nil }

    @Flag(help: "Show the frame-time HUD from the start (F12 toggles it).")
    var hud = false

    @Flag(
        name: .customLong("report-startup"),
        help:
            "Print when the first frame was presented and the first with a thumbnail in every visible cell (CLOCK_MONOTONIC ns, one JSON line), then quit: what `bench startup` measures."
    )
    var reportStartup = false

    @Option(help: "Layout direction: ltr or rtl (default: from the locale; ar, he, fa and ur read right to left).")
    var layoutDirection: String?

    /// The direction asked for on the command line; nil follows the locale.
    func direction() throws -> LayoutDirection? {
        switch layoutDirection?.lowercased() {
        case nil: return nil
        case "ltr": return .leftToRight
        case "rtl": return .rightToLeft
        case let other?: throw ValidationError("--layout-direction must be ltr or rtl, not '\(other)'")
        }
    }

    @Flag(help: "Play a short scripted interaction on the page (table: select rows, open the context menu).")
    var tour = false

    @Option(help: "Record every frame's input (with timestamps) to this file.")
    var record: String?

    @Option(
        help:
            "Play back a recording made with --record at its recorded times, in its window size and scale, with a scratch copy of the settings it was recorded with; then exit."
    )
    var replay: String?

    @Option(
        help:
            "How fast --replay plays: recorded (real time) or max (as fast as frames allow, on a virtual clock that keeps the recorded gaps)."
    )
    var replaySpeed: String = "recorded"

    @Option(help: "Page to open: photos, controls, splits, navigation, table, outline, input.")
    var page: String = "photos"

    @Option(help: "Window size, e.g. 1280x800 (default: the last session's, else 1280x800).")
    var size: String?

    func validate() throws {
        guard DemoPage(rawValue: page) != nil else {
            throw ValidationError(
                "unknown page '\(page)'; pages: \(DemoPage.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard size == nil || parsedSize != nil else { throw ValidationError("--size must look like 1280x800") }
        guard ReplaySpeed(rawValue: replaySpeed) != nil else {
            throw ValidationError(
                "--replay-speed must be one of: \(ReplaySpeed.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    var parsedSize: (width: Int, height: Int)? { size.flatMap(parseSize) }

    /// Offscreen when asked (`--offscreen`, or SDL_VIDEODRIVER=offscreen or dummy), or when
    /// there is no display to open a window on.
    var resolvedOffscreen: Bool {
        if offscreen { return true }
        let env = ProcessEnvironment.self
        if let driver = env.value("SDL_VIDEODRIVER") { return ["offscreen", "dummy"].contains(driver) }
        return env.value("DISPLAY") == nil && env.value("WAYLAND_DISPLAY") == nil
    }
}

/// `--workers N`: the hardware threads the worker pools plan for (`WorkerPools.override`), so a
/// small machine runs the code paths of a large one; `TESSERA_WORKERS` does the same.
struct WorkerOptions: ParsableArguments {
    @Option(
        help:
            "Plan for this many hardware threads, 1 to \(WorkerPools.maximum): decode workers, sort threads (default: TESSERA_WORKERS, else the machine's)."
    )
    var workers: Int?

    func validate() throws {
        if let workers, case .failure(let error) = WorkerPools.parse(String(workers), name: "--workers") {
            throw ValidationError(error.description)
        }
    }

    /// Makes the pools plan for `--workers` (before any pool starts).
    func apply() {
        if let workers { WorkerPools.override = workers }
    }
}

/// "1280x800" as (1280, 800); nil unless both are positive and the area is at most 100
/// megapixels (checked without overflow: "4294967296x4294967296" is nil, not a trap).
func parseSize(_ text: String) -> (width: Int, height: Int)? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
    guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0 else { return nil }
    let (area, overflow) = w.multipliedReportingOverflow(by: h)
    guard !overflow, area <= 100_000_000 else { return nil }
    return (w, h)
}

enum ProcessEnvironment {
    static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let s = String(cString: raw)
        return s.isEmpty ? nil : s
    }
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Browse a folder of photos (default), with the other demo pages a click away.")

    @Argument(
        help: "The folder of photos to browse (default: the last one, else a sample library generated on first run).")
    var folder: String?

    @OptionGroup var window: WindowOptions
    @OptionGroup var pools: WorkerOptions

    func validate() throws {
        if let folder { try BrowserPage.checkFolder(folder) }
    }

    func run() throws {
        pools.apply()
        try MainActor.assumeIsolated { try runApp() }
    }

    @MainActor
    private func runApp() throws {
        let offscreen = window.resolvedOffscreen
        if offscreen { Log.info("no display: using the offscreen video driver") }
        let replay = try window.replay.map { try InputReplay(path: $0) }
        // A replay reads and writes a scratch copy of the settings it was recorded with,
        // never the user's own.
        let store =
            try window.replay.map(RecordedSettings.scratchStore(forReplay:))
            ?? PersistentStore.standard(app: "GalleryDemo")
        let (size, position) = windowFrame(store: store, replay: replay)
        // No folder yet: the sample library, written in the background while the window is
        // already up (the grid fills in as the photos land).
        var generation: SampleGeneration?
        var root = folder ?? BrowserPage.lastLibrary(in: store)
        if root == nil {
            (root, generation) = try PhotoLibrary.sampleLibraryInBackground(count: 60, width: 1280, height: 853)
        }
        let host = try AppHost(
            options: .init(
                title: "Tessera — GalleryDemo", width: size.0, height: size.1,
                vsync: true, offscreen: offscreen, scale: window.scale ?? replay?.header.scale,
                theme: window.dark ? .dark : .light, position: position))
        StartupReport.windowNs = MonotonicClock.nanoseconds()
        host.persistentStore = store
        if let direction = try window.direction() { host.ui.layoutDirection = direction }
        let thumbnails = FreedesktopThumbnails()
        // Every window's images: its own textures, the thumbnails shared on disk.
        let pipeline = { (renderer: Renderer) in
            ImagePipeline(renderer: renderer) { thumbnails.thumbnail(path: $0.path, spec: $0.spec) }
        }
        host.ui.images = pipeline(host.window.renderer)
        DemoApp.prepare(host, pipeline: pipeline)
        defer {  // quitting waits 2 s at most for decodes and thumbnail writes
            let deadline = MonotonicClock.seconds() + 2
            for other in host.windows where other !== host.primary { _ = other.ui.images?.shutdown(within: 0.5) }
            if host.ui.images?.shutdown(within: max(0, deadline - MonotonicClock.seconds())) == false {
                Log.info("quitting with decodes still running")
            }
            if !thumbnails.flush(within: max(0, deadline - MonotonicClock.seconds())) {
                Log.info("quitting with thumbnails not yet written: they are made again next time")
            }
        }
        let app = DemoApp(
            page: DemoPage(rawValue: window.page) ?? .photos, darkTheme: window.themeOverride, library: root ?? "",
            appearance: window.themeOverride == nil ? SystemAppearance() : nil, index: LibraryIndex.standard())
        app.browser.sampleGeneration = generation
        defer {  // ratings and tags still being written land before the process ends (2 s at most)
            if !app.browser.finishSaves(within: 2) {
                Log.error("quitting with ratings not yet saved: the disk did not answer in 2 s")
            }
        }
        host.showsHUD = window.hud
        if let path = window.record {
            let logical = host.logicalSize
            store.save()  // the settings the recording starts from, kept beside it
            RecordedSettings.keep(store, forRecording: path)
            host.recorder = try InputRecorder(
                path: path, header: RecordingHeader(width: logical.width, height: logical.height, scale: host.userScale)
            )
            Log.info("recording input to \(path)")
        }
        defer { host.recorder?.close() }
        if let replay {
            let speed = ReplaySpeed(rawValue: window.replaySpeed) ?? .recorded
            Log.info(
                "replaying \(window.replay!): \(replay.steps.count) frames over \(FrameTimeSummary.format(replay.duration)) s, speed \(speed.rawValue)"
            )
            host.play(replay, speed: speed) { ui in app.build(ui, host: host) }
            if let shot = window.screenshot {
                host.captureScreenshot(to: shot)
                host.frame { ui in app.build(ui, host: host) }
            }
        } else {
            runFrames(host: host, app: app, generation: generation, offscreen: offscreen)
        }
        store.save()  // with where each window was left
    }

    /// The first window's size and place: `--size`, else the replay's, else where it was left
    /// (kept by AppHost; older runs kept only its size), else 1280×800 where the desktop puts it.
    @MainActor
    private func windowFrame(store: PersistentStore, replay: InputReplay?) -> (size: (Int, Int), position: Point?) {
        let recorded = replay.map {
            (Int(($0.header.width * $0.header.scale).rounded()), Int(($0.header.height * $0.header.scale).rounded()))
        }  // clamped when read
        let savedFrame = store.value("window.\(AppHost.mainGroup)", as: [Int].self).flatMap {
            $0.count == 4 && $0[2] > 0 && $0[3] > 0 ? $0 : nil
        }
        let savedSize =
            savedFrame.map { ($0[2], $0[3]) }
            ?? store.value("window.size", as: [Int].self).flatMap {
                $0.count == 2 && $0.allSatisfy { $0 > 0 } ? ($0[0], $0[1]) : nil
            }
        let size = window.parsedSize ?? recorded ?? savedSize ?? (1280, 800)
        let position =
            window.parsedSize == nil && recorded == nil ? savedFrame.map { Point(Double($0[0]), Double($0[1])) } : nil
        return (size, position)
    }

    /// The app's frames, for a person at the window or bounded by `--frames`. Offscreen there
    /// is nobody to close the window: it stops after a few frames, or, with a screenshot to
    /// take, once the thumbnails on screen have arrived (30 s at most).
    @MainActor
    private func runFrames(host: AppHost, app: DemoApp, generation: SampleGeneration?, offscreen: Bool) {
        let settles = offscreen && window.frames == nil && window.screenshot != nil
        let frames = window.frames ?? (offscreen && !settles && !window.reportStartup ? 10 : nil)
        // The screenshot is taken once the layout has settled: the last frame of a bounded
        // run, else the fifth frame of an interactive one (which then goes on).
        let shotFrame = frames.map { max(1, $0) } ?? 5
        // Frames on demand for a person at the window; continuous for what is scripted by
        // frame number (a tour, a fixed number of frames).
        host.schedule = window.tour || window.frames != nil ? .continuous : .onDemand
        var count = 0
        let started = MonotonicClock.seconds()
        let inject = EventInjector(window: host.window)
        var startup = window.reportStartup ? StartupReport() : nil
        host.run(maxFrames: frames) { ui in
            // File ▸ New Window: a browser of its own
            guard ui.windowNumber == 1 else { return app.build(ui, host: host) }
            count += 1
            if startup?.note(host.profiler.lastFrame, scanning: app.browser.isScanning) == true {
                print(startup!.json)
                host.requestQuit()
            } else if startup != nil {
                ui.requestRedraw(after: 0.25)  // thumbnails wake the loop as they land; this bounds the wait
            }
            if settles {
                let lazy = host.profiler.lastFrame?.lazy ?? LazyPathCounters()
                let complete =
                    lazy.cellsAwaitingSharpThumbnail == 0 && generation?.isDone != false && !app.browser.isScanning
                if count >= 10 && (complete || MonotonicClock.seconds() - started > 30) {
                    if let shot = window.screenshot { host.captureScreenshot(to: shot) }
                    host.requestQuit()
                }
                ui.requestRedraw(after: count < 10 ? 0 : 0.25)  // thumbnails also wake the loop as they land
            } else if let shot = window.screenshot, count <= shotFrame {
                if count == shotFrame { host.captureScreenshot(to: shot) } else { ui.requestRedraw() }
            }
            app.build(ui, host: host)
            if window.tour && app.page == .table { app.table.tour(frame: count, inject: inject) }
            if window.tour && app.page == .outline { app.outline.tour(frame: count, inject: inject) }
            if window.tour && app.page == .input { app.input.tour(frame: count, inject: inject) }
        }
    }
}

/// The settings a recording starts from: saved beside it (`<recording>.state.json`) when it
/// is made, and copied into a scratch store for its replay, so a replay starts where the
/// recording did and never writes the user's own settings.
@MainActor
enum RecordedSettings {
    static func path(forRecording recording: String) -> String { recording + ".state.json" }

    /// Saves `store`'s file beside the recording (nothing when it has none yet).
    static func keep(_ store: PersistentStore, forRecording recording: String) {
        guard let bytes = try? RegularFile.read(store.path, maxBytes: PersistentStore.maxBytes) else { return }
        do throws(RegularFile.ReadError) {
            try RegularFile.replace(bytes, at: path(forRecording: recording), mode: 0o600)
        } catch {
            Log.error("could not keep the settings beside the recording: \(error)")
        }
    }

    /// A store in a new private temporary folder, holding the settings kept beside
    /// `recording` (empty when there are none).
    static func scratchStore(forReplay recording: String) throws -> PersistentStore {
        var template = Array((NSTemporaryDirectory() + "/tessera-replay-XXXXXX").utf8CString)
        guard
            let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({
                String(cString: $0)
            })
        else {
            throw ValidationError(
                "cannot make a scratch folder for the replay's settings: \(String(cString: strerror(errno)))")
        }
        let scratch = folder + "/state.json"
        if let bytes = try? RegularFile.read(path(forRecording: recording), maxBytes: PersistentStore.maxBytes) {
            try? RegularFile.writeNew(bytes, to: scratch, mode: 0o600)
        }
        Log.info("replay settings in \(scratch) (the user's own are not touched)")
        return PersistentStore(path: scratch)
    }
}
