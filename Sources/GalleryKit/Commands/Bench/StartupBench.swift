import Foundation
import Render2D
import Imaging
import Profiling
import DemoSupport
#if canImport(Glibc)
    import Glibc
#endif

/// What `GalleryDemo --report-startup` notes, frame by frame, and prints: when the first frame
/// was presented, when the first frame showed a thumbnail (embedded or sharp) in every visible
/// cell, and when every visible cell was sharp. Times are CLOCK_MONOTONIC nanoseconds, the
/// clock `bench startup` reads before it starts the process.
struct StartupReport {
    // These two are written once each on the main thread (in `GalleryCommand.main` and
    // `Run.runApp`, before the frame loop) and read on it afterwards (in the frame loop's
    // `json`): no other thread touches them.
    /// When `GalleryCommand.main` began: the time before it is the loader's and the runtime's.
    nonisolated(unsafe) static var mainNs: UInt64?
    /// When the window and its renderer were made (SDL, the GL context, the fonts).
    nonisolated(unsafe) static var windowNs: UInt64?
    private(set) var firstFrameNs: UInt64?
    /// The first frame's phases (events, build, submit, present), in ms.
    private(set) var firstFramePhases: [Double] = []
    private(set) var thumbnailsNs: UInt64?
    private(set) var sharpNs: UInt64?
    private let deadline = MonotonicClock.seconds() + 30

    /// Notes the frame just presented (`frame`, nil before the first); true once the report is
    /// complete (or 30 s have passed): print `json` and quit.
    mutating func note(_ frame: FrameRecord?, scanning: Bool) -> Bool {
        guard let frame else { return false }
        let presented = frame.startNs + frame.totalNs
        if firstFrameNs == nil {
            firstFrameNs = presented
            firstFramePhases = frame.phaseNs.map { Double($0) / 1e6 }
        }
        let lazy = frame.lazy
        let shown = !scanning && lazy.visibleCells > 0
        if thumbnailsNs == nil, shown, lazy.placeholderCells == 0 { thumbnailsNs = presented }
        if sharpNs == nil, shown, lazy.cellsAwaitingSharpThumbnail == 0 { sharpNs = presented }
        return sharpNs != nil || MonotonicClock.seconds() > deadline
    }

    var json: String {
        func field(_ value: UInt64?) -> String { value.map(String.init) ?? "null" }
        let phases = zip(FramePhase.allCases, firstFramePhases).map { phase, ms in
            ",\"first_frame_\(phase.name)_ms\":\(FrameTimeSummary.format(ms))"
        }
        return "{\"main_ns\":\(field(Self.mainNs)),\"window_ns\":\(field(Self.windowNs)),"
            + "\"first_frame_ns\":\(field(firstFrameNs)),\"thumbnails_ns\":\(field(thumbnailsNs)),"
            + "\"sharp_ns\":\(field(sharpNs))\(phases.joined())}"
    }
}

