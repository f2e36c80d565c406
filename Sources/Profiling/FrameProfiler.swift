import CSDL2
import Histogram
import Render2D
import Imaging

// `@inlinable @inline(__always)` here is measured: a profiler scope is inlined into its
// caller, so with scopes off it costs one branch (`bench scopes`: 12.3 → 1.6 ns a scope).

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

    /// The phase's name in the HUD and traces.
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
    /// The frame's number since the profiler started.
    public var index = 0
    /// Frame start, monotonic nanoseconds.
    public var startNs: UInt64 = 0
    /// Duration of each `FramePhase`, nanoseconds.
    public var phaseNs = [UInt64](repeating: 0, count: FramePhase.allCases.count)
    /// Draw calls the renderer issued.
    public var drawCalls = 0
    /// Vertices submitted.
    public var vertices = 0
    /// Triangles submitted.
    public var triangles = 0
    /// The lazy image path's counters (zero when no `ImagePipeline` runs).
    public var lazy = LazyPathCounters()
    /// Input events handled this frame.
    public var events = 0
    /// The build phase's named scopes, in the order they opened (parents before children).
    public var scopes: [ProfileScope] = []
    /// What finished in the background and handed this frame its work ("sort of 'files' finished").
    public var triggers: [String] = []
    /// Whether the present counts against the budget: false when it waits for the display's
    /// refresh (vsync), which is pacing, not work.
    public var presentCounts = true
    /// The input events the frame handled, with when each happened (see `inputLatencies`).
    public var inputs: [InputStamp] = []
    /// What scrolled in the frame, for its scroll-jank category (`scrollJank(budgetMs:)`).
    public var scroll = ScrollActivity()

    /// Events + build + submit: everything before the present.
    public var workNs: UInt64 { phaseNs[0] + phaseNs[1] + phaseNs[2] }
    /// The whole frame, present included, in nanoseconds.
    public var totalNs: UInt64 { workNs + phaseNs[3] }
    /// The time that counts against the frame budget: the work, plus the present unless it waits for vsync.
    public var budgetedNs: UInt64 { presentCounts ? totalNs : workNs }
    /// The work of the frame (every phase but the present's wait), in milliseconds.
    public var workMs: Double { Double(workNs) / 1e6 }
    /// The whole frame, present included, in milliseconds.
    public var totalMs: Double { Double(totalNs) / 1e6 }
}

/// Percentiles of a distribution of frame times, in milliseconds.
public struct FrameTimeSummary: Sendable, Equatable {
    /// The median, 95th and 99th percentiles and the maximum, in milliseconds.
    public var p50: Double, p95: Double, p99: Double, max: Double
    public var count: Int

    /// A summary of `count` frames.
    public init(p50: Double, p95: Double, p99: Double, max: Double, count: Int) {
        self.p50 = p50
        self.p95 = p95
        self.p99 = p99
        self.max = max
        self.count = count
    }

