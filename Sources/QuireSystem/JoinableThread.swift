#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX thread with a chosen stack size that the creator joins, for blocking work outside
/// Swift concurrency's pool (worker slots waiting on child processes). Quire avoids
/// Foundation's `Thread`: it would link CoreFoundation, whose initialiser runs in every process.
package final class JoinableThread: @unchecked Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private var thread = pthread_t()
    private let started: Bool

    /// Starts `body` on a new thread. If no thread can be created, `body` runs here, before
    /// this returns, so the work is done either way.
    package init(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body))
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, stackSize)
        defer { pthread_attr_destroy(&attributes) }
        let result = pthread_create(&thread, &attributes, { argument in
            Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        started = result == 0
        if !started {
            box.release()
            body()
        }
    }

    /// Waits for the thread to finish (at most once).
    package func join() {
        if started { pthread_join(thread, nil) }
    }
}
