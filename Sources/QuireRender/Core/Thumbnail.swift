import QuireGIO
import QuireTypes
import QuireSystem

/// A freedesktop thumbnail (Thumbnail Managing Standard 0.9): the image, fitted so its longest
/// side equals the requested size, and the tEXt metadata that goes with it.
///
/// Pages (PDF, PostScript, SVG, text) are rendered to exactly `size` on the longest side.
/// Raster images and embedded previews are never enlarged: an image smaller than `size` keeps
/// its own size, as the standard recommends (a thumbnail larger than its original only blurs).
public struct Thumbnail: Sendable {
    public let image: RenderedImage
    /// `Thumb::URI`, `Thumb::MTime`, `Thumb::Size`, `Thumb::Mimetype`, `Software`, and
    /// `Thumb::Image::Width/Height` or `Thumb::Document::Pages` where known: the same keys, in
    /// the same order, written the same way (``PNGChunks``) as the batch workers' thumbnails.
    public let metadata: ThumbnailMetadata

    /// Bytes of text laid out for a text thumbnail (the first page needs far less).
    static let textBytes = 16 * 1024

    /// Renders the first page's thumbnail.
    /// - Parameters:
    ///   - size: the bounding square (128 normal, 256 large, 512 x-large, 1024 xx-large).
    ///   - uri: `Thumb::URI`; nil derives the canonical `file://` URI from the path (GLib's,
    ///     as the thumbnail cache and file managers compute it: see `FileURI`).
    ///   - software: the `Software` value.
    public static func make(file: InputFile, contentType: ContentType, size: Int = 256, uri: String? = nil,
                            password: String? = nil, software: String = "Quire",
                            limits: RenderLimits = .standard, interpreters: Interpreters = .here) throws(DocumentError) -> Thumbnail {
        guard size > 0, size <= 4096 else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "thumbnail size \(size) is outside 1…4096")
        }
        guard let uri = uri ?? FileURI.uri(forPath: file.path.bytes) else {
            throw DocumentError(kind: .unsupported, path: file.path, reason: "the path cannot be written as a file:// URI")
        }
        var text = ThumbnailMetadata(uri: uri, modificationTime: file.modificationTime.seconds, size: file.size,
                                     mimeType: contentType.mimeType, software: software)
        let drawn = try firstPage(file, contentType: contentType, sizes: [size], password: password, limits: limits,
                                  interpreters: interpreters)
        (text.imageWidth, text.imageHeight, text.pageCount) = (drawn.imageWidth, drawn.imageHeight, drawn.pageCount)
        guard let image = drawn.images[size] else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "no thumbnail was drawn")
        }
        return Thumbnail(image: image, metadata: text)
    }

    /// Page 1 drawn at each of `sizes` (the longest side), and the facts its metadata names
    /// (`Thumb::Image::Width/Height`, `Thumb::Document::Pages`): the one drawing of a thumbnail,
    /// for a file's thumbnail (``make(file:contentType:size:uri:password:software:limits:interpreters:)``)
    /// and the batch's workers alike.
    public static func firstPage(_ file: InputFile, contentType: ContentType, sizes: [Int], password: String? = nil,
                                 limits: RenderLimits, interpreters: Interpreters) throws(DocumentError) -> FirstPage {
        // A first page that is one large image, or has shadings cairo takes seconds and
        // gigabytes on, is drawn as the batch workers draw it (one function shading: 3.6 s and
        // 1.6 GB through cairo, 0.03 s and 24 MB through Splash).
        if contentType.family == .pdf, password == nil, let drawn = try PDFFirstPageFastPath.draw(file, sizes: sizes, limits: limits) {
            return FirstPage(images: drawn.images, imageWidth: nil, imageHeight: nil, pageCount: drawn.pageCount)
        }
        // An office document's page 1 from LibreOffice's layout: the whole document is not
        // exported for one page (with a password, the conversion that asks for it).
        let renderer = try Renderer(file: file, contentType: contentType, password: password, limits: limits,
                                    textByteLimit: textBytes, preferEmbeddedPreview: true, firstPageOnly: true,
                                    interpreters: interpreters)
        var images: [Int: RenderedImage] = [:]
        for size in sizes { images[size] = try renderer.renderThumbnail(longestSide: size) }
        let facts = renderer.thumbnailFacts(family: contentType.family)
        return FirstPage(images: images, imageWidth: facts.imageWidth, imageHeight: facts.imageHeight, pageCount: facts.pageCount)
    }

    /// Page 1 at the sizes asked for, and what a thumbnail's metadata says of the file.
    public struct FirstPage: Sendable {
        public let images: [Int: RenderedImage]
        public let imageWidth: Int?
        public let imageHeight: Int?
        public let pageCount: Int?
    }

    /// The thumbnail as an 8-bit RGBA non-interlaced PNG with its tEXt chunks, inserted as the
    /// batch workers insert theirs (``PNGChunks/inserting(text:into:)``).
    public func pngData() throws(PNGEncoder.EncodingError) -> [UInt8] {
        let png = try PNGEncoder.encode(image)
        guard let tagged = PNGChunks.inserting(text: metadata.textEntries, into: png) else {
            throw PNGEncoder.EncodingError(message: "the encoder produced an invalid PNG")
        }
        return tagged
    }
}
