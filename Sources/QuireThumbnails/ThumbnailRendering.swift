import QuireTypes

/// The seam between the batch machinery and the renderers: make thumbnails of one open file.
///
/// Implementations run inside worker processes. They return PNG files (8-bit RGBA,
/// non-interlaced) *without* freedesktop keys; the worker adds those.
public protocol ThumbnailRendering: Sendable {
    /// Renders `file` (of content `type`) fitted into a square of each of `sizes` pixels.
    /// Throws a ``ThumbnailFailure`` (any other error is recorded as kind `render`).
    func renderThumbnails(of file: InputFile, type: ContentType, sizes: [Int]) throws -> RenderedThumbnails
}

/// What a renderer produced for one file.
public struct RenderedThumbnails: Sendable {
    /// Encoded PNG per requested edge size.
    public var pngBySize: [Int: [UInt8]]
    /// Pixel size of the original image, for `Thumb::Image::Width/Height`.
    public var imageWidth: Int?
    public var imageHeight: Int?
    /// Number of pages, for `Thumb::Document::Pages`.
    public var pageCount: Int?

    public init(pngBySize: [Int: [UInt8]], imageWidth: Int? = nil, imageHeight: Int? = nil, pageCount: Int? = nil) {
        self.pngBySize = pngBySize
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.pageCount = pageCount
    }
}
