import Foundation
import Testing
@testable import QuireRender
import QuireTypes

@Suite struct PDFExportTests {
    /// Converts `name` to PDF and reopens the result with poppler.
    func export(_ name: String, pages: [Int]? = nil) throws -> (PDFDocument, [UInt8]) {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try SampleFiles.open(name)
        let output = DocumentPath(directory.appendingPathComponent("out.pdf").path)
        try PDFExport.write(file, contentType: try ContentType.detect(file), pages: pages, to: output)
        let exported = try InputFile(path: output)
        let bytes = try exported.read(upTo: Int(exported.size))
        return (try PDFDocument(file: exported), bytes)
    }

    @Test func textBecomesA4Pages() throws {
        let (pdf, _) = try export("long.txt")
        #expect(pdf.pageCount == 4)
        #expect(pdf.pageSize(at: 0)?.paperName == "A4")
    }

    @Test func imageBecomesOnePageOfItsSize() throws {
        let (pdf, _) = try export("photo-rotated.jpg")
        #expect(pdf.pageCount == 1)
        #expect(pdf.pageSize(at: 0) == PageSize(width: 60, height: 80))
    }

    @Test func svgStaysVector() throws {
        let (pdf, bytes) = try export("drawing.svg")
        #expect(pdf.pageCount == 1)
        #expect(pdf.pageSize(at: 0) == PageSize(width: 120, height: 80))
        // No image XObject: the shapes are paths.
        #expect(bytes.firstRange(of: Array("/Subtype /Image".utf8)) == nil)
    }

    @Test func pdfPagesCanBeSelected() throws {
        let (pdf, _) = try export("document.pdf", pages: [2, 0])
        #expect(pdf.pageCount == 2)
        // The red rectangle is on the original page 1, now page 2.
        let file = try SampleFiles.open("document.pdf")
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        let reread = try renderer.pdfData(pages: [0])
        #expect(reread.starts(with: Array("%PDF-".utf8)))
    }

    @Test func exportedTextRendersInk() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try SampleFiles.open("notes.txt")
        let output = DocumentPath(directory.appendingPathComponent("notes.pdf").path)
        try PDFExport.write(file, contentType: try ContentType.detect(file), to: output)
        let exported = try InputFile(path: output)
        let renderer = try Renderer(file: exported, contentType: ContentType(mimeType: "application/pdf"))
        let image = try renderer.render(page: 0, size: .width(595))
        var darkest = 255
        for x in 48..<200 { for y in 50..<60 { darkest = min(darkest, Int(image.pixel(x: x, y: y).green)) } }
        #expect(darkest < 100)
    }

    @Test func failedExportLeavesNothingBehind() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try SampleFiles.open("pixel-bomb.png")
        let output = DocumentPath(directory.appendingPathComponent("out.pdf").path)
        #expect(throws: DocumentError.self) {
            try PDFExport.write(file, contentType: try ContentType.detect(file), to: output)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
