import CSDL2
import Foundation

extension Thread {
    /// Starts a thread that shows as `name` in `top -H`, `perf` and debuggers (Linux keeps 15
    /// characters). Foundation on Linux drops a name given before `start()`, so the thread
    /// names itself first. A `nice` above 0 lowers its priority (Linux: per thread) before it
    /// runs `body`: background work then takes no core the UI or the rasterizer wants.
    ///
    /// ```swift
    /// Thread.start(named: "tessera-scan", nice: 19) { walk(folder) }
    /// ```
    @discardableResult
    package static func start(named name: String, nice: Int32 = 0, _ body: @escaping @Sendable () -> Void) -> Thread {
        precondition(name.utf8.count <= 15, "Linux keeps 15 bytes of a thread name: \(name)")
        let thread = Thread {
            Thread.current.name = name
            if nice > 0 { tessera_nice_current_thread(nice) }
            body()
        }
        thread.start()
        return thread
    }
}
