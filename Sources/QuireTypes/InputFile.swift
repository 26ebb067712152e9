#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import FoundationEssentials
import QuireSystem

/// A regular file opened read-only, the one way Quire opens documents.
///
/// Opening checks the kind of file *before* `open(2)` (so a FIFO or `/dev/zero` is refused
/// without blocking or reading), opens with `O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY`,
/// then checks again on the descriptor that it is the same regular file. The source is never
/// written. The descriptor is closed when the value is released.
public final class InputFile: Sendable {
    /// The path as given.
    public let path: DocumentPath
    /// Size in bytes when opened.
    public let size: Int64
    /// Modification time (whole seconds since 1970 and nanoseconds).
    public let modificationTime: FileTime
    /// The open, read-only file descriptor. Owned by this object: do not close it. Use
    /// ``duplicateDescriptor()`` to hand a descriptor to a library that takes ownership.
    public let descriptor: FileDescriptor

    /// Default upper bound on input size: 4 GiB.
    public static let defaultMaximumSize: Int64 = 4 << 30

    /// Opens `path` for reading.
    /// - Parameters:
    ///   - allowEmpty: whether a 0-byte file is acceptable (it is an error by default).
    ///   - maximumSize: larger files are refused with ``InputError/Kind/tooLarge``.
    public init(path: DocumentPath, allowEmpty: Bool = false,
                maximumSize: Int64 = InputFile.defaultMaximumSize) throws(InputError) {
        self.path = path
        guard !path.bytes.isEmpty else { throw InputError(path: path, kind: .notFound) }
        var before = stat()
        let statResult = path.withCString { stat($0, &before) }
        if statResult != 0 { throw InputError(.current, path: path) }
        try Self.requireRegular(mode: before.st_mode, path: path)

        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        if fd < 0 { throw InputError(.current, path: path) }
        var after = stat()
        if fstat(fd, &after) != 0 {
            let code = Errno.current
            close(fd)
            throw InputError(code, path: path)
        }
        do {
            try Self.requireRegular(mode: after.st_mode, path: path)
        } catch {
            close(fd)
            throw error
        }
        guard after.st_dev == before.st_dev, after.st_ino == before.st_ino else {
            close(fd)
            throw InputError(path: path, kind: .changedWhileOpening)
        }
        // Reads are blocking from here on: a regular file never blocks indefinitely.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }

        if after.st_size == 0 && !allowEmpty {
            close(fd)
            throw InputError(path: path, kind: .empty)
        }
        if Int64(after.st_size) > maximumSize {
            close(fd)
            throw InputError(path: path, kind: .tooLarge,
                             reason: "file is \(after.st_size) bytes, " + Limit.fileSize.exceeded(maximumSize, "bytes"),
                             remedy: .raise(.fileSize))
        }
        self.descriptor = FileDescriptor(rawValue: fd)
        self.size = Int64(after.st_size)
        self.modificationTime = FileTime(seconds: Int64(after.st_mtim.tv_sec),
                                         nanoseconds: Int32(after.st_mtim.tv_nsec))
    }

    deinit { try? descriptor.close() }

    private static func requireRegular(mode: mode_t, path: DocumentPath) throws(InputError) {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw InputError(path: path, kind: .isDirectory)
        case S_IFIFO: throw InputError(path: path, kind: .isFIFO)
        case S_IFCHR: throw InputError(path: path, kind: .isCharacterDevice)
        case S_IFBLK: throw InputError(path: path, kind: .isBlockDevice)
        case S_IFSOCK: throw InputError(path: path, kind: .isSocket)
        default: throw InputError(path: path, kind: .notRegularFile)
        }
    }

    /// Reads at most `count` bytes starting at `offset` (positioned read: thread-safe and the
    /// shared file offset is untouched).
    ///
    /// The buffer starts at what the file holds past `offset` (its size when opened, plus one
    /// byte to see that it grew) and grows only if the file did: callers ask for chunks of up to
    /// 1 MiB, and zeroing a whole chunk for a file of a few KiB was most of a small PDF's probe.
    public func read(upTo count: Int, at offset: Int64 = 0) throws(InputError) -> [UInt8] {
        guard count > 0 else { return [] }
        let expected = max(0, size - max(0, offset))
        var buffer = [UInt8](repeating: 0, count: expected >= Int64(count) ? count : Int(expected) + 1)
        var filled = 0
        while filled < count {
            if filled == buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: min(count - filled, max(filled, 4096))))
            }
            let room = buffer.count - filled
            let result = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { pread(descriptor.rawValue, raw.baseAddress! + filled, room, off_t(offset) + off_t(filled)) }
            }
            if result < 0 { throw InputError(.current, path: path) }
            if result == 0 { break }
            filled += result
        }
        buffer.removeSubrange(filled...)
        return buffer
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer` (one pread, retried when
    /// interrupted); 0 at the end of the file. For scans that reuse one buffer.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(InputError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let result = retryingOnInterrupt { pread(descriptor.rawValue, base, buffer.count, off_t(offset)) }
        if result < 0 { throw InputError(.current, path: path) }
        return result
    }

    /// A new descriptor for the same open file, for libraries that take ownership of the
    /// descriptor they are given (the caller, or that library, must close it).
    public func duplicateDescriptor() throws(InputError) -> FileDescriptor {
        let copy = fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, 0)
        if copy < 0 { throw InputError(.current, path: path) }
        return FileDescriptor(rawValue: copy)
    }

    /// A path naming this very open file (`/proc/self/fd/N`), for C APIs that only take a file
    /// name. Valid while this object is alive.
    public var procPath: String { "/proc/self/fd/\(descriptor.rawValue)" }
}

/// A file timestamp with nanosecond precision.
public struct FileTime: Sendable, Hashable, Codable {
    public let seconds: Int64
    public let nanoseconds: Int32

    public init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The time as a Foundation `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(nanoseconds) / 1e9)
    }
}
