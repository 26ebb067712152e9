internal import CGdkPixbuf
import QuireGIO
import QuireTypes

/// An image turned or cropped in Markup (issue 36), written again whole in its own format. A
/// JPEG only turned keeps every byte of its picture (``JPEGOrientation``: the orientation tag
/// changes); a crop decodes the picture (orientation applied), cuts it, turns it and encodes
/// it again — PNG without loss, JPEG at quality 95 with its EXIF block (made upright), colour
/// profile and XMP kept. Other formats are not written (``refusal(mimeType:)``).
public enum ImageRewriting {
    /// The formats Markup writes again.
    public static let writableTypes: Set<String> = ["image/jpeg", "image/png"]

    /// Why an image of type `mimeType` cannot be turned or cropped in Markup; nil when it can.
    public static func refusal(mimeType: String) -> String? {
        writableTypes.contains(mimeType) ? nil : "only JPEG and PNG images can be turned or cropped (this one cannot be written again as it is)"
    }

    /// The image in `file` (of type `mimeType`) cut to `crop` (pixels from the top left of the
    /// picture as shown, before the turn), then turned `quarterTurns` clockwise.
    public static func rewritten(_ file: InputFile, mimeType: String, quarterTurns: Int, crop: TextBox?,
                                 limits: RenderLimits) throws(DocumentError) -> [UInt8] {
        if let reason = refusal(mimeType: mimeType) { throw DocumentError(kind: .unsupported, path: file.path, reason: reason) }
        let turns = ((quarterTurns % 4) + 4) % 4
        guard file.size <= Int64(Int32.max) else { throw DocumentError(kind: .limitExceeded, path: file.path, reason: "the image is too large to write again") }
        let bytes: [UInt8]
        do { bytes = try file.read(upTo: Int(file.size)) } catch {
            throw DocumentError(kind: .input, path: file.path, reason: error.reason)
        }
        if mimeType == "image/jpeg", crop == nil {
            do { return try JPEGOrientation.turned(bytes, by: turns) } catch {
                throw DocumentError(kind: .damaged, path: file.path, reason: error.reason)
            }
        }
        var image = try ImageDecoder(source: .file(file), path: file.path, limits: limits).decodeFull()
        if let crop { image = try cropped(image, to: crop, path: file.path) }
        image = turned(image, by: turns)
        if mimeType == "image/png" {
            do { return try PNGEncoder.encode(image, compressionLevel: 6) } catch {
                throw DocumentError(kind: .unsupported, path: file.path, reason: error.description)
            }
        }
        return JPEGOrientation.inserting(JPEGOrientation.metadataSegments(bytes), into: try jpeg(image, path: file.path))
    }

    /// `image` cut to `box` (rounded out to whole pixels, kept inside the picture).
    static func cropped(_ image: RenderedImage, to box: TextBox, path: DocumentPath) throws(DocumentError) -> RenderedImage {
        guard box.x.isFinite, box.y.isFinite, box.width.isFinite, box.height.isFinite else {
            throw DocumentError(kind: .unsupported, path: path, reason: "the crop is not a box")
        }
        let left = max(0, min(image.width, Int(box.x.rounded(.down)))), top = max(0, min(image.height, Int(box.y.rounded(.down))))
        let right = max(left, min(image.width, Int(box.maxX.rounded(.up)))), bottom = max(top, min(image.height, Int(box.maxY.rounded(.up))))
        let width = right - left, height = bottom - top
        guard width > 0, height > 0 else { throw DocumentError(kind: .unsupported, path: path, reason: "the crop leaves nothing of the image") }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in top..<bottom {
            let row = (y * image.width + left) * 4
            pixels += image.pixels[row..<row + width * 4]
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }

    /// `image` turned `quarterTurns` (0…3) clockwise.
    static func turned(_ image: RenderedImage, by quarterTurns: Int) -> RenderedImage {
        guard quarterTurns != 0 else { return image }
        let w = image.width, h = image.height
        let (outW, outH) = quarterTurns == 2 ? (w, h) : (h, w)
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, count in
            image.pixels.withUnsafeBufferPointer { source in
                for y in 0..<h {
                    for x in 0..<w {
                        let (nx, ny): (Int, Int)
                        switch quarterTurns {
                        case 1: (nx, ny) = (h - 1 - y, x)
                        case 2: (nx, ny) = (w - 1 - x, h - 1 - y)
                        default: (nx, ny) = (y, w - 1 - x)
                        }
                        let from = (y * w + x) * 4, to = (ny * outW + nx) * 4
                        buffer[to] = source[from]; buffer[to + 1] = source[from + 1]
                        buffer[to + 2] = source[from + 2]; buffer[to + 3] = source[from + 3]
                    }
                }
            }
            count = w * h * 4
        }
        return RenderedImage(width: outW, height: outH, pixels: pixels)
    }

    /// `image` as a baseline JPEG at quality 95 (gdk-pixbuf's saver, libjpeg).
    static func jpeg(_ image: RenderedImage, path: DocumentPath) throws(DocumentError) -> [UInt8] {
        let api = try LazyLibraries.pixbuf(path)
        var rgb = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for index in 0..<image.width * image.height {
            rgb[index * 3] = image.pixels[index * 4]
            rgb[index * 3 + 1] = image.pixels[index * 4 + 1]
            rgb[index * 3 + 2] = image.pixels[index * 4 + 2]
        }
        var encoded: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var gerror: UnsafeMutablePointer<GError>?
        let saved = rgb.withUnsafeBufferPointer { pixels -> Bool in
            guard let pixbuf = api.gdk_pixbuf_new_from_data(pixels.baseAddress!, 0, 0, 8, Int32(image.width), Int32(image.height),
                                                            Int32(image.width * 3), nil, nil) else { return false }
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let key = strdup("quality"), value = strdup("95")
            defer { free(key); free(value) }
            var keys: [UnsafeMutablePointer<CChar>?] = [key, nil], values: [UnsafeMutablePointer<CChar>?] = [value, nil]
            return keys.withUnsafeMutableBufferPointer { keys in
                values.withUnsafeMutableBufferPointer { values in
                    api.gdk_pixbuf_save_to_bufferv(pixbuf, &encoded, &size, "jpeg", keys.baseAddress, values.baseAddress, &gerror) != 0
                }
            }
        }
        defer { g_free(encoded) }
        if let error = GLibError.take(gerror) {
            throw DocumentError(kind: .unsupported, path: path, reason: "the JPEG cannot be encoded (\(error.message))", underlying: error)
        }
        guard saved, let encoded, size > 0 else { throw DocumentError(kind: .unsupported, path: path, reason: "the JPEG cannot be encoded") }
        return Array(UnsafeRawBufferPointer(start: encoded, count: Int(size)))
    }
}
