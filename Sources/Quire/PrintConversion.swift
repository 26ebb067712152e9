#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The seam between printing and the renderers: content that prints `.byConversion`
/// (text, images, SVG) becomes PDF here before it is sent.
///
/// The renderers with PDF export are built in the preview work (issue 3); until they are wired
/// in, ``standard`` reports that conversion is not available rather than sending something
/// wrong. ``DocumentPrinter`` takes the converter as a parameter, so the rest of the print path
/// (page counts, ranges, number-up, preview) already works on converted PDFs.
public struct PrintConversion: Sendable {
    /// Turns a document that prints by conversion into PDF bytes.
    public let convert: @Sendable (Document) throws -> [UInt8]
    /// Whether this converter can convert at all (the Print action is offered only then).
    public let isAvailable: Bool

    public init(isAvailable: Bool = true, convert: @escaping @Sendable (Document) throws -> [UInt8]) {
        self.isAvailable = isAvailable
        self.convert = convert
    }

    static func unavailableReason(_ document: Document) -> String {
        "printing \(document.contentType.localizedDescription) files needs conversion to PDF, which is not available in this build yet"
    }

    /// The converter Quire uses by default.
    // TODO(merge with the renderers): return the renderer's PDF export for text/image/SVG.
    public static let standard = PrintConversion(isAvailable: false) { document in
        throw PrintError(.unprintable, "\(document.path): \(unavailableReason(document))")
    }

    /// The converted PDF as an open, already-unlinked temporary file (so poppler can read it
    /// and the bytes can be streamed to CUPS like any file).
    func convertedFile(for document: Document) throws -> InputFile {
        let data = try convert(document)
        var template = Array((NSTemporaryDirectory() + "/quire-print-XXXXXX.pdf").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else {
            throw PrintError(.requestFailed, "\(document.path): cannot create a temporary file for the converted PDF (\(String(cString: strerror(errno))))")
        }
        let path = String(cString: template.map { $0 })
        defer { close(fd); unlink(path) }
        var written = 0
        while written < data.count {
            let count = data[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count <= 0 {
                throw PrintError(.requestFailed, "\(document.path): cannot write the converted PDF (\(String(cString: strerror(errno))))")
            }
            written += count
        }
        return try InputFile(path: DocumentPath(path))
    }
}
