#if canImport(Glibc)
    import Glibc
#endif

/// A value shared between threads, guarded by a pthread mutex.
///
/// Used instead of `Synchronization.Mutex`, whose Linux implementation locks with raw futex
/// calls that ThreadSanitizer cannot see: under `scripts/sanitize.sh thread` every access it
/// guards would be reported as a race, hiding real ones.
///
/// ```swift
/// let progress = Locked(0)
/// progress.withLock { $0 += 1 }
/// ```
public final class Locked<Value>: @unchecked Sendable {  // `value` is only touched under `mutex`
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// A lock around `value`.
    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
