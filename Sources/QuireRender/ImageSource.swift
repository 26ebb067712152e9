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
    /// The orientation turned here after decoding: one given by the file around the image (a
    /// camera RAW's), when the image itself carries none; 1 when the decoder turns it (EXIF).
    private let turnedHere: Int
    var pageCount: Int { 1 }
    var isPaper: Bool { false }
    var isRaster: Bool { true }

    /// - Parameter given: the orientation the container says (a RAW file's), used when the
    ///   image's own EXIF says none.
    init(decoder: ImageDecoder, header: [UInt8], orientation given: Int? = nil) throws(DocumentError) {
        self.decoder = decoder
        path = decoder.path
        let stored = try decoder.probe()
        let embedded = ExifOrientation.read(header)
        turnedHere = embedded == 1 ? given ?? 1 : 1
        orientation = embedded == 1 ? given ?? 1 : embedded
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
        return try image.oriented(turnedHere, path: path)
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        guard let decoded = try decoder.decode(target: { w, h in (w, h) }) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the image could not be decoded")
        }
        let image = try decoded.oriented(turnedHere, path: path)
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
            let animation = AnimationInfo.read(input.file)
            var opened = Opened(source: try ImageSource(decoder: decoder, header: header),
                                details: (PhotoDetails.exif(header)?.cardDetails ?? []) + (animation?.cardDetails ?? []))
            opened.animation = animation
            return opened
        } catch where error.kind == .damaged {
            // A HEIC or DjVu file gdk-pixbuf has no loader for is not damaged: say what `info`
            // says, and what to install. (Asked only on failure: a loader may read a type it
            // registers under another name.)
            guard let missing = ImageProbe.missingLoader(for: input.contentType) else { throw error }
            throw DocumentError(kind: .unsupported, path: input.file.path, reason: missing)
        }
    }
}
