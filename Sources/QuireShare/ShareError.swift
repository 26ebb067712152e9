import QuireGIO
import QuireSystem

/// Why sharing did not happen (or not completely): the user's message and what failed below it.
/// Nothing is sent when a file fails its check: files are checked before anything goes out.
package struct ShareError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// A file is missing, unreadable or not a regular file (it may have vanished since it was opened).
        case file
        /// More files than one share takes.
        case tooMany
        /// Nothing on this system can send mail, or no device can receive files.
        case unavailable
        /// The mail portal or program, or the device service, answered with an error.
        case failed
        /// The user cancelled (the portal's dialog).
        case cancelled
        /// The device named is not reachable now (it went away, or never was).
        case noSuchDevice
        /// An address or subject that cannot be passed on (a newline, a leading dash).
        case badArgument
    }

    package let kind: Kind
    package let message: String
    /// The D-Bus error, when there was one.
    package let underlying: GIOError?
    /// The system error, when there was one.
    package let errno: Errno?

    init(_ kind: Kind, _ message: String, underlying: GIOError? = nil, errno: Errno? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
        self.errno = errno
    }

    package var description: String { message }
}
