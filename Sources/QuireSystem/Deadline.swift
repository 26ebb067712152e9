#if canImport(Glibc)
import Glibc
#endif

/// When an answer must have come by: a point on the monotonic clock.
package struct Deadline: Sendable {
    private let end: Double

    /// `seconds` from now.
    package init(seconds: Double) {
        end = Self.now() + seconds
    }

    /// Milliseconds left (0 when it has passed).
    package func remainingMilliseconds() -> Int {
        max(0, Int(((end - Self.now()) * 1000).rounded(.up)))
    }

    package var hasPassed: Bool { Self.now() >= end }

    /// Seconds on the monotonic clock.
    package static func now() -> Double { MonotonicClock.seconds() }
}
