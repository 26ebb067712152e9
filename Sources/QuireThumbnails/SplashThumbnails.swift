import QuireRender
import QuireTypes

/// Raster thumbnails of a PDF's first page through poppler's Splash backend, for the pages
/// ``PageBackendProbe`` finds cairo slow on.
enum SplashThumbnails {
    /// The thumbnails, or nil when Splash is not installed or cannot open the file (the caller
    /// then uses the cairo path, which reports the file's own problem).
    static func render(_ file: InputFile, sizes: [Int], limits: RenderLimits) throws -> RenderedThumbnails? {
        guard SplashPDFDocument.isAvailable else { return nil }
        let document: SplashPDFDocument
        do { document = try SplashPDFDocument(file: file) } catch { return nil }
        var pngs: [Int: [UInt8]] = [:]
        for size in sizes {
            do {
                pngs[size] = try PNGEncoder.encode(try document.render(page: 0, size: .longestSide(size), limits: limits))
            } catch let error as DocumentError {
                throw ThumbnailFailure(error)
            } catch {
                throw ThumbnailFailure(.encoding, String(describing: error))
            }
        }
        return RenderedThumbnails(pngBySize: pngs, pageCount: document.pageCount)
    }
}
