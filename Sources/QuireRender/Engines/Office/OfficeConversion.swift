#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import QuireTypes
import Synchronization

/// Where an office document becomes the PDF its pages come from: LibreOffice in this process
/// (``OfficeKit``: the render worker's, or any process with no sandbox to put it in), or
/// LibreOffice in a render worker under bubblewrap, for `quire`'s one-shot commands (`preview`,
/// `info`, `thumbnail FILE OUT`, `print`), which would otherwise run the office unconfined.
/// QuireRenderService installs that converter (``convertInIsolation(_:)``); this module knows
/// only that there may be one.
public enum OfficeConversion {
    /// Converts `file` (with `password`; delimited text as a spreadsheet when `csvAsSpreadsheet`)
    /// to PDF outside this process and returns the PDF's bytes, or nil when there is nowhere to
    /// do that (no working bubblewrap, as inside GNOME's thumbnail sandbox): the conversion then
    /// runs in this process.
    public typealias Isolated = @Sendable (_ file: InputFile, _ password: String?, _ csvAsSpreadsheet: Bool) throws(DocumentError) -> [UInt8]?

    private static let isolated = Mutex<Isolated?>(nil)

    /// Sends this process's office conversions to `converter` (set once, at start-up).
    public static func convertInIsolation(_ converter: @escaping Isolated) {
        isolated.withLock { $0 = converter }
    }

    /// The document as LibreOffice's PDF, opened; nothing of it is left on disk.
    /// `csvAsSpreadsheet`: `file` is delimited text (``SpreadsheetText``) for Calc.
    static func pdf(_ file: InputFile, password: String?, csvAsSpreadsheet: Bool = false,
                    contentType: ContentType? = nil, limits: RenderLimits = .standard) throws(DocumentError) -> InputFile {
        if let converter = isolated.withLock({ $0 }), let bytes = try converter(file, password, csvAsSpreadsheet) {
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
