#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A POSIX error number, as a type: what a failed system call reports and what Quire's errors
/// carry (never a bare `Int32`). Its ``description`` is the C library's message, the one place
/// Quire calls `strerror`.
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now.
    package static var current: Errno { Errno(rawValue: errno) }

    /// The system's message, e.g. "No such file or directory" (the corresponding C function is
    /// `strerror(3)`).
    public var description: String { String(cString: strerror(rawValue)) }

    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let ioError = Errno(rawValue: EIO)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
}

/// Calls `body` until it does not fail with `EINTR`: the one place Quire retries an interrupted
/// system call. `body` returns -1 (and sets `errno`) on failure, like the C calls it wraps.
@inline(__always)
package func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
