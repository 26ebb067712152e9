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

    /// The thumbnail file: 8-bit RGBA, non-interlaced PNG with the keys in tEXt chunks, as the
    /// render service wrote it (``PNGChunks/inserting(text:into:)``).
    public let png: [UInt8]

    /// A thumbnail file: its image decoded, its keys read, its bytes kept as they are.
    /// - Throws: when the bytes are not a PNG libpng can decode, or lack the required keys.
    public init(png: [UInt8]) throws(PNGDecoder.DecodingError) {
        guard let text = PNGChunks.textChunks(png), let metadata = ThumbnailMetadata(text: text) else {
            throw PNGDecoder.DecodingError(message: "the thumbnail has no Thumb::URI and Thumb::MTime keys")
        }
        self.image = try PNGDecoder.decode(png)
        self.metadata = metadata
        self.png = png
    }

    /// Page 1 drawn at each of `sizes` (the longest side), and the facts its metadata names
    /// (`Thumb::Image::Width/Height`, `Thumb::Document::Pages`): the one drawing of a thumbnail,
    /// which the render service encodes and tags (a batch's worker, `quire thumbnail FILE OUT`,
    /// `Document.thumbnail`).
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
}
