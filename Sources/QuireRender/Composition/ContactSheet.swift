internal import CCairo
internal import CPangoCairo
import QuireTypes

/// One image of page thumbnails in a grid, each labelled with its page number
/// (`quire preview --sheet`).
public enum ContactSheet {
    /// Most pages one sheet shows.
    public static let maximumPages = 400

    /// Renders `pages` (0-based) of `renderer` into a sheet of `columns` columns (nil: a
    /// near-square grid) with each page fitted in a `cellSize` square.
    public static func make(_ renderer: Renderer, pages: [Int], cellSize: Int = 200,
                            columns: Int? = nil) throws(DocumentError) -> RenderedImage {
        guard !pages.isEmpty else {
            throw DocumentError(kind: .limitExceeded, path: renderer.path, reason: "no pages selected for the sheet")
        }
        guard pages.count <= maximumPages else {
            throw DocumentError(kind: .limitExceeded, path: renderer.path,
                                reason: "a sheet shows at most \(maximumPages) pages (\(pages.count) selected)")
        }
        let pango = try LazyLibraries.pango(renderer.path)
        let cell = max(16, min(cellSize, 2048))
        let padding = 12, label = 22
        var columnCount = columns ?? Int(Double(pages.count).squareRoot().rounded(.up))
        columnCount = max(1, min(columnCount, pages.count))
        let rows = (pages.count + columnCount - 1) / columnCount
        let width = padding + columnCount * (cell + padding)
        let height = padding + rows * (cell + label + padding)
        let sheet = try CairoImage(width: width, height: height, path: renderer.path)
        try sheet.draw(path: renderer.path) { (cr) throws(DocumentError) in
            libcairo.cairo_set_source_rgb(cr, 0.88, 0.88, 0.88)
            libcairo.cairo_paint(cr)
            let font = pango.pango_font_description_from_string("Sans 11")
            defer { pango.pango_font_description_free(font) }
            for (slot, page) in pages.enumerated() {
                let column = slot % columnCount, row = slot / columnCount
                let cellX = Double(padding + column * (cell + padding))
                let cellY = Double(padding + row * (cell + label + padding))
                let (w, h) = renderer.pixelSize(page: page, size: .longestSide(cell), allowUpscaling: true)
                let image = try renderer.surface(page: page, width: w, height: h)
                let x = cellX + Double(cell - w) / 2, y = cellY + Double(cell - h)
                libcairo.cairo_set_source_rgba(cr, 0, 0, 0, 0.25)
                libcairo.cairo_rectangle(cr, x + 2, y + 2, Double(w), Double(h))
                libcairo.cairo_fill(cr)
                libcairo.cairo_set_source_surface(cr, image.surface, x, y)
                libcairo.cairo_paint(cr)
                let pageLayout = pango.pango_cairo_create_layout(cr)!
                defer { g_object_unref(UnsafeMutableRawPointer(pageLayout)) }
                pango.pango_layout_set_font_description(pageLayout, font)
                pango.pango_layout_set_text(pageLayout, "\(page + 1)", -1)
                var textWidth: Int32 = 0, textHeight: Int32 = 0
                pango.pango_layout_get_pixel_size(pageLayout, &textWidth, &textHeight)
                libcairo.cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
                libcairo.cairo_move_to(cr, cellX + Double(cell - Int(textWidth)) / 2, cellY + Double(cell) + Double(label - Int(textHeight)) / 2 + 1)
                pango.pango_cairo_show_layout(cr, pageLayout)
            }
        }
        return sheet.rendered()
    }
}
