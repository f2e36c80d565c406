import Render2D
import Imaging
/// Chrome trace-event JSON (opens in Perfetto and chrome://tracing): frames, their phases and
/// the build phase's scopes as nested slices on the main thread, with the lazy path's
/// counters; an "expected frames" and an "actual frames" track (as Perfetto's FrameTimeline
/// shows them: each frame's budget beside what it took, janky ones marked with their cause);
/// one thread per decode worker with a slice per decode; a flow per image from its
/// request through decode and upload to the frame that first drew it; and an "input" track
/// with each input event, a flow from it to the present of the frame that showed it; and each
/// janky frame's screenshot, as an instant event whose `image` argument is the PNG as a data
/// URL (Perfetto shows it in the event's details), and as a DevTools screenshot snapshot
/// (Chrome DevTools' Performance panel shows those in its filmstrip).
///
/// Times are whole microseconds; a slice's start and end are each rounded down and its
/// duration is their difference, so a slice inside another in nanoseconds stays inside it.
///
/// ```swift
/// let json = ChromeTrace.json(frames: profiler.trace, images: pipeline.timelines, workers: 2)
/// ```
public enum ChromeTrace {
    static let mainThread = 1
    static let expectedThread = 2
    static let actualThread = 3
    static let inputThread = 4
    /// Input flows' ids start here (images' count from 1).
    static let inputFlowBase = 1 << 40
    static func workerThread(_ worker: Int) -> Int { 100 + worker }

    /// Chrome trace-event JSON of `frames` and the `images`' timelines, decoded by `workers` threads, with frames over `budgetMs` marked janky.
    public static func json(
        frames: [FrameRecord], images: [ImageTimeline], workers: Int, budgetMs: Double = 1000.0 / 60,
        screenshots: [FrameScreenshot] = []
    ) -> String {
        let starts = frames.map(\.startNs) + images.map(\.requestedNs).filter { $0 > 0 }
        var trace = TraceWriter(origin: starts.min() ?? 0)
        trace.addThreads(workers: workers)
        for (n, frame) in frames.enumerated() {
            // A frame's budget slot reaches the next frame's start at most.
            let nextStart =
                n + 1 < frames.count && frames[n + 1].startNs > frame.startNs ? frames[n + 1].startNs : UInt64.max
            trace.addFrame(frame, nextStart: nextStart, budgetMs: budgetMs)
        }
        for (n, image) in images.enumerated() where image.startedNs > 0 { trace.addImage(image, flow: n + 1) }
        for (n, shot) in screenshots.enumerated() { trace.addScreenshot(shot, id: n + 1) }
        return "{\"traceEvents\":[\n" + trace.events.joined(separator: ",\n") + "\n],\"displayTimeUnit\":\"ms\"}\n"
    }
}

/// Trace events being written, with times in microseconds from `origin`.
private struct TraceWriter {
    let origin: UInt64
    var events: [String] = []
    /// Input flows written so far (their ids follow `ChromeTrace.inputFlowBase`).
    var inputFlows = 0

    init(origin: UInt64) { self.origin = origin }

    func us(_ ns: UInt64) -> UInt64 { ns >= origin ? (ns - origin) / 1000 : 0 }

    /// A complete slice from `start` to `end` (nanoseconds).
    func slice(_ name: String, cat: String, tid: Int, start: UInt64, end: UInt64, args: String = "", extra: String = "")
        -> String
    {
        let s = us(start), e = max(s, us(end))
        return
            "{\"name\":\(JSONText.quoted(name)),\"cat\":\"\(cat)\",\"ph\":\"X\",\"pid\":1,\"tid\":\(tid),\"ts\":\(s),\"dur\":\(e - s)"
            + (args.isEmpty ? "" : ",\"args\":{\(args)}") + extra + "}"
    }

    /// An instant at `at` (nanoseconds), on its thread.
    func instant(_ name: String, cat: String, tid: Int, at: UInt64) -> String {
        "{\"name\":\(JSONText.quoted(name)),\"cat\":\"\(cat)\",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":\(tid),\"ts\":\(us(at))}"
    }

    mutating func threadName(_ tid: Int, _ name: String, sort: Int) {
        events.append(
            "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"name\":\(JSONText.quoted(name))}}"
        )
        events.append(
            "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"sort_index\":\(sort)}}")
    }

