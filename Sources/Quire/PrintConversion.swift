#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireSystem

/// The seam between printing and the renderers: content that prints `.byConversion`
/// (text, images, SVG) becomes PDF here before it is sent.
///
/// ``DocumentPrinter`` takes the converter as a parameter, so the rest of the print path (page
/// counts, ranges, number-up, preview) treats converted PDFs like any other PDF.
public struct PrintConversion: Sendable {
    /// Turns a document that prints by conversion into PDF bytes.
    public let convert: @Sendable (Document) throws -> [UInt8]
    /// Whether this converter can convert at all (the Print action is offered only then).
    public let isAvailable: Bool

    public init(isAvailable: Bool = true, convert: @escaping @Sendable (Document) throws -> [UInt8]) {
        self.isAvailable = isAvailable
        self.convert = convert
    }

    /// The converter Quire uses: the renderers' PDF export (text is laid out in pages, images
    /// and SVG are placed on a page). A document that cannot be rendered is refused with the
    /// renderer's reason, before anything reaches the print system.
    public static let standard = PrintConversion { document in
        do {
            return try PDFExport.data(document.file, contentType: document.contentType, limits: document.limits,
                                      csvAsSpreadsheet: document.csvAsSpreadsheet, interpreters: document.interpreters)
        } catch let error as DocumentError {
            throw PrintError(.unprintable, error.description)
        }
    }

    /// The converted PDF as an open, already-unlinked temporary file (so poppler can read it
    /// and the bytes can be streamed to CUPS like any file).
    func convertedFile(for document: Document) throws -> InputFile {
        let data = try convert(document)
        let directory = TemporaryFolder.path
        var template = Array((directory + "/quire-print-XXXXXX.pdf").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else {
            throw PrintError(.requestFailed, "\(document.path): cannot create a temporary file for the converted PDF (\(Errno.current))")
        }
        let path = String(cString: template.map { $0 })
        defer { close(fd); unlink(path) }
        do { try FileDescriptor(rawValue: fd).writeAll(data) } catch {
            throw PrintError(.requestFailed, "\(document.path): cannot write the converted PDF (\(error))")
        }
        return try InputFile(path: DocumentPath(path))
    }
}
