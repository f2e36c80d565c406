import ArgumentParser
import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
import Widgets

/// One scripted part of a profiling session: it builds a page each frame and plays input
/// on it (real SDL events through the injector, or the page's own API where noted).
@MainActor
protocol ProfileScript: AnyObject {
    var name: String { get }
    func build(_ ui: UI, frame: Int, inject: EventInjector)
}

/// The photo browser's grid, scrolled by the mouse wheel (30 pt a frame at 60 Hz).
@MainActor
final class GalleryScript: ProfileScript {
    let name = "gallery"
    let page: BrowserPage
    init(page: BrowserPage) { self.page = page }

    func build(_ ui: UI, frame: Int, inject: EventInjector) {
        if frame == 0 { page.viewMode = .grid }
        page.build(ui)
        guard let info = page.grid.info else { return }
        inject.mouseMove(to: Point(info.viewport.midX, info.viewport.midY))
        // Down for 8 s, then back up: 0.625 notch = 30 pt.
        inject.wheel(dy: (frame / 480) % 2 == 0 ? -0.625 : 0.625)
    }
}

/// The browser's table: a header click every second (Name, Size, Modified, Rating, twice
/// each for both directions), the wheel scrolling in between.
@MainActor
final class TableScript: ProfileScript {
    let name = "table"
    let page: BrowserPage
    init(page: BrowserPage) { self.page = page }

    func build(_ ui: UI, frame: Int, inject: EventInjector) {
        if frame == 0 { page.viewMode = .table }
        page.build(ui)
        guard let body = page.tableInfo?.bodyRect else { return }
        let columns = page.columns()
        let widths = TableColumnLayout.widths(columns, userWidths: ui.tableColumnWidths("files"), available: body.width)
        let sortable = [0, 2, 4, 5]  // Name, Size, Modified, Rating
        let phase = frame % 60
        if phase < 3 {
            let c = sortable[(frame / 120) % sortable.count]
            let x = body.x + widths.prefix(c).reduce(0, +) + widths[c] / 2
            let header = Point(x, body.y - 12)
            switch phase {
            case 0: inject.mouseMove(to: header)
            case 1: inject.mouseButton(.left, down: true, at: header)
            default: inject.mouseButton(.left, down: false, at: header)
            }
        } else {
            inject.mouseMove(to: Point(body.midX, body.midY))
            inject.wheel(dy: (frame / 300) % 2 == 0 ? -0.5 : 0.5)
        }
    }
}

/// The lists page: the 10,000-node outline expanded and collapsed every two seconds (through
/// the same call as its Expand all button), scrolled by the wheel.
@MainActor
final class OutlineScript: ProfileScript {
    let name = "outline"
    let page = OutlinePage()

    func build(_ ui: UI, frame: Int, inject: EventInjector) {
        page.build(ui)
        if frame % 240 == 0 { ui.expandAllOutlines(inList: "files") }
        if frame % 240 == 120 { ui.collapseAllOutlines(inList: "files") }
        inject.mouseMove(to: Point(ui.size.width * 0.45, ui.size.height * 0.6))
        inject.wheel(dy: (frame / 120) % 2 == 0 ? -0.75 : 0.75)
    }
}

/// The `split` bench scene's nested splits, its splitters dragged by scripted mouse input.
@MainActor
final class SplitScript: ProfileScript {
    let name = "split"
    let scene = SplitBench()

    func build(_ ui: UI, frame: Int, inject: EventInjector) { scene.build(ui, frame: frame % 400) }
}

