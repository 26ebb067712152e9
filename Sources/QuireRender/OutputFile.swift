#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireTypes

/// An output file written atomically: bytes go to a temporary file created beside the target
/// (same directory, so `rename(2)` is atomic), which replaces the target only on ``commit()``.
/// If the object is released without committing, the temporary file is removed: a reader never
/// sees half a file and a failure leaves no partial output behind.
public final class OutputFile {
    /// The final path.
    public let path: DocumentPath
    /// The temporary file's path.
    public let temporaryPath: DocumentPath
    /// Descriptor of the temporary file (owned; closed on commit or release).
    public let descriptor: Int32
    private var finished = false

    /// Creates the temporary file beside `path`.
    /// - Parameter permissions: mode of the final file; nil means `0666` minus the umask.
    public init(path: DocumentPath, permissions: mode_t? = nil) throws(OutputError) {
        self.path = path
        let directory: [UInt8]
        if let slash = path.bytes.lastIndex(of: UInt8(ascii: "/")) {
            directory = Array(path.bytes[...slash])
        } else {
            directory = []
        }
        let name = path.lastComponentBytes
        guard !name.isEmpty, name != Array("..".utf8), name != Array(".".utf8) else {
            throw OutputError(path: path, reason: "not a file name")
        }
        var template = directory + Array(".".utf8) + Array(name.prefix(200)) + Array(".XXXXXX".utf8) + [0]
        let fd = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { mkstemp($0) }
        }
        if fd < 0 {
            let code = errno
            throw OutputError(path: path, reason: "cannot create output: " + String(cString: strerror(code)), errno: code)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        descriptor = fd
        temporaryPath = DocumentPath(bytes: template.dropLast())
        let mode: mode_t
        if let permissions {
            mode = permissions
        } else {
            let mask = umask(0o022)
            umask(mask)
            mode = 0o666 & ~mask
        }
        fchmod(fd, mode)
    }

    deinit {
        if !finished {
            close(descriptor)
            _ = temporaryPath.withCString { unlink($0) }
        }
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        let code = bytes.withUnsafeBytes { FileDescriptorWriter.writeAll(descriptor, $0) }
        if let code {
            throw OutputError(path: path, reason: "cannot write output: " + String(cString: strerror(code)), errno: code)
        }
    }

    /// Appends raw bytes.
    public func write(_ raw: UnsafeRawBufferPointer) throws(OutputError) {
        if let code = FileDescriptorWriter.writeAll(descriptor, raw) {
            throw OutputError(path: path, reason: "cannot write output: " + String(cString: strerror(code)), errno: code)
        }
    }

    /// Closes the temporary file and renames it over the target.
    public func commit() throws(OutputError) {
        guard !finished else { return }
        finished = true
        if close(descriptor) != 0 {
            let code = errno
            _ = temporaryPath.withCString { unlink($0) }
            throw OutputError(path: path, reason: "cannot write output: " + String(cString: strerror(code)), errno: code)
        }
        let result = temporaryPath.withCString { from in path.withCString { to in rename(from, to) } }
        if result != 0 {
            let code = errno
            _ = temporaryPath.withCString { unlink($0) }
            throw OutputError(path: path, reason: "cannot create output: " + String(cString: strerror(code)), errno: code)
        }
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: DocumentPath, permissions: mode_t? = nil) throws(OutputError) {
        let file = try OutputFile(path: path, permissions: permissions)
        try file.write(bytes)
        try file.commit()
    }
}

/// `write(2)` until done, retrying on EINTR.
package enum FileDescriptorWriter {
    /// nil on success, else the errno.
    package static func writeAll(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < raw.count {
            let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}
