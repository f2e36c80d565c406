import Foundation

extension Thread {
    /// Starts a thread that shows as `name` in `top -H`, `perf` and debuggers (Linux keeps 15
    /// characters). Foundation on Linux drops a name given before `start()`, so the thread
    /// names itself first.
    ///
    /// ```swift
    /// Thread.start(named: "tessera-scan") { walk(folder) }
    /// ```
    @discardableResult
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> Thread {
        precondition(name.utf8.count <= 15, "Linux keeps 15 bytes of a thread name: \(name)")
        let thread = Thread {
            Thread.current.name = name
            body()
        }
        thread.start()
        return thread
    }
}