/// `bench startup`: the time from starting the process to its first presented frame, for the
/// photo browser on the 60-photo camera library and for the two peers, started in turn, round
/// after round, in one run. The browser's figures: `first_frame_ms` (the window's first frame),
/// `thumbnails_ms` (the first frame with a thumbnail in every visible cell) and `sharp_ms`
/// (every visible cell sharp); and where the time to the first frame went: `main_ms` (the
/// loader and the runtime, until `main`), `window_ms` (until the window, its GL context and
/// fonts were made), and the first frame's phases. The peers (`Peers/startup`, built by
/// `scripts/build-startup-peers.sh`): Dear ImGui with SDL's renderer, and GTK 4's ColumnView,
/// each showing a 60-row, 6-column table and printing when it presented its first frame.
///
/// Each program has its own cache, config and data folders for the run, made empty at its
/// start: the first round, not measured, fills them (Mesa's shader cache, our thumbnails and
/// library index, GTK's), so the rounds measured are a second start's, the common case, alike
/// for all. GTK needs a display: without one, it is left out and the others run on SDL's
/// offscreen driver.
enum StartupBench {
    static func run(folder: String, rounds: Int, peers: String) throws -> String {
        let ours = ProcessInfo.processInfo.arguments[0]
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let display = ProcessEnvironment.value("DISPLAY") != nil
        var programs: [(name: String, command: [String])] = [
            ("tessera", [me.isEmpty ? ours : me, folder, "--page", "photos", "--report-startup"]),
            ("imgui", [peers + "/imgui_startup"]),
        ]
        if display { programs.append(("gtk4", [peers + "/gtk4_startup"])) }
        var figures: [String: [String: [Double]]] = [:]
        var failures: [String: String] = [:]
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-startup-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        for round in 0...rounds {
            for program in programs where failures[program.name] == nil {
                do {
                    let home = scratch.appendingPathComponent(program.name)
                    let times = try start(program.command, home: home, offscreen: !display)
                    guard round > 0 else { continue }  // the unmeasured round
                    for (key, ms) in times { figures[program.name, default: [:]][key, default: []].append(ms) }
                } catch {
                    failures[program.name] = "\(error)"
                }
            }
        }
        return json(figures: figures, failures: failures, rounds: rounds, display: display)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How long a program may take to report before it is killed: ours quits after 30 s at
    /// most, the peers after their first frame.
    static let timeoutSeconds = 60.0

    /// Starts `command` with the cache and config folders under `home` (kept from round to
    /// round) and returns its figures in ms from the moment before it was started; a program
    /// still running after `timeout` seconds is killed, and that is the error.
    static func start(
        _ command: [String], home: URL, offscreen: Bool, timeout: Double = timeoutSeconds
    ) throws -> [String: Double] {
        guard FileManager.default.isExecutableFile(atPath: command[0]) else {
            throw Failure(description: "\(command[0]) is missing: run scripts/build-startup-peers.sh")
        }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        if offscreen { environment["SDL_VIDEODRIVER"] = "offscreen" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let started = MonotonicClock.nanoseconds()
        try process.run()
        // Killed only while not yet reaped, so the pid is still the child's (a zombie at worst).
        let watch = Locked((reaping: false, killed: false))
        let watchdog = DispatchWorkItem { [pid = process.processIdentifier] in
            watch.withLock {
                guard !$0.reaping else { return }
                kill(pid, SIGKILL)
                $0.killed = true
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, timeout), execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        watch.withLock { $0.reaping = true }
        watchdog.cancel()
        process.waitUntilExit()
        if watch.withLock({ $0.killed }) {
            throw Failure(description: "\(command[0]) had not reported after \(Int(timeout)) s: killed")
        }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw Failure(description: "\(command[0]) printed no report (exit status \(process.terminationStatus))")
        }
        var times: [String: Double] = [:]
        for (key, value) in object {
            if key.hasSuffix("_ns") {  // a moment: from the start
                guard let ns = (value as? NSNumber)?.uint64Value, ns >= started else { continue }
                times[String(key.dropLast(3)) + "_ms"] = Double(ns - started) / 1e6
            } else if key.hasSuffix("_ms"), let ms = (value as? NSNumber)?.doubleValue {  // a duration
                times[key] = ms
            }
        }
        return times
    }

    private static func json(
        figures: [String: [String: [Double]]], failures: [String: String], rounds: Int, display: Bool
    ) -> String {
        func median(_ values: [Double]) -> Double? {
            let sorted = values.sorted()
            return sorted.isEmpty ? nil : sorted[sorted.count / 2]
        }
        func number(_ value: Double?) -> String { value.map(FrameTimeSummary.format) ?? "null" }
        var json = "{\"scene\":\"startup\",\"rounds\":\(rounds),\"display\":\"\(display ? "x11" : "offscreen")\""
        for name in ["tessera", "imgui", "gtk4"] {
            if let reason = failures[name] {
                json += ",\"\(name)\":{\"error\":\(JSONText.quoted(reason))}"
                continue
            }
            guard let program = figures[name] else {
                json += ",\"\(name)\":null"
                continue
            }
            let fields = program.keys.sorted().map { "\"\($0)_p50\":\(number(median(program[$0] ?? [])))" }
            json += ",\"\(name)\":{\(fields.joined(separator: ","))}"
        }
        let ours = median(figures["tessera"]?["first_frame_ms"] ?? [])
        for peer in ["imgui", "gtk4"] {
            guard let ours, let theirs = median(figures[peer]?["first_frame_ms"] ?? []), theirs > 0 else { continue }
            json += ",\"first_frame_vs_\(peer)\":\(FrameTimeSummary.format(ours / theirs))"
        }
        return json + "}"
    }
}
