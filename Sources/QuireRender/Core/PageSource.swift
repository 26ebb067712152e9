internal import CCairo
import QuireTypes

/// What every family's renderer provides: pages with a size in points, drawn into a cairo
/// context whose user space is the page in points. Internal: cairo types stay inside QuireRender.
protocol PageSource: AnyObject {
    /// The file the pages come from (for messages).
    var path: DocumentPath { get }
    var pageCount: Int { get }
    /// Whether page `index` exists, laying out no further than it where pages are laid out as
    /// they are asked for (Markdown): page 1 never waits for the page count.
    func hasPage(_ index: Int) -> Bool
    /// Page size in points (1/72 inch); for raster images one point per pixel.
    func pageSize(at index: Int) -> PageSize
    /// Whether pages are paper (opaque white under the content) or keep their transparency.
    var isPaper: Bool { get }
    /// Draws page `index` (user space: points from the page's top-left corner).
    /// - Parameter forPrinting: vector output for print (PDF export), not a screen raster.
    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError)
    /// Renders page `index` to exactly `width`×`height` pixels. The default draws the page
    /// scaled; sources that decode at reduced scale (images) override it.
    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage
    /// Page `index` at exactly `width`×`height` as straight RGBA, drawn without cairo by an
    /// engine that makes its own pixels (DjVu); nil (the default): through ``raster(page:width:height:)``.
    func pixels(page index: Int, width: Int, height: Int) throws(DocumentError) -> RenderedImage?
    /// Whether the page has an intrinsic pixel size that upscaling would only blur.
    var isRaster: Bool { get }
    /// The text of page `index`, in reading order; nil when the pages carry no text.
    func text(page index: Int) throws(DocumentError) -> String?
    /// A thumbnail drawn for the purpose, `longestSide` pixels on its longest side, when the
    /// family's thumbnail is not its first page (a font's "Aa"); nil: page 1 is the thumbnail.
    func thumbnail(longestSide: Int) throws(DocumentError) -> CairoImage?
    /// Where `query` occurs on page `index` (as literal text, ignoring case and, where the
    /// engine can, accents); nil when the pages carry no text.
    func find(_ query: String, page index: Int) throws(DocumentError) -> PageMatches?
    /// The page's text with one box per character (for selecting and copying); nil when the
    /// pages carry no text.
    func textLayout(page index: Int) throws(DocumentError) -> PageTextLayout?
}

extension PageSource {
    var isRaster: Bool { false }

    func hasPage(_ index: Int) -> Bool { index >= 0 && index < pageCount }

    func text(page index: Int) throws(DocumentError) -> String? { nil }

    func thumbnail(longestSide: Int) throws(DocumentError) -> CairoImage? { nil }
    func pixels(page index: Int, width: Int, height: Int) throws(DocumentError) -> RenderedImage? { nil }
    func find(_ query: String, page index: Int) throws(DocumentError) -> PageMatches? { nil }

    func textLayout(page index: Int) throws(DocumentError) -> PageTextLayout? { nil }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        let image = try CairoImage(width: width, height: height, path: path)
        if isPaper { image.fillWhite() }
        let size = pageSize(at: index)
        try image.draw(path: path) { (cr) throws(DocumentError) in
            libcairo.cairo_scale(cr, Double(width) / size.width, Double(height) / size.height)
            try draw(page: index, in: cr, forPrinting: false)
        }
        return image
    }
}