    /// The process and its tracks: the frame timeline's two, the main thread, input, and each decode worker.
    mutating func addThreads(workers: Int) {
        events.append("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"GalleryDemo\"}}")
        threadName(ChromeTrace.expectedThread, "expected frames", sort: 0)
        threadName(ChromeTrace.actualThread, "actual frames", sort: 1)
        threadName(ChromeTrace.mainThread, "main (UI)", sort: 2)
        threadName(ChromeTrace.inputThread, "input", sort: 3)
        for w in 0..<workers { threadName(ChromeTrace.workerThread(w), "decode \(w)", sort: 4 + w) }
    }

    /// A frame: its slice with its phases and scopes on the main thread, its budget beside what
    /// it took on the timeline's tracks, its input events with flows to the present that showed
    /// them, and the lazy path's counters.
    mutating func addFrame(_ frame: FrameRecord, nextStart: UInt64, budgetMs: Double) {
        let main = ChromeTrace.mainThread
        let lazy = frame.lazy
        let end = frame.startNs + frame.totalNs
        events.append(
            slice(
                "frame", cat: "frame", tid: main, start: frame.startNs, end: end,
                args: "\"frame\":\(frame.index),\"work_ms\":\(FrameTimeSummary.format(frame.workMs)),"
                    + "\"draw_calls\":\(frame.drawCalls),\"events\":\(frame.events),\"visible_cells\":\(lazy.visibleCells),"
                    + "\"placeholders\":\(lazy.placeholderCells),\"uploads\":\(lazy.uploads)"))
        var t = frame.startNs
        for phase in FramePhase.allCases {
            let d = frame.phaseNs[phase.rawValue]
            events.append(slice(phase.name, cat: "phase", tid: main, start: t, end: t + d))
            t += d
        }
        for scope in frame.scopes {
            let args = scope.isUploads ? "\"count\":\(lazy.uploads),\"bytes\":\(lazy.uploadBytes)" : ""
            events.append(
                slice(
                    scope.isUploads ? "upload" : scope.name, cat: "scope", tid: main, start: scope.startNs,
                    end: scope.endNs,
                    args: args))
        }
        addTimeline(frame, nextStart: nextStart, budgetMs: budgetMs)
        addInputs(frame)
        events.append(
            "{\"name\":\"lazy path\",\"ph\":\"C\",\"pid\":1,\"ts\":\(us(frame.startNs)),\"args\":{\"queued\":\(lazy.queued),"
                + "\"running\":\(lazy.running),\"placeholders\":\(lazy.placeholderCells),\"embedded\":\(lazy.embeddedCells),\"resized\":\(lazy.resizedCells),\"cache_mb\":\(lazy.cacheBytes >> 20)}}"
        )
    }

    /// The frame timeline: what the frame was allowed (its budget, up to the next frame's
    /// start) beside what it took, janky frames marked with their cause.
    private mutating func addTimeline(_ frame: FrameRecord, nextStart: UInt64, budgetMs: Double) {
        // any budget an app sets, even infinite
        let budgetNs = UInt64(min(max(0, budgetMs.isNaN ? 0 : budgetMs), 1e9) * 1e6)
        events.append(
            slice(
                "frame \(frame.index)", cat: "timeline", tid: ChromeTrace.expectedThread, start: frame.startNs,
                end: min(frame.startNs + budgetNs, nextStart)))
        let janky = frame.isOverBudget(budgetMs)
        var actualArgs =
            "\"frame\":\(frame.index),\"ms\":\(FrameTimeSummary.format(Double(frame.budgetedNs) / 1e6)),\"jank\":"
            + (janky ? JSONText.quoted(frame.cause().description) : "\"none\"")
        if let scrollJank = frame.scrollJank(budgetMs: budgetMs) {
            actualArgs += ",\"scroll_jank\":\"\(scrollJank.rawValue)\""
        }
        events.append(
            slice(
                "frame \(frame.index)", cat: "timeline", tid: ChromeTrace.actualThread, start: frame.startNs,
                end: frame.startNs + frame.budgetedNs, args: actualArgs,
                extra: janky ? ",\"cname\":\"terrible\"" : ",\"cname\":\"good\""))
    }

