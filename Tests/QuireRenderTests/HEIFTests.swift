import Foundation
@testable import QuireRender
import QuireTypes
import Testing

/// HEIF, HEIC and AVIF through libheif: a collection's images as pages (the primary first), the
/// file's own thumbnail for small rasters, cut files and the pixel limit. Samples written by
/// `heif-enc` (Samples/generate.sh).
@Suite struct HEIFTests {
    @Test func aCollectionsImagesArePagesThePrimaryFirst() throws {
        try #require(LazyLibraries.heifIsInstalled, "libheif is installed by make deps (libheif-dev)")
        let renderer = try SampleFiles.renderer("collection.heic")
        #expect(renderer.pageCount == 2)
        #expect(renderer.details.contains(CardRow("Images", "2")), "\(renderer.details)")
        // The primary: photo.jpg (red left, blue right).
        let photo = try renderer.render(page: 0, size: .natural)
        #expect(photo.width == 80 && photo.height == 60)
        #expect(photo.pixel(x: 20, y: 30).isClose(to: 255, 0, 0, tolerance: 40))
        #expect(photo.pixel(x: 60, y: 30).isClose(to: 0, 0, 255, tolerance: 40))
        // The second: quadrants.png (red, green / blue, white).
        let quadrants = try renderer.render(page: 1, size: .natural)
        #expect(quadrants.width == 64 && quadrants.height == 48)
        #expect(quadrants.pixel(x: 8, y: 8).isClose(to: 255, 0, 0, tolerance: 40))
        #expect(quadrants.pixel(x: 56, y: 8).isClose(to: 0, 255, 0, tolerance: 40))
        #expect(quadrants.pixel(x: 8, y: 40).isClose(to: 0, 0, 255, tolerance: 40))
        #expect(quadrants.pixel(x: 56, y: 40).isClose(to: 255, 255, 255, tolerance: 40))
    }

    /// A raster no larger than the file's thumbnail (40×30 here) is drawn from it.
    @Test func smallRastersAreDrawnFromTheFilesThumbnail() throws {
        try #require(LazyLibraries.heifIsInstalled)
        let heif = try HEIFFile(file: try SampleFiles.open("collection.heic"), limits: .standard)
        #expect(try heif.image(0, thumbnailSide: 32, limits: .standard).width == 40, "the thumbnail")
        #expect(try heif.image(0, thumbnailSide: 64, limits: .standard).width == 80, "larger than the thumbnail: the image")
        #expect(try heif.image(0, limits: .standard).width == 80)
        let small = try SampleFiles.renderer("collection.heic").render(size: .longestSide(32))
        #expect(small.width == 32 && small.height == 24)
        #expect(small.pixel(x: 6, y: 12).isClose(to: 255, 0, 0, tolerance: 50))
        #expect(small.pixel(x: 26, y: 12).isClose(to: 0, 0, 255, tolerance: 50))
    }

    @Test func aCutFileIsRefusedInOneLine() throws {
        try #require(LazyLibraries.heifIsInstalled)
        #expect {
            _ = try SampleFiles.renderer("truncated.heic").render(size: .natural)
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged && error.reason.contains("HEIF") && !error.reason.contains("\n")
        }
    }

    @Test func thePixelLimitIsCheckedBeforeDecoding() throws {
        try #require(LazyLibraries.heifIsInstalled)
        var limits = RenderLimits.standard
        limits.maximumImagePixels = 1000
        #expect {
            _ = try SampleFiles.renderer("photo.heic", limits: limits).render(size: .natural)
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .limitExceeded && error.reason.contains("80×60")
        }
    }

    @Test func infoTellsTheSizeFromLibheif() throws {
        try #require(LazyLibraries.heifIsInstalled)
        let info = try #require(ImageProbe.info(of: try SampleFiles.open("photo.avif")))
        #expect(info.width == 80 && info.height == 60 && info.format == "heif")
    }
}
