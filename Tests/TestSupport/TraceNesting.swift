import Foundation

/// Checks a Chrome trace's complete slices (`"ph":"X"`): on each thread, a slice that starts
/// inside another ends inside it too, as trace viewers require.
///
/// ```swift
/// XCTAssertEqual(try TraceNesting.improperlyNested(profiler.chromeTraceJSON()), [])
/// ```
public enum TraceNesting {
    /// A description of every slice that ends after the slice it starts in (none when all nest).
    public static func improperlyNested(_ trace: String) throws -> [String] {
        let root = try JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [String: Any]
        let events = (root?["traceEvents"] as? [[String: Any]] ?? []).filter { $0["ph"] as? String == "X" }
        var byThread: [Int: [(name: String, start: Int, end: Int)]] = [:]
        for e in events {
            guard let ts = e["ts"] as? Int, let dur = e["dur"] as? Int, let tid = e["tid"] as? Int else { continue }
            byThread[tid, default: []].append((e["name"] as? String ?? "?", ts, ts + dur))
        }
        var bad: [String] = []
        for (tid, slices) in byThread {
            var open: [(name: String, start: Int, end: Int)] = []
            // Parents first: by start, the longer first.
            for s in slices.sorted(by: { $0.start != $1.start ? $0.start < $1.start : $0.end > $1.end }) {
                // A slice that ended at or before this one's start is closed (an empty slice at a
                // parent's very end still counts as inside it).
                while let top = open.last, top.end <= s.start,
                    !(top.end == s.start && s.end == s.start && top.start < s.start)
                { open.removeLast() }
                if let top = open.last, s.end > top.end {
                    bad.append(
                        "thread \(tid): \(s.name) [\(s.start), \(s.end)] ends after \(top.name) [\(top.start), \(top.end)]"
                    )
                }
                open.append(s)
            }
        }
        return bad
    }
}
