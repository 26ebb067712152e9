internal import CCairo
import QuireTypes

/// Pages drawn by a sandboxed render worker (``InterpreterIsolation``).
final class IsolatedPageSource: PageSource {
    let path: DocumentPath
    let pages: InterpreterIsolation.Pages
    var pageCount: Int { pages.sizes.count }
    var isPaper: Bool { !pages.isRaster }
    var isRaster: Bool { pages.isRaster }

    init(path: DocumentPath, pages: InterpreterIsolation.Pages) {
        self.path = path
        self.pages = pages
    }

    func pageSize(at index: Int) -> PageSize { pages.sizes[min(max(index, 0), pages.sizes.count - 1)] }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        let drawn = try CairoImage(pages.render(index, width, height))
        if drawn.width == width && drawn.height == height { return drawn }
        // The worker fits the page into the size asked; anything else is scaled to it.
        let image = try CairoImage(width: width, height: height, path: path)
        if isPaper { image.fillWhite() }
        try image.draw(path: path) { (cr) throws(DocumentError) in
            libcairo.cairo_scale(cr, Double(width) / Double(drawn.width), Double(height) / Double(drawn.height))
            libcairo.cairo_set_source_surface(cr, drawn.surface, 0, 0)
            libcairo.cairo_paint(cr)
        }
        return image
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        try RasterPagePrinting.draw(pageSize(at: index), in: cr) { (width, height) throws(DocumentError) in
            try raster(page: index, width: width, height: height)
        }
    }
}
