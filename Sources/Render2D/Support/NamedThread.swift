import CSDL2
import Foundation

extension Thread {
    /// Starts a thread that shows as `name` in `top -H`, `perf` and debuggers (Linux keeps 15
    /// characters). Foundation on Linux drops a name given before `start()`, so the thread
    /// names itself first, in the kernel: under ThreadSanitizer, Foundation's
    /// `Thread.current.name` sometimes gave the process's name instead. A `nice` above 0
    /// lowers its priority (Linux: per thread) before it runs `body`: background work then
    /// takes no core the UI or the rasterizer wants.
    ///
    /// ```swift
    /// Thread.start(named: "tessera-scan", nice: 19) { walk(folder) }
    /// ```
    @discardableResult
    package static func start(named name: String, nice: Int32 = 0, _ body: @escaping @Sendable () -> Void) -> Thread {
        precondition(name.utf8.count <= 15, "Linux keeps 15 bytes of a thread name: \(name)")
        let thread = Thread {
            tessera_name_current_thread(name)
            if nice > 0 { tessera_nice_current_thread(nice) }
            body()
        }
        thread.start()
        return thread
    }
}

/// The calling thread's name as the kernel knows it (what `Thread.start(named:)` gave it).
package func currentThreadName() -> String {
    var name = [CChar](repeating: 0, count: 16)
    tessera_current_thread_name(&name)
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
