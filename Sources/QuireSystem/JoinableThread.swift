#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CQuireSystem
import Synchronization

/// A POSIX thread with a chosen stack size that the creator joins, for blocking work outside
/// Swift concurrency's pool (worker slots waiting on child processes). Quire avoids
/// Foundation's `Thread`: it would link CoreFoundation, whose initialiser runs in every process.
/// Sendable: the handle is set once, and joining (from any thread, at most once) is guarded.
package final class JoinableThread: Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let thread: pthread_t
    private let started: Bool
    private let joined = Mutex(false)

    /// Starts `body` on a new thread. If no thread can be created, `body` runs here, before
    /// this returns, so the work is done either way.
    package init(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        let thread = Self.start(stackSize: stackSize, detached: false, body)
        self.thread = thread ?? pthread_t()
        started = thread != nil
    }

    /// Waits for the thread to finish (the first caller waits; later calls return at once).
    package func join() {
        guard started, joined.withLock({ joined in defer { joined = true }; return !joined }) else { return }
        pthread_join(thread, nil)
    }

    /// Lowers the calling thread's priority (nice 10: Linux's niceness is a thread's own), for
    /// work nobody waits for — a table's row count running while a window draws its first
    /// screen gets the processor only when the window's threads do not need it. Best effort.
    package static func lowerCurrentPriority() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(quire_thread_id()), 10)
    }

    /// Runs `body` on a new detached thread with a stack of `stackSize` bytes (here, before
    /// returning, if no thread can be created).
    package static func detach(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        _ = start(stackSize: stackSize, detached: true, body)
    }

    /// Starts `body` on a new thread with a stack of `stackSize` bytes, detached or to be
    /// joined; nil when no thread could be created, after `body` ran here.
    private static func start(stackSize: Int, detached: Bool, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        let box = Unmanaged.passRetained(Body(body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, stackSize)
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        defer { pthread_attr_destroy(&attributes) }
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            body()
            return nil
        }
        return thread
    }
}

/// Runs blocking, CPU-heavy work (rendering) on a thread of its own and awaits its result, so
/// that Swift's cooperative pool — a few threads shared by every task — is never held up by it.
package enum BlockingWork {
    package static func run<Success: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Success
    ) async throws(Failure) -> Success {
        let result: Result<Success, Failure> = await withCheckedContinuation { continuation in
            JoinableThread.detach(stackSize: 8 << 20) {
                continuation.resume(returning: Result { () throws(Failure) in try body() })
            }
        }
        return try result.get()
    }
}
