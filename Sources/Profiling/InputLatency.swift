import Histogram
import Render2D
import Imaging

/// The kinds of input whose delay to the screen is measured (`FrameProfiler.inputLatency`).
public enum InputKind: Int, CaseIterable, Sendable, Codable {
    /// The pointer moved.
    case pointer
    /// A mouse button went down or up.
    case button
    /// The wheel or a trackpad scrolled.
    case wheel
    /// A key went down or up.
    case key
    /// Text was typed or composed.
    case text
    /// A finger touched, moved or lifted.
    case touch

    /// Its name in summaries and traces ("wheel").
    public var name: String {
        switch self {
        case .pointer: "pointer"
        case .button: "button"
        case .wheel: "wheel"
        case .key: "key"
        case .text: "text"
        case .touch: "touch"
        }
    }
}

/// One input event of a frame: its kind, and when it happened (monotonic nanoseconds, from
/// the event's own timestamp, not from when the frame read it).
///
/// ```swift
/// profiler.recordInputs([InputStamp(kind: .wheel, ns: sdlEventNs)])
/// ```
public struct InputStamp: Sendable, Equatable {
    /// What kind of input it was.
    public var kind: InputKind
    /// When it happened, monotonic nanoseconds.
    public var ns: UInt64
    /// An event of `kind` that happened at `ns`.
    public init(kind: InputKind, ns: UInt64) {
        self.kind = kind
        self.ns = ns
    }
}

/// How a slow scroll frame went wrong, in Chrome's scroll-jank categories.
public enum ScrollJank: String, CaseIterable, Sendable {
    /// Its input reached the frame late: the oldest event waited over a frame budget first.
    case lateInput = "late_input"
    /// The frame was part of a fast scroll (over `ScrollActivity.fastSpeed`).
    case fastScroll = "fast_scroll"
    /// The frame began a fling (the first frame of momentum after a flick or a wheel spin).
    case flingStart = "fling_start"
    /// The frame was in the middle of a fling.
    case fling
    /// Any other scroll frame.
    case regular
}

/// What scrolled in a frame (`FrameProfiler.noteScroll`), for classifying its jank.
public struct ScrollActivity: Sendable, Equatable {
    /// Points scrolled this frame by input (the wheel, a drag), or by momentum.
    public var inputPoints = 0.0, momentumPoints = 0.0
    /// Whether a fling (momentum) started this frame.
    public var flingStarted = false
    /// Scroll speeds above this many points a second are fast (Chrome's "fast scroll").
    public static let fastSpeed = 2000.0
    /// Whether anything scrolled.
    public var isScrolling: Bool { inputPoints != 0 || momentumPoints != 0 || flingStarted }
    /// No scrolling.
    public init() {}
}

extension FrameRecord {
    /// How long each input waited for the present that showed it, in nanoseconds.
    public var inputLatencies: [(kind: InputKind, ns: UInt64)] {
        let presented = startNs + totalNs
        return inputs.map { ($0.kind, presented > $0.ns ? presented - $0.ns : 0) }
    }

    /// The longest wait of each kind of input this frame handled, in milliseconds ("wheel 4.2 ms").
    public var worstInputLatencyMs: [(kind: InputKind, ms: Double)] {
        var worst: [InputKind: UInt64] = [:]
        for (kind, ns) in inputLatencies { worst[kind] = max(worst[kind] ?? 0, ns) }
        return InputKind.allCases.compactMap { kind in worst[kind].map { (kind, Double($0) / 1e6) } }
    }

    /// The scroll-jank category of a scroll frame over `budgetMs` (nil when it is not one).
    public func scrollJank(budgetMs: Double) -> ScrollJank? {
        guard scroll.isScrolling, isOverBudget(budgetMs) else { return nil }
        let budgetNs = UInt64(min(max(budgetMs, 0), 1e6) * 1e6)
        if let oldest = inputs.map(\.ns).min(), startNs > oldest, startNs - oldest > budgetNs { return .lateInput }
        if scroll.flingStarted { return .flingStart }
        let seconds = Double(budgetedNs) / 1e9
        if seconds > 0, abs(scroll.inputPoints) / max(seconds, 1.0 / 60) > ScrollActivity.fastSpeed {
            return .fastScroll
        }
        if scroll.momentumPoints != 0 { return .fling }
        return .regular
    }
}

/// Input-to-present latency, one histogram of microseconds per `InputKind`.
struct InputLatencyHistograms {
    /// One a kind of input, made when its first latency comes (most windows never see some kinds).
    private var histograms = [Histogram<UInt64>?](repeating: nil, count: InputKind.allCases.count)

    mutating func record(_ frame: FrameRecord) {
        for (kind, ns) in frame.inputLatencies {
            if histograms[kind.rawValue] == nil {
                histograms[kind.rawValue] = Histogram(
                    highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
            }
            _ = histograms[kind.rawValue]?.record(min(max(1, ns / 1000), 60_000_000))
        }
    }

    func summary(_ kind: InputKind) -> FrameTimeSummary? {
        guard let h = histograms[kind.rawValue], h.totalCount > 0 else { return nil }
        func ms(_ us: UInt64) -> Double { Double(us) / 1000 }
        return FrameTimeSummary(
            p50: ms(h.valueAtPercentile(50)), p95: ms(h.valueAtPercentile(95)),
            p99: ms(h.valueAtPercentile(99)), max: ms(h.max), count: Int(h.totalCount))
    }
}

extension FrameTimeSummary {
    /// `{"wheel":{"p50":…,"p95":…,"p99":…,"max":…,"events":…},…}` of the kinds in `summaries`.
    public static func latencyJSON(_ summaries: [(kind: InputKind, summary: FrameTimeSummary)]) -> String {
        "{"
            + summaries.map { "\"\($0.kind.name)\":" + $0.summary.json.dropLast() + ",\"events\":\($0.summary.count)}" }
            .joined(separator: ",") + "}"
    }

    /// Latency percentiles per kind from `frames` (exact, nearest rank), for summaries of a few thousand frames.
    public static func inputLatencies(of frames: [FrameRecord]) -> [(kind: InputKind, summary: FrameTimeSummary)] {
        var samples: [InputKind: [Double]] = [:]
        for frame in frames {
            for (kind, ns) in frame.inputLatencies { samples[kind, default: []].append(Double(ns) / 1e6) }
        }
        return InputKind.allCases.compactMap { kind in samples[kind].map { (kind, FrameTimeSummary(samples: $0)) } }
    }
}
