import CSDL2
import Foundation

extension Thread {
    /// Starts a thread that shows as `name` in `top -H`, `perf` and debuggers (Linux keeps 15
    /// bytes: a longer name is cut to fit, never refused; see `threadName(_:index:)`). Foundation on Linux drops a name given before `start()`, so the thread
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
        let name = threadName(name)
        let thread = Thread {
            tessera_name_current_thread(name)
            if nice > 0 { tessera_nice_current_thread(nice) }
            body()
        }
        thread.start()
        return thread
    }
}

/// The longest thread name Linux keeps, in bytes.
package let threadNameLimit = 15

/// `base` followed by `index` (if any), cut to the 15 bytes Linux keeps: the number is kept
/// whole and the base is shortened, at a character boundary, to make room for it, so the
/// 11th decode worker is `tessera-decod10` and the 101st `tessera-deco100`.
///
/// ```swift
/// threadName("tessera-decode", index: 10) // "tessera-decod10"
/// ```
package func threadName(_ base: String, index: Int? = nil) -> String {
    let suffix = index.map(String.init) ?? ""
    let room = max(0, threadNameLimit - suffix.utf8.count)
    var kept = Substring(base)
    while kept.utf8.count > room { kept.removeLast() }
    return String((String(kept) + suffix).utf8.prefix(threadNameLimit)) ?? String(kept)
}

/// The calling thread's name as the kernel knows it (what `Thread.start(named:)` gave it).
package func currentThreadName() -> String {
    var name = [CChar](repeating: 0, count: 16)
    tessera_current_thread_name(&name)
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
