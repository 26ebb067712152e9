internal import CCairo
internal import CPoppler

extension PDFDocument {
    /// A new PDF holding the given pages (1-based, in the order given), each page drawn by
    /// poppler's print path into a cairo PDF surface at its own size.
    ///
    /// Used by printing to send exactly the selected pages (page ranges combined with
    /// number-up) and to write `--preview` files.
    /// - Throws: ``DocumentError`` (`damaged`) when a page is missing or cairo fails.
    public func pdfData(pages: [Int]) throws(DocumentError) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        guard let surface = libcairo.cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, context.toOpaque(), 595, 842) else {
            throw DocumentError(kind: .damaged, path: path, reason: "cannot create a PDF surface")
        }
        defer { libcairo.cairo_surface_destroy(surface) }
        let cr = libcairo.cairo_create(surface)
        defer { libcairo.cairo_destroy(cr) }
        for number in pages {
            guard number >= 1, number <= pageCount,
                  let page = libpoppler.poppler_document_get_page(document, Int32(number - 1)) else {
                throw DocumentError(kind: .damaged, path: path, reason: "page \(number) does not exist")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            var width = 0.0, height = 0.0
            libpoppler.poppler_page_get_size(page, &width, &height)
            libcairo.cairo_pdf_surface_set_size(surface, width, height)
            libcairo.cairo_save(cr)
            libpoppler.poppler_page_render_for_printing(page, cr)
            libcairo.cairo_restore(cr)
            libcairo.cairo_show_page(cr)
        }
        libcairo.cairo_surface_finish(surface)
        let status = libcairo.cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DocumentError(kind: .damaged, path: path,
                                reason: "cannot write the PDF (\(String(cString: libcairo.cairo_status_to_string(status)!)))")
        }
        return sink.bytes
    }
}