    /// Exact percentiles (nearest rank) of a few thousand samples, milliseconds.
    public init(samples: [Double]) {
        let sorted = samples.sorted()
        func at(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
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
    /// The frame budget: a frame whose `budgetedNs` is over it is janky (default one 60 Hz refresh).
    public var jankThresholdMs = 1000.0 / 60.0
    /// Whether the build phase's scopes are recorded (`beginScope`/`endScope`, `UI.profile`);
    /// when off, each scope costs one branch.
    @exclusivity(unchecked) public var recordsScopes = true
    /// Whether the present waits for the display's refresh (vsync): it then does not count
    /// against the budget (`FrameRecord.presentCounts`).
    public var presentWaitsForVSync = false
    /// Frames recorded since the start, warm-up frames included.
    public private(set) var frameCount = 0
    /// Frames after the warm-up whose work went over the jank threshold.
    public private(set) var jankyFrames = 0

    private var recent: [FrameRecord]
    private var recentNext = 0
    /// The work and total histograms, in microseconds. A class made on first use: with the
    /// input latencies', zeroing them took 0.6 ms of every window's start; and a class, because
    /// a lazy property is read, changed and written back, so each frame recorded into a lazy
    /// histogram copied its 139 KB of counts (twice a frame, 208,000 instructions).
    private final class Histograms {
        var work = Histograms.microseconds(), total = Histograms.microseconds()
        static func microseconds() -> Histogram<UInt64> {
            Histogram(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        }
    }
    private lazy var histograms = Histograms()
    private var current = FrameRecord()
    private var latency = InputLatencyHistograms()
    private var phaseStart: UInt64 = 0
    /// Every recorded frame, kept only while `keepsTrace` is set.
    public private(set) var trace: [FrameRecord] = []
    /// Whether every frame is kept for a trace (`trace`), beyond the recent ones.
    public var keepsTrace = false

    /// Forgets the kept frames and their screenshots (a new recording starts empty).
    public func clearTrace() {
        trace.removeAll()
        screenshots.removeAll()
    }

    /// The janky frames' screenshots (`screenshotIfJanky`), kept to `FrameScreenshots`' budget.
    public private(set) var screenshots = FrameScreenshots()

    /// Called between the submit and the present while profiling (`AppHost` does while it keeps
    /// a trace or shows the HUD): when the frame's work is already over the budget and a
    /// picture of it would be kept, takes one with `read` (the whole frame, read
    /// back) and keeps it shrunk. The time this takes is the profiler's own, counted in no phase.
    public func screenshotIfJanky(_ read: () -> PixelBuffer?) {
        let work = current.workNs
        guard Double(work) / 1e6 > jankThresholdMs, screenshots.wouldKeep(workNs: work) else { return }
        defer { phaseStart = MonotonicClock.nanoseconds() }
        guard let full = read() else { return }
        let small = full.shrunk(toFit: FrameScreenshots.width, FrameScreenshots.height)
        guard let png = try? PNGEncoder.encode(small) else { return }
        screenshots.keep(
            FrameScreenshot(frame: current.index, takenNs: phaseStart, workNs: work, pixels: small, png: png))
    }

    /// A profiler keeping the last `capacity` frames, ignoring the first `warmupFrames` in its statistics.
    public init(capacity: Int = 600, warmupFrames: Int = 0) {
        self.warmupFrames = warmupFrames
        recent = []
        recent.reserveCapacity(max(1, capacity))
        recentCapacity = max(1, capacity)
    }
    private let recentCapacity: Int

    deinit { scopeLog.free() }

    /// Starts timing a frame, now or at `startNs` (a `MonotonicClock.nanoseconds()` taken
    /// earlier: work done for the frame before it began, such as polling events, counts in its
    /// first phase).
    public func beginFrame(startNs: UInt64? = nil) {
        phaseStart = startNs ?? MonotonicClock.nanoseconds()
        current = FrameRecord()
        current.index = frameCount
        current.startNs = phaseStart
        current.presentCounts = !presentWaitsForVSync
        scopeLog.reset()
        ticks.frameStarts(ns: phaseStart)
    }

    /// The profiler of the frame running now on the main thread (set by `AppHost` for the
    /// length of each frame), for code that has no `UI` at hand, such as `TableSorter`.
    @MainActor public static var current: FrameProfiler?

    /// This frame's scopes, their times in ticks until `endFrame` converts them.
    @exclusivity(unchecked) @usableFromInline var scopeLog = ScopeLog()
    @exclusivity(unchecked) private var ticks = TickClock()

    /// Opens a scope named `label` of widget `kind` ("table", "list"…; "" for the app's own,
    /// see `UI.profile`), nested in the scopes open now. Pair it with `endScope()`. Inlined:
    /// one branch when scopes are off.
    @inlinable @inline(__always)
    public func beginScope(_ kind: StaticString, _ label: String) {
        guard recordsScopes else { return }
        scopeLog.begin(kind, label)
    }

    /// Closes the innermost open scope.
    @inlinable @inline(__always)
    public func endScope() { scopeLog.end() }

    /// The frame's scopes in nanoseconds, kept within the build phase (the tick clock and the
    /// phase clock may differ by a few nanoseconds at the edges). Scopes left open end with it.
    private func convertedScopes() -> [ProfileScope] {
        let buildStart = current.startNs + current.phaseNs[FramePhase.events.rawValue]
        let buildEnd = buildStart + current.phaseNs[FramePhase.build.rawValue]
        let ticks = self.ticks
        return scopeLog.take { startTicks, endTicks in
            let start = min(max(ticks.nanoseconds(startTicks), buildStart), buildEnd)
            let end = min(max(ticks.nanoseconds(endTicks), start), buildEnd)
            return (start, end - start)
        }
    }

    /// Notes that `what` finished in the background and caused this frame's work (a sort
    /// adopted, decodes uploaded); attribution names it.
    public func noteTrigger(_ what: String) { current.triggers.append(what) }

    /// Records how many input events this frame handled.
    public func recordEvents(_ count: Int) { current.events = count }

    /// Records the frame's input events with when each happened; at the end of the frame
    /// each one's wait for the present goes into `inputLatency(_:)`.
    public func recordInputs(_ stamps: [InputStamp]) { current.inputs = stamps }

    /// Adds to what scrolled this frame: `points` by input or by momentum, and whether a fling began.
    public func noteScroll(inputPoints: Double = 0, momentumPoints: Double = 0, flingStarted: Bool = false) {
        if inputPoints.isFinite { current.scroll.inputPoints += inputPoints }
        if momentumPoints.isFinite { current.scroll.momentumPoints += momentumPoints }
        if flingStarted { current.scroll.flingStarted = true }
    }

    /// Percentiles of the delay from an input event of `kind` to the present of the first
    /// frame that showed it, in milliseconds (nil when none was recorded).
    public func inputLatency(_ kind: InputKind) -> FrameTimeSummary? { latency.summary(kind) }

    /// `inputLatency` of every kind that had input, as JSON (`"input_latency_ms"` in summaries).
    public var inputLatencyJSON: String {
        FrameTimeSummary.latencyJSON(InputKind.allCases.compactMap { kind in inputLatency(kind).map { (kind, $0) } })
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
        if scopeLog.count > 0 { current.scopes = convertedScopes() }
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
            let histograms = self.histograms
            histograms.work.record(max(1, current.workNs / 1000))
            histograms.total.record(max(1, current.totalNs / 1000))
            latency.record(current)
            if current.isOverBudget(jankThresholdMs) { jankyFrames += 1 }
            if keepsTrace { trace.append(current) }
        }
        frameCount += 1
    }

    /// The last recorded frames, oldest first.
    public var recentFrames: [FrameRecord] {
        recent.count < recentCapacity ? recent : Array(recent[recentNext...] + recent[..<recentNext])
    }
    /// The last frame recorded.
    public var lastFrame: FrameRecord? { recent.isEmpty ? nil : recent[(recentNext - 1 + recent.count) % recent.count] }

    /// Percentiles of the work per frame.
    public func workSummary() -> FrameTimeSummary { Self.summary(histograms.work) }
    /// Percentiles of the whole frame per frame.
    public func totalSummary() -> FrameTimeSummary { Self.summary(histograms.total) }

    private static func summary(_ h: Histogram<UInt64>) -> FrameTimeSummary {
        guard h.totalCount > 0 else { return FrameTimeSummary(p50: 0, p95: 0, p99: 0, max: 0, count: 0) }
        func ms(_ us: UInt64) -> Double { Double(us) / 1000 }
        return FrameTimeSummary(
            p50: ms(h.valueAtPercentile(50)), p95: ms(h.valueAtPercentile(95)),
            p99: ms(h.valueAtPercentile(99)), max: ms(h.max), count: Int(h.totalCount))
    }

    /// The kept trace as Chrome trace-event JSON (see `ChromeTrace`), with `images` (the
    /// pipeline's timelines) on `workers` decode threads.
    public func chromeTraceJSON(images: [ImageTimeline] = [], workers: Int = 0) -> String {
        ChromeTrace.json(
            frames: trace, images: images, workers: workers, budgetMs: jankThresholdMs, screenshots: screenshots.all)
    }
}

/// Converts `tessera_ticks()` to `MonotonicClock` nanoseconds: the rate is measured once
/// (1 ms) and refined over the run, and each frame's ticks count from that frame's start.
struct TickClock {
    private static let initialRate: Double = {
        let ticks0 = tessera_ticks(), ns0 = MonotonicClock.nanoseconds()
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        nanosleep(&pause, nil)
        let ticks1 = tessera_ticks(), ns1 = MonotonicClock.nanoseconds()
        return ticks1 > ticks0 ? Double(ns1 - ns0) / Double(ticks1 - ticks0) : 1
    }()
    private var nsPerTick = 0.0
    private var base: (ticks: UInt64, ns: UInt64) = (0, 0)
    private var frame: (ticks: UInt64, ns: UInt64) = (0, 0)

    /// Marks a frame's start, `ns` on the monotonic clock.
    mutating func frameStarts(ns: UInt64) {
        let now = tessera_ticks()
        if nsPerTick == 0 {
            nsPerTick = Self.initialRate
            base = (now, ns)
        } else if ns > base.ns + 1_000_000_000, now > base.ticks {
            nsPerTick = Double(ns - base.ns) / Double(now - base.ticks)  // over a second or more: exact enough
        }
        frame = (now, ns)
        fixedRate = nsPerTick.isFinite ? UInt64(min(max(nsPerTick, 0), 1e6) * 4_294_967_296) : 0
    }

    /// `ticks` (read during the current frame) in monotonic nanoseconds: integer arithmetic
    /// with the rate in 32.32 fixed point (a frame's thousands of scopes convert in microseconds).
    func nanoseconds(_ ticks: UInt64) -> UInt64 {
        guard ticks > frame.ticks else { return frame.ns }
        let product = (ticks - frame.ticks).multipliedFullWidth(by: fixedRate)
        return frame.ns &+ (product.high << 32 | product.low >> 32)
    }
    /// `nsPerTick` × 2³².
    private var fixedRate: UInt64 = 0
}
