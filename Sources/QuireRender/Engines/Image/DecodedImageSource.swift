internal import CCairo
import QuireTypes

/// An image decoded whole by a library of its own (a camera RAW file's sensor data developed by
/// LibRaw, a JPEG XL image decoded by libjxl), held upright as one page of pixels and scaled
/// when drawn.
final class DecodedImageSource: PageSource {
    let image: CairoImage
    let path: DocumentPath
    var pageCount: Int { 1 }
    var isPaper: Bool { false }
    var isRaster: Bool { true }

    init(image: CairoImage, path: DocumentPath) {
        self.image = image
        self.path = path
    }

    func pageSize(at index: Int) -> PageSize { PageSize(width: Double(image.width), height: Double(image.height)) }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        libcairo.cairo_set_source_surface(cr, image.surface, 0, 0)
        libcairo.cairo_paint(cr)
    }
}
