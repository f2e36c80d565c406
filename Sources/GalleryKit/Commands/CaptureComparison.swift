import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport

/// The per-frame samples of one profiling capture, by script: each frame's work, and each
/// scope's time in each frame (0 where it did not run). `profile` writes them into its
/// summary (`"samples"`); `profile --compare` reads two summaries back.
struct CaptureSamples: Equatable {
    struct Script: Equatable {
        /// Each frame's work (everything before the present), milliseconds.
        var work: [Double]
        /// Each scope's time per frame, milliseconds, by the scope's name.
        var scopes: [String: [Double]]
    }
    var scripts: [String: Script]

    /// Scopes kept per script: the ones that took the most time in all.
    static let maxScopes = 16
    /// Frames read per measure: an hour at 60 Hz.
    static let maxSamples = 216_000

    /// A script's samples from its frames.
    static func script(_ frames: [FrameRecord]) -> Script {
        var scopes: [String: [Double]] = [:]
        for (n, frame) in frames.enumerated() {
            for scope in frame.scopes {
                scopes[scope.name, default: Array(repeating: 0, count: frames.count)][n] += scope.ms
            }
        }
        let kept = scopes.sorted { $0.value.reduce(0, +) > $1.value.reduce(0, +) }.prefix(maxScopes)
        return Script(
            work: frames.map(\.workMs), scopes: Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) }))
    }

    /// `"samples":{"work_ms":[…],"scope_ms":{"table 'files'":[…]}}`, three decimals.
    static func json(_ script: Script) -> String {
        func list(_ values: [Double]) -> String {
            "[" + values.map { FrameTimeSummary.format($0) }.joined(separator: ",") + "]"
        }
        let scopes = script.scopes.keys.sorted().map { "\(JSONText.quoted($0)):\(list(script.scopes[$0]!))" }
        return "\"samples\":{\"work_ms\":\(list(script.work)),\"scope_ms\":{\(scopes.joined(separator: ","))}}"
    }

    /// Why a summary could not be compared.
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The samples in the summary JSON at `path` (a regular file, at most 256 MB).
    static func load(_ path: String) throws -> CaptureSamples {
        let bytes: [UInt8]
        do throws(RegularFile.ReadError) { bytes = try RegularFile.read(path, maxBytes: 256 << 20) } catch {
            throw LoadError(description: "cannot read \(path): \(error)")
        }
        return try parse(bytes, name: path)
    }

    /// The samples in summary JSON `bytes`; `name` is used in errors.
    static func parse(_ bytes: [UInt8], name: String) throws -> CaptureSamples {
        struct Summary: Decodable {
            struct Script: Decodable {
                struct Samples: Decodable {
                    var work_ms: [Double]
                    var scope_ms: [String: [Double]]
                }
                var samples: Samples?
            }
            var scripts: [String: Script]
        }
        let summary: Summary
        do { summary = try JSONDecoder().decode(Summary.self, from: Data(bytes)) } catch {
            throw LoadError(description: "\(name) is not a profile summary: \("\(error)".prefix(160))")
        }
        var scripts: [String: Script] = [:]
        // At most 16 scripts of 64 scopes each are compared: the bootstrap's time stays bounded.
        for (name, script) in summary.scripts.sorted(by: { $0.key < $1.key }).prefix(16) {
            guard let samples = script.samples else { continue }
            // Times a frame could take: finite, 0 to 1,000 s, and at most `maxSamples` of them
            // (a file anyone could write; the bootstrap sorts each a thousand times).
            let finite = { (values: [Double]) in
                values.prefix(maxSamples).filter(\.isFinite).map { min(max($0, 0), 1e6) }
            }
            let scopes = samples.scope_ms.sorted { $0.key < $1.key }.prefix(maxScopes * 4).map {
                ($0.key, finite($0.value))
            }
            scripts[name] = Script(work: finite(samples.work_ms), scopes: Dictionary(uniqueKeysWithValues: scopes))
        }
        guard !scripts.isEmpty else {
            throw LoadError(
                description: "\(name) has no per-frame samples (a summary from before they were kept): profile again")
        }
        return CaptureSamples(scripts: scripts)
    }
}

/// Two captures compared measure by measure (a script's frame work, each of its scopes) at
/// p50, p95 and p99: each difference with a 95 % confidence interval from a bootstrap over
/// frames, and a verdict. A difference is a regression or an improvement only when its
/// whole interval lies beyond `minimumEffect` of the first capture's value (5 %, and at
/// least 0.02 ms): two captures of the same build differ by chance, and that is noise.
///
/// ```swift
/// let rows = CaptureComparison.compare(try .load("before.json"), try .load("after.json"))
/// print(CaptureComparison.table(rows))
/// ```
enum CaptureComparison {
    enum Verdict: String { case regression, improvement, noise }

    struct Row: Equatable {
        var script: String, measure: String, percentile: String
        /// The percentile in each capture, milliseconds.
        var a: Double, b: Double
        /// B − A, and its 95 % confidence interval.
        var difference: Double, low: Double, high: Double
        var verdict: Verdict
    }

    static let percentiles: [(name: String, p: Double)] = [("p50", 0.5), ("p95", 0.95), ("p99", 0.99)]

