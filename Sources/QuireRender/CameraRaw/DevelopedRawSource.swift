internal import CCairo
import QuireTypes

/// A camera RAW file's sensor data developed by LibRaw (half size, the camera's white balance),
/// held as one page of pixels — for a file whose embedded preview cannot be read.
final class DevelopedRawSource: PageSource {
    let image: CairoImage
    let path: DocumentPath
    var pageCount: Int { 1 }
    var isPaper: Bool { false }
    var isRaster: Bool { true }

    /// `rgb`: 8-bit red, green, blue a pixel, rows top to bottom; turned to `orientation` (EXIF).
    init(width: Int, height: Int, rgb: [UInt8], orientation: Int, path: DocumentPath) throws(DocumentError) {
        self.path = path
        let upright = try CairoImage(width: width, height: height, path: path)
        libcairo.cairo_surface_flush(upright.surface)
        let stride = Int(libcairo.cairo_image_surface_get_stride(upright.surface))
        let destination = libcairo.cairo_image_surface_get_data(upright.surface)!
        rgb.withUnsafeBufferPointer { source in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(destination + y * stride).assumingMemoryBound(to: UInt32.self)
                var offset = y * width * 3
                for x in 0..<width {
                    row[x] = 0xFF00_0000 | UInt32(source[offset]) << 16 | UInt32(source[offset + 1]) << 8 | UInt32(source[offset + 2])
                    offset += 3
                }
            }
        }
        libcairo.cairo_surface_mark_dirty(upright.surface)
        image = try upright.oriented(orientation, path: path)
    }

    func pageSize(at index: Int) -> PageSize { PageSize(width: Double(image.width), height: Double(image.height)) }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        libcairo.cairo_set_source_surface(cr, image.surface, 0, 0)
        libcairo.cairo_paint(cr)
    }
}
