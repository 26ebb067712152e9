import QuireRenderService
import Foundation
import QuireRender
import QuireTestSupport
import QuireTypes
import Testing
@testable import QuireThumbnails

/// The scanned-page fast path: a first page that is one full-page JPEG is decoded at reduced
/// scale, and looks like poppler's rendering of the same page; anything else is left to poppler.
@Suite struct ScannedPageTests {
    /// A one-page PDF whose page shows `jpeg` (pixel size `width`×`height`) over a
    /// `pageWidth`×`pageHeight` page, with `extraContent` appended to the page's content.
    static func scanPDF(jpeg: [UInt8], width: Int, height: Int, pageWidth: Int, pageHeight: Int,
                        drawnWidth: Int? = nil, drawnHeight: Int? = nil, extraContent: String = "") -> [UInt8] {
        let content = "q \(drawnWidth ?? pageWidth) 0 0 \(drawnHeight ?? pageHeight) 0 0 cm /Im0 Do Q\(extraContent)\n"
        var pdf: [UInt8] = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        func object(_ body: [UInt8]) {
            offsets.append(pdf.count)
            pdf += Array("\(offsets.count) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        object(Array("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        object(Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8))
        object(Array("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(pageWidth) \(pageHeight)] /Resources << /XObject << /Im0 5 0 R >> /Font << /F1 6 0 R >> >> /Contents 4 0 R >>".utf8))
        object(Array("<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream".utf8))
        object(Array("<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length \(jpeg.count) >>\nstream\n".utf8)
               + jpeg + Array("\nendstream".utf8))
        object(Array("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".utf8))
        let xref = pdf.count
        pdf += Array("xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { pdf += Array(String(format: "%010d 00000 n \n", offset).utf8) }
        pdf += Array("trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return pdf
    }

    static func write(_ bytes: [UInt8], _ directory: TemporaryDirectory, _ name: String) throws -> InputFile {
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try InputFile(path: DocumentPath(path))
    }

    @Test func aFullPageJPEGIsFoundAndMatchesPopplersRendering() throws {
        let directory = TemporaryDirectory()
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path("format.jpg"))))
        let file = try Self.write(Self.scanPDF(jpeg: jpeg, width: 300, height: 200, pageWidth: 450, pageHeight: 300), directory, "scan.pdf")
        let scan = try #require(ScannedPageProbe.scan(of: file))
        #expect(scan.jpeg == jpeg)
        #expect(scan.pageWidth == 450 && scan.pageHeight == 300 && scan.pageCount == 1)

        let scanned = try #require(scan.jpeg)
        let fast = try #require(ScaledJPEGDecoder.decode(scanned, width: 128, height: 85))
        let type = try ContentType.detect(file)
        let slow = try Renderer(file: file, contentType: type).render(page: 0, size: .longestSide(128), allowUpscaling: false)
        #expect(fast.width == slow.width && fast.height == slow.height)
        // Same picture: mean absolute difference per channel is small.
        var total = 0
        for index in 0..<min(fast.pixels.count, slow.pixels.count) { total += abs(Int(fast.pixels[index]) - Int(slow.pixels[index])) }
        let mean = Double(total) / Double(fast.pixels.count)
        #expect(mean < 12, "mean difference \(mean)")

        let rendered = try RendererThumbnailSource().renderThumbnails(of: file, type: type, sizes: [128, 256])
        #expect(rendered.pageCount == 1)
        #expect(PNGChunks.header(try #require(rendered.pngBySize[256]))?.width == 256)
        #expect(PNGChunks.header(try #require(rendered.pngBySize[128]))?.colorType == 6)
    }

    @Test func aJPEGWithAWhiteMarginIsPlacedWherePopplerDrawsIt() throws {
        // A 450×300 pt picture at the bottom of a 600×400 pt page: white above and to the right.
        let directory = TemporaryDirectory()
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path("format.jpg"))))
        let file = try Self.write(Self.scanPDF(jpeg: jpeg, width: 300, height: 200, pageWidth: 600, pageHeight: 400,
                                               drawnWidth: 450, drawnHeight: 300), directory, "margin.pdf")
        let scan = try #require(ScannedPageProbe.scan(of: file))
        #expect(!scan.coversPage && scan.placement == ScannedPageProbe.Scan.Placement(x: 0, y: 100, width: 450, height: 300))
        let type = try ContentType.detect(file)
        let png = try #require(try RendererThumbnailSource().renderThumbnails(of: file, type: type, sizes: [256]).pngBySize[256])
        let pngPath = directory.file("thumbnail.png")
        try Data(png).write(to: URL(fileURLWithPath: pngPath))
        let pngFile = try InputFile(path: DocumentPath(pngPath))
        let fast = try Renderer(file: pngFile, contentType: try ContentType.detect(pngFile)).render(page: 0, size: .longestSide(4096), allowUpscaling: false)
        let slow = try Renderer(file: file, contentType: type).render(page: 0, size: .longestSide(256), allowUpscaling: false)
        try #require(fast.width == slow.width && fast.height == slow.height)
        var total = 0
        for index in 0..<fast.pixels.count { total += abs(Int(fast.pixels[index]) - Int(slow.pixels[index])) }
        let mean = Double(total) / Double(fast.pixels.count)
        #expect(mean < 12, "mean difference \(mean)")
        let white = RenderedImage.Pixel(red: 255, green: 255, blue: 255, alpha: 255)
        #expect(fast.pixel(x: 250, y: 5) == white && fast.pixel(x: 100, y: 20) == white && fast.pixel(x: 250, y: 160) == white)
        #expect(fast.pixel(x: 90, y: 110) != white)
    }

    @Test func pagesWithMoreThanTheImageGoThroughPoppler() throws {
        let directory = TemporaryDirectory()
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path("format.jpg"))))
        let withText = try Self.write(Self.scanPDF(jpeg: jpeg, width: 300, height: 200, pageWidth: 450, pageHeight: 300,
                                                   extraContent: " BT /F1 24 Tf 10 10 Td (Hello) Tj ET"), directory, "text.pdf")
        #expect(ScannedPageProbe.scan(of: withText).map { _ in true } == nil)
        let partial = try Self.write(Self.scanPDF(jpeg: jpeg, width: 300, height: 200, pageWidth: 900, pageHeight: 600,
                                                  drawnWidth: 300, drawnHeight: 200),
                                     directory, "partial.pdf")
        #expect(ScannedPageProbe.scan(of: partial).map { _ in true } == nil, "the image covers a ninth of the page")
        #expect(ScannedPageProbe.scan(of: try InputFile(path: DocumentPath(Samples.path("document.pdf")))).map { _ in true } == nil)
        #expect(ScannedPageProbe.scan(of: try InputFile(path: DocumentPath(Samples.path("garbage.pdf")))).map { _ in true } == nil)
    }
}
