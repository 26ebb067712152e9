#if canImport(Glibc)
import Glibc
#endif
import QuireSystem

extension InputFile {
    /// `bytes` (a converted PDF) in a temporary file that is already unlinked, open for reading
    /// like any document: poppler reads a PDF from a descriptor, and CUPS is sent the file.
    /// Made in `$TMPDIR`, else `/tmp` (a sandboxed worker's own tmpfs); nothing stays behind.
    /// - Throws: the `errno` of what failed (creating or writing the file).
    package static func unlinkedTemporary(holding bytes: [UInt8], suffix: String = ".pdf") throws(Errno) -> InputFile {
        var template = Array((TemporaryFolder.path + "/quire-XXXXXX" + suffix).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else { throw Errno.current }
        let name = String(cString: template.map { $0 })
        defer { close(fd); unlink(name) }
        try FileDescriptor(rawValue: fd).writeAll(bytes)
        do { return try InputFile(path: DocumentPath(name)) } catch { throw error.errno ?? Errno(rawValue: EIO) }
    }
}
