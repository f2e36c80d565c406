import Foundation
import ArgumentParser
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets
#if canImport(Glibc)
    import Glibc
#endif

/// A benchmark scene: builds one frame of UI; `fields` adds the scene's own JSON fields.
@MainActor
protocol BenchScene {
    var n: Int { get }
    func setUp(host: AppHost) throws
    func build(_ ui: UI, frame: Int)
    /// Called after each counted frame with the renderer's stats.
    func measured(frame: FrameRecord)
    func fields() -> String
    /// Runs before frame `frame` starts (outside its timing): pacing, for instance.
    func beforeFrame(_ frame: Int)
    /// False while the scene still has scripted work to see through (a sort that has not
    /// landed): the run goes on past `--frames` until it is true (or a minute has passed).
    var isFinished: Bool { get }
}

extension BenchScene {
    func beforeFrame(_ frame: Int) {}
    var isFinished: Bool { true }
}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark scene and print one JSON line (see shared/BENCHMARKS.md).")

    @Argument(
        help:
            "Scene: text, split, table, outline, gallery, scrub, library, idle, soak, firstrun, chooser (the built-in folder chooser on a folder of --entries files), damage (small-change frames against full ones); or startup (start to first frame, against Dear ImGui and GTK 4), or decode (thumbnail throughput) scopes (profiler scope cost) or sort (1M rows on 1 thread and every core), with no window."
    )
    var scene: String

    @Option(help: "Idle: plain, caret (a focused text field), hud, or animation (a spring that has just run).")
    var variant = "plain"

    @Option(help: "Idle: seconds of idling to measure.")
    var seconds = 10.0

    @Option(help: "Idle: browser windows open (File ▸ New Window's), each with its own renderer and thumbnails.")
    var windows = 1

    @Option(help: "Soak: minutes to scroll (down and back up once), RSS sampled every 10 s.")
    var minutes = 10.0

    @Option(help: "Chooser: files in the folder listed.")
    var entries = 100_000

    @Option(help: "Rows for the table scene.")
    var rows = 1_000_000

    @Option(
        help:
            "Library, scrub: photos in the generated camera-like library (240 px, in YYYY/MM/DD folders; written once into the cache folder)."
    )
    var photos = 100_000

    @Option(
        help: "Table: columns in all (the six file columns, then computed ones; the table then also scrolls sideways).")
    var columns = 6

    @Option(
        help:
            "Folder of photos for the gallery and decode scenes, walked with its subfolders (default: 2,000 generated samples of 1920 px in the cache folder, see --samples)."
    )
    var images: String?

    @Option(
        help:
            "Gallery, decode, idle: the generated samples, camera (camera-like JPEGs with EXIF and an embedded thumbnail, mixed aspects, in YYYY/MM/DD folders) or synthetic (the earlier flat folder of 1920x1280 photos without metadata)."
    )
    var samples = "camera"

    @Flag(help: "Gallery: read and write persistent thumbnails ($XDG_CACHE_HOME/thumbnails, the freedesktop layout).")
    var thumbnailCache = false

    @Flag(
        help:
            "Gallery: hold the grid still until its first screen is sharp (3 s at most), then scroll; the first and sharp screens are then a grid at rest's."
    )
    var hold = false

    @Flag(
        name: .customLong("fresh-index"),
        help: "Library: start with an empty library index (a first start), not the one in the cache folder.")
    var freshIndex = false

    @Flag(
        name: .customLong("no-embedded"),
        help: "Gallery: do not draw JPEGs' embedded EXIF thumbnails first (only sharp decodes, to compare).")
    var noEmbedded = false

    @Option(
        help:
            "Damage: time only this kind of frame (full, hover, hover-across, caret or thumbnail), to profile it alone; of_full is then null unless it is full."
    )
    var only: String?

    @Option(help: "Frames to measure (after 30 warm-up frames).")
    var frames = 600

    @Option(help: "Startup: measured starts of each program (after one unmeasured round).")
    var rounds = 5

    @Option(help: "Startup: the folder of the built peers (scripts/build-startup-peers.sh).")
    var peers = "/tmp/tessera-peers"

    @Option(
        help:
            "Text: the labels' scripts, latin or mixed (Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, Thai, CJK and emoji)."
    )
    var scripts = "latin"

    @Option(help: "Save a PNG of the last frame.")
    var screenshot: String?

    @Flag(name: .customLong("no-scopes"), help: "Record no profiler scopes (to measure what they cost).")
    var noScopes = false

    @Flag(
        help: "Build the accessibility tree every frame, as while a screen reader listens (to measure what it costs).")
    var accessibility = false

    @OptionGroup var pools: WorkerOptions

    func validate() throws {
        guard Self.scenes.contains(scene) else {
            throw ValidationError("unknown scene '\(scene)'; available: \(Self.scenes.joined(separator: ", "))")
        }
        guard minutes.isFinite, minutes > 0, minutes <= 24 * 60 else {
            throw ValidationError("--minutes must be in 0...1440")
        }
        guard IdleBench.variants.contains(variant) else {
            throw ValidationError(
                "unknown variant '\(variant)'; available: \(IdleBench.variants.joined(separator: ", "))")
        }
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else {
            throw ValidationError("--seconds must be in 0...3600")
        }
        guard (1...8).contains(windows) else { throw ValidationError("--windows must be in 1...8") }
        guard rows >= 0 else { throw ValidationError("--rows must not be negative") }
        guard (1...1_000_000).contains(photos) else {
            throw ValidationError("--photos must be in 1...1000000 (the walk lists a million at most)")
        }
        guard (1...2_000_000).contains(entries) else { throw ValidationError("--entries must be in 1...2000000") }
        guard (1...100_000).contains(columns) else { throw ValidationError("--columns must be in 1...100000") }
        guard frames > 0 else { throw ValidationError("--frames must be positive") }
        if let only, DamageBench.Kind(rawValue: only) == nil {
            let kinds = DamageBench.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("unknown --only '\(only)'; available: \(kinds)")
        }
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be in 1...100") }
        guard TextBench.Scripts(rawValue: scripts) != nil else {
            throw ValidationError("--scripts must be latin or mixed")
        }
        guard ["camera", "synthetic"].contains(samples) else {
            throw ValidationError("--samples must be camera or synthetic")
        }
    }

    static let scenes = [
        "text", "split", "table", "outline", "gallery", "scrub", "library", "idle", "soak", "firstrun", "chooser",
        "damage",
        "decode", "scopes", "sort", "startup",
    ]

    /// The size of every scene's window, in points (at scale 1).
    static let window = Size(1280, 800)

    /// How the generated samples are laid out (`--samples`).
    var sampleLayout: SampleLayout { samples == "synthetic" ? .synthetic : .camera(flat: false) }

    func run() throws {
        pools.apply()
        switch scene {
        case "decode":
            let folder =
                try images ?? PhotoLibrary.sampleLibrary(count: 2000, width: 1920, height: 1280, layout: sampleLayout)
            print(try DecodeBench.run(folder: folder, side: 256, workers: WorkerPools.decodeThreads))
        case "scopes":
            print(ScopeCostBench.run())
        case "sort":
            print(SortBench.run(rows: rows))
        case "startup":
            let folder =
                try images ?? PhotoLibrary.sampleLibrary(count: 60, width: 1280, height: 853, layout: sampleLayout)
            print(try StartupBench.run(folder: folder, rounds: rounds, peers: peers))
        default:
            try MainActor.assumeIsolated { try runInWindow() }
        }
    }

    /// The scenes that open a window: the on-demand ones (idle, chooser, first run, library,
    /// soak) report their own figures; the others are frame-cost scenes (`runFrames`).
    @MainActor
    private func runInWindow() throws {
        let setupStart = MonotonicClock.nanoseconds()
        let processStart = processStartSeconds()
        let offscreen = ProcessEnvironment.value("DISPLAY") == nil && ProcessEnvironment.value("WAYLAND_DISPLAY") == nil
        func host(vsync: Bool, _ schedule: FrameSchedule) throws -> AppHost {
            try AppHost(
                options: .init(
                    title: "Tessera bench \(scene)", width: Int(Self.window.width), height: Int(Self.window.height),
                    vsync: vsync, offscreen: offscreen,
                    scale: 1,
                    schedule: schedule))
        }
        switch scene {
        case "idle":
            // Not paced or forced: the app's own on-demand loop, as a user runs it.
            let host = try host(vsync: true, .onDemand)
            let folder =
                try images ?? PhotoLibrary.sampleLibrary(count: 60, width: 1280, height: 853, layout: sampleLayout)
            print(IdleBench.run(host: host, folder: folder, variant: variant, seconds: seconds, windows: windows))
        case "damage":
            let host = try host(vsync: false, .onDemand)
            let folder =
                try images ?? PhotoLibrary.sampleLibrary(count: 60, width: 1280, height: 853, layout: sampleLayout)
            print(
                DamageBench.run(host: host, folder: folder, frames: frames, only: only.flatMap(DamageBench.Kind.init)))
        case "chooser":
            print(try ChooserBench.run(host: try host(vsync: false, .continuous), entries: entries))
        case "firstrun":
            print(try FirstRunBench.run(host: try host(vsync: true, .onDemand)))
        case "library":
            let host = try host(vsync: true, .onDemand)
            let folder = try images ?? PhotoLibrary.sampleLibrary(count: photos, width: 240, height: 160)
            print(try LibraryBench.run(host: host, folder: folder, processStart: processStart, freshIndex: freshIndex))
        case "soak":
            let host = try host(vsync: false, .continuous)
            let folder =
                try images ?? PhotoLibrary.sampleLibrary(count: 100_000, width: 160, height: 107, layout: .synthetic)
            print(try SoakBench.run(host: host, folder: folder, minutes: minutes))
        default:
            // Continuous frames, on purpose: every scene below measures frame cost. The scene
            // first: the gallery starts decoding its first screen while the window is made.
            let bench = try frameScene(processStart: processStart)
            let host = try host(vsync: false, .continuous)
            print(try runFrames(of: bench, host: host, setupStart: setupStart))
        }
    }

    /// The frame-cost scene `--scene` names.
    @MainActor
    private func frameScene(processStart: Double) throws -> BenchScene {
        switch scene {
        case "split": return SplitBench()
        case "table": return TableBench(rows: rows, columns: columns)
        case "outline": return OutlineBench()
        case "scrub":
            return ScrubBench(
                folder: try images ?? PhotoLibrary.sampleLibrary(count: photos, width: 240, height: 160),
                index: LibraryIndex.standard())
        case "gallery":
            return try GalleryBench(
                folder: try images
                    ?? PhotoLibrary.sampleLibrary(count: 2000, width: 1920, height: 1280, layout: sampleLayout),
                processStart: processStart, window: Self.window,
                thumbnailCache: thumbnailCache ? FreedesktopThumbnails() : nil,
                usesEmbedded: !noEmbedded, holdsStill: hold)
        default: return TextBench(scripts: TextBench.Scripts(rawValue: scripts) ?? .latin)
        }
    }

    /// Runs `bench` for at least `--frames` counted frames after the warm-up, then on until its
    /// script is through (a minute at most), and returns its JSON line.
    @MainActor
    private func runFrames(of bench: BenchScene, host: AppHost, setupStart: UInt64) throws -> String {
        host.profiler.recordsScopes = !noScopes
        host.ui.isAccessibilityEnabled = accessibility
        try bench.setUp(host: host)
        let warmup = 30
        host.profiler.warmupFrames = warmup
        let setupMs = Double(MonotonicClock.nanoseconds() - setupStart) / 1e6
        var phases = [[Double]](repeating: [], count: FramePhase.allCases.count)
        let overtimeLimit = MonotonicClock.seconds() + 60
        var f = 0
        var measuredFrames = 0
        while measuredFrames < frames || (!bench.isFinished && MonotonicClock.seconds() < overtimeLimit) {
            // The screenshot shows the last of the `--frames` frames.
            if f == warmup + frames - 1, let screenshot { host.captureScreenshot(to: screenshot) }
            bench.beforeFrame(f)
            host.frame { ui in bench.build(ui, frame: f) }
            if f >= warmup, let record = host.profiler.lastFrame {
                measuredFrames += 1
                bench.measured(frame: record)
                for phase in FramePhase.allCases {
                    phases[phase.rawValue].append(Double(record.phaseNs[phase.rawValue]) / 1e6)
                }
            }
            f += 1
        }
        let phaseMedians = FramePhase.allCases.map { phase -> String in
            let sorted = phases[phase.rawValue].sorted()
            return "\"\(phase.name)\":\(FrameTimeSummary.format(sorted.isEmpty ? 0 : sorted[sorted.count / 2]))"
        }
        let work = host.profiler.workSummary(), all = host.profiler.totalSummary()
        var json =
            "{\"scene\":\"\(scene)\",\"n\":\(bench.n),\"frames\":\(measuredFrames),\"renderer\":\"\(host.window.renderer.name)\""
        if !bench.isFinished { json += ",\"incomplete\":true" }
        json += ",\"setup_ms\":\(FrameTimeSummary.format(setupMs))"
        json +=
            ",\"work_ms\":\(work.json),\"total_ms\":\(all.json),\"peak_rss_mb\":\(peakRSSMegabytes()),\(residentSplitJSON())"
        json += ",\"phase_p50_ms\":{\(phaseMedians.joined(separator: ","))},\"scopes\":\(!noScopes)"
        json += ",\"accessibility\":\(accessibility),\"a11y_nodes\":\(host.ui.accessibilityTree.nodes.count)"
        json += ",\"input_latency_ms\":\(host.profiler.inputLatencyJSON)"
        return json + bench.fields() + "}"
    }
}

