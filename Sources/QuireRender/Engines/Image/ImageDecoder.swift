internal import CGdkPixbuf
internal import CCairo
import QuireTypes
import QuireGIO

/// Decodes raster images with gdk-pixbuf: reduced-scale decoding where the loader can (JPEG DCT
/// scaling), EXIF orientation applied, and pixel bombs refused from the header before any pixel
/// buffer is allocated.
final class ImageDecoder {
    /// Where the encoded bytes come from.
    enum Source {
        case file(InputFile)
        case bytes([UInt8], name: String)
    }

    let source: Source
    let path: DocumentPath
    let limits: RenderLimits
    /// Pixel size as stored (before orientation).
    private(set) var storedWidth = 0
    private(set) var storedHeight = 0

    init(source: Source, path: DocumentPath, limits: RenderLimits) {
        self.source = source
        self.path = path
        self.limits = limits
    }

    /// State shared with the `size-prepared` callback.
    private final class SizeRequest {
        var target: ((Int, Int) -> (Int, Int))?
        var width = 0, height = 0
        var refused = false
        let maximumPixels: Int
        /// gdk-pixbuf's `gdk_pixbuf_loader_set_size`, for the C signal callback.
        let setSize: @convention(c) (OpaquePointer, Int32, Int32) -> Void
        init(maximumPixels: Int, setSize: @escaping @convention(c) (OpaquePointer, Int32, Int32) -> Void) {
            self.maximumPixels = maximumPixels
            self.setSize = setSize
        }
    }

    private var headerProbed = false

    /// Reads the header only: the stored pixel size (for files, with `gdk_pixbuf_get_file_info`).
    /// `checkingIntegrity`: refuse data whose end marker is missing (false: the bytes are only
    /// the start of an image, as a comic book's page headers are).
    /// - Throws: `limitExceeded` for pixel bombs, `damaged` when no loader recognises the data
    ///   or the data is truncated.
    func probe(checkingIntegrity: Bool = true) throws(DocumentError) -> (width: Int, height: Int) {
        if checkingIntegrity { try checkIntegrity() }
        if try probeFileHeader() { return (storedWidth, storedHeight) }
        // Bytes (or a file whose header the probe could not read): run the loader until the
        // size is known, then stop it.
        _ = try decode { _, _ in (0, 0) }
        if storedWidth == 0 {
            throw DocumentError(kind: .damaged, path: path, reason: "not a readable image (no installed loader recognised the data)")
        }
        return (storedWidth, storedHeight)
    }

    /// Refuses data whose format's end marker is missing (cut-off downloads and copies).
    private func checkIntegrity() throws(DocumentError) {
        let head: [UInt8], tail: [UInt8], size: Int
        switch source {
        case .bytes(let bytes, _):
            head = Array(bytes.prefix(32)); tail = Array(bytes.suffix(1024)); size = bytes.count
        case .file(let file):
            do {
                head = try file.read(upTo: 32)
                tail = try file.read(upTo: 1024, at: max(0, file.size - 1024))
            } catch { throw DocumentError(error) }
            size = Int(file.size)
        }
        if let reason = ImageIntegrity.unsafeHeader(head: head) ?? ImageIntegrity.truncation(head: head, tail: tail, size: size) {
            throw DocumentError(kind: .damaged, path: path, reason: reason)
        }
    }

    /// The stored size from the header (once): a HEIF file's (HEIC, AVIF) from its boxes
    /// (``HEIFImageSize``: gdk-pixbuf's loaders for them decode the whole image to tell it), else
    /// `gdk_pixbuf_get_file_info` on a file. True when it gave a size.
    private func probeFileHeader() throws(DocumentError) -> Bool {
        guard !headerProbed else { return storedWidth > 0 }
        headerProbed = true
        if let size = try heifSize() {
            try checkPixels(size.width, size.height)
            storedWidth = size.width
            storedHeight = size.height
            return true
        }
        if case .file(let file) = source, let pixbuf = LazyLibraries.installedPixbuf {
            var width: Int32 = 0, height: Int32 = 0
            if pixbuf.gdk_pixbuf_get_file_info(file.procPath, &width, &height) != nil, width > 0, height > 0 {
                try checkPixels(Int(width), Int(height))
                storedWidth = Int(width)
                storedHeight = Int(height)
                return true
            }
        }
        return false
    }

