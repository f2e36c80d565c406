#if canImport(Glibc)
import Glibc
#endif

/// Minimal leveled logging to standard error (standard output stays clean for the
/// benchmark JSON line). `TESSERA_LOG=debug` shows debug lines.
///
/// ```swift
/// Log.warn("thumbnail for \(path) failed: \(error)")
/// ```
package enum Log {
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warn, error
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public static let threshold: Level = {
        guard let raw = getenv("TESSERA_LOG") else { return .info }
        switch String(cString: raw) {
        case "debug": return .debug
        case "warn": return .warn
        case "error": return .error
        default: return .info
        }
    }()

    public static func debug(_ message: @autoclosure () -> String) { emit(.debug, message) }
    public static func info(_ message: @autoclosure () -> String) { emit(.info, message) }
    public static func warn(_ message: @autoclosure () -> String) { emit(.warn, message) }
    public static func error(_ message: @autoclosure () -> String) { emit(.error, message) }

    private static func emit(_ level: Level, _ message: () -> String) {
        guard level >= threshold else { return }
        let line = "[tessera \(level)] \(message())\n"
        line.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
    }
}

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC), for frame timing.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
    /// Now, in seconds since an arbitrary start.
    public static func seconds() -> Double { Double(nanoseconds()) / 1e9 }
}
