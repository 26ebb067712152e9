internal import CGdkPixbuf
import QuireTypes
import QuireGIO

/// Decodes JPEG bytes straight to a small size with gdk-pixbuf, whose JPEG loader uses libjpeg's
/// DCT scaling (it decodes at 1/2, 1/4 or 1/8 when that is still at least the target), so a
/// 24-megapixel scan costs a fraction of a full decode. For the batch thumbnailer's scanned-page
/// path (QuireThumbnails), hence `package`.
package enum ScaledJPEGDecoder {
    /// The image scaled to exactly `width`×`height`, as straight-alpha RGBA; nil if gdk-pixbuf
    /// cannot decode it.
    package static func decode(_ jpeg: [UInt8], width: Int, height: Int) -> RenderedImage? {
        guard width > 0, height > 0, let api = LazyLibraries.installedPixbuf,
              let loader = api.gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        // Asked before any data arrives, the size applies when the header is read: the loader
        // picks the DCT scale and scales the rest of the way to exactly this size.
        api.gdk_pixbuf_loader_set_size(loader, Int32(width), Int32(height))
        var error: UnsafeMutablePointer<GError>?
        let written = jpeg.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { api.gdk_pixbuf_loader_write(loader, $0, gsize(buffer.count), &error) != 0 } ?? false
        }
        // Close always (it finishes or abandons the decode); its error only matters if the
        // data went in, and must not overwrite one already set.
        var closeError: UnsafeMutablePointer<GError>?
        let closed = api.gdk_pixbuf_loader_close(loader, &closeError) != 0
        _ = GLibError.take(error)
        _ = GLibError.take(closeError)
        // The loader owns the pixbuf; it stays valid until the loader is released (deferred).
        guard written, closed, let pixbuf = api.gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        let w = Int(api.gdk_pixbuf_get_width(pixbuf)), h = Int(api.gdk_pixbuf_get_height(pixbuf))
        let channels = Int(api.gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(api.gdk_pixbuf_get_rowstride(pixbuf))
        guard w > 0, h > 0, channels == 3 || channels == 4, api.gdk_pixbuf_get_bits_per_sample(pixbuf) == 8,
              let source = api.gdk_pixbuf_read_pixels(pixbuf) else { return nil }
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                let row = source + y * stride
                for x in 0..<w {
                    let from = row + x * channels, to = (y * w + x) * 4
                    out[to] = from[0]
                    out[to + 1] = from[1]
                    out[to + 2] = from[2]
                    if channels == 4 { out[to + 3] = from[3] }
                }
            }
        }
        return RenderedImage(width: w, height: h, pixels: pixels)
    }
}
