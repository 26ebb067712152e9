import QuireSystem

/// Why the thumbnail cache could not be read or written: the user's message and the `errno`.
public struct ThumbnailCacheError: Error, Sendable, CustomStringConvertible {
    /// The cache path involved.
    public let path: String
    /// One-line reason, without the path.
    public let reason: String
    /// The underlying error, if a system call failed.
    public let errno: Errno?

    public init(path: String, reason: String, errno: Errno? = nil) {
        self.path = path
        self.reason = reason
        self.errno = errno
    }

    public var description: String { "\(path): \(reason)" }
}
