import QuireRenderService
import Foundation
import QuireRender
import QuireSystem
import QuireTestSupport
import QuireTypes
import Testing
@testable import QuireThumbnails

/// The image-page fast path for Flate images: a first page that is one large Flate-compressed
/// image is inflated row by row into a box filter, and the thumbnail looks like poppler's
/// rendering of the same page; every other kind of image page is left to poppler.
@Suite struct FlateImagePageTests {
    /// The pages of `Samples/image-pages.py`, generated once per test process.
    static let pages: TemporaryDirectory = {
        let directory = TemporaryDirectory("quire-image-pages")
        let script = Samples.repositoryRoot.appendingPathComponent("Samples/image-pages.py").path
        let result = ProcessRunner.run(["/usr/bin/python3", script, directory.path], timeout: 600)
        precondition(result.status == 0, "image-pages.py failed: \(result.standardError)")
        return directory
    }()

    static func open(_ name: String) throws -> InputFile { try InputFile(path: DocumentPath(pages.file(name))) }

    /// poppler's (cairo) rendering of the first page, the normal thumbnail path.
    static func poppler(_ file: InputFile, size: Int) throws -> RenderedImage {
        try Renderer(file: file, contentType: try ContentType.detect(file)).render(page: 0, size: .longestSide(size), allowUpscaling: false)
    }

    static func meanDifference(_ a: RenderedImage, _ b: RenderedImage) -> Double {
        var total = 0
        for index in 0..<a.pixels.count { total += abs(Int(a.pixels[index]) - Int(b.pixels[index])) }
        return Double(total) / Double(a.pixels.count)
    }

    static func flate(_ scan: ScannedPageProbe.Scan?) -> FlateImageDownscaler.Source? {
        if case .flate(let source)? = scan?.image { return source }
        return nil
    }

