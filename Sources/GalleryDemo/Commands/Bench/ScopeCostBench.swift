import Render2D

/// `bench scopes`: what one profiler scope costs (`beginScope` + `endScope`), in nanoseconds
/// of wall-clock time: 2,000 frames of 200 nested scopes each (the profiler's own frame
/// bookkeeping included), best of 5 runs, with scopes recorded and off; `ns_per_scope` is
/// the difference, what recording adds.
enum ScopeCostBench {
    static let frames = 2_000, scopesPerFrame = 200

    static func run() -> String {
        let labels = (0..<10).map { "widget \($0)" }
        func nanosecondsPerScope(recording: Bool) -> Double {
            let profiler = FrameProfiler()
            profiler.recordsScopes = recording
            var best = Double.infinity
            for _ in 0..<5 {
                let start = MonotonicClock.nanoseconds()
                for _ in 0..<frames {
                    profiler.beginFrame()
                    for i in 0..<(scopesPerFrame / 2) {
                        profiler.beginScope("list", labels[i % labels.count])
                        profiler.beginScope("", labels[(i + 3) % labels.count])
                        profiler.endScope()
                        profiler.endScope()
                    }
                    profiler.endFrame(stats: Renderer.Stats())
                }
                best = min(best, Double(MonotonicClock.nanoseconds() - start) / Double(frames * scopesPerFrame))
            }
            return best
        }
        let on = nanosecondsPerScope(recording: true), off = nanosecondsPerScope(recording: false)
        // The loop's own cost (fetching the label, the call, the branch) is in both: a scope
        // costs what recording adds to it.
        return "{\"scene\":\"scopes\",\"n\":\(scopesPerFrame),\"frames\":\(frames),\"ns_per_scope\":\(FrameTimeSummary.format(on - off)),"
            + "\"loop_ns_recording\":\(FrameTimeSummary.format(on)),\"loop_ns_off\":\(FrameTimeSummary.format(off))}"
    }
}
