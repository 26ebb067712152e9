/// How a page that exists only as pixels (Ghostscript's, or one drawn in the sandboxed worker)
/// goes into a PDF or print job: a 150 dpi raster of the page, scaled onto it.
enum RasterPagePrinting {
    static let dotsPerInch = 150.0

    /// Draws the page of `size` (points) into `cr` from `raster`, asked for at 150 dpi.
    static func draw(_ size: PageSize, in cr: OpaquePointer,
                     raster: (_ width: Int, _ height: Int) throws(DocumentError) -> CairoImage) throws(DocumentError) {
        let scale = dotsPerInch / 72
        let image = try raster(max(1, Int((size.width * scale).rounded())), max(1, Int((size.height * scale).rounded())))
        libcairo.cairo_save(cr)
        libcairo.cairo_scale(cr, size.width / Double(image.width), size.height / Double(image.height))
        libcairo.cairo_set_source_surface(cr, image.surface, 0, 0)
        libcairo.cairo_paint(cr)
        libcairo.cairo_restore(cr)
    }
}
