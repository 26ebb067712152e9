import Foundation
import Testing
@testable import QuireRender
import QuireTypes

@Suite struct ImageRenderingTests {
    @Test func quadrantsAtNaturalSize() throws {
        let image = try SampleFiles.renderer("quadrants.png").render()
        #expect(image.width == 64 && image.height == 48)
        #expect(image.pixel(x: 10, y: 10).isClose(to: 255, 0, 0, tolerance: 0))
        #expect(image.pixel(x: 50, y: 10).isClose(to: 0, 255, 0, tolerance: 0))
        #expect(image.pixel(x: 10, y: 40).isClose(to: 0, 0, 255, tolerance: 0))
        #expect(image.pixel(x: 50, y: 40).isClose(to: 255, 255, 255, tolerance: 0))
    }

    /// photo-rotated.jpg is stored 80×60 (left red, right blue) with EXIF orientation 6.
    @Test func exifRotatedJPEGComesOutUpright() throws {
        let renderer = try SampleFiles.renderer("photo-rotated.jpg")
        let image = try renderer.render()
        #expect(image.width == 60 && image.height == 80)
        #expect(image.pixel(x: 30, y: 10).isClose(to: 255, 0, 0))
        #expect(image.pixel(x: 30, y: 70).isClose(to: 0, 0, 255))
        let small = try renderer.render(size: .longestSide(40))
        #expect(small.width == 30 && small.height == 40)
        #expect(small.pixel(x: 15, y: 5).isClose(to: 255, 0, 0, tolerance: 40))
        #expect(small.pixel(x: 15, y: 35).isClose(to: 0, 0, 255, tolerance: 40))
    }

    @Test(arguments: ["format.png", "format.jpg", "format.gif", "format.tiff", "format.bmp", "format.ico"])
    func everyImageFormatDecodesAtReducedSize(name: String) throws {
        let renderer = try SampleFiles.renderer(name)
        let image = try renderer.render(size: .longestSide(100))
        #expect(image.width == 100)
        #expect(image.pixel(x: 10, y: image.height / 2).isClose(to: 255, 0, 0))
        #expect(image.pixel(x: 90, y: image.height / 2).isClose(to: 0, 0, 255))
    }

    /// Issue 39: an iPhone-style HEIC and an AVIF photo (heif-enc from photo.jpg: left red, right
    /// blue) through the gdk-pixbuf loaders `make deps` installs (heif-gdk-pixbuf,
    /// libavif-gdk-pixbuf; the package recommends them).
    @Test(arguments: ["photo.heic", "photo.avif"])
    func heicAndAVIFPhotosAreDrawn(name: String) throws {
        try #require(ImageProbe.canLoad(mimeType: name.hasSuffix("heic") ? "image/heif" : "image/avif"),
                     "the loader is installed by make deps (heif-gdk-pixbuf, libavif-gdk-pixbuf)")
        let image = try SampleFiles.renderer(name).render(size: .longestSide(80))
        #expect(image.width == 80 && image.height == 60)
        #expect(image.pixel(x: 20, y: 30).isClose(to: 255, 0, 0, tolerance: 40))
        #expect(image.pixel(x: 60, y: 30).isClose(to: 0, 0, 255, tolerance: 40))
    }

    /// WebP works where a loader is installed (webp-pixbuf-loader); without one, a WebP file is
    /// reported as unsupported with the reason, never rendered as garbage.
    @Test func webpFollowsTheInstalledLoader() throws {
        if ImageProbe.canLoad(mimeType: "image/webp") {
            let image = try SampleFiles.renderer("format.webp").render(size: .longestSide(100))
            #expect(image.width == 100)
            #expect(image.pixel(x: 10, y: 30).isClose(to: 255, 0, 0))
            #expect(image.pixel(x: 90, y: 30).isClose(to: 0, 0, 255))
        } else {
            let directory = try SampleFiles.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let url = directory.appendingPathComponent("tiny.webp")
            // RIFF/WEBP/VP8L header of a 1×1 lossless image.
            try Data([0x52, 0x49, 0x46, 0x46, 0x1A, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4C,
                      0x0D, 0, 0, 0, 0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0]).write(to: url)
            let file = try InputFile(path: DocumentPath(url.path))
            let type = try ContentType.detect(file)
            #expect(type.mimeType == "image/webp")
            #expect(throws: DocumentError.self) { try Renderer(file: file, contentType: type).render() }
        }
    }

    @Test func pixelBombIsRefusedBeforeDecoding() throws {
        #expect {
            _ = try SampleFiles.renderer("pixel-bomb.png")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .limitExceeded && error.reason.contains("100000×100000")
        }
    }

    /// fuzz-thumbnail's out-of-memory input (Fuzz/corpus/thumbnail/oom-bmp-info-header-size): a
    /// "BM" file whose info-header size field says 3.7 GB. gdk-pixbuf's BMP loader grew its buffer
    /// to that size before rejecting it; Quire refuses the header before any loader sees it, in
    /// the renderer and in the info probe, while a real BMP still probes and renders.
    @Test func bmpClaimingAHugeInfoHeaderNeverReachesTheLoader() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("hostile.bmp")
        try Data([0x42, 0x4D, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + Array(repeating: 0xDC, count: 31)
                 + [0, 0x05, 0, 0, 0]).write(to: url)
        let file = try InputFile(path: DocumentPath(url.path))
        #expect(ImageProbe.info(of: file) == nil)
        #expect {
            _ = try Renderer(file: file, contentType: ContentType(mimeType: "image/bmp")).render(size: .longestSide(64))
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .damaged && error.reason.contains("info header of 3705461980 bytes")
        }
        let real = try InputFile(path: DocumentPath(SampleFiles.path("format.bmp")))
        #expect(ImageProbe.info(of: real)?.width ?? 0 > 0)
        #expect(ImageIntegrity.unsafeHeader(head: try real.read(upTo: 32)) == nil)
    }

    @Test(arguments: ["truncated.png", "truncated.jpg", "garbage.jpg"])
    func damagedImagesAreRefused(name: String) throws {
        #expect {
            _ = try SampleFiles.renderer(name).render(size: .longestSide(64))
        } throws: { ($0 as? DocumentError)?.kind == .damaged }
    }

    @Test func svgKeepsItsColoursAndTransparency() throws {
        let renderer = try SampleFiles.renderer("drawing.svg")
        let image = try renderer.render(size: .width(240))
        #expect(image.width == 240 && image.height == 160)
        #expect(image.pixel(x: 20, y: 80).isClose(to: 255, 0, 0, tolerance: 0))
        #expect(image.pixel(x: 220, y: 80).isClose(to: 0, 0, 255, tolerance: 0))
    }

    @Test func svgDoesNotLoadExternalFiles() throws {
        // The SVG references file:///etc/passwd and an http URL: both ignored, the green
        // rectangle is drawn.
        let image = try SampleFiles.renderer("external.svg").render(size: .width(100))
        #expect(image.pixel(x: 50, y: 50).isClose(to: 0, 255, 0, tolerance: 0))
    }

    @Test func damagedSVGIsRefused() throws {
        #expect {
            _ = try SampleFiles.renderer("truncated.svg")
        } throws: { ($0 as? DocumentError)?.kind == .damaged }
    }
}
