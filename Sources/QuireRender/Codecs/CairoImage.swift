internal import CCairo
import QuireTypes

/// An ARGB32 cairo image surface (premultiplied alpha, native-endian words). Owns the surface.
final class CairoImage {
    let surface: OpaquePointer  // cairo_surface_t*
    let width: Int
    let height: Int

    /// Largest side cairo image surfaces support.
    static let maximumSide = 32767

    init(width: Int, height: Int, path: DocumentPath?) throws(DocumentError) {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw DocumentError(kind: .limitExceeded, path: path,
                                reason: "output size \(width)×\(height) is outside 1…\(Self.maximumSide) pixels")
        }
        try LazyLibraries.requireCairo(path)
        let created = libcairo.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        if let error = CairoError.check(libcairo.cairo_surface_status(created)) {
            libcairo.cairo_surface_destroy(created)
            throw DocumentError(kind: .limitExceeded, path: path,
                                reason: "cannot allocate a \(width)×\(height) image", cairo: error)
        }
        surface = created
        self.width = width
        self.height = height
    }

    deinit { libcairo.cairo_surface_destroy(surface) }

    /// A copy of pixels already in cairo's ARGB32 (premultiplied, native-endian words), rows of
    /// `width * 4` bytes.
    convenience init(copyingARGB32 pixels: [UInt8], width: Int, height: Int, path: DocumentPath?) throws(DocumentError) {
        precondition(pixels.count == width * height * 4)
        try self.init(width: width, height: height, path: path)
        pixels.withUnsafeBytes { source in
            writeRows { y, row in
                UnsafeMutableRawPointer(row).copyMemory(from: source.baseAddress! + y * width * 4, byteCount: width * 4)
            }
        }
    }

    /// A copy of 32-bit pixels laid out as cairo's RGB24 (B, G, R, unused per little-endian
    /// word: GStreamer's BGRx), made opaque.
    convenience init(copyingBGRx source: UnsafeRawPointer, width: Int, height: Int, stride: Int,
                     path: DocumentPath?) throws(DocumentError) {
        try self.init(width: width, height: height, path: path)
        writeRows { y, row in
            let from = (source + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] = from[x] | 0xFF00_0000 }
        }
    }

    /// A copy of 8-bit red, green, blue pixels (3 bytes a pixel, rows top to bottom), opaque.
    convenience init(copyingRGB rgb: [UInt8], width: Int, height: Int, path: DocumentPath?) throws(DocumentError) {
        try self.init(width: width, height: height, path: path)
        rgb.withUnsafeBufferPointer { source in
            writeRows { y, row in
                var offset = y * width * 3
                for x in 0..<width {
                    row[x] = 0xFF00_0000 | UInt32(source[offset]) << 16 | UInt32(source[offset + 1]) << 8 | UInt32(source[offset + 2])
                    offset += 3
                }
            }
        }
    }

    /// Writes the surface row by row: `body` gets each row's index and its `width` pixels as
    /// native-endian ARGB32 words (between cairo's flush and mark-dirty, at the surface's stride).
    private func writeRows(_ body: (_ y: Int, _ row: UnsafeMutablePointer<UInt32>) -> Void) {
        Self.writeRows(surface, height: height, body)
    }

    /// ``writeRows(_:)`` on any ARGB32 image surface `height` rows high.
    static func writeRows(_ surface: OpaquePointer, height: Int, _ body: (_ y: Int, _ row: UnsafeMutablePointer<UInt32>) -> Void) {
        libcairo.cairo_surface_flush(surface)
        let stride = Int(libcairo.cairo_image_surface_get_stride(surface))
        let data = libcairo.cairo_image_surface_get_data(surface)!
        for y in 0..<height {
            body(y, UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self))
        }
        libcairo.cairo_surface_mark_dirty(surface)
    }

    /// A copy of straight 8-bit RGBA pixels (4 bytes a pixel, rows top to bottom), premultiplied.
    convenience init(copyingRGBA rgba: UnsafePointer<UInt8>, width: Int, height: Int, path: DocumentPath?) throws(DocumentError) {
        try self.init(width: width, height: height, path: path)
        Self.fill(surface, width: width, height: height) { x, y in
            let p = rgba + (y * width + x) * 4
            return (p[0], p[1], p[2], p[3])
        }
    }

    /// Paints this image into `cr` scaled to fill `width`×`height` user units from the origin
    /// (a page of an image's size in points, or a raster of another size).
    func paint(in cr: OpaquePointer, width: Double, height: Double) {
        libcairo.cairo_save(cr)
        libcairo.cairo_scale(cr, width / Double(self.width), height / Double(self.height))
        libcairo.cairo_set_source_surface(cr, surface, 0, 0)
        libcairo.cairo_paint(cr)
        libcairo.cairo_restore(cr)
    }

    /// This image turned to EXIF `orientation` 3 (half a turn), 6 (a quarter turn clockwise) or 8
    /// (anticlockwise); itself for any other value.
    func oriented(_ orientation: Int, path: DocumentPath?) throws(DocumentError) -> CairoImage {
        guard [3, 6, 8].contains(orientation) else { return self }
        let turned = orientation != 3
        let result = try CairoImage(width: turned ? height : width, height: turned ? width : height, path: path)
        try result.draw(path: path) { (cr) throws(DocumentError) in
            switch orientation {
            case 3: libcairo.cairo_translate(cr, Double(width), Double(height)); libcairo.cairo_rotate(cr, Double.pi)
            case 6: libcairo.cairo_translate(cr, Double(height), 0); libcairo.cairo_rotate(cr, Double.pi / 2)
            default: libcairo.cairo_translate(cr, 0, Double(width)); libcairo.cairo_rotate(cr, -Double.pi / 2)
            }
            libcairo.cairo_set_source_surface(cr, surface, 0, 0)
            libcairo.cairo_paint(cr)
        }
        return result
    }

    /// Runs `body` with a new cairo context on the surface; checks the context's status after.
    func draw(path: DocumentPath?, _ body: (OpaquePointer) throws(DocumentError) -> Void) throws(DocumentError) {
        let cr = libcairo.cairo_create(surface)!
        defer { libcairo.cairo_destroy(cr) }
        try body(cr)
        if let error = CairoError.check(libcairo.cairo_status(cr)) {
            throw DocumentError(kind: .damaged, path: path, reason: "drawing failed: \(error.message)", cairo: error)
        }
        libcairo.cairo_surface_flush(surface)
    }

    /// Fills the whole surface with opaque white.
    func fillWhite() {
        let cr = libcairo.cairo_create(surface)!
        libcairo.cairo_set_source_rgb(cr, 1, 1, 1)
        libcairo.cairo_paint(cr)
        libcairo.cairo_destroy(cr)
    }

    /// Copies the pixels out as straight RGBA.
    func rendered() -> RenderedImage {
        libcairo.cairo_surface_flush(surface)
        let stride = Int(libcairo.cairo_image_surface_get_stride(surface))
        let data = UnsafePointer<UInt32>(OpaquePointer(libcairo.cairo_image_surface_get_data(surface)!))
        let w = width, h = height
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
            for y in 0..<h {
                let row = data + y * stride / 4
                var o = y * w * 4
                for x in 0..<w {
                    let word = row[x]
                    let a = UInt32(word >> 24)
                    var r = (word >> 16) & 0xFF, g = (word >> 8) & 0xFF, b = word & 0xFF
                    if a != 255 && a != 0 {
                        r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a
                    }
                    buffer[o] = UInt8(min(r, 255)); buffer[o + 1] = UInt8(min(g, 255))
                    buffer[o + 2] = UInt8(min(b, 255)); buffer[o + 3] = UInt8(a)
                    o += 4
                }
            }
            count = w * h * 4
        }
        return RenderedImage(width: w, height: h, pixels: pixels)
    }

    /// A surface holding `image` (straight RGBA → premultiplied ARGB32).
    convenience init(_ image: RenderedImage) throws(DocumentError) {
        try self.init(width: image.width, height: image.height, path: nil)
        Self.fill(surface, width: image.width, height: image.height) { x, y in
            let o = (y * image.width + x) * 4
            return (image.pixels[o], image.pixels[o + 1], image.pixels[o + 2], image.pixels[o + 3])
        }
    }

    /// Writes straight RGBA pixels given by `source` into an ARGB32 surface, premultiplying.
    static func fill(_ surface: OpaquePointer, width: Int, height: Int,
                     _ source: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) {
        writeRows(surface, height: height) { y, row in
            for x in 0..<width {
                let (r, g, b, a) = source(x, y)
                let alpha = UInt32(a)
                func pm(_ c: UInt8) -> UInt32 { alpha == 255 ? UInt32(c) : (UInt32(c) * alpha + 127) / 255 }
                row[x] = alpha << 24 | pm(r) << 16 | pm(g) << 8 | pm(b)
            }
        }
    }
}
