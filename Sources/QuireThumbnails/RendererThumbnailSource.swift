import QuireRender
import QuireTypes

/// The production ``ThumbnailRendering``: QuireRender's `Renderer` (every family it supports)
/// and its libpng `PNGEncoder` (level 1, SUB filter). The document is opened once and rendered
/// once per requested size, first page only; raster images are never enlarged.
public struct RendererThumbnailSource: ThumbnailRendering {
    public let limits: RenderLimits

    public init(limits: RenderLimits = .standard) {
        self.limits = limits
    }

    public func renderThumbnails(of file: InputFile, type: ContentType, sizes: [Int]) throws -> RenderedThumbnails {
        // A worker renders file after file: poppler's parameters are built once for the process
        // (for Splash and cairo documents alike), not once per PDF.
        if type.family == .pdf { SplashPDFDocument.prepare() }
        let drawn: Thumbnail.FirstPage
        do { drawn = try Thumbnail.firstPage(file, contentType: type, sizes: sizes, limits: limits, interpreters: .worker) } catch {
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
