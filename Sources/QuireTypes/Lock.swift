#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock over `pthread_mutex_t`, for state shared with threads that Swift
/// concurrency does not manage (watchdogs, Ghostscript's thread, worker bookkeeping).
///
/// Quire's modules use FoundationEssentials only: Foundation's `NSLock` would link
/// CoreFoundation, whose initialiser runs in every process, the thumbnailer included. This and
/// the other small helpers in QuireTypes (`JoinableThread`, `DecimalText`, `DirectoryPath`,
/// `PercentEncoding`, whitespace trimming) are `package`: shared by Quire's modules, not API.
package final class Lock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    package func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }
}
