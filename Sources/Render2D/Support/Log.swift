#if canImport(Glibc)
    import Glibc
#endif

/// Minimal leveled logging to standard error (standard output stays clean for the
/// benchmark JSON line). `TESSERA_LOG=debug` shows debug lines.
///
/// ```swift
/// Log.warn("thumbnail for \(path) failed: \(error)")
/// ```
public enum Log {
    /// How much a line matters; lines below `threshold` are not written.
    public enum Level: Int, Sendable, Comparable {
        /// Details for finding a problem (`TESSERA_LOG=debug`).
        case debug
        /// What happened: a window opened, a screenshot saved.
        case info
        /// Something went wrong and was worked around.
        case warn
        /// Something failed.
        case error
        /// Whether `a` matters less than `b`.
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The least level written: from `TESSERA_LOG` (debug, info, warn, error), else info.
    public static let threshold: Level = {
        guard let raw = getenv("TESSERA_LOG") else { return .info }
        switch String(cString: raw) {
        case "debug": return .debug
        case "warn": return .warn
        case "error": return .error
        default: return .info
        }
    }()

    /// Writes a debug line.
    public static func debug(_ message: @autoclosure () -> String) { emit(.debug, message) }
    /// Writes an info line.
    public static func info(_ message: @autoclosure () -> String) { emit(.info, message) }
    /// Writes a warning.
    public static func warn(_ message: @autoclosure () -> String) { emit(.warn, message) }
    /// Writes an error.
    public static func error(_ message: @autoclosure () -> String) { emit(.error, message) }

    /// Writes `text` to standard error as it is (a progress bar's line); a closed or full
    /// standard error loses it, and nothing else happens.
    public static func progress(_ text: String) {
        text.utf8CString.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count - 1) }
    }

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
