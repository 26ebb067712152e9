import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small program a test puts in a tool's place (a recorder for `xdg-email`, a viewer, a probe).
public enum ExecutableScript {
    /// Writes `text` to a new file at `path` with mode 0755 through a close-on-exec descriptor, so
    /// no child started meanwhile by another test holds it open for writing (then `exec` of the
    /// script fails "Text file busy"). Replaces nothing: the path must not exist.
    public static func write(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw ScriptError(path: path, errno: errno) }
        defer { close(descriptor) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ScriptError(path: path, errno: errno)
            }
            bytes = bytes.dropFirst(written)
        }
        // The mode asked for is reduced by the umask.
        guard fchmod(descriptor, 0o755) == 0 else { throw ScriptError(path: path, errno: errno) }
    }

    public struct ScriptError: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
    }
}
