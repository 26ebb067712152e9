internal import CGIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// GLib's default main loop, which dispatches D-Bus calls and timers. ``run()`` blocks its
/// thread until ``quit()``, a termination signal, or the periodic check says to stop.
// Shared across threads unchecked because: it owns a GMainLoop, and g_main_loop_quit (the only call made
// from other threads) is thread-safe; `run()` is called once, from the loop's own thread.
package final class GLibMainLoop: @unchecked Sendable {
    private let loop: OpaquePointer
    private var shouldQuit: (@Sendable () -> Bool)?

    package init() {
        loop = g_main_loop_new(nil, 0)
    }

    deinit { g_main_loop_unref(loop) }

    /// Checks `condition` every `milliseconds` on the loop's thread and quits when it is true.
    /// Call before ``run()``; the loop must outlive the run.
    package func quit(every milliseconds: UInt32, when condition: @escaping @Sendable () -> Bool) {
        shouldQuit = condition
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, { userData in
            let mainLoop = Unmanaged<GLibMainLoop>.fromOpaque(userData!).takeUnretainedValue()
            if mainLoop.shouldQuit?() == true {
                mainLoop.quit()
                return 0
            }
            return 1
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// SIGTERM and SIGINT quit the loop (handled by GLib on the loop's thread, not in a
    /// signal handler).
    package func quitOnTerminationSignals() {
        for signal in [SIGTERM, SIGINT] {
            g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, { userData in
                Unmanaged<GLibMainLoop>.fromOpaque(userData!).takeUnretainedValue().quit()
                return 0
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
        }
    }

    /// Runs until quit.
    package func run() { g_main_loop_run(loop) }

    package func quit() { g_main_loop_quit(loop) }
}