/// `profile`: scripted sessions through the app (scroll the gallery, sort the table, expand
/// the outline, drag the splits) at a 60 Hz frame pace, writing a Chrome trace (frames and
/// phases on the main thread, one thread per decode worker, one flow per image) and a
/// summary JSON, and printing a report.
struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile scripted sessions: a Perfetto-loadable trace, a summary JSON, a text report.")

    @Argument(
        help:
            "The folder of photos (default: 2,000 generated camera-like photos of 1920 px in YYYY/MM/DD folders, in the cache folder)."
    )
    var folder: String?

    @Option(help: "Folder of photos (same as the argument).")
    var images: String?

    @Option(help: "gallery, table, outline, split, or all (each in turn).")
    var script = "gallery"

    @Option(help: "Seconds per script.")
    var seconds = 10.0

    @Option(help: "Write the Chrome trace-event JSON here (open it in https://ui.perfetto.dev).")
    var trace: String?

    @Option(help: "Write the summary JSON here.")
    var summary: String?

    @Flag(help: "Read and write persistent thumbnails ($XDG_CACHE_HOME/thumbnails, the freedesktop layout).")
    var thumbnailCache = false

    @Option(help: "The frame budget in milliseconds: frames over it are janky and get a cause.")
    var budgetMs = 1000.0 / 60

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Compare two summaries (A then B): per script and scope, the frame-time percentiles of each, B - A with a bootstrap 95% interval, and regression, improvement or noise. Prints a table; --summary writes the comparison's JSON.",
            valueName: "summary"))
    var compare: [String] = []

    static let scripts = ["gallery", "table", "outline", "split"]

    func validate() throws {
        guard compare.isEmpty || compare.count == 2 else {
            throw ValidationError("--compare takes two summaries: A.json B.json")
        }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in 0...3600") }
        guard budgetMs > 0, budgetMs <= 10_000 else { throw ValidationError("--budget-ms must be in 0...10000") }
        guard script == "all" || Self.scripts.contains(script) else {
            throw ValidationError("unknown script '\(script)'; scripts: \(Self.scripts.joined(separator: ", ")), all")
        }
        if let folder = folder ?? images { try BrowserPage.checkFolder(folder) }
    }

    func run() throws {
        if compare.count == 2 { return try runComparison() }
        let processStart = processStartSeconds()  // first_screen_ms counts from the real process start, as in bench
        let library = try folder ?? images ?? PhotoLibrary.sampleLibrary(count: 2000, width: 1920, height: 1280)
        let names = script == "all" ? Self.scripts : [script]
        let report = try MainActor.assumeIsolated {
            () throws -> (summary: String, text: String, trace: String, screenshots: [FrameScreenshot]) in
            let offscreen =
                ProcessEnvironment.value("DISPLAY") == nil && ProcessEnvironment.value("WAYLAND_DISPLAY") == nil
            let host = try AppHost(
                options: .init(
                    title: "Tessera profile", width: 1280, height: 800, vsync: false, offscreen: offscreen,
                    scale: 1, schedule: .continuous))
            let thumbnails = FreedesktopThumbnails()
            let images =
                thumbnailCache
                ? ImagePipeline(renderer: host.window.renderer) { thumbnails.thumbnail(path: $0.path, spec: $0.spec) }
                : ImagePipeline(renderer: host.window.renderer)
            images.keepsTimelines = true
            host.ui.images = images
            host.profiler.keepsTrace = true
            host.profiler.jankThresholdMs = budgetMs
            let inject = EventInjector(window: host.window)
            let browser = BrowserPage(root: library)
            browser.waitForScan()  // the whole library is walked before the first timed frame
            var results: [(name: String, frames: [FrameRecord], firstScreenMs: Double?)] = []
            for name in names {
                let script: ProfileScript =
                    switch name {
                    case "table": TableScript(page: browser)
                    case "outline": OutlineScript()
                    case "split": SplitScript()
                    default: GalleryScript(page: browser)
                    }
                if let split = script as? SplitScript { try split.scene.setUp(host: host) }
                var frames: [FrameRecord] = []
                var firstScreen: Double?
                let start = MonotonicClock.seconds()
                var next = start
                var frame = 0
                while MonotonicClock.seconds() - start < seconds {
                    let now = MonotonicClock.seconds()
                    if next > now { usleep(UInt32((next - now) * 1e6)) }
                    next = max(now, next) + 1.0 / 60
                    host.frame { ui in script.build(ui, frame: frame, inject: inject) }
                    if let record = host.profiler.lastFrame {
                        frames.append(record)
                        if name == "gallery", firstScreen == nil, record.lazy.visibleCells > 0,
                            record.lazy.placeholderCells == 0
                        {
                            firstScreen = (MonotonicClock.seconds() - processStart) * 1000
                        }
                    }
                    frame += 1
                }
                results.append((name, frames, firstScreen))
            }
            defer { images.shutdown() }
            let report = Self.report(
                results, images: images, profiler: host.profiler, renderer: host.window.renderer.name, library: library)
            return (report.summary, report.text, report.trace, host.profiler.screenshots.all)
        }
        if let trace {
            try RegularFile.replace(Array(report.trace.utf8), at: trace, mode: 0o600)  // private to the user
            Log.info("trace written to \(trace) (open it in https://ui.perfetto.dev)")
        }
        if let summary {
            try report.summary.write(toFile: summary, atomically: true, encoding: .utf8)
            Log.info("summary written to \(summary)")
            try Self.writeScreenshots(report.screenshots, besideSummary: summary)
        }
        print(report.text)
    }

    /// The janky frames' screenshots as PNG files in a folder beside the summary
    /// (`summary.json` → `summary-screenshots/frame-123.png`; a file of the same name is replaced).
    static func writeScreenshots(_ shots: [FrameScreenshot], besideSummary summary: String) throws {
        let stem = summary.hasSuffix(".json") ? String(summary.dropLast(5)) : summary
        let folder = stem + "-screenshots"
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw ValidationError("cannot make \(folder): \(String(cString: strerror(errno)))")
        }
        for shot in shots {
            try RegularFile.replace(shot.png, at: "\(folder)/frame-\(shot.frame).png", mode: 0o644)
        }
        Log.info("\(shots.count) janky frames' screenshots written to \(folder)")
    }

    /// `--compare A B`: the table on standard output, the JSON in `--summary`.
    func runComparison() throws {
        let rows = CaptureComparison.compare(try CaptureSamples.load(compare[0]), try CaptureSamples.load(compare[1]))
        guard !rows.isEmpty else { throw ValidationError("\(compare[0]) and \(compare[1]) share no script to compare") }
        if let summary {
            try RegularFile.replace(
                Array(CaptureComparison.json(rows, a: compare[0], b: compare[1]).utf8), at: summary, mode: 0o644)
            Log.info("comparison written to \(summary)")
        }
        print(CaptureComparison.table(rows))
    }

    /// The summary JSON, the text report and the trace.
    @MainActor
    static func report(
        _ results: [(name: String, frames: [FrameRecord], firstScreenMs: Double?)], images: ImagePipeline,
        profiler: FrameProfiler, renderer: String, library: String
    ) -> (summary: String, text: String, trace: String) {
        let latency = images.latency
        func ms(_ us: UInt64) -> String { FrameTimeSummary.format(Double(us) / 1000) }
        var parts: [String] = []
        var causes: [(script: String, report: JankReport)] = []
        var latencyLines = ["", "input to present, ms:"]
        var lines = ["script    frames   work p50      p95      p99      max   total p50      p99   janky"]
        for result in results {
            let script = scriptReport(result, budgetMs: profiler.jankThresholdMs)
            parts.append(script.json)
            lines.append(script.line)
            latencyLines.append(script.latencyLine)
            causes.append((result.name, script.jank))
        }
        let loader = images.loader.snapshot
        let summary =
            "{\"library\":\"\(library)\",\"renderer\":\"\(renderer)\",\"scripts\":{\(parts.joined(separator: ","))},"
            + "\(lazyJSON(images))" + ",\"peak_rss_mb\":\(peakRSSMegabytes())}\n"
        lines.append("")
        lines.append("time lost over the \(FrameTimeSummary.format(profiler.jankThresholdMs)) ms budget, by cause:")
        lines += causeLines(causes)
        lines += latencyLines
        lines.append(
            "screenshots of janky frames: \(profiler.screenshots.all.count) (\(profiler.screenshots.bytes >> 10) KB; the slowest \(FrameScreenshots.maxCount) at most, in the trace and beside the summary)"
        )
        lines.append(
            "thumbnails: \(images.decodedTotal) decoded, \(loader.cancelled) cancelled, \(images.failedTotal) failed; "
                + "\(images.prefetchedInTime) ready on sight; \(latency.totalCount) waited, p50 \(ms(latency.valueAtPercentile(50))) ms, "
                + "p95 \(ms(latency.valueAtPercentile(95))) ms (work = before present; janky = over the budget, the present counted unless it waits for vsync)"
        )
        return (
            summary, lines.joined(separator: "\n"),
            profiler.chromeTraceJSON(images: images.timelines, workers: images.loader.workerCount)
        )
    }

    /// One script's part of the summary JSON, its line of the text table, its line of input
    /// latencies, and its janky frames.
    private static func scriptReport(
        _ result: (name: String, frames: [FrameRecord], firstScreenMs: Double?), budgetMs: Double
    ) -> (json: String, line: String, latencyLine: String, jank: JankReport) {
        let work = FrameTimeSummary(samples: result.frames.map(\.workMs))
        let total = FrameTimeSummary(samples: result.frames.map(\.totalMs))
        let jank = JankReport(frames: result.frames, budgetMs: budgetMs)
        let janky = jank.janky.count
        let visible = result.frames.reduce(0) { $0 + $1.lazy.visibleCells }
        let placeholders = result.frames.reduce(0) { $0 + $1.lazy.placeholderCells }
        var part =
            "\"\(result.name)\":{\"frames\":\(result.frames.count),\"work_ms\":\(work.json),\"total_ms\":\(total.json),\"janky_frames\":\(janky)"
            + ",\"janky\":\(jank.jankyJSON()),\"causes\":\(jank.rankedJSON)"
        if visible > 0 {
            part +=
                ",\"placeholder_cell_frames_pct\":\(FrameTimeSummary.format(Double(placeholders) * 100 / Double(visible)))"
        }
        if let first = result.firstScreenMs { part += ",\"first_screen_ms\":\(FrameTimeSummary.format(first))" }
        part += "," + CaptureSamples.json(CaptureSamples.script(result.frames))
        let latencies = FrameTimeSummary.inputLatencies(of: result.frames)
        part += ",\"input_latency_ms\":\(FrameTimeSummary.latencyJSON(latencies))"
        let scrollJank = ScrollJank.allCases.map { kind in
            (kind, result.frames.filter { $0.scrollJank(budgetMs: budgetMs) == kind }.count)
        }
        part += ",\"scroll_jank\":{" + scrollJank.map { "\"\($0.0.rawValue)\":\($0.1)" }.joined(separator: ",") + "}"
        let latencyLine =
            "  " + result.name.padding(toLength: 9, withPad: " ", startingAt: 0)
            + (latencies.isEmpty
                ? "no input"
                : latencies.map {
                    "\($0.kind.name) p50 \(FrameTimeSummary.format($0.summary.p50)) p95 \(FrameTimeSummary.format($0.summary.p95)) p99 \(FrameTimeSummary.format($0.summary.p99))"
                }.joined(separator: "; "))
            + (scrollJank.contains { $0.1 > 0 }
                ? "  |  slow scroll frames: "
                    + scrollJank.filter { $0.1 > 0 }.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ")
                : "")
        func pad(_ s: String, _ n: Int) -> String { s.leftPadded(n) }
        let line =
            result.name.padding(toLength: 9, withPad: " ", startingAt: 0) + pad("\(result.frames.count)", 7)
            + pad(FrameTimeSummary.format(work.p50), 11) + pad(FrameTimeSummary.format(work.p95), 9)
            + pad(FrameTimeSummary.format(work.p99), 9)
            + pad(FrameTimeSummary.format(work.max), 9) + pad(FrameTimeSummary.format(total.p50), 12)
            + pad(FrameTimeSummary.format(total.p99), 9)
            + pad("\(janky)", 8)
        return (part + "}", line, latencyLine, jank)
    }

    /// The lazy image path's totals, as the summary's `"lazy"` member.
    @MainActor
    private static func lazyJSON(_ images: ImagePipeline) -> String {
        let loader = images.loader.snapshot
        return
            "\"lazy\":{\"decoded\":\(images.decodedTotal),\"cancelled\":\(loader.cancelled),\"failed\":\(images.failedTotal)"
            + ",\"dropped\":\(images.droppedTotal),\"uploads\":\(images.uploadsTotal)"
            + ",\"upload_ms_mean\":\(FrameTimeSummary.format(Double(images.uploadNsTotal) / 1e6 / Double(max(1, images.uploadsTotal))))"
            + "," + images.latencyJSON
            + ",\"texture_mb\":\(FrameTimeSummary.format(Double(images.cache.bytes) / 1_048_576)),\"texture_budget_mb\":\(images.cache.budgetBytes >> 20)}"
    }

    /// The five causes that lost each script the most time over the budget.
    private static func causeLines(_ causes: [(script: String, report: JankReport)]) -> [String] {
        var lines: [String] = []
        for (script, report) in causes {
            for cause in report.ranked.prefix(5) {
                lines.append(
                    "  " + script.padding(toLength: 9, withPad: " ", startingAt: 0)
                        + FrameTimeSummary.format(cause.lostMs).leftPadded(10)
                        + " ms  \(cause.frames) frames  "
                        + (cause.kind == .build ? "build: " + cause.culprit : cause.culprit))
            }
            if report.ranked.isEmpty {
                lines.append("  " + script.padding(toLength: 9, withPad: " ", startingAt: 0) + "no janky frames")
            }
        }
        return lines
    }
}

extension String {
    /// Right-aligned in `width` characters.
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
