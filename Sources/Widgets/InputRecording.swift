import Foundation
import Render2D

/// The header line of an input recording: the window it was made in.
public struct RecordingHeader: Codable, Sendable, Equatable {
    public var version = 1
    public var width: Double
    public var height: Double
    public var scale: Double
    public init(width: Double, height: Double, scale: Double) { self.width = width; self.height = height; self.scale = scale }
}

/// One frame's input in a recording.
public struct RecordedFrame: Codable, Sendable, Equatable {
    public var frame: Int
    /// Seconds since the recording started (informative; replays run on a fixed 60 Hz clock).
    public var time: Double
    public var events: [InputEvent]
}

/// Writes every frame's input events with timestamps as JSON lines (a header line first),
/// for `InputReplay` to feed back.
///
/// ```swift
/// host.recorder = try InputRecorder(path: "session.jsonl", header: RecordingHeader(width: 1280, height: 800, scale: 1))
/// ```
public final class InputRecorder {
    public let path: String
    private let handle: FileHandle
    private let start = MonotonicClock.seconds()
    private let encoder = JSONEncoder()

    public init(path: String, header: RecordingHeader) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.handle = handle
        try write(header)
    }

    private func write<T: Encodable>(_ value: T) throws {
        handle.write(try encoder.encode(value) + Data("\n".utf8))
    }

    /// Records `events` of frame `frame` (frames without input are skipped).
    public func record(frame: Int, events: [InputEvent]) {
        guard !events.isEmpty else { return }
        try? write(RecordedFrame(frame: frame, time: MonotonicClock.seconds() - start, events: events))
    }

    public func close() { try? handle.close() }
}

/// A recording read back: the events of each frame, in order.
public struct InputReplay: Sendable {
    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String), malformed(path: String, line: Int, why: String)
        public var description: String {
            switch self {
            case .unreadable(let path): "cannot read the recording \(path)"
            case .malformed(let path, let line, let why): "\(path), line \(line): not a Tessera input recording (\(why))"
            }
        }
    }

    public let header: RecordingHeader
    public let frames: [Int: [InputEvent]]
    /// The last frame with input.
    public let lastFrame: Int

    public init(path: String) throws(LoadError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path)
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type, _ line: Int) throws(LoadError) -> T {
            do { return try decoder.decode(T.self, from: Data(lines[line].utf8)) } catch {
                throw .malformed(path: path, line: line + 1, why: "\(error)".prefix(120).description)
            }
        }
        guard !lines.isEmpty else { throw .malformed(path: path, line: 1, why: "empty file") }
        header = try decode(RecordingHeader.self, 0)
        var frames: [Int: [InputEvent]] = [:]
        for line in 1..<lines.count {
            let frame = try decode(RecordedFrame.self, line)
            frames[frame.frame, default: []] += frame.events
        }
        self.frames = frames
        lastFrame = frames.keys.max() ?? 0
    }

    public func events(forFrame frame: Int) -> [InputEvent] { frames[frame] ?? [] }
}
