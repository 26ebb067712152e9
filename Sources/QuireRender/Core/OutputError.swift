/// Why an output file could not be written (sysexits: 73, cannot create output; 64 when the
/// output named is the input).
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure: a usage mistake (the input named as the output) or a file that
    /// cannot be written.
    public enum Kind: Sendable, Hashable {
        /// The output could not be created or written (a directory, no permission, disk full).
        case notWritable
        /// The output is one of the command's inputs: refused before anything is written.
        case sameAsInput
    }

    public let path: DocumentPath
    public let reason: String
    /// The error of the failed system call, if any.
    public let errno: Errno?
    public let kind: Kind

    public init(path: DocumentPath, reason: String, errno: Errno? = nil, kind: Kind = .notWritable) {
        self.path = path
        self.reason = reason
        self.errno = errno
        self.kind = kind
    }

    /// `PATH: reason` on one line.
    public var description: String { "\(path): \(reason)" }
}

import QuireSystem
import QuireTypes