    /// A HEIF file's primary image size from its boxes, or nil when it is not one (or they do
    /// not say).
    private func heifSize() throws(DocumentError) -> HEIFImageSize? {
        switch source {
        case .bytes(let bytes, _):
            guard HEIFImageSize.mayBeHEIF(bytes.prefix(12)) else { return nil }
            return HEIFImageSize(head: Array(bytes.prefix(HEIFImageSize.headLimit)))
        case .file(let file):
            do {
                guard HEIFImageSize.mayBeHEIF(try file.read(upTo: 12)) else { return nil }
                return HEIFImageSize(head: try file.read(upTo: HEIFImageSize.headLimit))
            } catch { throw DocumentError(error) }
        }
    }

    private func checkPixels(_ width: Int, _ height: Int) throws(DocumentError) {
        try limits.checkPixels(width, height, path: path)
    }

    /// Decodes, asking the loader for the size `target(storedWidth, storedHeight)` (a (0, 0)
    /// answer stops after the header). Returns the oriented pixbuf as a cairo surface, or nil
    /// when stopped.
    func decode(target: @escaping (Int, Int) -> (Int, Int)) throws(DocumentError) -> CairoImage? {
        try decode(target: target) { pixbuf, api, path throws(DocumentError) in try Self.surface(from: pixbuf, api: api, path: path) }
    }

    /// Decodes at the stored size, orientation applied, to straight (not premultiplied) RGBA:
    /// the pixels as the file holds them, for writing the image again (Markup's turn and crop).
    func decodeFull() throws(DocumentError) -> RenderedImage {
        guard let image = try decode(target: { ($0, $1) }, as: { pixbuf, api, path throws(DocumentError) in try Self.rgba(from: pixbuf, api: api, path: path) })
        else { throw DocumentError(kind: .damaged, path: path, reason: "not a readable image") }
        return image
    }

