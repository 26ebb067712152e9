/// Why an output file could not be written (sysexits: 73, cannot create output).
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: DocumentPath
    public let reason: String
    /// The `errno` of the failed system call, if any.
    public let errno: Int32?

    public init(path: DocumentPath, reason: String, errno: Int32? = nil) {
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    /// `PATH: reason` on one line.
    public var description: String { "\(path): \(reason)" }
}

import QuireTypes
