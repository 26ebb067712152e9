/// Why an output file could not be written (sysexits: 73, cannot create output).
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: DocumentPath
    public let reason: String
    /// The error of the failed system call, if any.
    public let errno: Errno?

    public init(path: DocumentPath, reason: String, errno: Errno? = nil) {
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    /// `PATH: reason` on one line.
    public var description: String { "\(path): \(reason)" }
}

import QuireSystem
import QuireTypes