    /// The smallest difference that counts: 5 % of `a`, and at least 0.02 ms.
    static func minimumEffect(_ a: Double) -> Double { max(0.05 * abs(a), 0.02) }

    /// Every measure the two captures share, compared.
    static func compare(_ a: CaptureSamples, _ b: CaptureSamples, resamples: Int = 1000, seed: UInt64 = 0x5EED) -> [Row]
    {
        var rng = SplitMix64(seed: seed)
        var rows: [Row] = []
        for script in a.scripts.keys.sorted() {
            guard let sa = a.scripts[script], let sb = b.scripts[script] else { continue }
            var measures = [("frame work", sa.work, sb.work)]
            for scope in sa.scopes.keys.sorted() {
                if let other = sb.scopes[scope] { measures.append(("scope " + scope, sa.scopes[scope]!, other)) }
            }
            for (measure, xa, xb) in measures where !xa.isEmpty && !xb.isEmpty {
                rows += compare(xa, xb, script: script, measure: measure, resamples: resamples, rng: &rng)
            }
        }
        return rows
    }

    /// One measure at each percentile, its intervals from `resamples` bootstrap resamples.
    static func compare(
        _ xa: [Double], _ xb: [Double], script: String, measure: String, resamples: Int, rng: inout SplitMix64
    ) -> [Row] {
        let sortedA = xa.sorted(), sortedB = xb.sorted()
        var differences = percentiles.map { _ in [Double]() }
        var indices: [Int] = []
        func resampled(_ sorted: [Double]) -> [Double] {
            // Sorted indices into a sorted sample give the resample sorted.
            indices = (0..<sorted.count).map { _ in rng.next(below: sorted.count) }
            indices.sort()
            return indices.map { sorted[$0] }
        }
        for _ in 0..<max(1, resamples) {
            let ra = resampled(sortedA), rb = resampled(sortedB)
            for (k, p) in percentiles.enumerated() { differences[k].append(percentile(rb, p.p) - percentile(ra, p.p)) }
        }
        return percentiles.enumerated().map { k, p in
            let pa = percentile(sortedA, p.p), pb = percentile(sortedB, p.p)
            let ci = differences[k].sorted()
            let low = percentile(ci, 0.025), high = percentile(ci, 0.975)
            let effect = minimumEffect(pa)
            let verdict: Verdict = low > effect ? .regression : high < -effect ? .improvement : .noise
            return Row(
                script: script, measure: measure, percentile: p.name, a: pa, b: pb, difference: pb - pa, low: low,
                high: high, verdict: verdict)
        }
    }

    /// The nearest-rank percentile `p` of `sorted`.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// The rows as a text table.
    static func table(_ rows: [Row]) -> String {
        func f(_ v: Double, signed: Bool = false) -> String {
            (v < 0 ? "-" : signed ? "+" : "") + FrameTimeSummary.format(abs(v))
        }
        var lines = [
            "script    measure                                 pct       A ms      B ms    B - A   95% interval          verdict"
        ]
        for r in rows {
            lines.append(
                r.script.padding(toLength: 10, withPad: " ", startingAt: 0)
                    + String(r.measure.prefix(39)).padding(toLength: 40, withPad: " ", startingAt: 0) + r.percentile
                    + f(r.a).leftPadded(11) + f(r.b).leftPadded(10) + f(r.difference, signed: true).leftPadded(9)
                    + ("   [" + f(r.low, signed: true) + ", " + f(r.high, signed: true) + "]").padding(
                        toLength: 22, withPad: " ", startingAt: 0)
                    + r.verdict.rawValue)
        }
        let regressions = rows.filter { $0.verdict == .regression }.count,
            improvements = rows.filter { $0.verdict == .improvement }.count
        lines.append(
            "\(regressions) regressions, \(improvements) improvements, \(rows.count - regressions - improvements) noise "
                + "(a difference counts when its whole 95% interval is beyond 5% of A, and 0.02 ms)")
        return lines.joined(separator: "\n")
    }

    /// The rows as JSON.
    static func json(_ rows: [Row], a: String, b: String) -> String {
        func f(_ v: Double) -> String { (v < 0 ? "-" : "") + FrameTimeSummary.format(abs(v)) }
        let items = rows.map { r in
            "{\"script\":\(JSONText.quoted(r.script)),\"measure\":\(JSONText.quoted(r.measure)),\"percentile\":\"\(r.percentile)\","
                + "\"a_ms\":\(f(r.a)),\"b_ms\":\(f(r.b)),\"difference_ms\":\(f(r.difference)),\"ci95_ms\":[\(f(r.low)),\(f(r.high))],"
                + "\"verdict\":\"\(r.verdict.rawValue)\"}"
        }
        let regressions = rows.filter { $0.verdict == .regression }.count,
            improvements = rows.filter { $0.verdict == .improvement }.count
        return
            "{\"a\":\(JSONText.quoted(a)),\"b\":\(JSONText.quoted(b)),\"regressions\":\(regressions),\"improvements\":\(improvements),"
            + "\"rows\":[\(items.joined(separator: ","))]}\n"
    }
}
