import Foundation
import Render2D
import Imaging
import Profiling

/// The header line of an input recording: the window it was made in.
public struct RecordingHeader: Codable, Sendable, Equatable {
    /// The format's version: 2 times frames on the UI's clock (1 kept frame numbers only).
    public var version = 2
    /// The window's width, in logical pixels.
    public var width: Double
    /// The window's height, in logical pixels.
    public var height: Double
    /// The UI scale.
    public var scale: Double
    /// A header for a window of `width` × `height` at `scale`.
    public init(width: Double, height: Double, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }
}

/// One frame of a recording: when it ran and its input.
public struct RecordedFrame: Codable, Sendable, Equatable {
    /// The frame's number since the recording started.
    public var frame: Int
    /// When the frame ran, in seconds on the UI's clock since the recording started: a replay
    /// plays the frame at this time.
    public var time: Double
    /// The frame's input.
    public var events: [InputEvent]
    /// How long before the frame each event happened, in seconds (from its SDL timestamp).
    public var ages: [Double]?
}

/// Writes every frame's input events with their times as JSON lines (a header line first),
/// for `AppHost.play` to feed back at the same times. A write that fails (a full disk, a closed pipe) ends the
/// recording with its reason in `failure` and the log; the app goes on.
///
/// ```swift
/// host.recorder = try InputRecorder(path: "session.jsonl", header: RecordingHeader(width: 1280, height: 800, scale: 1))
/// ```
public final class InputRecorder {
    /// The file written.
    public let path: String
    /// Why the recording stopped early, if it did: what the last write could not do.
    public private(set) var failure: String?
    private var descriptor: Int32
    private let encoder = JSONEncoder()

    /// Starts a recording at `path` (replacing it) with `header` as its first line; throws
    /// when the file cannot be opened or the header written.
    public convenience init(path: String, header: RecordingHeader) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw RecordingError(path: path, why: String(cString: strerror(errno))) }
        try self.init(descriptor: fd, path: path, header: header)
    }

    /// A recording written to `descriptor` (which it closes), named `path` in messages.
    init(descriptor: Int32, path: String, header: RecordingHeader) throws {
        self.path = path
        self.descriptor = descriptor
        write(header)
        if let failure {
            close()
            throw RecordingError(path: path, why: failure)
        }
    }

    deinit { close() }

    private func write<T: Encodable>(_ value: T) {
        guard descriptor >= 0, failure == nil else { return }
        guard let data = try? encoder.encode(value) else { return }
        let line = Array(data) + [UInt8(ascii: "\n")]
        var written = 0
        while written < line.count {
            let n = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, line.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failure = String(cString: strerror(errno))
                Log.error("recording to \(path) stopped: \(failure!)")
                return
            }
            written += n
        }
    }

    /// Records frame `frame`, run `time` seconds after the recording started on the UI's
    /// clock, with its `events` (none for a frame drawn for an animation or a timer), each
    /// `ages[i]` seconds older than the frame. A replay runs the same frames at the same times.
    public func record(frame: Int, time: Double, events: [InputEvent], ages: [Double] = []) {
        write(
            RecordedFrame(
                frame: frame, time: time, events: events,
                ages: ages.count == events.count && !events.isEmpty ? ages : nil))
    }

    /// Ends the recording.
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}

/// A recording that could not be started.
public struct RecordingError: Error, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The system's reason.
    public var why: String
    public var description: String { "cannot record to \(path): \(why)" }
}

/// A recording read back: each recorded frame's time and input, in order, for `AppHost.play`
/// to run again at the recorded times.
///
/// ```swift
/// let replay = try InputReplay(path: "session.jsonl")
/// host.play(replay, speed: .recorded) { ui in app.build(ui) }
/// ```
public struct InputReplay: Sendable {
    /// Why a recording could not be read.
    public enum LoadError: Error, CustomStringConvertible {
        /// The file could not be read: the reason.
        case unreadable(String)
        /// A line of the file is not what a recording holds.
        case malformed(path: String, line: Int, why: String)
        public var description: String {
            switch self {
            case .unreadable(let why): "cannot read the recording \(why)"
            case .malformed(let path, let line, let why):
                "\(path), line \(line): not a Tessera input recording (\(why))"
            }
        }
    }

    /// One recorded frame: when it ran (seconds since the recording started) and its input.
    public struct Step: Sendable, Equatable {
        /// Seconds since the recording started, on the UI's clock.
        public var time: Double
        /// The frame's input.
        public var events: [InputEvent]
    }

    /// The window the recording was made in.
    public let header: RecordingHeader
    /// The recorded frames in the order they ran (times never decrease).
    public let steps: [Step]
    /// When the last recorded frame ran, in seconds since the start.
    public var duration: Double { steps.last?.time ?? 0 }

