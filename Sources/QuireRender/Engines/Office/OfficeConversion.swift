#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import QuireTypes

/// Where an office document becomes the PDF its pages come from: LibreOffice in this process
/// (``OfficeKit``: the render worker's, or any process with no sandbox to put it in), or
/// LibreOffice in a render worker under bubblewrap, for `quire`'s one-shot commands (`preview`,
/// `info`, `thumbnail FILE OUT`, `print`), which would otherwise run the office unconfined.
/// The caller says which (``Interpreters/host``).
public enum OfficeConversion {
    /// The document as LibreOffice's PDF, opened; nothing of it is left on disk.
    /// `csvAsSpreadsheet`: `file` is delimited text (``SpreadsheetText``) for Calc.
    static func pdf(_ file: InputFile, password: String?, csvAsSpreadsheet: Bool = false, contentType: ContentType? = nil,
                    limits: RenderLimits = .standard, interpreters: Interpreters) throws(DocumentError) -> InputFile {
        if let bytes = try interpreters.host?.officePDF(file, password: password, csvAsSpreadsheet: csvAsSpreadsheet) {
            return try anonymousFile(bytes, for: file.path)
        }
        return try OfficeKit.withOffice(file.path) { (office) throws(DocumentError) in
            csvAsSpreadsheet ? try office.convertSpreadsheetTextToPDF(file, contentType: contentType, limits: limits)
                : try office.convertToPDF(file, password: password)
        }
    }

    /// The render worker's side of an isolated conversion: this process's office converts
    /// `file`, and the PDF's bytes are returned.
    public static func pdfInProcess(_ file: InputFile, password: String?, csvAsSpreadsheet: Bool = false,
                                    contentType: ContentType? = nil, limits: RenderLimits = .standard) throws(DocumentError) -> [UInt8] {
        let pdf = try OfficeKit.withOffice(file.path) { (office) throws(DocumentError) in
            csvAsSpreadsheet ? try office.convertSpreadsheetTextToPDF(file, contentType: contentType, limits: limits)
                : try office.convertToPDF(file, password: password)
        }
        do {
            return try pdf.read(upTo: Int(pdf.size))
        } catch {
            throw DocumentError(kind: .damaged, path: file.path, reason: "LibreOffice's PDF of it cannot be read (\(error))")
        }
    }

    /// `bytes` in a file without a name (made in TMPDIR and removed at once, before anything is
    /// written), opened as an ``InputFile``.
    private static func anonymousFile(_ bytes: [UInt8], for path: DocumentPath) throws(DocumentError) -> InputFile {
        let base = TemporaryFolder.path
        var template = Array((base + "/quire-office-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw DocumentError(kind: .input, path: path, reason: "cannot hold LibreOffice's PDF of it (\(Errno.current))")
        }
        defer { close(descriptor) }
        do {
            try FileDescriptor(rawValue: descriptor).writeAll(bytes)
            return try InputFile(path: DocumentPath("/proc/self/fd/\(descriptor)"))
        } catch {
            throw DocumentError(kind: .input, path: path, reason: "cannot hold LibreOffice's PDF of it (\(error))")
        }
    }
}
