import Render2D
import Imaging
/// A named, timed part of a frame's build phase, opened by a container widget (its kind and
/// ID label) or by the app (`UI.profile`). Scopes nest: `depth` 0 is outermost.
public struct ProfileScope: Sendable {
    /// The widget family ("table", "list", "grid"…), or "" for the app's own scopes.
    public var kind: StaticString
    /// The scope's name: a container's ID label ("files"), or the name given to `UI.profile`.
    public var label: String
    /// How deeply it is nested in other scopes (0: outermost).
    public var depth: Int
    /// Monotonic nanoseconds.
    public var startNs: UInt64
    /// How long it took, in nanoseconds.
    public var durationNs: UInt64

    @usableFromInline init(kind: StaticString, label: String, depth: Int, startNs: UInt64, durationNs: UInt64) {
        self.kind = kind
        self.label = label
        self.depth = depth
        self.startNs = startNs
        self.durationNs = durationNs
    }

    /// When it ended (monotonic nanoseconds).
    public var endNs: UInt64 { startNs + durationNs }
    /// How long it took, in milliseconds.
    public var ms: Double { Double(durationNs) / 1e6 }
    /// Whether this is the scope `AppHost` opens around texture uploads (`FrameRecord.uploadKind`).
    public var isUploads: Bool { kind.description == FrameRecord.uploadKind.description }
    /// "table 'files'"; the app's own scopes by their name, an unnamed widget by its kind.
    public var name: String {
        kind.utf8CodeUnitCount == 0 ? label : label.isEmpty ? kind.description : "\(kind) '\(label)'"
    }
}

/// Why a frame went over its budget: the part of it that cost the most, in words.
///
/// ```swift
/// if frame.isOverBudget(16.7) { print(frame.cause().description) } // "build: table 'files' 7.20 ms"
/// ```
public struct FrameCause: Sendable, Equatable {
    /// The families causes are ranked by.
    public enum Kind: String, Sendable, CaseIterable {
        /// Reading and handling input events.
        case events
        /// Building the UI: a scope, or the build outside any scope.
        case build
        /// Texture uploads of finished decodes.
        case uploads
        /// Submitting the draw lists to the renderer.
        case submit
        /// Presenting the frame (when it counts towards the work).
        case present
    }
    /// The family of the cause.
    public var kind: Kind
    /// What it is within its kind: for `build`, a scope's name ("table 'files'") or "outside any
    /// scope"; else the kind's name.
    public var culprit: String
    /// The culprit's own time, milliseconds.
    public var ms: Double
    /// The details: "uploads: 14 textures, 11.8 MB, 9.60 ms".
    public var summary: String
    /// What finished in the background and handed the frame this work, if anything.
    public var trigger: String?

    /// The summary, and the trigger when there is one.
    public var description: String { trigger.map { summary + ", after " + $0 } ?? summary }
}

extension FrameRecord {
    /// Whether the frame's `budgetedNs` is over `budgetMs`.
    public func isOverBudget(_ budgetMs: Double) -> Bool { Double(budgetedNs) / 1e6 > budgetMs }

    /// The scope that holds the frame's build time: the costliest outermost scope, then, while
    /// one child holds at least half of its parent's time, that child.
    public func heaviestScope() -> ProfileScope? {
        var best: Int?
        for (i, scope) in scopes.enumerated() where scope.depth == 0 && !scope.isUploads {
            if best.map({ scope.durationNs > scopes[$0].durationNs }) ?? true { best = i }
        }
        guard var at = best else { return nil }
        while true {
            let parent = scopes[at]
            var heaviest: Int?
            var i = at + 1
            while i < scopes.count && scopes[i].depth > parent.depth {
                if scopes[i].depth == parent.depth + 1,
                    heaviest.map({ scopes[i].durationNs > scopes[$0].durationNs }) ?? true
                {
                    heaviest = i
                }
                i += 1
            }
            guard let child = heaviest, scopes[child].durationNs * 2 >= parent.durationNs else { return parent }
            at = child
        }
    }

    /// The kind of the scope `AppHost` opens around texture uploads.
    public static let uploadKind: StaticString = "uploads"

