#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes

/// Writes a file so that readers see either the old or the new content, never a part:
/// a temporary file in the same directory, `fsync`, then `rename`.
enum AtomicWrite {
    static func write(_ data: Data, to path: String, mode: mode_t) throws(IntegrationError) {
        let directory = DirectoryPath.parent(of: path)
        var template = Array((directory + "/.quire-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw IntegrationError(path: path, reason: "cannot create a file here: \(String(cString: strerror(errno)))")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 { if errno == EINTR { continue }; return false }
                offset += written
            }
            return true
        }
        ok = ok && fchmod(fd, mode) == 0 && fsync(fd) == 0
        let code = errno
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(ok ? errno : code))
            unlink(temporary)
            throw IntegrationError(path: path, reason: "cannot write: \(reason)")
        }
    }
}
