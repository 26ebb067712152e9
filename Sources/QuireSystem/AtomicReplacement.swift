#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
internal import CQuireSystem

/// A file replaced atomically: a reader (or a `kill -9`) sees the old content or the new, never
/// a part. Bytes go to an unnamed temporary file in the target's directory (`O_TMPFILE`; a
/// named one, `.quire-tmp-PID-N`, where the file system has none), which on ``commit(durable:)``
/// is linked under a temporary name and renamed over the target. Released without a commit, the
/// temporary file is removed. Every writer of Quire (outputs, thumbnails, integration files)
/// goes through here.
package final class AtomicReplacement {
    /// Why a replacement failed: the step and the system's error.
    package struct Failure: Error, Sendable, Hashable {
        package enum Step: Sendable, Hashable {
            /// Creating the temporary file (the directory is missing or not writable).
            case create
            /// Writing, syncing or closing the temporary file.
            case write
            /// Giving the unnamed temporary file a name.
            case link
            /// Renaming it over the target.
            case rename
        }
        package let step: Step
        package let errno: Errno

        package init(step: Step, errno: Errno) {
            self.step = step
            self.errno = errno
        }
    }

    /// The prefix of temporary names; ``isLeftover(_:)`` recognises those of dead writers.
    package static let temporaryPrefix = ".quire-tmp-"
    private static let counter = Atomic<Int>(0)

    /// The target's path.
    package let path: [UInt8]
    /// The temporary file: write into it, then ``commit(durable:)``.
    package let descriptor: FileDescriptor
    private let directory: [UInt8]
    private let temporaryName: [UInt8]
    /// Whether the temporary file has a name yet (the `O_TMPFILE` fallback has one from the start).
    private var named: Bool
    private var finished = false

    /// Creates the temporary file in the directory of `path`, with `permissions` (nil: `0666`
    /// minus the umask).
    package init(replacing path: [UInt8], permissions: FilePermissions? = nil) throws(Failure) {
        self.path = path
        if let slash = path.lastIndex(of: UInt8(ascii: "/")) {
            directory = slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
        } else {
            directory = Array(".".utf8)
        }
        let prefix = directory == [UInt8(ascii: "/")] ? directory : directory + [UInt8(ascii: "/")]
        temporaryName = prefix + Array("\(Self.temporaryPrefix)\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)".utf8)
        let mode = permissions ?? .defaultForNewFiles
        var fd = Self.withCString(directory) { open($0, quire_o_tmpfile | O_WRONLY | O_CLOEXEC, mode.rawValue) }
        named = false
        if fd < 0 && errno != ENOENT && errno != ENOTDIR && errno != EACCES {
            // No O_TMPFILE on this file system: a named temporary file.
            fd = Self.withCString(temporaryName) { open($0, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, mode.rawValue) }
            named = true
        }
        guard fd >= 0 else { throw Failure(step: .create, errno: .current) }
        descriptor = FileDescriptor(rawValue: fd)
        // The mode given to open(2) is reduced by the umask; the caller's choice is exact.
        if permissions != nil { try? descriptor.setPermissions(mode) }
    }

    /// A replacement of `path` (UTF-8 text).
    package convenience init(replacing path: String, permissions: FilePermissions? = nil) throws(Failure) {
        try self.init(replacing: Array(path.utf8), permissions: permissions)
    }

    deinit {
        if !finished {
            try? descriptor.close()
            if named { _ = Self.withCString(temporaryName) { unlink($0) } }
        }
    }

    /// Appends `bytes` to the temporary file.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        do { try descriptor.writeAll(bytes) } catch { throw Failure(step: .write, errno: error) }
    }

    /// Appends `bytes` to the temporary file.
    package func write(_ bytes: [UInt8]) throws(Failure) {
        try bytes.withUnsafeBytes { raw in Result { () throws(Failure) in try write(raw) } }.get()
    }

    /// Closes the temporary file (after `fsync` when `durable`) and puts it in place.
    package func commit(durable: Bool = false) throws(Failure) {
        guard !finished else { return }
        finished = true
        do {
            if durable { try descriptor.sync() }
        } catch {
            try? descriptor.close()
            removeTemporary()
            throw Failure(step: .write, errno: error)
        }
        if !named {
            let linked = Self.withCString(Array("/proc/self/fd/\(descriptor.rawValue)".utf8)) { source in
                Self.withCString(temporaryName) { linkat(AT_FDCWD, source, AT_FDCWD, $0, AT_SYMLINK_FOLLOW) }
            }
            if linked != 0 {
                let error = Errno.current
                try? descriptor.close()
                throw Failure(step: .link, errno: error)
            }
            named = true
        }
        do { try descriptor.close() } catch {
            removeTemporary()
            throw Failure(step: .write, errno: error)
        }
        let renamed = Self.withCString(temporaryName) { from in Self.withCString(path) { rename(from, $0) } }
        if renamed != 0 {
            let error = Errno.current
            removeTemporary()
            throw Failure(step: .rename, errno: error)
        }
    }

    private func removeTemporary() {
        if named { _ = Self.withCString(temporaryName) { unlink($0) } }
    }

    /// Whether `name` (in a directory Quire writes to) is the temporary file of a writer that
    /// no longer runs.
    package static func isLeftover(_ name: String) -> Bool {
        guard name.hasPrefix(temporaryPrefix) else { return false }
        let pidText = name.dropFirst(temporaryPrefix.count).prefix { $0 != "-" }
        guard let pid = Int32(pidText) else { return true }
        if pid == getpid() { return false }
        return !(kill(pid, 0) == 0 || errno == EPERM)
    }

    private static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count, body)
        }
    }
}

/// Replaces the file at `path` with `contents` atomically (see ``AtomicReplacement``).
package func atomicReplace(path: String, contents: [UInt8], permissions: FilePermissions? = nil,
                           durable: Bool = false) throws(AtomicReplacement.Failure) {
    let file = try AtomicReplacement(replacing: path, permissions: permissions)
    try file.write(contents)
    try file.commit(durable: durable)
}
