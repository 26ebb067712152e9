#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CQuireSystem

/// An open file descriptor, as a type. It does not own the descriptor: whoever opened it closes
/// it, once, with ``close()``. Every read and write retries `EINTR` (and short counts) here, so
/// callers never do.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// Opens `path` (the corresponding C function is `open(2)`; `O_CLOEXEC` is always added).
    package static func open(_ path: String, _ flags: Int32, permissions: FilePermissions = .ownerReadWrite) throws(Errno) -> FileDescriptor {
        let fd = retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, permissions.rawValue) }
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(rawValue: fd)
    }

    /// A pipe whose two ends are close-on-exec from the start (the corresponding C function is
    /// `pipe2(2)` with `O_CLOEXEC`).
    package static func pipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        guard quire_pipe_cloexec(&fds) == 0 else { throw Errno.current }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Reads at most `buffer.count` bytes; 0 at end of file (`read(2)`).
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let count = retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
        guard count >= 0 else { throw Errno.current }
        return count
    }

    /// Reads exactly `count` bytes; nil when the file ends first.
    package func read(exactly count: Int) throws(Errno) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...])) }
            }.get()
            if result == 0 { return nil }
            filled += result
        }
        return buffer
    }

    /// Writes all of `bytes`, however many `write(2)` calls that takes.
    package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = retryingOnInterrupt { Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset) }
            guard written >= 0 else { throw Errno.current }
            offset += written
        }
    }

    /// Writes all of `bytes`.
    package func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(raw) } }.get()
    }

    /// Closes the descriptor (`close(2)`; not retried on `EINTR`, which on Linux has closed it).
    package func close() throws(Errno) {
        guard Glibc.close(rawValue) == 0 else { throw Errno.current }
    }

    /// Flushes the file's data to the device (`fsync(2)`).
    package func sync() throws(Errno) {
        guard retryingOnInterrupt({ fsync(rawValue) }) == 0 else { throw Errno.current }
    }

    /// Sets the file's permission bits (`fchmod(2)`).
    package func setPermissions(_ permissions: FilePermissions) throws(Errno) {
        guard fchmod(rawValue, permissions.rawValue) == 0 else { throw Errno.current }
    }
}
