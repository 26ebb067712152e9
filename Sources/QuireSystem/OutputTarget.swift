#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where an output named on a command line goes, decided as `cp` and `install` decide it — the
/// one place for that choice (``AtomicReplacement`` then writes a file; the thumbnail cache
/// keeps its own, stricter rules and does not come here):
///
/// - `-` is standard output;
/// - a symbolic link is followed (up to 40 links): what it points to is written, the link stays;
/// - a regular file, or a name nothing has yet, is replaced atomically;
/// - a character device (`/dev/null`, a terminal) or a FIFO is opened and written to, never
///   replaced — renaming over it would put a plain file where the device or pipe was;
/// - a directory, a block device, a socket, or the input itself is refused before anything is
///   written, with the reason.
package enum OutputTarget: Sendable, Hashable {
    /// Standard output (`-`).
    case standardOutput
    /// A regular file or a new name (after following links): replaced atomically.
    case replace(path: [UInt8])
    /// A character device or a FIFO (after following links): opened and written to.
    case direct(path: [UInt8])

    /// Why an output is refused.
    package struct Refusal: Error, Sendable, Hashable {
        package enum Kind: Sendable, Hashable {
            /// The output is one of the inputs: writing would destroy what is being read.
            case sameAsInput
            /// The output cannot be a file Quire writes (a directory, block device, socket,
            /// a loop of links).
            case notWritable
        }
        package let kind: Kind
        /// Why, in words ("is a directory", "is the input file").
        package let reason: String
        package let errno: Errno?

        package init(_ kind: Kind, _ reason: String, errno: Errno? = nil) {
            self.kind = kind
            self.reason = reason
            self.errno = errno
        }
    }

    /// The links a path may go through before it counts as a loop (Linux's `MAXSYMLINKS`).
    static let maximumLinks = 40

    /// Decides where `path` goes. `inputs` are the files the command reads: an output that is
    /// one of them (the same file, by device and inode, however it is named) is refused.
    package static func resolve(_ path: [UInt8], inputs: [[UInt8]] = []) throws(Refusal) -> OutputTarget {
        if path == [UInt8(ascii: "-")] { return .standardOutput }
        var current = path
        var info = Glibc.stat()
        var links = 0
        while true {
            guard lstatPath(current, &info) == 0 else {
                let error = Errno.current
                // A name nothing has yet (or a link to one): a new file, created by the replacement.
                if error.rawValue == ENOENT { return .replace(path: current) }
                throw Refusal(.notWritable, "cannot look at it (\(error))", errno: error)
            }
            guard (info.st_mode & S_IFMT) == S_IFLNK else { break }
            links += 1
            guard links <= maximumLinks else {
                throw Refusal(.notWritable, "too many levels of symbolic links", errno: Errno(rawValue: ELOOP))
            }
            guard let target = readLink(current) else {
                let error = Errno.current
                throw Refusal(.notWritable, "cannot read the symbolic link (\(error))", errno: error)
            }
            current = target.first == UInt8(ascii: "/") ? target : directory(of: current) + target
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw Refusal(.notWritable, "is a directory", errno: Errno(rawValue: EISDIR))
        case S_IFBLK: throw Refusal(.notWritable, "is a block device (not written to: give a file name)")
        case S_IFSOCK: throw Refusal(.notWritable, "is a socket")
        case S_IFCHR, S_IFIFO: return .direct(path: current)
        default: break
        }
        for input in inputs {
            var inputInfo = Glibc.stat()
            if statPath(input, &inputInfo) == 0, inputInfo.st_dev == info.st_dev, inputInfo.st_ino == info.st_ino {
                throw Refusal(.sameAsInput, "is the input file (writing it would destroy what is being read)")
            }
        }
        return .replace(path: current)
    }

    /// The directory part of `path` with its trailing slash ("" for a bare name).
    private static func directory(of path: [UInt8]) -> [UInt8] {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return [] }
        return Array(path[...slash])
    }

    /// The target of the symbolic link at `path` (`readlink(2)`), nil on failure.
    private static func readLink(_ path: [UInt8]) -> [UInt8]? {
        var size = 256
        while size <= 1 << 16 {
            var buffer = [UInt8](repeating: 0, count: size)
            let count = buffer.withUnsafeMutableBufferPointer { raw in
                raw.withMemoryRebound(to: CChar.self) { readLinkRaw(path, $0.baseAddress!, size) }
            }
            guard count >= 0 else { return nil }
            if count < size { return Array(buffer[..<count]) }
            size *= 2
        }
        return nil
    }

    private static func lstatPath(_ path: [UInt8], _ info: inout Glibc.stat) -> Int32 {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) }
        }
    }

    private static func statPath(_ path: [UInt8], _ info: inout Glibc.stat) -> Int32 {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &info) }
        }
    }

    private static func readLinkRaw(_ path: [UInt8], _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
        (path + [0]).withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { Glibc.readlink($0.baseAddress!, buffer, size) }
        }
    }

    /// Opens a ``direct(path:)`` target for writing (`open(2)`, `O_WRONLY | O_NOCTTY`, no
    /// truncation, no creation: the device or FIFO is there). A FIFO's open waits for a reader,
    /// as `cp`'s does.
    package static func openDirect(_ path: [UInt8]) throws(Errno) -> FileDescriptor {
        let fd = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { name in
                retryingOnInterrupt { Glibc.open(name.baseAddress!, O_WRONLY | O_NOCTTY | O_CLOEXEC, 0) }
            }
        }
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(rawValue: fd)
    }
}
