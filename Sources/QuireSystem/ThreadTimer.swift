#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CQuireSystem

/// A one-shot timer whose expiry sends a signal to the thread that created it and to no other
/// (`timer_create` on CLOCK_MONOTONIC with SIGEV_THREAD_ID). A process-directed signal (`alarm`)
/// would not do: once the argument parser runs a command on Swift concurrency's pool, every
/// thread of the process blocks such signals (Dispatch's workers and the main thread parked in
/// its queue), and it would stay pending forever.
///
/// The creating thread must run until the timer is disarmed or deinitialised: a signal aimed at
/// a thread that has ended is lost. Costs three system calls and no thread.
package final class ThreadTimer {
    /// glibc's timer_t is the kernel's timer id as a pointer, so the first timer is null.
    private let timer: timer_t?
    package let signal: Int32

    package init(signal: Int32) throws(Errno) {
        var timer: timer_t?
        guard quire_thread_timer_create(signal, &timer) == 0 else { throw .current }
        self.timer = timer
        self.signal = signal
    }

    /// Starts the timer to fire once after `seconds` (restarting it if it runs); 0 stops it.
    package func arm(seconds: Int) throws(Errno) {
        var value = itimerspec()
        value.it_value.tv_sec = seconds
        guard timer_settime(timer, 0, &value, nil) == 0 else { throw .current }
    }

    deinit { timer_delete(timer) }

    /// The real-time signal SIGRTMIN + `offset` (glibc keeps the first few for itself).
    package static func realtimeSignal(_ offset: Int32) -> Int32 {
        quire_realtime_signal(offset)
    }

    /// Lets `signal` reach the calling thread; true when it was blocked there before (give the
    /// same answer to ``restore(_:blocked:)`` afterwards).
    package static func unblock(_ signal: Int32) -> Bool {
        var set = sigset_t(), old = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_UNBLOCK, &set, &old)
        return sigismember(&old, signal) == 1
    }

    /// Blocks `signal` on the calling thread again when ``unblock(_:)`` found it blocked.
    package static func restore(_ signal: Int32, blocked: Bool) {
        guard blocked else { return }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