    /// Recordings larger than this are refused (about two hours of busy input).
    public static let maxBytes = 256 << 20
    /// Frame numbers beyond this are refused (over three weeks at 60 Hz).
    public static let maxFrame = 100_000_000
    /// Times beyond this are refused (a week, in seconds).
    public static let maxTime = 7 * 86_400.0

    /// Reads a recording (never a FIFO or device, at most `maxBytes`). Frame numbers or times
    /// out of range are an error; every number in an event is brought into range (`sanitized`).
    public init(path: String) throws(LoadError) {
        let data: [UInt8]
        do throws(RegularFile.ReadError) { data = try RegularFile.read(path, maxBytes: Self.maxBytes) } catch {
            throw .unreadable("\(path): \(error)")
        }
        try self.init(bytes: data, name: path)
    }

    /// Parses a recording held in memory; `name` is used in errors.
    public init(bytes data: [UInt8], name path: String) throws(LoadError) {
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type, _ line: Int) throws(LoadError) -> T {
            do { return try decoder.decode(T.self, from: Data(lines[line].utf8)) } catch {
                throw .malformed(path: path, line: line + 1, why: "\(error)".prefix(120).description)
            }
        }
        guard !lines.isEmpty else { throw .malformed(path: path, line: 1, why: "empty file") }
        let raw = try decode(RecordingHeader.self, 0)
        func clamp(_ v: Double, _ lo: Double, _ hi: Double, _ fallback: Double) -> Double {
            v.isFinite ? min(max(v, lo), hi) : fallback
        }
        header = RecordingHeader(
            width: clamp(raw.width, 1, 16_384, 1280), height: clamp(raw.height, 1, 16_384, 800),
            scale: clamp(raw.scale, 0.5, 4, 1))
        var recorded: [(frame: Int, step: Step)] = []
        for line in 1..<lines.count {
            let frame = try decode(RecordedFrame.self, line)
            guard (0...Self.maxFrame).contains(frame.frame) else {
                throw .malformed(path: path, line: line + 1, why: "frame \(frame.frame) is out of range")
            }
            guard frame.time.isFinite, (0...Self.maxTime).contains(frame.time) else {
                throw .malformed(path: path, line: line + 1, why: "time \(frame.time) is out of range")
            }
            recorded.append((frame.frame, Step(time: frame.time, events: frame.events.map { $0.sanitized() })))
        }
        // In frame order; a time earlier than the frame before it (a hand-edited file) plays with it.
        recorded.sort { $0.frame < $1.frame }
        var steps: [Step] = []
        steps.reserveCapacity(recorded.count)
        for (_, var step) in recorded {
            step.time = max(step.time, steps.last?.time ?? 0)
            steps.append(step)
        }
        self.steps = steps
    }
}

/// How fast `AppHost.play` plays a recording.
public enum ReplaySpeed: String, Sendable, CaseIterable {
    /// At the recorded times, in real time.
    case recorded
    /// As fast as frames allow, on a virtual clock that still advances by the recorded gaps
    /// (and by the frame interval between frames the UI asks for), so gestures that depend on
    /// time (long presses, double clicks, flicks, hover delays) come out as recorded.
    case max
}

extension InputEvent {
    /// The event with every number brought into a range the widgets can do arithmetic on:
    /// coordinates finite and within ±1,000,000, wheel deltas within ±100,000, window sizes
    /// 1...16,384, text and dropped paths at most 4,096 characters. Replays come from files anyone could write.
    public func sanitized() -> InputEvent {
        func v(_ x: Double, _ limit: Double) -> Double { x.isFinite ? min(max(x, -limit), limit) : 0 }
        func p(_ point: Point) -> Point { Point(v(point.x, 1e6), v(point.y, 1e6)) }
        switch self {
        case .pointerMoved(let at): return .pointerMoved(p(at))
        case .mouseButton(let button, let isDown, let at): return .mouseButton(button, isDown: isDown, at: p(at))
        case .wheel(let dx, let dy): return .wheel(dx: v(dx, 1e5), dy: v(dy, 1e5))
        case .text(let text): return .text(String(text.prefix(4096)))
        case .composition(let text, let cursor):
            return .composition(String(text.prefix(4096)), cursor: min(max(cursor, 0), 4096))
        case .finger(let id, let phase, let at): return .finger(id: id, phase: phase, at: p(at))
        case .resized(let size):
            return .resized(Size(min(max(v(size.width, 1e6), 1), 16_384), min(max(v(size.height, 1e6), 1), 16_384)))
        case .dropped(.file(let path)): return .dropped(.file(String(path.prefix(4096))))
        case .dropped(.text(let text)): return .dropped(.text(String(text.prefix(4096))))
        case .key, .displayChanged, .quit: return self
        }
    }
}
