import Foundation

/// How many threads each of Tessera's worker pools gets: the one place that sizes work from the
/// machine. The thumbnail loader, the table sorter and the sample generator ask here. (A library's
/// walk and the reading of its photos' dates run on one thread each, whatever the machine: their
/// work waits on the disk, and a second walker would only seek against the first.)
///
/// The machine's hardware threads can be overridden, so that a 2-core machine runs the code
/// paths of a 64-thread one: `TESSERA_WORKERS=64` in the environment, or `override` (which the
/// demo's `--workers N` sets). Every count from 1 to ``maximum`` works.
///
/// ```swift
/// WorkerPools.override = 64                       // as `--workers 64` does
/// let loader = ThumbnailLoader()                  // 64 decode workers
/// let threads = WorkerPools.sortThreads           // 16 at most
/// ```
public enum WorkerPools {
    /// The most threads a pool is given, whatever the machine or an override says.
    public static let maximum = 256
    /// The environment variable that overrides the machine's thread count.
    public static let environmentVariable = "TESSERA_WORKERS"

    private static let overridden = Locked<Int?>(nil)

    /// The thread count that replaces the machine's (`--workers`); nil uses
    /// `TESSERA_WORKERS`, else the machine's. Values are clamped to `1...maximum`.
    public static var override: Int? {
        get { overridden.withLock { $0 } }
        set { overridden.withLock { $0 = newValue.map(clamp) } }
    }

    /// The count a `TESSERA_WORKERS` value asks for, or why it is refused.
    ///
    /// ```swift
    /// WorkerPools.parse("64")   // .success(64)
    /// WorkerPools.parse("many") // .failure: "TESSERA_WORKERS must be a whole number from 1 to 256, not 'many'"
    /// ```
    public static func parse(_ text: String, name: String = environmentVariable) -> Result<Int, WorkerCountError> {
        guard let n = Int(text.trimmingCharacters(in: .whitespaces)), (1...maximum).contains(n) else {
            return .failure(WorkerCountError(name: name, text: text))
        }
        return .success(n)
    }

    /// The hardware threads this process plans for: `override`, else a valid `TESSERA_WORKERS`,
    /// else the machine's (an invalid `TESSERA_WORKERS` is reported once and ignored).
    public static var hardwareThreads: Int {
        if let n = override { return n }
        if let n = environmentCount { return n }
        return clamp(ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Decode workers of a thumbnail loader: one per hardware thread.
    public static var decodeThreads: Int { hardwareThreads }
    /// Threads a large sort splits into: one per hardware thread, 16 at most (more parts only
    /// add merge passes).
    public static var sortThreads: Int { min(16, hardwareThreads) }
    /// Threads a table's background sort may use: every hardware thread but one, which the
    /// frames keep.
    public static var backgroundSortThreads: Int { max(1, hardwareThreads - 1) }
    /// Threads that write generated sample photos: one per hardware thread.
    public static var sampleThreads: Int { hardwareThreads }

    private static let environmentCount: Int? = {
        guard let raw = getenv(environmentVariable) else { return nil }
        switch parse(String(cString: raw)) {
        case .success(let n): return n
        case .failure(let error):
            Log.warn("\(error); using the machine's \(ProcessInfo.processInfo.activeProcessorCount)")
            return nil
        }
    }()

    private static func clamp(_ n: Int) -> Int { min(maximum, max(1, n)) }
}

/// A worker count that is not a whole number from 1 to ``WorkerPools/maximum``.
public struct WorkerCountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where it came from: `TESSERA_WORKERS` or `--workers`.
    public var name: String
    /// What was given.
    public var text: String

    public var description: String {
        "\(name) must be a whole number from 1 to \(WorkerPools.maximum), not '\(text)'"
    }
}