    @Test(arguments: [("image-page-rgb.pdf", 3, 1), ("image-page-png.pdf", 3, 15), ("image-page-gray.pdf", 1, 1), ("image-page-icc.pdf", 3, 1)])
    func aFullPageFlateImageIsReducedWhileInflatedAndLooksLikePopplersRendering(name: String, components: Int, predictor: Int) throws {
        let file = try Self.open(name)
        let scan = try #require(ScannedPageProbe.scan(of: file), "\(name)")
        let source = try #require(Self.flate(scan))
        #expect(source.width == 1000 && source.height == 750 && source.components == components && source.predictor == predictor)
        #expect(scan.pageWidth == 400 && scan.pageHeight == 300 && scan.pageCount == 1)

        let thumbnails = try RendererThumbnailSource().renderThumbnails(of: file, type: try ContentType.detect(file), sizes: [128, 256])
        #expect(thumbnails.pageCount == 1)
        for (size, height) in [(128, 96), (256, 192)] {
            let fast = try #require(FlateImageDownscaler.downscale(source, width: size, height: height))
            let slow = try Self.poppler(file, size: size)
            #expect(fast.width == slow.width && fast.height == slow.height)
            // The same picture: small mean difference per channel, and the picture's features
            // where poppler has them (the red disc's centre, the dark bar, the gradient's corners).
            let mean = Self.meanDifference(fast, slow)
            #expect(mean < 4, "\(name) at \(size): mean difference \(mean)")
            for (x, y) in [(Int(0.35 * Double(size)), Int(0.45 * Double(height))), (size / 2, Int(0.74 * Double(height))),
                           (2, 2), (size - 3, height - 3)] {
                let a = fast.pixel(x: x, y: y), b = slow.pixel(x: x, y: y)
                #expect(abs(Int(a.red) - Int(b.red)) <= 12 && abs(Int(a.green) - Int(b.green)) <= 12
                        && abs(Int(a.blue) - Int(b.blue)) <= 12 && a.alpha == 255, "\(name) \(size) at \(x),\(y): \(a) vs \(b)")
            }
            // The batch thumbnail is this fast image, not poppler's.
            #expect(thumbnails.pngBySize[size] == (try PNGEncoder.encode(fast)), "\(name) at \(size)")
        }
    }

    /// A PNG read back through the image renderer (never enlarged, so at its own size).
    static func decodePNG(_ png: [UInt8]) throws -> RenderedImage {
        let directory = TemporaryDirectory()
        let path = directory.file("thumbnail.png")
        try Data(png).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: DocumentPath(path))
        return try Renderer(file: file, contentType: try ContentType.detect(file)).render(page: 0, size: .longestSide(4096), allowUpscaling: false)
    }

    @Test(arguments: [("image-page-margins.pdf", 50.0, 40.0, 300.0, 220.0), ("image-page-partial.pdf", 0.0, 0.0, 200.0, 300.0)])
    func anImageInsideWhiteMarginsIsPlacedOnWhitePaperAsPopplerDrawsIt(name: String, x: Double, y: Double, width: Double, height: Double) throws {
        let file = try Self.open(name)
        let scan = try #require(ScannedPageProbe.scan(of: file))
        #expect(Self.flate(scan) != nil)
        #expect(!scan.coversPage)
        #expect(scan.placement == ScannedPageProbe.Scan.Placement(x: x, y: y, width: width, height: height))
        let thumbnails = try RendererThumbnailSource().renderThumbnails(of: file, type: try ContentType.detect(file), sizes: [256])
        let fast = try Self.decodePNG(try #require(thumbnails.pngBySize[256]))
        let slow = try Self.poppler(file, size: 256)
        try #require(fast.width == slow.width && fast.height == slow.height)
        let mean = Self.meanDifference(fast, slow)
        #expect(mean < 4, "\(name): mean difference \(mean)")
        // Paper where the page has none of the image, the picture where it has.
        let scale = 256.0 / 400
        for (px, py) in [(2, 2), (253, 190), (Int((x + width * 0.35) * scale), Int((y + height * 0.45) * scale))] {
            let a = fast.pixel(x: px, y: py), b = slow.pixel(x: px, y: py)
            #expect(abs(Int(a.red) - Int(b.red)) <= 12 && abs(Int(a.green) - Int(b.green)) <= 12
                    && abs(Int(a.blue) - Int(b.blue)) <= 12 && a.alpha == 255, "\(name) at \(px),\(py): \(a) vs \(b)")
        }
        #expect(fast.pixel(x: 253, y: 190) == RenderedImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255))
    }

    @Test func pngPredictorsGiveTheSamePixelsAsTheUnpredictedStream() throws {
        let plain = try #require(Self.flate(ScannedPageProbe.scan(of: try Self.open("image-page-rgb.pdf"))))
        let predicted = try #require(Self.flate(ScannedPageProbe.scan(of: try Self.open("image-page-png.pdf"))))
        for (width, height) in [(256, 192), (100, 75), (7, 5)] {
            let a = try #require(FlateImageDownscaler.downscale(plain, width: width, height: height))
            let b = try #require(FlateImageDownscaler.downscale(predicted, width: width, height: height))
            #expect(a == b, "\(width)×\(height)")
        }
    }

    @Test func otherImagePagesAreLeftToPoppler() throws {
        // Not the page's only content, not covering the page, or stored in a way the fast path
        // does not read: the probe declines.
        for name in ["image-page-text.pdf", "image-page-tiny.pdf", "image-page-tiff.pdf", "image-page-indexed.pdf", "image-page-16bit.pdf"] {
            #expect(ScannedPageProbe.scan(of: try Self.open(name)) == nil, "\(name)")
        }
        // Found, but a damaged stream or an image less than twice the thumbnail goes to poppler:
        // the thumbnail is poppler's.
        let truncated = try #require(Self.flate(ScannedPageProbe.scan(of: try Self.open("image-page-truncated.pdf"))))
        #expect(FlateImageDownscaler.downscale(truncated, width: 128, height: 96) == nil)
        #expect(Self.flate(ScannedPageProbe.scan(of: try Self.open("image-page-small.pdf")))?.width == 300)
        for name in ["image-page-truncated.pdf", "image-page-small.pdf", "image-page-text.pdf", "image-page-indexed.pdf"] {
            let file = try Self.open(name)
            let thumbnails = try RendererThumbnailSource().renderThumbnails(of: file, type: try ContentType.detect(file), sizes: [256])
            #expect(thumbnails.pngBySize[256] == (try PNGEncoder.encode(try Self.poppler(file, size: 256))), "\(name)")
        }
    }

    /// A one-page PDF with a valid xref from object bodies (object 1 is the catalog).
    static func pdf(_ objects: [String]) -> Data {
        var out = "%PDF-1.7\n"
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }

    @Test func hostileNumbersAreDeclinedWithoutTrapping() throws {
        // Values beyond Int's range (1e20) where the probes read integers: image size, page
        // rotation, shading type, predictor parameters. The probes must say no, not crash.
        let huge = "100000000000000000000.0"
        let directory = TemporaryDirectory()
        func page(_ name: String, image: String, rotate: String = "0", resources: String = "/XObject << /Im0 5 0 R >>") throws -> InputFile {
            let path = directory.file(name)
            try Self.pdf([
                "<< /Type /Catalog /Pages 2 0 R >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Rotate \(rotate) /Resources << \(resources) >> /Contents 4 0 R >>",
                "<< /Length 30 >>\nstream\nq 400 0 0 300 0 0 cm /Im0 Do Q\nendstream",
                "<< /Type /XObject /Subtype /Image \(image) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /Length 2 >>\nstream\nx\u{1}\nendstream",
                "<< /ShadingType \(huge) /ColorSpace /DeviceRGB /Function << /FunctionType 2 /Domain [0 1] /C0 [0 0 0] /C1 [1 1 1] /N 1 >> >>",
            ]).write(to: URL(fileURLWithPath: path))
            return try InputFile(path: DocumentPath(path))
        }
        #expect(ScannedPageProbe.scan(of: try page("width.pdf", image: "/Width \(huge) /Height 10")) == nil)
        #expect(ScannedPageProbe.scan(of: try page("rotate.pdf", image: "/Width 10 /Height 10", rotate: huge)) == nil)
        #expect(ScannedPageProbe.scan(of: try page("columns.pdf", image: "/Width 10 /Height 10 /DecodeParms << /Predictor 15 /Colors 3 /Columns \(huge) >>")) == nil)
        #expect(!PageBackendProbe.prefersSplash(try page("shading.pdf", image: "/Width 10 /Height 10", resources: "/Shading << /Sh0 6 0 R >>")))
        // The same page with sane numbers is found (so the checks above are about the numbers).
        #expect(ScannedPageProbe.scan(of: try page("sane.pdf", image: "/Width 10 /Height 10")) != nil)
    }

    @Test func theCheapPrefilterLooksForAnImageNameNotAProcSet() throws {
        let directory = TemporaryDirectory()
        func file(_ text: String) throws -> InputFile {
            let path = directory.file("f-\(text.count).pdf")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return try InputFile(path: DocumentPath(path))
        }
        #expect(!PDFNameScan(try file("%PDF-1.4 << /ProcSet [/PDF /Text /ImageB /ImageC /ImageI] >>")).image)
        #expect(PDFNameScan(try file("%PDF-1.4 << /Subtype/Image/Width 4 >>")).image)
        #expect(PDFNameScan(try file("%PDF-1.4 << /Subtype /Image\n/Width 4 >>")).image)
        #expect(PDFNameScan(try Self.open("image-page-rgb.pdf")).image)
        #expect(!PDFNameScan(try InputFile(path: DocumentPath(Samples.path("many-glyphs.pdf")))).image)
        #expect(PDFNameScan(try file("%PDF-1.4 /Image")) == PDFNameScan(), "a name cut off by the file's end is not one")
    }

    /// The scan reads 64 KiB at a time: a name across the edge of a read is found once the next
    /// read goes on from before it, wherever the edge falls in it.
    @Test func namesAcrossTheEdgeOfAReadAreFound() throws {
        let directory = TemporaryDirectory()
        for name in ["/ShadingType 2", "/ObjStm", "/Image "] {
            for shift in 0..<(name.count + 2) {
                let at = PDFNameScan.chunk - name.count + shift
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: at) + Array(name.utf8)
                bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
                let path = directory.file("edge-\(name.count)-\(shift).pdf")
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let names = PDFNameScan(try InputFile(path: DocumentPath(path)))
                let expected = PDFNameScan(image: name.hasPrefix("/Image"), shadingType: name.hasPrefix("/Shading"),
                                           objectStream: name.hasPrefix("/ObjStm"))
                #expect(names == expected, "\(name) at \(at): \(names)")
            }
        }
        // And in real files.
        #expect(PDFNameScan(try Self.open("image-page-rgb.pdf")).image)
        #expect(PDFNameScan(try InputFile(path: DocumentPath(Samples.path("shading-function.pdf")))).shadingType)
    }
}
