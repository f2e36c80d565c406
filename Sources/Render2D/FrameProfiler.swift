import Histogram

/// The phases of one frame, in order.
public enum FramePhase: Int, CaseIterable, Sendable {
    /// SDL event polling and input translation.
    case events
    /// The app's UI code: layout and draw-list generation.
    case build
    /// Draw-list submission to the renderer (`SDL_RenderGeometry`).
    case submit
    /// `SDL_RenderPresent`.
    case present

    public var name: String {
        switch self {
        case .events: "events"
        case .build: "build"
        case .submit: "submit"
        case .present: "present"
        }
    }
}

/// What one frame cost: phase durations and counters.
public struct FrameRecord: Sendable {
    public var index = 0
    /// Frame start, monotonic nanoseconds.
    public var startNs: UInt64 = 0
    /// Duration of each `FramePhase`, nanoseconds.
    public var phaseNs = [UInt64](repeating: 0, count: FramePhase.allCases.count)
    public var drawCalls = 0
    public var vertices = 0
    public var triangles = 0
    /// The lazy image path's counters (zero when no `ImagePipeline` runs).
    public var lazy = LazyPathCounters()

    /// Events + build + submit: everything before the present.
    public var workNs: UInt64 { phaseNs[0] + phaseNs[1] + phaseNs[2] }
    public var totalNs: UInt64 { workNs + phaseNs[3] }
    public var workMs: Double { Double(workNs) / 1e6 }
    public var totalMs: Double { Double(totalNs) / 1e6 }
}

/// Percentiles of a distribution of frame times, in milliseconds.
public struct FrameTimeSummary: Sendable, Equatable {
    public var p50: Double, p95: Double, p99: Double, max: Double
    public var count: Int

    public init(p50: Double, p95: Double, p99: Double, max: Double, count: Int) {
        self.p50 = p50; self.p95 = p95; self.p99 = p99; self.max = max; self.count = count
    }

    /// Exact percentiles (nearest rank) of a few thousand samples, milliseconds.
    public init(samples: [Double]) {
        let sorted = samples.sorted()
        func at(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        self.init(p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.last ?? 0, count: sorted.count)
    }

    /// `{"p50":…,"p95":…,"p99":…,"max":…}` with three decimals.
    public var json: String {
        "{\"p50\":\(Self.format(p50)),\"p95\":\(Self.format(p95)),\"p99\":\(Self.format(p99)),\"max\":\(Self.format(max))}"
    }
    /// `v` with exactly three decimals, without Foundation (for JSON output).
    public static func format(_ v: Double) -> String {
        let thousandths = Int((v * 1000).rounded())
        let frac = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
    }
}

/// Records every frame's phases and counters: a ring of recent frames for the HUD graph,
/// HdrHistograms of work and total time for trustworthy percentiles, and optionally every
/// frame for a Chrome trace-event export (opens in Perfetto).
///
/// ```swift
/// profiler.beginFrame()
/// pollEvents();  profiler.endPhase(.events)
/// buildUI();     profiler.endPhase(.build)
/// submit();      profiler.endPhase(.submit)
/// present();     profiler.endPhase(.present)
/// profiler.endFrame(stats: renderer.stats)
/// profiler.workSummary().p99
/// ```
public final class FrameProfiler {
    /// Frames that `beginFrame`/`endFrame` see before recording into the histograms.
    public var warmupFrames: Int
    /// Work time above which a frame counts as janky (one 60 Hz refresh).
    public var jankThresholdMs = 1000.0 / 60.0
    public private(set) var frameCount = 0
    public private(set) var jankyFrames = 0

    private var recent: [FrameRecord]
    private var recentNext = 0
    private var work = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    private var total = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    private var current = FrameRecord()
    private var phaseStart: UInt64 = 0
    /// Every recorded frame, kept only while `keepsTrace` is set.
    public private(set) var trace: [FrameRecord] = []
    public var keepsTrace = false

    /// Forgets the kept frames (a new recording starts empty).
    public func clearTrace() { trace.removeAll() }

    public init(capacity: Int = 600, warmupFrames: Int = 0) {
        self.warmupFrames = warmupFrames
        recent = []
        recent.reserveCapacity(max(1, capacity))
        recentCapacity = max(1, capacity)
    }
    private let recentCapacity: Int

    public func beginFrame() {
        phaseStart = MonotonicClock.nanoseconds()
        current = FrameRecord()
        current.index = frameCount
        current.startNs = phaseStart
    }

    /// Ends `phase`: the time since the previous phase ended (or the frame began) is charged to it.
    public func endPhase(_ phase: FramePhase) {
        let now = MonotonicClock.nanoseconds()
        current.phaseNs[phase.rawValue] += now - phaseStart
        phaseStart = now
    }

    /// Records the lazy image path's counters for the current frame.
    public func recordLazyPath(_ counters: LazyPathCounters) { current.lazy = counters }

    /// Closes the frame with the renderer's counters.
    public func endFrame(stats: Renderer.Stats) {
        current.drawCalls = stats.drawCalls
        current.vertices = stats.vertices
        current.triangles = stats.triangles
        record(current)
    }

    /// Records a finished frame (also used to feed recorded or synthetic frames).
    public func record(_ current: FrameRecord) {
        if recent.count < recentCapacity { recent.append(current) } else { recent[recentNext] = current }
        recentNext = (recentNext + 1) % recentCapacity
        if frameCount >= warmupFrames {
            _ = work.record(max(1, current.workNs / 1000))
            _ = total.record(max(1, current.totalNs / 1000))
            if current.workMs > jankThresholdMs { jankyFrames += 1 }
            if keepsTrace { trace.append(current) }
        }
        frameCount += 1
    }

    /// The last recorded frames, oldest first.
    public var recentFrames: [FrameRecord] {
        recent.count < recentCapacity ? recent : Array(recent[recentNext...] + recent[..<recentNext])
    }
    public var lastFrame: FrameRecord? { recent.isEmpty ? nil : recent[(recentNext - 1 + recent.count) % recent.count] }

    public func workSummary() -> FrameTimeSummary { Self.summary(work) }
    public func totalSummary() -> FrameTimeSummary { Self.summary(total) }

    private static func summary(_ h: Histogram<UInt64>) -> FrameTimeSummary {
        guard h.totalCount > 0 else { return FrameTimeSummary(p50: 0, p95: 0, p99: 0, max: 0, count: 0) }
        func ms(_ us: UInt64) -> Double { Double(us) / 1000 }
        return FrameTimeSummary(p50: ms(h.valueAtPercentile(50)), p95: ms(h.valueAtPercentile(95)),
                                p99: ms(h.valueAtPercentile(99)), max: ms(h.max), count: Int(h.totalCount))
    }

    /// The kept trace as Chrome trace-event JSON (see `ChromeTrace`), with `images` (the
    /// pipeline's timelines) on `workers` decode threads.
    public func chromeTraceJSON(images: [ImageTimeline] = [], workers: Int = 0) -> String {
        ChromeTrace.json(frames: trace, images: images, workers: workers)
    }
}
