import QuireRenderService
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

    /// The converter Quire uses: the render service's printable document (text is laid out
    /// in pages, images and SVG are placed on a page), answered in this process
    /// (``Document/renderService()``). A document that cannot be rendered is refused with the
    /// renderer's reason, before anything reaches the print system.
    public static let standard = PrintConversion { document in
        do {
            guard let pdf = try document.renderService().printable(document.renderRequest()).convertedPDF else {
                throw PrintError(.unprintable, "\(document.path): it prints as it is, without conversion")
            }
            return pdf
        } catch let problem as RenderProblem {
            throw PrintError(.unprintable, problem.documentError?.description ?? "\(document.path): \(problem.message)")
        }
    }

    /// The converted PDF as an open, already-unlinked temporary file (so poppler can read it
    /// and the bytes can be streamed to CUPS like any file).
    func convertedFile(for document: Document) throws -> InputFile {
        let data = try convert(document)
        do { return try InputFile.unlinkedTemporary(holding: data) } catch {
            throw PrintError(.requestFailed, "\(document.path): cannot keep the converted PDF in a temporary file (\(error))")
        }
    }
}
