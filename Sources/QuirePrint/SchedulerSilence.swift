#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import QuireSystem

/// When a print system last failed to answer in time, shared by every connection of one
/// ``PrintSystem`` (and its copies): after one wait ran out, the next connection within the
/// time limit fails at once with the same "does not answer" instead of waiting again. A
/// command's lookups (the queue, then the whole list, then the default) thus cost one time-out,
/// not one each.
final class SchedulerSilence: Sendable {
    private let heard = Mutex<Double?>(nil)

    init() {}

    /// Notes that a wait just timed out.
    func record() {
        heard.withLock { $0 = Self.now() }
    }

    /// Whether a wait timed out less than `seconds` ago.
    func isRecent(within seconds: Double) -> Bool {
        guard let last = heard.withLock({ $0 }) else { return false }
        return Self.now() - last < max(seconds, 1)
    }

    private static func now() -> Double { MonotonicClock.seconds() }
}