    /// The part of the frame that cost the most, named: the events, a build scope (or the
    /// build outside any scope), the uploads, the submit, or the present (when it counts).
    public func cause() -> FrameCause {
        func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }
        func text(_ v: Double) -> String { String(FrameTimeSummary.format(v).dropLast()) }  // two decimals
        // The uploads at the end of the frame and those cells took on sight while it was built.
        let uploadScopes = scopes.filter(\.isUploads)
        let uploadNs = uploadScopes.isEmpty ? lazy.uploadNs : uploadScopes.reduce(0) { $0 + $1.durationNs }
        let outermost = scopes.filter { $0.depth == 0 }.reduce(UInt64(0)) { $0 + $1.durationNs }
        let outsideNs =
            phaseNs[FramePhase.build.rawValue] > outermost ? phaseNs[FramePhase.build.rawValue] - outermost : 0
        var candidates: [FrameCause] = [
            FrameCause(
                kind: .events, culprit: "events", ms: ms(phaseNs[FramePhase.events.rawValue]),
                summary: "events: \(events) queued, \(text(ms(phaseNs[FramePhase.events.rawValue]))) ms"),
            FrameCause(
                kind: .uploads, culprit: "uploads", ms: ms(uploadNs),
                summary:
                    "uploads: \(lazy.uploads) textures, \(FrameTimeSummary.format(Double(lazy.uploadBytes) / 1_048_576).dropLast(2)) MB, "
                    + "\(text(ms(uploadNs))) ms"),
            FrameCause(
                kind: .build, culprit: "outside any scope", ms: ms(outsideNs),
                summary: "build: \(text(ms(outsideNs))) ms outside any scope"),
            FrameCause(
                kind: .submit, culprit: "submit", ms: ms(phaseNs[FramePhase.submit.rawValue]),
                summary: "submit: \(drawCalls) draw calls, \(text(ms(phaseNs[FramePhase.submit.rawValue]))) ms"),
        ]
        if presentCounts {
            candidates.append(
                FrameCause(
                    kind: .present, culprit: "present", ms: ms(phaseNs[FramePhase.present.rawValue]),
                    summary: "present \(text(ms(phaseNs[FramePhase.present.rawValue]))) ms (GPU)"))
        }
        if let scope = heaviestScope() {
            candidates.append(
                FrameCause(
                    kind: .build, culprit: scope.name, ms: scope.ms,
                    summary: "build: \(scope.name) \(text(scope.ms)) ms"))
        }
        var cause = candidates.max { $0.ms < $1.ms }!
        var why = triggers
        if cause.kind == .uploads && lazy.finished > 0 { why.append("\(lazy.finished) decodes finished") }
        if !why.isEmpty { cause.trigger = why.joined(separator: " and ") }
        return cause
    }
}

/// Janky frames of a run with their causes, and the causes ranked by the time they cost
/// over the budget.
///
/// ```swift
/// let report = JankReport(frames: profiler.trace, budgetMs: 16.7)
/// report.ranked.first?.culprit // "uploads"
/// ```
public struct JankReport: Sendable {
    /// One janky frame and its cause.
    public struct Entry: Sendable {
        /// The frame's number.
        public var frame: Int
        /// Its work in milliseconds.
        public var ms: Double
        /// What cost it the most.
        public var cause: FrameCause
    }
    /// A cause, with the janky frames it caused.
    public struct Ranked: Sendable {
        /// The cause's family.
        public var kind: FrameCause.Kind
        /// What it is within its family: a scope's name, or the family's.
        public var culprit: String
        /// How many janky frames it caused.
        public var frames: Int
        /// Milliseconds over the budget, summed over those frames.
        public var lostMs: Double
    }
    /// The budget a frame went over to count as janky, in milliseconds.
    public let budgetMs: Double
    /// The janky frames, in order.
    public let janky: [Entry]
    /// The causes, the costliest first.
    public let ranked: [Ranked]

    /// The janky frames of `frames` (over `budgetMs` of work) and their causes, ranked.
    public init(frames: [FrameRecord], budgetMs: Double) {
        self.budgetMs = budgetMs
        janky = frames.filter { $0.isOverBudget(budgetMs) }.map {
            Entry(frame: $0.index, ms: Double($0.budgetedNs) / 1e6, cause: $0.cause())
        }
        var byCulprit: [String: Ranked] = [:]
        for entry in janky {
            let key = entry.cause.kind.rawValue + "|" + entry.cause.culprit
            byCulprit[key, default: Ranked(kind: entry.cause.kind, culprit: entry.cause.culprit, frames: 0, lostMs: 0)]
                .frames += 1
            byCulprit[key]!.lostMs += entry.ms - budgetMs
        }
        ranked = byCulprit.values.sorted { $0.lostMs != $1.lostMs ? $0.lostMs > $1.lostMs : $0.culprit < $1.culprit }
    }

    /// `[{"frame":…,"ms":…,"cause":"…","kind":"…"},…]`, the janky frames (at most `limit`).
    public func jankyJSON(limit: Int = 1000) -> String {
        "["
            + janky.prefix(limit).map { entry in
                "{\"frame\":\(entry.frame),\"ms\":\(FrameTimeSummary.format(entry.ms)),\"kind\":\"\(entry.cause.kind.rawValue)\","
                    + "\"cause\":\(JSONText.quoted(entry.cause.description))}"
            }.joined(separator: ",") + "]"
    }

    /// `[{"kind":…,"culprit":…,"frames":…,"lost_ms":…},…]`, costliest first.
    public var rankedJSON: String {
        "["
            + ranked.map {
                "{\"kind\":\"\($0.kind.rawValue)\",\"culprit\":\(JSONText.quoted($0.culprit)),\"frames\":\($0.frames),"
                    + "\"lost_ms\":\(FrameTimeSummary.format($0.lostMs))}"
            }.joined(separator: ",") + "]"
    }
}

/// JSON string literals without Foundation.
package enum JSONText {
    /// `s` as a JSON string literal: quotes and backslashes escaped, control characters as `\u00XX`.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                if c.value < 0x20 {
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }
}