    /// Decodes as ``decode(target:)`` does, handing the oriented pixbuf to `convert`.
    private func decode<Decoded>(target: @escaping (Int, Int) -> (Int, Int),
                                 as convert: (OpaquePointer, quire_gdkpixbuf_api, DocumentPath) throws(DocumentError) -> Decoded) throws(DocumentError) -> Decoded? {
        _ = try probeFileHeader()
        if storedWidth > 0 { try checkPixels(storedWidth, storedHeight) }

        let pixbufAPI = try LazyLibraries.pixbuf(path)
        guard let loader = pixbufAPI.gdk_pixbuf_loader_new() else {
            throw DocumentError(kind: .unsupported, path: path, reason: "cannot create an image loader")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let request = SizeRequest(maximumPixels: limits.maximumImagePixels, setSize: pixbufAPI.gdk_pixbuf_loader_set_size)
        request.target = target
        let context = Unmanaged.passRetained(request)
        defer { context.release() }
        let callback: @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { loader, width, height, data in
            guard let loader, let data else { return }
            let request = Unmanaged<SizeRequest>.fromOpaque(data).takeUnretainedValue()
            request.width = Int(width)
            request.height = Int(height)
            let (product, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
            if overflow || product > request.maximumPixels || width <= 0 || height <= 0 {
                request.refused = true
                request.setSize(loader, 0, 0)  // 0×0 stops the loader before allocating
                return
            }
            let (w, h) = request.target?(Int(width), Int(height)) ?? (Int(width), Int(height))
            if w <= 0 || h <= 0 { request.refused = false }
            request.setSize(loader, Int32(max(0, w)), Int32(max(0, h)))
        }
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared",
                              unsafeBitCast(callback, to: GCallback.self), context.toOpaque(), nil, GConnectFlags(0))

        var gerror: UnsafeMutablePointer<GError>?
        var failed = false
        func feed(_ chunk: UnsafeRawBufferPointer) -> Bool {
            guard chunk.count > 0 else { return true }
            let ok = pixbufAPI.gdk_pixbuf_loader_write(loader, chunk.baseAddress!.assumingMemoryBound(to: guchar.self), gsize(chunk.count), &gerror) != 0
            // Stop feeding as soon as the size is known to be refused or only the size was wanted.
            return ok && !request.refused && !(request.width > 0 && target(request.width, request.height) == (0, 0))
        }
        switch source {
        case .bytes(let bytes, _):
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + 65536)
                let keepGoing = bytes[offset..<end].withUnsafeBytes { feed($0) }
                offset = end
                if !keepGoing { failed = gerror != nil; break }
            }
        case .file(let file):
            var offset: Int64 = 0
            while true {
                let chunk: [UInt8]
                do { chunk = try file.read(upTo: 65536, at: offset) } catch {
                    _ = pixbufAPI.gdk_pixbuf_loader_close(loader, nil)
                    throw DocumentError(error)
                }
                if chunk.isEmpty { break }
                offset += Int64(chunk.count)
                if !chunk.withUnsafeBytes({ feed($0) }) { failed = gerror != nil; break }
            }
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed: Bool
        if failed || request.refused {
            closed = pixbufAPI.gdk_pixbuf_loader_close(loader, nil) != 0
        } else {
            closed = pixbufAPI.gdk_pixbuf_loader_close(loader, &closeError) != 0
        }
        if request.width > 0 {
            storedWidth = request.width
            storedHeight = request.height
        }
        if request.refused {
            _ = GLibError.take(gerror)
            try checkPixels(request.width, request.height)
            throw DocumentError(kind: .damaged, path: path, reason: "image header has an invalid size")
        }
        if request.width > 0 && target(request.width, request.height) == (0, 0) {
            _ = GLibError.take(gerror); _ = GLibError.take(closeError)
            return nil
        }
        if let error = GLibError.take(gerror) ?? GLibError.take(closeError) {
            throw DocumentError(kind: .damaged, path: path, reason: "not a readable image (\(error.message))", underlying: error)
        }
        guard closed, let pixbuf = pixbufAPI.gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw DocumentError(kind: .damaged, path: path, reason: "not a readable image (no installed loader recognised the data)")
        }
        // apply_embedded_orientation returns a new reference (the same pixbuf when upright).
        guard let oriented = pixbufAPI.gdk_pixbuf_apply_embedded_orientation(pixbuf) else {
            throw DocumentError(kind: .limitExceeded, path: path, reason: "not enough memory to orient the image")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(oriented)) }
        return try convert(oriented, pixbufAPI, path)
    }

    /// Copies a pixbuf (RGB or RGBA, 8-bit) into straight RGBA bytes.
    static func rgba(from pixbuf: OpaquePointer, api: quire_gdkpixbuf_api, path: DocumentPath) throws(DocumentError) -> RenderedImage {
        let width = Int(api.gdk_pixbuf_get_width(pixbuf)), height = Int(api.gdk_pixbuf_get_height(pixbuf))
        let channels = Int(api.gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = api.gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let stride = Int(api.gdk_pixbuf_get_rowstride(pixbuf))
        guard api.gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels >= 3, width > 0, height > 0,
              let pixels = api.gdk_pixbuf_read_pixels(pixbuf) else {
            throw DocumentError(kind: .unsupported, path: path, reason: "unsupported pixel layout")
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            for y in 0..<height {
                let row = pixels + y * stride
                for x in 0..<width {
                    let p = row + x * channels, o = (y * width + x) * 4
                    buffer[o] = p[0]; buffer[o + 1] = p[1]; buffer[o + 2] = p[2]
                    buffer[o + 3] = hasAlpha ? p[3] : 255
                }
            }
            count = width * height * 4
        }
        return RenderedImage(width: width, height: height, pixels: bytes)
    }

    /// Copies a pixbuf (RGB or RGBA, 8-bit) into a premultiplied ARGB32 cairo surface.
    static func surface(from pixbuf: OpaquePointer, api: quire_gdkpixbuf_api, path: DocumentPath) throws(DocumentError) -> CairoImage {
        let width = Int(api.gdk_pixbuf_get_width(pixbuf)), height = Int(api.gdk_pixbuf_get_height(pixbuf))
        let channels = Int(api.gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = api.gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let stride = Int(api.gdk_pixbuf_get_rowstride(pixbuf))
        guard api.gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels >= 3,
              let pixels = api.gdk_pixbuf_read_pixels(pixbuf) else {
            throw DocumentError(kind: .unsupported, path: path, reason: "unsupported pixel layout")
        }
        let image = try CairoImage(width: width, height: height, path: path)
        CairoImage.fill(image.surface, width: width, height: height) { x, y in
            let p = pixels + y * stride + x * channels
            return (p[0], p[1], p[2], hasAlpha ? p[3] : 255)
        }
        return image
    }
}
