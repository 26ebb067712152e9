#if canImport(Glibc)
import Glibc
#endif

/// The clock time-outs, waits and traces are measured on: CLOCK_MONOTONIC (not changed by the
/// wall clock being set; the clock bench/window-probe.c reads, so traces compare with it).
package enum MonotonicClock {
    /// Seconds since an arbitrary start.
    package static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Milliseconds since the same start, fractions kept.
    package static func milliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// Whole milliseconds since the same start.
    package static func wholeMilliseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }
}
