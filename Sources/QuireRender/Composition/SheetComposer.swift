internal import CCairo
internal import CPoppler
import FoundationEssentials
import QuireSheets
import QuireTypes

/// Draws composed sheets (``Imposition``): document pages scaled, turned and placed on the
/// sides the job prints, by poppler's print path. One drawing routine serves the job (a cairo
/// PDF surface: vector, fonts kept) and the print sheet's preview (a cairo image surface), so
/// what is previewed is what prints.
///
/// Not thread-safe (it holds an open ``PDFDocument``): use it where it was made.
public final class SheetComposer {
    public let document: PDFDocument
    public let imposition: Imposition

    /// - Parameters:
    ///   - pages: document pages (1-based), in print order; checked against the document.
    /// - Throws: ``DocumentError`` for a page the document does not have or a layout that
    ///   cannot be made (a booklet of one page), with the user's message.
    public init(document: PDFDocument, pages: [Int], options: SheetOptions) throws(DocumentError) {
        self.document = document
        let count = document.pageCount
        if let missing = pages.first(where: { $0 < 1 || $0 > count }) {
            throw DocumentError(kind: .damaged, path: document.path,
                                reason: "page \(missing) is beyond the last page (the document has \(count) page\(count == 1 ? "" : "s"))")
        }
        let sizes = Dictionary(Set(pages).map { page in
            let size = document.pageSize(at: page - 1)
            return (page, PageBox(width: size?.width ?? 595, height: size?.height ?? 842))
        }, uniquingKeysWith: { first, _ in first })
        do {
            imposition = try Imposition(pages: pages, size: { sizes[$0] ?? PageBox(width: 595, height: 842) }, options: options)
        } catch {
            throw DocumentError(kind: .unsupported, path: document.path, reason: error.message)
        }
    }

    public var sides: [SheetSide] { imposition.sides }

    /// The composed job as PDF bytes: one PDF page per side, at the side's size.
    public func pdfData() throws(DocumentError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        try LazyLibraries.requireCairo(document.path)
        let sink = Sink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        let first = imposition.sides.first
        guard let surface = libcairo.cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, context.toOpaque(), first?.width ?? 595, first?.height ?? 842) else {
            throw DocumentError(kind: .damaged, path: document.path, reason: "cannot create a PDF surface")
        }
        defer { libcairo.cairo_surface_destroy(surface) }
        let cr = libcairo.cairo_create(surface)!
        defer { libcairo.cairo_destroy(cr) }
        for side in imposition.sides {
            libcairo.cairo_pdf_surface_set_size(surface, side.width, side.height)
            try draw(side, on: cr)
            libcairo.cairo_show_page(cr)
        }
        libcairo.cairo_surface_finish(surface)
        if let error = CairoError.check(libcairo.cairo_surface_status(surface)) {
            throw DocumentError(kind: .damaged, path: document.path, reason: "cannot write the composed PDF (\(error.message))", cairo: error)
        }
        return sink.bytes
    }

    /// Side `index` (0-based) as pixels, fitted into `width` × `height` (aspect kept), on white paper.
    public func image(side index: Int, width: Int, height: Int) throws(DocumentError) -> RenderedImage {
        guard imposition.sides.indices.contains(index) else {
            throw DocumentError(kind: .damaged, path: document.path, reason: "the job has no side \(index + 1)")
        }
        let side = imposition.sides[index]
        let scale = min(Double(width) / side.width, Double(height) / side.height)
        let w = max(1, Int((side.width * scale).rounded())), h = max(1, Int((side.height * scale).rounded()))
        let image = try CairoImage(width: w, height: h, path: document.path)
        image.fillWhite()
        try image.draw(path: document.path) { cr throws(DocumentError) in
            libcairo.cairo_scale(cr, Double(w) / side.width, Double(h) / side.height)
            try draw(side, on: cr)
        }
        return image.rendered()
    }

    /// Draws one side: each page clipped to its cell, centred, turned and scaled; then borders.
    func draw(_ side: SheetSide, on cr: OpaquePointer) throws(DocumentError) {
        for placement in side.placements {
            guard let page = libpoppler.poppler_document_get_page(document.document, Int32(placement.page - 1)) else {
                throw DocumentError(kind: .damaged, path: document.path, reason: "page \(placement.page) cannot be read")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            libcairo.cairo_save(cr)
            libcairo.cairo_rectangle(cr, placement.clip.x, placement.clip.y, placement.clip.width, placement.clip.height)
            libcairo.cairo_clip(cr)
            libcairo.cairo_translate(cr, placement.centerX, placement.centerY)
            if placement.turned { libcairo.cairo_rotate(cr, Double.pi / 2) }
            libcairo.cairo_scale(cr, placement.scale, placement.scale)
            libcairo.cairo_translate(cr, -placement.pageSize.width / 2, -placement.pageSize.height / 2)
            libcairo.cairo_rectangle(cr, 0, 0, placement.pageSize.width, placement.pageSize.height)
            libcairo.cairo_clip(cr)
            libpoppler.poppler_page_render_for_printing(page, cr)
            libcairo.cairo_restore(cr)
        }
        guard side.border != .none else { return }
        let thick = side.border == .singleThick || side.border == .doubleThick
        let double = side.border == .double || side.border == .doubleThick
        libcairo.cairo_save(cr)
        libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
        libcairo.cairo_set_line_width(cr, thick ? 1.5 : 0.5)
        for placement in side.placements {
            let box = placement.outline
            libcairo.cairo_rectangle(cr, box.x, box.y, box.width, box.height)
            if double { libcairo.cairo_rectangle(cr, box.x - 3, box.y - 3, box.width + 6, box.height + 6) }
        }
        libcairo.cairo_stroke(cr)
        libcairo.cairo_restore(cr)
    }
}
