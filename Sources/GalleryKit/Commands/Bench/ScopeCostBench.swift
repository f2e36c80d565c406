import CSDL2
import Render2D
import Imaging
import Profiling
import DemoSupport

/// `bench scopes`: what one profiler scope costs (`beginScope` + `endScope`), in nanoseconds
/// of wall-clock time: 2,000 frames of 200 nested scopes each (the profiler's own frame
/// bookkeeping included), best of 5 runs, with scopes recorded and off; `ns_per_scope` is
/// the difference, what recording adds. `tick_read_ns` is what one read of the tick counter
/// costs on this CPU (a scope reads it twice: the floor under `ns_per_scope`).
enum ScopeCostBench {
    static let frames = 2_000, scopesPerFrame = 200
    /// Where the tick reads are summed, so they are not optimized away (the bench runs on one thread).
    nonisolated(unsafe) private static var tickSum: UInt64 = 0

    static func run() -> String {
        // The labels in the order the frame opens them, so the loop itself is a load and a call.
        let labels = (0..<scopesPerFrame).map { "widget \($0 % 10)" }
        func nanosecondsPerScope(recording: Bool) -> Double {
            let profiler = FrameProfiler()
            profiler.recordsScopes = recording
            var best = Double.infinity
            for _ in 0..<5 {
                let start = MonotonicClock.nanoseconds()
                for _ in 0..<frames {
                    profiler.beginFrame()
                    for i in stride(from: 0, to: scopesPerFrame, by: 2) {
                        profiler.beginScope("list", labels[i])
                        profiler.beginScope("", labels[i + 1])
                        profiler.endScope()
                        profiler.endScope()
                    }
                    profiler.endFrame(stats: Renderer.Stats())
                }
                best = min(best, Double(MonotonicClock.nanoseconds() - start) / Double(frames * scopesPerFrame))
            }
            return best
        }
        func nanosecondsPerTickRead() -> Double {
            var best = Double.infinity, sink: UInt64 = 0
            for _ in 0..<5 {
                let start = MonotonicClock.nanoseconds()
                for _ in 0..<1_000_000 { sink &+= tessera_ticks() }
                best = min(best, Double(MonotonicClock.nanoseconds() - start) / 1e6)
            }
            tickSum = sink  // kept, so the reads are not optimized away
            return best
        }
        let on = nanosecondsPerScope(recording: true), off = nanosecondsPerScope(recording: false)
        // The loop's own cost (fetching the label, the call, the branch) is in both: a scope
        // costs what recording adds to it.
        return
            "{\"scene\":\"scopes\",\"n\":\(scopesPerFrame),\"frames\":\(frames),\"ns_per_scope\":\(FrameTimeSummary.format(on - off)),"
            + "\"loop_ns_recording\":\(FrameTimeSummary.format(on)),\"loop_ns_off\":\(FrameTimeSummary.format(off)),"
            + "\"tick_read_ns\":\(FrameTimeSummary.format(nanosecondsPerTickRead()))}"
    }
}
