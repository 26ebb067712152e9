internal import CCairo
import QuireTypes

/// A raster image (PNG, JPEG, GIF's first frame, WebP, TIFF, BMP, ICO…) as one page whose size
/// in points is its upright pixel size. Rasters are decoded at the requested size.
final class ImageSource: PageSource {
    let decoder: ImageDecoder
    let path: DocumentPath
    /// Upright pixel size (EXIF orientation applied).
    let width: Int
    let height: Int
    let orientation: Int
    var pageCount: Int { 1 }
    var isPaper: Bool { false }
    var isRaster: Bool { true }

    init(decoder: ImageDecoder, header: [UInt8]) throws(DocumentError) {
        self.decoder = decoder
        path = decoder.path
        let stored = try decoder.probe()
        orientation = ExifOrientation.read(header)
        let swap = ExifOrientation.swapsAxes(orientation)
        width = swap ? stored.height : stored.width
        height = swap ? stored.width : stored.height
    }

    func pageSize(at index: Int) -> PageSize { PageSize(width: Double(width), height: Double(height)) }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        let swap = ExifOrientation.swapsAxes(orientation)
        let (w, h) = swap ? (height, width) : (width, height)
        guard let image = try decoder.decode(target: { _, _ in (w, h) }) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the image could not be decoded")
        }
        return image
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        guard let image = try decoder.decode(target: { w, h in (w, h) }) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the image could not be decoded")
        }
        libcairo.cairo_save(cr)
        libcairo.cairo_scale(cr, Double(width) / Double(image.width), Double(height) / Double(image.height))
        libcairo.cairo_set_source_surface(cr, image.surface, 0, 0)
        libcairo.cairo_paint(cr)
        libcairo.cairo_restore(cr)
    }
}

extension RenderEngine {
    /// Raster images through gdk-pixbuf (decoded at the size drawn where the format allows).
    static let image = RenderEngine(name: "image", families: [.image]) { (input) throws(DocumentError) in
        let header: [UInt8]
        do throws(InputError) { header = try input.file.read(upTo: 256 * 1024) } catch { throw DocumentError(error) }
        let decoder = ImageDecoder(source: .file(input.file), path: input.file.path, limits: input.limits)
        do throws(DocumentError) {
            return Opened(source: try ImageSource(decoder: decoder, header: header))
        } catch where error.kind == .damaged {
            // A HEIC or DjVu file gdk-pixbuf has no loader for is not damaged: say what `info`
            // says, and what to install. (Asked only on failure: a loader may read a type it
            // registers under another name.)
            guard let missing = ImageProbe.missingLoader(for: input.contentType) else { throw error }
            throw DocumentError(kind: .unsupported, path: input.file.path, reason: missing)
        }
    }
}