extension ImagePipeline {
    /// `"thumb_latency_ms":{"waited":N,"p50":…,"p95":…,"p99":…},"prefetched_in_time":M,…`: the
    /// latency percentiles over the cells not sharp when they came into view (null when none
    /// waited), how many cells had their sharp thumbnail the moment they came into view, and
    /// how many of the others showed their embedded one then, or a placeholder.
    var latencyJSON: String {
        let waited = latency.totalCount
        func ms(_ p: Double) -> String {
            waited == 0 ? "null" : FrameTimeSummary.format(Double(latency.valueAtPercentile(p)) / 1000)
        }
        return "\"thumb_latency_ms\":{\"waited\":\(waited),\"p50\":\(ms(50)),\"p95\":\(ms(95)),\"p99\":\(ms(99))}"
            + ",\"prefetched_in_time\":\(prefetchedInTime),\"embedded_on_first_sight\":\(embeddedOnFirstSight)"
            + ",\"placeholder_on_first_sight\":\(placeholderOnFirstSight),\"left_before_sharp\":\(leftBeforeSharp)"
    }
}

/// When this process started, on `MonotonicClock`'s scale: its start time from
/// /proc/self/stat (clock ticks since boot, 10 ms resolution) against CLOCK_BOOTTIME. Falls
/// back to now when /proc cannot be read.
func processStartSeconds() -> Double {
    let now = MonotonicClock.seconds()
    guard let stat = try? RegularFile.read("/proc/self/stat", maxBytes: 4096) else { return now }
    let line = String(decoding: stat, as: UTF8.self)
    // Field 2 (the command) is in parentheses and may hold spaces: count from the last ')'.
    guard let close = line.lastIndex(of: ")") else { return now }
    let fields = line[line.index(after: close)...].split(separator: " ")
    // fields[0] is field 3 (state); the start time is field 22.
    guard fields.count > 19, let ticks = Double(fields[19]) else { return now }
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    var boot = timespec()
    clock_gettime(CLOCK_BOOTTIME, &boot)
    let sinceStart = Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9 - ticks / max(1, hz)
    return sinceStart >= 0 && sinceStart < 3600 ? now - sinceStart : now
}

