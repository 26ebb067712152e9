#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The state of every entry of one directory (not recursive), names as raw bytes: kind,
/// permissions, size, inode, timestamps, a symlink's target and a regular file's bytes. Two
/// snapshots are equal only if nothing was created, removed, written, renamed or chmod-ed.
public struct DirectorySnapshot: Sendable {
    public struct State: Sendable, Equatable {
        public let mode: UInt32
        public let size: Int64
        public let inode: UInt64
        public let modified: [Int]
        public let changed: [Int]
        public let linkTarget: [UInt8]?
        /// Contents of regular files up to 64 MiB (larger ones compare by size and times).
        public let contents: [UInt8]?
    }

    public struct SnapshotError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public let entries: [[UInt8]: State]

    public init(directory: String) throws {
        var entries: [[UInt8]: State] = [:]
        for name in try Self.names(in: directory) {
            let path = Array(directory.utf8) + [UInt8(ascii: "/")] + name
            entries[name] = try Self.state(of: path)
        }
        self.entries = entries
    }

    private static func cString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func state(of path: [UInt8]) throws -> State {
        var info = stat()
        guard cString(path, { lstat($0, &info) }) == 0 else {
            throw SnapshotError(description: "lstat \(String(decoding: path, as: UTF8.self)): \(String(cString: strerror(errno)))")
        }
        var target: [UInt8]?
        var contents: [UInt8]?
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: 4096)
            let count = cString(path) { readlink($0, &buffer, buffer.count) }
            if count >= 0 { target = buffer[0..<count].map { UInt8(bitPattern: $0) } }
        case S_IFREG where info.st_size <= 64 << 20:
            let fd = cString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW) }
            if fd >= 0 {
                defer { close(fd) }
                var data = [UInt8](repeating: 0, count: Int(info.st_size))
                var filled = 0
                while filled < data.count {
                    let got = data.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, $0.count - filled, off_t(filled)) }
                    if got <= 0 { break }
                    filled += got
                }
                contents = Array(data[0..<filled])
            }
        default:
            break
        }
        return State(mode: UInt32(info.st_mode), size: Int64(info.st_size), inode: UInt64(info.st_ino),
                     modified: [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)],
                     changed: [Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)],
                     linkTarget: target, contents: contents)
    }

    /// The names in `directory` (raw bytes, without `.` and `..`), sorted bytewise.
    public static func names(in directory: String) throws -> [[UInt8]] {
        guard let handle = opendir(directory) else {
            throw SnapshotError(description: "opendir \(directory): \(String(cString: strerror(errno)))")
        }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: 256) { bytes in
                    Array(UnsafeBufferPointer(start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
                }
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Paths (relative to `directory`) of everything below it that is not a directory.
    public static func files(under directory: String) throws -> [String] {
        var out: [String] = []
        func walk(_ relative: String) throws {
            let absolute = relative.isEmpty ? directory : directory + "/" + relative
            for name in try names(in: absolute) {
                let child = (relative.isEmpty ? "" : relative + "/") + String(decoding: name, as: UTF8.self)
                var info = stat()
                if lstat(directory + "/" + child, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
                    try walk(child)
                } else {
                    out.append(child)
                }
            }
        }
        try walk("")
        return out.sorted()
    }
}
