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
        if type.family == .pdf, let fast = try scannedPage(file, sizes: sizes) { return fast }
        if type.family == .pdf, PageBackendProbe.prefersSplash(file),
           let splash = try SplashThumbnails.render(file, sizes: sizes, limits: limits) { return splash }
        let renderer: Renderer
        do {
            renderer = try Renderer(file: file, contentType: type, limits: limits, textByteLimit: 16 * 1024)
        } catch {
            throw ThumbnailFailure(error)
        }
        var pngs: [Int: [UInt8]] = [:]
        for size in sizes {
            do {
                let image = try renderer.render(page: 0, size: .longestSide(size), allowUpscaling: false)
                pngs[size] = try PNGEncoder.encode(image)
            } catch let error as DocumentError {
                throw ThumbnailFailure(error)
            } catch {
                throw ThumbnailFailure(.encoding, String(describing: error))
            }
        }
        var result = RenderedThumbnails(pngBySize: pngs)
        switch type.family {
        case .image, .svg:
            let page = renderer.pageSize(at: 0)
            result.imageWidth = Int(page.width.rounded())
            result.imageHeight = Int(page.height.rounded())
        case .pdf, .postscript:
            result.pageCount = renderer.pageCount
        default:
            break
        }
        return result
    }

    /// Fast path for a first page that is one image on the page (a scan, a photo, a large
    /// picture, with or without white margins): a JPEG is decoded at a reduced DCT scale, a Flate
    /// image inflated row by row into a box filter, instead of letting poppler decode every pixel
    /// at full size; the image goes where the page draws it, on white. A Flate image is taken
    /// only when it is at least twice its place in the thumbnail in both directions (smaller
    /// ones are cheap for poppler, and the box filter is exact only when reducing).
    func scannedPage(_ file: InputFile, sizes: [Int]) throws -> RenderedThumbnails? {
        guard let scan = ScannedPageProbe.scan(of: file) else { return nil }
        var pngs: [Int: [UInt8]] = [:]
        for size in sizes {
            let scale = Double(size) / max(scan.pageWidth, scan.pageHeight)
            let width = max(1, Int((scan.pageWidth * scale).rounded()))
            let height = max(1, Int((scan.pageHeight * scale).rounded()))
            let place = scan.placement
            let x = min(width - 1, Int((place.x * scale).rounded())), y = min(height - 1, Int((place.y * scale).rounded()))
            let drawnWidth = scan.coversPage ? width : max(1, min(width - x, Int((place.width * scale).rounded())))
            let drawnHeight = scan.coversPage ? height : max(1, min(height - y, Int((place.height * scale).rounded())))
            let decoded: RenderedImage?
            switch scan.image {
            case .jpeg(let jpeg):
                decoded = ScaledJPEGDecoder.decode(jpeg, width: drawnWidth, height: drawnHeight)
            case .flate(let source):
                guard source.width >= 2 * drawnWidth, source.height >= 2 * drawnHeight else { return nil }
                decoded = FlateImageDownscaler.downscale(source, width: drawnWidth, height: drawnHeight)
            }
            guard let drawn = decoded, drawn.width == drawnWidth, drawn.height == drawnHeight else { return nil }
            let image = drawnWidth == width && drawnHeight == height ? drawn : Self.onWhitePage(drawn, x: x, y: y, width: width, height: height)
            do { pngs[size] = try PNGEncoder.encode(image) } catch {
                throw ThumbnailFailure(.encoding, String(describing: error))
            }
        }
        return RenderedThumbnails(pngBySize: pngs, pageCount: scan.pageCount)
    }

    /// `image` placed with its top-left corner at (`x`, `y`) on an opaque white page of
    /// `width`×`height` (whatever falls outside the page is cut).
    static func onWhitePage(_ image: RenderedImage, x: Int, y: Int, width: Int, height: Int) -> RenderedImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        let columns = max(0, min(image.width, width - x))
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { page in
                for row in 0..<min(image.height, height - y) where columns > 0 {
                    let from = row * image.width * 4, to = ((y + row) * width + x) * 4
                    for index in 0..<(columns * 4) { page[to + index] = source[from + index] }
                }
            }
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }
}