/// Peak resident set size (VmHWM) in MB, from /proc/self/status.
func peakRSSMegabytes() -> Int { processStatusKilobytes(["VmHWM"])["VmHWM", default: 0] / 1024 }

/// `"rss_mb_now":{"anon":…,"file":…}`: the resident memory at this moment, split into private
/// memory (the heap, rows, keys) and pages of mapped files (the Swift runtime, Foundation, Mesa,
/// the binary, fonts), which a peer in another language maps differently.
func residentSplitJSON() -> String {
    let kb = processStatusKilobytes(["RssAnon", "RssFile"])
    return "\"rss_mb_now\":{\"anon\":\(kb["RssAnon", default: 0] / 1024),\"file\":\(kb["RssFile", default: 0] / 1024)}"
}

/// The kilobyte figures of `names` in /proc/self/status (absent when it cannot be read).
func processStatusKilobytes(_ names: [String]) -> [String: Int] {
    guard let status = try? RegularFile.read("/proc/self/status", maxBytes: 64 << 10) else { return [:] }
    var found: [String: Int] = [:]
    for line in String(decoding: status, as: UTF8.self).split(separator: "\n") {
        guard let colon = line.firstIndex(of: ":"), names.contains(String(line[..<colon])) else { continue }
        found[String(line[..<colon])] = Int(line[line.index(after: colon)...].filter(\.isNumber))
    }
    return found
}
