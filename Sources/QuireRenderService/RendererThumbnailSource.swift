import QuireRender
import QuireTypes

/// A file's thumbnails as the render service's workers draw them: page 1 at each size
/// (``Thumbnail/firstPage(_:contentType:sizes:password:limits:interpreters:)``, the drawing a
/// one-file thumbnail uses too), encoded as PNG (libpng, level 1, SUB filter) without the
/// freedesktop keys, which the session writes in (``DocumentSession``'s `thumbnail` answer).
/// Raster images are never enlarged.
public struct RendererThumbnailSource: Sendable {
    public let limits: RenderLimits
    /// Where LibreOffice, GStreamer and Ghostscript run (a worker's own; a one-shot command's
    /// sandboxed worker).
    public let interpreters: Interpreters

    public init(limits: RenderLimits = .standard, interpreters: Interpreters = .worker) {
        self.limits = limits
        self.interpreters = interpreters
    }

    /// Renders `file` (of content `type`) fitted into a square of each of `sizes` pixels
    /// (`password`: an encrypted document's).
    /// - Throws: ``ThumbnailFailure``.
    public func renderThumbnails(of file: InputFile, type: ContentType, sizes: [Int],
                                 password: String? = nil) throws(ThumbnailFailure) -> RenderedThumbnails {
        let drawn: Thumbnail.FirstPage
        do {
            drawn = try Thumbnail.firstPage(file, contentType: type, sizes: sizes, password: password, limits: limits,
                                            interpreters: interpreters)
        } catch {
            throw ThumbnailFailure(error)
        }
        var pngs: [Int: [UInt8]] = [:]
        for (size, image) in drawn.images {
            do { pngs[size] = try PNGEncoder.encode(image) } catch {
                throw ThumbnailFailure(.encoding, String(describing: error))
            }
        }
        return RenderedThumbnails(pngBySize: pngs, imageWidth: drawn.imageWidth, imageHeight: drawn.imageHeight,
                                  pageCount: drawn.pageCount)
    }
}

/// What the drawing produced for one file.
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
