import ArgumentParser
import Foundation
import Render2D
import Widgets

/// `profile`: a scripted session through the gallery (cold caches, scrolling 30 px a frame at
/// 60 Hz) that writes a Chrome trace (frames and phases on the main thread, one thread per
/// decode worker, one flow per image) and a summary JSON, and prints a short report.
struct Profile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Profile a scripted gallery session: Perfetto-loadable trace, summary JSON, text report.")

    @Option(help: "Folder of photos (default: 2,000 generated 1920x1280 samples in the cache folder).")
    var images: String?

    @Option(help: "How long to scroll, seconds.")
    var seconds = 10.0

    @Option(help: "Write the Chrome trace-event JSON here (open it in https://ui.perfetto.dev).")
    var trace: String?

    @Option(help: "Write the summary JSON here.")
    var summary: String?

    @Flag(help: "Read and write persistent thumbnails ($XDG_CACHE_HOME/thumbnails, the freedesktop layout).")
    var thumbnailCache = false

    func validate() throws {
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in 0...3600") }
    }

    func run() throws {
        let processStart = MonotonicClock.seconds()
        let folder = try images ?? PhotoLibrary.sampleLibrary(count: 2000, width: 1920, height: 1280)
        _ = try PhotoLibrary.load(folder) // a clear error before any window opens
        let report = try MainActor.assumeIsolated { () throws -> (summary: String, text: String, trace: String) in
            let offscreen = ProcessEnvironment.value("DISPLAY") == nil && ProcessEnvironment.value("WAYLAND_DISPLAY") == nil
            let host = try AppHost(options: .init(title: "Tessera profile", width: 1280, height: 800, vsync: false, offscreen: offscreen, scale: 1))
            let session = GalleryBench(folder: folder, processStart: processStart, thumbnailCache: thumbnailCache ? FreedesktopThumbnails() : nil)
            try session.setUp(host: host)
            host.profiler.keepsTrace = true
            session.images.keepsTimelines = true
            let end = MonotonicClock.seconds() + seconds
            var frame = 0
            while MonotonicClock.seconds() < end {
                session.beforeFrame(frame)
                host.frame { ui in session.build(ui, frame: frame) }
                frame += 1
            }
            let work = host.profiler.workSummary(), total = host.profiler.totalSummary()
            let workers = session.images.loader.workerCount
            let traceJSON = host.profiler.chromeTraceJSON(images: session.images.timelines, workers: workers)
            let latency = session.images.latency
            func ms(_ us: UInt64) -> String { FrameTimeSummary.format(Double(us) / 1000) }
            let text = """
                gallery session: \(frame) frames in \(FrameTimeSummary.format(seconds)) s, \(session.n) photos, \(workers) decode workers
                work   p50 \(FrameTimeSummary.format(work.p50))  p95 \(FrameTimeSummary.format(work.p95))  p99 \(FrameTimeSummary.format(work.p99))  max \(FrameTimeSummary.format(work.max)) ms
                total  p50 \(FrameTimeSummary.format(total.p50))  p95 \(FrameTimeSummary.format(total.p95))  p99 \(FrameTimeSummary.format(total.p99))  max \(FrameTimeSummary.format(total.max)) ms
                janky frames (work > 16.7 ms): \(host.profiler.jankyFrames)
                thumbnails: \(session.images.decodedTotal) decoded, \(session.images.loader.snapshot.cancelled) cancelled, \(session.images.failedTotal) failed; latency p50 \(ms(latency.valueAtPercentile(50))) ms, p95 \(ms(latency.valueAtPercentile(95))) ms
                """
            let json = "{\"session\":\"gallery\",\"seconds\":\(FrameTimeSummary.format(seconds)),\"frames\":\(frame),\"n\":\(session.n)"
                + ",\"renderer\":\"\(host.window.renderer.name)\",\"work_ms\":\(work.json),\"total_ms\":\(total.json)"
                + ",\"peak_rss_mb\":\(peakRSSMegabytes())" + session.fields() + "}\n"
            return (json, text, traceJSON)
        }
        if let trace {
            try report.trace.write(toFile: trace, atomically: true, encoding: .utf8)
            Log.info("trace written to \(trace) (open it in https://ui.perfetto.dev)")
        }
        if let summary {
            try report.summary.write(toFile: summary, atomically: true, encoding: .utf8)
            Log.info("summary written to \(summary)")
        }
        print(report.text)
    }
}