    /// Each input event of the frame (1 µs on the input track), a flow to the present that showed it.
    private mutating func addInputs(_ frame: FrameRecord) {
        let presentNs = frame.startNs + frame.workNs + frame.phaseNs[FramePhase.present.rawValue] / 2
        for (kind, latencyNs) in frame.inputLatencies {
            let at = frame.startNs + frame.totalNs - latencyNs
            inputFlows += 1
            let id = ChromeTrace.inputFlowBase + inputFlows
            events.append(
                slice(
                    kind.name, cat: "input", tid: ChromeTrace.inputThread, start: at, end: at + 1000,
                    args: "\"latency_ms\":\(FrameTimeSummary.format(Double(latencyNs) / 1e6)),\"frame\":\(frame.index)")
            )
            events.append(
                "{\"name\":\"input\",\"cat\":\"input\",\"ph\":\"s\",\"id\":\(id),\"pid\":1,\"tid\":\(ChromeTrace.inputThread),\"ts\":\(us(at))}"
            )
            events.append(
                "{\"name\":\"input\",\"cat\":\"input\",\"ph\":\"f\",\"bp\":\"e\",\"id\":\(id),\"pid\":1,\"tid\":\(ChromeTrace.mainThread),\"ts\":\(us(presentNs))}"
            )
        }
    }

    /// An image's decode on its worker's track, and its flow: requested (main) → embedded
    /// thumbnail uploaded and drawn (main) → decode (worker) → uploaded → first drawn (main),
    /// in the order they happened.
    mutating func addImage(_ image: ImageTimeline, flow: Int) {
        let main = ChromeTrace.mainThread
        let name = image.path.split(separator: "/").last.map(String.init) ?? image.path
        let tid = ChromeTrace.workerThread(image.worker)
        var args = "\"path\":\(JSONText.quoted(image.path)),\"dct_scale\":\(image.dctScale)"
        if let failure = image.failure { args += ",\"error\":\(JSONText.quoted(failure))" }
        events.append(
            slice(
                name, cat: "decode", tid: tid, start: image.startedNs, end: max(image.startedNs, image.decodedNs),
                args: args))
        if image.embeddedUploadedNs > 0 {
            events.append(instant("embedded \(name)", cat: "image", tid: main, at: image.embeddedUploadedNs))
        }
        var steps: [(UInt64, Int)] = [(image.requestedNs, main), (image.startedNs, tid)]
        for ns in [image.embeddedUploadedNs, image.embeddedDrawnNs, image.uploadedNs, image.firstDrawnNs] where ns > 0 {
            steps.append((ns, main))
        }
        steps.sort { $0.0 < $1.0 }
        for (k, step) in steps.enumerated() where step.0 > 0 {
            let phase = k == 0 ? "s" : k == steps.count - 1 ? "f" : "t"
            events.append(
                "{\"name\":\"image\",\"cat\":\"image\",\"ph\":\"\(phase)\",\"id\":\(flow),\"pid\":1,\"tid\":\(step.1),"
                    + "\"ts\":\(us(step.0))\(phase == "f" ? ",\"bp\":\"e\"" : "")}")
        }
    }

    /// A janky frame's picture: as an instant with the PNG on the frame timeline, and as the
    /// screenshot object Perfetto and Chrome show in their filmstrip.
    mutating func addScreenshot(_ shot: FrameScreenshot, id: Int) {
        let data = Base64.encode(shot.png)
        events.append(
            "{\"name\":\"screenshot of frame \(shot.frame)\",\"cat\":\"screenshot\",\"ph\":\"i\",\"s\":\"t\",\"pid\":1,"
                + "\"tid\":\(ChromeTrace.actualThread),\"ts\":\(us(shot.takenNs)),\"args\":{\"frame\":\(shot.frame),\"width\":\(shot.pixels.width),"
                + "\"height\":\(shot.pixels.height),\"image\":\"data:image/png;base64,\(data)\"}}")
        events.append(
            "{\"name\":\"Screenshot\",\"cat\":\"disabled-by-default-devtools.screenshot\",\"ph\":\"O\",\"id\":\"0x\(String(id, radix: 16))\","
                + "\"pid\":1,\"tid\":\(ChromeTrace.mainThread),\"ts\":\(us(shot.takenNs)),\"args\":{\"snapshot\":\"\(data)\"}}"
        )
    }
}
