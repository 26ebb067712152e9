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
        if type.family == .pdf {
            SplashPDFDocument.prepare()
            let drawn: PDFFirstPageFastPath.Drawn?
            do { drawn = try PDFFirstPageFastPath.draw(file, sizes: sizes, limits: limits) } catch { throw ThumbnailFailure(error) }
            if let drawn {
                var pngs: [Int: [UInt8]] = [:]
                for (size, image) in drawn.images {
                    do { pngs[size] = try PNGEncoder.encode(image) } catch {
                        throw ThumbnailFailure(.encoding, String(describing: error))
                    }
                }
                return RenderedThumbnails(pngBySize: pngs, pageCount: drawn.pageCount)
            }
        }
        let renderer: Renderer
        do {
            // An office document's page 1 from LibreOffice's layout, without exporting the rest.
            renderer = try Renderer(file: file, contentType: type, limits: limits, textByteLimit: 16 * 1024, preferEmbeddedPreview: true,
                                    firstPageOnly: true, interpreters: .worker)
        } catch {
            throw ThumbnailFailure(error)
        }
        var pngs: [Int: [UInt8]] = [:]
        for size in sizes {
            do {
                let image = try renderer.renderThumbnail(longestSide: size)
                pngs[size] = try PNGEncoder.encode(image)
            } catch let error as DocumentError {
                throw ThumbnailFailure(error)
            } catch {
                throw ThumbnailFailure(.encoding, String(describing: error))
            }
        }
        let facts = renderer.thumbnailFacts(family: type.family)
        return RenderedThumbnails(pngBySize: pngs, imageWidth: facts.imageWidth, imageHeight: facts.imageHeight,
                                  pageCount: facts.pageCount)
    }
}
