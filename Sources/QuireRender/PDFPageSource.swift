internal import CPoppler
internal import CCairo
import QuireTypes

/// PDF pages through poppler-glib, drawn straight into the target cairo context (so a thumbnail
/// is rendered at thumbnail scale, never full size and then shrunk).
final class PDFPageSource: PageSource {
    let document: PDFDocument
    let pageCount: Int
    var path: DocumentPath { displayPath ?? document.path }
    var isPaper: Bool { true }
    /// The file messages name when the PDF was made from it (an office document's PDF).
    private let displayPath: DocumentPath?

    init(file: InputFile, password: String?, displayPath: DocumentPath? = nil) throws(DocumentError) {
        self.displayPath = displayPath
        document = try PDFDocument(file: file, password: password)
        pageCount = document.pageCount
        if pageCount < 1 {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the PDF has no pages")
        }
    }

    func pageSize(at index: Int) -> PageSize {
        let size = document.pageSize(at: index) ?? PageSize(width: 595.28, height: 841.89)
        // Degenerate MediaBoxes exist in the wild; give them a drawable size.
        return PageSize(width: max(size.width, 1), height: max(size.height, 1))
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        guard let page = libpoppler.poppler_document_get_page(document.document, Int32(index)) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be read")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        if forPrinting {
            libpoppler.poppler_page_render_for_printing(page, cr)
        } else {
            libpoppler.poppler_page_render(page, cr)
        }
    }

    func text(page index: Int) throws(DocumentError) -> String? {
        guard let page = libpoppler.poppler_document_get_page(document.document, Int32(index)) else {
            throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) cannot be read")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        guard let text = libpoppler.poppler_page_get_text(page) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}

extension RenderEngine {
    /// PDF through poppler-glib and cairo.
    static let pdf = RenderEngine(name: "pdf", families: [.pdf]) { (input) throws(DocumentError) in
        Opened(source: try PDFPageSource(file: input.file, password: input.password))
    }
}
