internal import CGdkPixbuf
internal import CGIO
import QuireRender

/// Decodes JPEG bytes straight to a small size with gdk-pixbuf, whose JPEG loader uses libjpeg's
/// DCT scaling (it decodes at 1/2, 1/4 or 1/8 when that is still at least the target), so a
/// 24-megapixel scan costs a fraction of a full decode.
enum ScaledJPEGDecoder {
    /// gdk-pixbuf, loaded on first use (see CGdkPixbuf's shim.h).
    private static let api: quire_gdkpixbuf_api? = quire_gdkpixbuf_api_load()?.pointee

    /// The image scaled to exactly `width`×`height`, as straight-alpha RGBA; nil if gdk-pixbuf
    /// cannot decode it.
    static func decode(_ jpeg: [UInt8], width: Int, height: Int) -> RenderedImage? {
        guard width > 0, height > 0, let api = Self.api else { return nil }
        let pixbuf: OpaquePointer? = jpeg.withUnsafeBytes { raw -> OpaquePointer? in
            guard let stream = g_memory_input_stream_new_from_data(raw.baseAddress, gssize(raw.count), nil) else { return nil }
            defer { g_object_unref(stream) }
            var error: UnsafeMutablePointer<GError>?
            let result = api.gdk_pixbuf_new_from_stream_at_scale(UnsafeMutableRawPointer(stream), Int32(width), Int32(height), 0, nil, &error)
            if let error { g_error_free(error) }
            return result
        }
        guard let pixbuf else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
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
