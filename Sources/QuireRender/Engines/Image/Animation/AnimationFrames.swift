internal import CGdkPixbuf
import QuireGIO
import QuireTypes

/// An animated GIF's or WebP's frames, decoded one at a time with gdk-pixbuf's animation API
/// (`gdk_pixbuf_animation_*`; WebP through webp-pixbuf-loader), an animated PNG's, composed by
/// ``APNGFrames`` (gdk-pixbuf decodes only its default image), an animated JPEG XL's, decoded
/// by libjxl (``JPEGXLAnimation``), and an AVIF sequence's, decoded by libavif
/// (``AVIFSequence``), for a viewer that plays it.
/// Runs in the render worker only.
///
/// Bounded before anything is decoded: the frames times the canvas's pixels (both read from the
/// container's blocks, ``AnimationInfo``) may not pass the pixel limit, and the frames not
/// ``maximumFrames`` — "too many frames to play", and the viewer shows the first frame as it
/// does for a still image. Within the bound, memory is at most what the pixel limit allows
/// (webp-pixbuf-loader decodes every frame when it loads; gdk-pixbuf's GIF loader keeps the
/// compressed frames and composites the one asked for).
///
/// Frames are reached by moving the animation's iterator along its own timeline: asked in
/// order (a player's way), each costs one frame's decoding; asked backwards, the iterator
/// starts again from the first.
package final class AnimationFrames {
    package let info: AnimationInfo
    let path: DocumentPath
    private let api: quire_gdkpixbuf_api
    private let animation: OpaquePointer?  // GdkPixbufAnimation, owned (GIF, WebP)
    /// An animation Quire makes frame by frame itself (APNG, JPEG XL), else nil.
    private let sequence: (any FrameSequence)?
    private var iterator: OpaquePointer?  // GdkPixbufAnimationIter, owned
    /// The frame the iterator is on, the time (ms) it began, and its delay (ms).
    private var index = 0
    private var started = 0
    private var delay = 0
    /// Whether the iterator's delay is the time left in the frame (gdk-pixbuf's GIF) rather than
    /// the frame's whole delay (webp-pixbuf-loader): read once, 1 ms into the first frame.
    private var delayIsRemaining = false

    /// Most frames played (an animation with more shows its first frame).
    package static let maximumFrames = 10_000

    /// Why `info` (an image of `width` × `height` pixels, `mimeType`) is not played, nil when it
    /// is: one line for the viewer.
    package static func refusal(_ info: AnimationInfo, width: Int, height: Int, mimeType: String,
                                limits: RenderLimits) -> String? {
        let (pixels, overflow) = max(1, width).multipliedReportingOverflow(by: max(1, height))
        let (all, overflowAll) = pixels.multipliedReportingOverflow(by: info.frames)
        if info.frames > maximumFrames {
            return "too many frames to play (\(info.frames)\(info.isCut ? "+" : ""), more than \(maximumFrames))"
        }
        if overflow || overflowAll || all > limits.maximumImagePixels || info.isCut {
            return "too many frames to play (\(info.frames)\(info.isCut ? "+" : "") of \(width)×\(height) px, over the "
                + "\(limits.maximumImagePixels / 1_000_000)-megapixel limit)"
        }
        return nil
    }

    /// Loads the animation in `file` (``refusal(_:width:height:mimeType:limits:)`` checked first
    /// by the caller with the same facts; checked again here).
    package init(file: InputFile, info: AnimationInfo, width: Int, height: Int, mimeType: String,
                 limits: RenderLimits) throws(DocumentError) {
        self.info = info
        path = file.path
        if let refusal = Self.refusal(info, width: width, height: height, mimeType: mimeType, limits: limits) {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: refusal, remedy: .raise(.pixels))
        }
        let api = try LazyLibraries.pixbuf(file.path)
        self.api = api
        if mimeType.hasSuffix("png") {
            sequence = try APNGFrames(file: file, api: api)
            animation = nil
            return
        }
        if mimeType == "image/jxl" {
            sequence = try JPEGXLAnimation(file: file, width: width, height: height)
            animation = nil
            return
        }
        if mimeType == "image/avif" {
            sequence = try AVIFSequence(file: file, limits: limits)
            animation = nil
            return
        }
        sequence = nil
        guard let loader = api.gdk_pixbuf_loader_new() else {
            throw DocumentError(kind: .unsupported, path: file.path, reason: "cannot create an image loader")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        var gerror: UnsafeMutablePointer<GError>?
        var offset: Int64 = 0
        var fed = true
        while fed {
            let chunk: [UInt8]
            do { chunk = try file.read(upTo: 1 << 16, at: offset) } catch {
                _ = api.gdk_pixbuf_loader_close(loader, nil)
                throw DocumentError(error)
            }
            if chunk.isEmpty { break }
            offset += Int64(chunk.count)
            fed = chunk.withUnsafeBufferPointer { bytes in
                api.gdk_pixbuf_loader_write(loader, bytes.baseAddress!, gsize(bytes.count), &gerror) != 0
            }
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = fed ? api.gdk_pixbuf_loader_close(loader, &closeError) != 0 : api.gdk_pixbuf_loader_close(loader, nil) != 0
        if let error = GLibError.take(gerror) ?? GLibError.take(closeError) {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the animation cannot be decoded (\(error.message))", underlying: error)
        }
        guard closed, let animation = api.gdk_pixbuf_loader_get_animation(loader) else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the animation cannot be decoded")
        }
        guard api.gdk_pixbuf_animation_is_static_image(animation) == 0 else {
            throw DocumentError(kind: .unsupported, path: file.path, reason: "the installed image loader shows only this animation's first frame")
        }
        g_object_ref(UnsafeMutableRawPointer(animation))
        self.animation = animation
    }

    deinit {
        if let iterator { g_object_unref(UnsafeMutableRawPointer(iterator)) }
        if let animation { g_object_unref(UnsafeMutableRawPointer(animation)) }
    }

    /// Frame `number` (0-based, below ``AnimationInfo/frames``) fitted into `width` × `height`
    /// (the aspect kept, enlarged when the box is larger), as straight-alpha RGBA, and how long
    /// it shows (milliseconds).
    package func frame(_ number: Int, width: Int, height: Int) throws(DocumentError) -> (image: RenderedImage, delay: Int) {
        guard number >= 0, number < info.frames else {
            throw DocumentError(kind: .unsupported, path: path, reason: "the animation has no frame \(number + 1) (it has \(info.frames))")
        }
        if let sequence { return try sequence.frame(number, width: width, height: height) }
        if iterator == nil || number < index { try restart() }
        while index < number {
            guard let iterator else { break }
            // The next frame begins where this one ends; 1 ms into it is unambiguously it
            // (webp-pixbuf-loader still shows the frame before at the boundary itself).
            let next = started + delay
            var time = quire_pixbuf_time(tv_sec: glong(next / 1000), tv_usec: glong(next % 1000) * 1000 + 1000)
            _ = api.gdk_pixbuf_animation_iter_advance(iterator, &time)
            index += 1
            started = next
            delay = currentDelay(iterator, plus: delayIsRemaining ? 1 : 0)
        }
        guard let iterator, let pixbuf = api.gdk_pixbuf_animation_iter_get_pixbuf(iterator) else {
            throw DocumentError(kind: .damaged, path: path, reason: "frame \(number + 1) cannot be decoded")
        }
        return (try Self.rgba(pixbuf, fitting: width, height, api: api, path: path), delay)
    }

    /// A fresh iterator on the first frame.
    private func restart() throws(DocumentError) {
        if let iterator { g_object_unref(UnsafeMutableRawPointer(iterator)) }
        var zero = quire_pixbuf_time(tv_sec: 0, tv_usec: 0)
        guard let animation, let fresh = api.gdk_pixbuf_animation_get_iter(animation, &zero) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the animation cannot be decoded")
        }
        iterator = fresh
        index = 0
        started = 0
        let whole = currentDelay(fresh, plus: 0)
        var probe = quire_pixbuf_time(tv_sec: 0, tv_usec: 1000)
        _ = api.gdk_pixbuf_animation_iter_advance(fresh, &probe)
        delayIsRemaining = api.gdk_pixbuf_animation_iter_get_delay_time(fresh) == Int32(whole - 1)
        delay = whole
    }

    /// The iterator's frame delay in ms (`plus` added back when it counts what is left), a
    /// frame that shows "forever" (-1, the end of a play) taking the animation's mean delay.
    private func currentDelay(_ iterator: OpaquePointer, plus: Int) -> Int {
        let reported = Int(api.gdk_pixbuf_animation_iter_get_delay_time(iterator))
        guard reported >= 0 else { return max(20, Int((info.duration / Double(info.frames) * 1000).rounded())) }
        return max(1, reported + plus)
    }

    /// `pixbuf` scaled to fit `width` × `height`, as straight-alpha RGBA bytes.
    static func rgba(_ pixbuf: OpaquePointer, fitting width: Int, _ height: Int, api: quire_gdkpixbuf_api,
                     path: DocumentPath) throws(DocumentError) -> RenderedImage {
        let sourceWidth = Int(api.gdk_pixbuf_get_width(pixbuf)), sourceHeight = Int(api.gdk_pixbuf_get_height(pixbuf))
        let scale = min(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let targetWidth = max(1, min(width, Int((Double(sourceWidth) * scale).rounded())))
        let targetHeight = max(1, min(height, Int((Double(sourceHeight) * scale).rounded())))
        var scaled: OpaquePointer?
        if targetWidth != sourceWidth || targetHeight != sourceHeight {
            scaled = api.gdk_pixbuf_scale_simple(pixbuf, Int32(targetWidth), Int32(targetHeight), Int32(QUIRE_PIXBUF_INTERP_BILINEAR))
            guard scaled != nil else {
                throw DocumentError(kind: .limitExceeded, path: path, reason: "not enough memory to scale the frame")
            }
        }
        defer { if let scaled { g_object_unref(UnsafeMutableRawPointer(scaled)) } }
        let source = scaled ?? pixbuf
        let channels = Int(api.gdk_pixbuf_get_n_channels(source))
        let stride = Int(api.gdk_pixbuf_get_rowstride(source))
        let hasAlpha = api.gdk_pixbuf_get_has_alpha(source) != 0
        guard api.gdk_pixbuf_get_bits_per_sample(source) == 8, channels >= 3, let pixels = api.gdk_pixbuf_read_pixels(source) else {
            throw DocumentError(kind: .unsupported, path: path, reason: "unsupported pixel layout")
        }
        let rgba = [UInt8](unsafeUninitializedCapacity: targetWidth * targetHeight * 4) { buffer, count in
            var out = 0
            for y in 0..<targetHeight {
                let row = pixels + y * stride
                for x in 0..<targetWidth {
                    let p = row + x * channels
                    buffer[out] = p[0]
                    buffer[out + 1] = p[1]
                    buffer[out + 2] = p[2]
                    buffer[out + 3] = hasAlpha ? p[3] : 255
                    out += 4
                }
            }
            count = out
        }
        return RenderedImage(width: targetWidth, height: targetHeight, pixels: rgba)
    }
}
