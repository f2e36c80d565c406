/// Chrome trace-event JSON (opens in Perfetto and chrome://tracing): frames and their phases
/// on the main thread with the lazy path's counters, one thread per decode worker with a
/// slice per decode, and a flow per image from its request through decode and upload to the
/// frame that first drew it.
///
/// ```swift
/// let json = ChromeTrace.json(frames: profiler.trace, images: pipeline.timelines, workers: 2)
/// ```
public enum ChromeTrace {
    static let mainThread = 1
    static func workerThread(_ worker: Int) -> Int { 100 + worker }

    public static func json(frames: [FrameRecord], images: [ImageTimeline], workers: Int) -> String {
        var events: [String] = []
        let starts = frames.map(\.startNs) + images.map(\.requestedNs).filter { $0 > 0 }
        let origin = starts.min() ?? 0
        func us(_ ns: UInt64) -> UInt64 { ns >= origin ? (ns - origin) / 1000 : 0 }
        func quoted(_ s: String) -> String {
            var out = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                default: if c.value < 0x20 { out += " " } else { out.unicodeScalars.append(c) }
                }
            }
            return out + "\""
        }
        events.append("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"GalleryDemo\"}}")
        events.append("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(mainThread),\"args\":{\"name\":\"main (UI)\"}}")
        for w in 0..<workers {
            events.append("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(workerThread(w)),\"args\":{\"name\":\"decode \(w)\"}}")
        }
        for frame in frames {
            let lazy = frame.lazy
            events.append("{\"name\":\"frame\",\"cat\":\"frame\",\"ph\":\"X\",\"pid\":1,\"tid\":\(mainThread),\"ts\":\(us(frame.startNs)),"
                + "\"dur\":\(max(1, frame.totalNs / 1000)),\"args\":{\"frame\":\(frame.index),\"work_ms\":\(FrameTimeSummary.format(frame.workMs)),"
                + "\"draw_calls\":\(frame.drawCalls),\"visible_cells\":\(lazy.visibleCells),\"placeholders\":\(lazy.placeholderCells),"
                + "\"uploads\":\(lazy.uploads)}}")
            var t = frame.startNs
            for phase in FramePhase.allCases {
                let d = frame.phaseNs[phase.rawValue]
                events.append("{\"name\":\"\(phase.name)\",\"cat\":\"phase\",\"ph\":\"X\",\"pid\":1,\"tid\":\(mainThread),"
                    + "\"ts\":\(us(t)),\"dur\":\(max(1, d / 1000))}")
                t += d
            }
            if lazy.uploads > 0 {
                events.append("{\"name\":\"upload\",\"cat\":\"lazy\",\"ph\":\"X\",\"pid\":1,\"tid\":\(mainThread),"
                    + "\"ts\":\(us(frame.startNs + frame.phaseNs[0] + frame.phaseNs[1] - min(frame.phaseNs[1], lazy.uploadNs))),"
                    + "\"dur\":\(max(1, lazy.uploadNs / 1000)),\"args\":{\"count\":\(lazy.uploads),\"bytes\":\(lazy.uploadBytes)}}")
            }
            events.append("{\"name\":\"lazy path\",\"ph\":\"C\",\"pid\":1,\"ts\":\(us(frame.startNs)),\"args\":{\"queued\":\(lazy.queued),"
                + "\"running\":\(lazy.running),\"placeholders\":\(lazy.placeholderCells),\"cache_mb\":\(lazy.cacheBytes >> 20)}}")
        }
        for (n, image) in images.enumerated() where image.startedNs > 0 {
            let name = quoted(image.path.split(separator: "/").last.map(String.init) ?? image.path)
            let tid = workerThread(image.worker)
            var args = "\"path\":\(quoted(image.path)),\"dct_scale\":\(image.dctScale)"
            if let failure = image.failure { args += ",\"error\":\(quoted(failure))" }
            events.append("{\"name\":\(name),\"cat\":\"decode\",\"ph\":\"X\",\"pid\":1,\"tid\":\(tid),\"ts\":\(us(image.startedNs)),"
                + "\"dur\":\(max(1, (image.decodedNs - image.startedNs) / 1000)),\"args\":{\(args)}}")
            // The image's flow: requested (main) → decode (worker) → uploaded → first drawn (main).
            var steps: [(UInt64, Int)] = [(image.requestedNs, mainThread), (image.startedNs, tid)]
            if image.uploadedNs > 0 { steps.append((image.uploadedNs, mainThread)) }
            if image.firstDrawnNs > 0 { steps.append((image.firstDrawnNs, mainThread)) }
            for (k, step) in steps.enumerated() where step.0 > 0 {
                let phase = k == 0 ? "s" : k == steps.count - 1 ? "f" : "t"
                events.append("{\"name\":\"image\",\"cat\":\"image\",\"ph\":\"\(phase)\",\"id\":\(n + 1),\"pid\":1,\"tid\":\(step.1),"
                    + "\"ts\":\(us(step.0))\(phase == "f" ? ",\"bp\":\"e\"" : "")}")
            }
        }
        return "{\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n],\"displayTimeUnit\":\"ms\"}\n"
    }
}
