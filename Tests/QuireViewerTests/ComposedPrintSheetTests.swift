import Foundation
import Quire
import QuireRenderService
import QuireTestSupport
import QuireViewer
import Testing

/// The print sheet composing the job (pages per sheet, paper, booklet) in the render worker:
/// the preview's sides are drawn by the composer that draws the job, so they are the job's pages.
@Suite("Print sheet composes what it previews (worker + real cupsd)")
final class ComposedPrintSheetTests {
    let directory = TemporaryDirectory()
    let twelve: String

    init() throws {
        twelve = directory.file("twelve.pdf")
        try TestPDF.write(pages: 12, to: twelve)
    }

    func model(_ bed: CUPSTestBed) -> ViewerModel {
        ViewerModel(paths: [DocumentPath(twelve)],
                    configuration: RealWorkerConfiguration.make(printSystem: PrintSystem(server: PrintServer(bed.server), environment: bed.environment())))
    }

    /// Mean absolute difference per channel (0…255) and the share of pixels off by more than 48.
    static func difference(_ a: RenderedImage, _ b: RenderedImage) -> (mean: Double, off: Double) {
        guard a.width == b.width, a.height == b.height else { return (255, 1) }
        var total = 0, off = 0
        for index in stride(from: 0, to: a.pixels.count, by: 4) {
            var worst = 0
            for channel in 0..<3 {
                let d = abs(Int(a.pixels[index + channel]) - Int(b.pixels[index + channel]))
                total += d
                worst = max(worst, d)
            }
            if worst > 48 { off += 1 }
        }
        return (Double(total) / Double(a.pixels.count / 4 * 3), Double(off) / Double(a.pixels.count / 4))
    }

    @Test func thePreviewStripsSidesAreTheComposedJobsPagesAndTheJobArrivesInOrder() throws {
        let bed = try CUPSTestBed(.full)
        let model = model(bed)
        let sheet = try model.makePrintSheet()
        sheet.pagesText = "5-10"
        sheet.chosen.numberUp = 2
        #expect(sheet.firstProblem == nil)
        #expect(sheet.composes)
        #expect(sheet.summary == "3 sheets of Letter, 3 sides")
        let request = try #require(sheet.sheetRequest)
        #expect(request.pages == Array(5...10))

        // The job the sheet sends, rendered page by page, against the preview's sides.
        let pdf = try sheet.composedPDF()
        let path = directory.file("job.pdf")
        try Data(pdf).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: DocumentPath(path))
        let job = try Renderer(file: file, contentType: try ContentType.detect(file))
        #expect(job.pageCount == 3)
        for side in 0..<3 {
            let preview = try model.renderPrintPreviewSide(side, sheet: request, fitting: (width: 240, height: 240))
            let printed = try job.render(page: side, size: .fit(width: 240, height: 240), allowUpscaling: true)
            #expect((preview.width, preview.height) == (printed.width, printed.height))
            let (mean, off) = Self.difference(preview, printed)
            #expect(mean < 1.0 && off < 0.002, "side \(side + 1): mean difference \(mean), \(off * 100)% of pixels differ")
        }
        // Another layout is another picture: the comparison above can fail.
        sheet.chosen.numberUp = 4
        let four = try #require(sheet.sheetRequest)
        let other = try model.renderPrintPreviewSide(0, sheet: four, fitting: (width: 240, height: 240))
        let first = try job.render(page: 0, size: .fit(width: 240, height: 240), allowUpscaling: true)
        #expect(Self.difference(other, first).mean > 2)
        #expect(sheet.summary == "2 sheets of Letter, 2 sides")

        // Sent: document pages 5–10, two per side, in order.
        sheet.chosen.numberUp = 2
        let sent = try sheet.submit()
        #expect(sent.destination == "quire-office")
        let received = try #require(bed.waitForDocument(titled: "twelve.pdf"))
        var numbers: [[Int]] = []
        for page in 1...3 {
            let text = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", String(page), "-l", String(page), received.path, "-"]).standardOutputText
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            numbers.append(zip(words, words.dropFirst()).compactMap { $0 == "Page" ? Int($1) : nil })
        }
        #expect(numbers == [[5, 6], [7, 8], [9, 10]])
    }

    @Test func bookletSaveAsPDFAndBadChoices() throws {
        let bed = try CUPSTestBed(.full)
        let model = model(bed)
        let sheet = try model.makePrintSheet()
        sheet.pagesText = "1-8"
        sheet.chosen.booklet = true
        #expect(sheet.bookletDuplex)
        #expect(sheet.bookletNote == nil)
        #expect(sheet.summary == "2 sheets of Letter, 4 sides")
        let out = directory.file("booklet.pdf")
        sheet.saveAsPDF = DocumentPath(out)
        #expect(try sheet.saveAsPDFFile() == 4)
        #expect(CUPSTestBed.pageCount(ofPDF: out) == 4)
        let first = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", "1", "-l", "1", out, "-"]).standardOutputText
        #expect(first.contains("Page 8") && first.contains("Page 1"))
        // A booklet of one page, a paper the printer does not take: problems, nothing sent.
        sheet.saveAsPDF = nil
        sheet.pagesText = "3"
        #expect(sheet.problem(in: .booklet) == "a booklet needs at least 2 pages")
        sheet.chosen.booklet = false
        sheet.paper = PaperSize.named("A5")
        #expect(sheet.problem(in: .paper)?.hasPrefix("quire-office does not take A5 (it takes ") == true)
        #expect(throws: PrintError.self) { try sheet.submit() }
        #expect(bed.receivedDocuments().isEmpty)
    }

    /// Page order, border, odd or even sides and reverse order, chosen in the sheet, are what
    /// the composed job holds (read back from the saved PDF with pdftotext and its pixels).
    @Test func pageOrderBorderSidesAndReverseAreInTheComposedJob() throws {
        let bed = try CUPSTestBed(.full)
        let model = model(bed)
        let sheet = try model.makePrintSheet()
        sheet.pageChoice = .range
        sheet.pagesText = "1-8"
        #expect(!sheet.fields.contains(.layout), "order and border need several pages per side")
        sheet.chosen.numberUp = 4
        #expect(sheet.fields.contains(.layout) && sheet.fields.contains(.border))
        func lines(_ path: String, page: Int) -> [String] {
            ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", String(page), "-l", String(page), path, "-"])
                .standardOutputText.split(separator: "\n").map(String.init).filter { $0.contains("Page") }
        }
        // Left to right first: pages 1 and 2 share the top row; top to bottom first: 1 and 3.
        let across = directory.file("across.pdf")
        sheet.saveAsPDF = DocumentPath(across)
        _ = try sheet.saveAsPDFFile()
        #expect(lines(across, page: 1).first.map { $0.contains("Page 1") && $0.contains("Page 2") } == true, "\(lines(across, page: 1))")
        sheet.chosen.layout = .tblr
        let down = directory.file("down.pdf")
        sheet.saveAsPDF = DocumentPath(down)
        _ = try sheet.saveAsPDFFile()
        #expect(lines(down, page: 1).first.map { $0.contains("Page 1") && $0.contains("Page 3") } == true, "\(lines(down, page: 1))")

        // A border adds ink around each page on the side (thin lines: any grey counts).
        let request = try #require(sheet.sheetRequest)
        let plain = try model.renderPrintPreviewSide(0, sheet: request, fitting: (width: 800, height: 800))
        sheet.chosen.border = .doubleThick
        let framed = try model.renderPrintPreviewSide(0, sheet: try #require(sheet.sheetRequest), fitting: (width: 800, height: 800))
        func ink(_ image: RenderedImage) -> Int { stride(from: 0, to: image.pixels.count, by: 4).count { image.pixels[$0] < 200 } }
        #expect(ink(framed) > ink(plain) + 1000, "border: \(ink(framed)) grey pixels against \(ink(plain))")

        // Two per side over 8 pages is 4 sides; odd sides are 1 and 3, reversed 3 then 1.
        sheet.chosen.numberUp = 2
        sheet.chosen.border = .none
        sheet.chosen.layout = .lrtb
        sheet.chosen.pageSet = .odd
        sheet.chosen.reverse = true
        #expect(sheet.summary?.hasSuffix("2 sides") == true, "\(sheet.summary ?? "")")
        let odd = directory.file("odd.pdf")
        sheet.saveAsPDF = DocumentPath(odd)
        #expect(try sheet.saveAsPDFFile() == 2)
        #expect(lines(odd, page: 1).joined().contains("Page 5") && lines(odd, page: 1).joined().contains("Page 6"))
        #expect(lines(odd, page: 2).joined().contains("Page 1") && lines(odd, page: 2).joined().contains("Page 2"))
        // Even sides of a single side: nothing to print, said.
        sheet.pagesText = "1-2"
        sheet.chosen.pageSet = .even
        sheet.chosen.reverse = false
        #expect(sheet.problem(in: .pageSet) == "there is only one side: no even sides to print")
    }

    @Test func aPrinterThatLostDuplexSinceThePreviewGetsTheBookletInTwoPassesSaidFirst() throws {
        let bed = try CUPSTestBed(.full)
        let model = model(bed)
        let sheet = try model.makePrintSheet()
        sheet.pagesText = "1-8"
        sheet.chosen.booklet = true
        #expect(sheet.bookletDuplex)
        #expect(sheet.summary == "2 sheets of Letter, 4 sides")
        // Between preview and Print the queue becomes one-sided (a raw queue lists no sides).
        let uri = try #require(try String(contentsOfFile: bed.directory.file("env"), encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("TESTBED_IPP_URI=") }?.dropFirst("TESTBED_IPP_URI=".count))
        try bed.admin("lpadmin", "-p", "quire-office", "-v", String(uri), "-m", "raw")
        do {
            _ = try sheet.submit()
            Issue.record("a booklet was sent without telling the user about the two passes")
        } catch let error as PrintError {
            #expect(error.message.hasPrefix("quire-office no longer prints on both sides: the booklet prints in two passes"), "\(error.message)")
        }
        #expect(bed.receivedDocuments().isEmpty, "nothing is sent with the warning")
        #expect(!sheet.bookletDuplex)
        #expect(sheet.bookletNote?.contains("two passes") == true)
        // Print again: the fronts; then the backs.
        _ = try sheet.submit()
        #expect(sheet.bookletPass == .even)
        #expect(sheet.bookletNote?.hasPrefix("Fronts sent.") == true)
        let fronts = try #require(bed.waitForDocument(titled: "twelve.pdf"))
        #expect(CUPSTestBed.pageCount(ofPDF: fronts.path) == 2)
        let first = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", "1", "-l", "1", fronts.path, "-"]).standardOutputText
        #expect(first.contains("Page 8") && first.contains("Page 1"), "\(first)")
        _ = try sheet.submit()
        #expect(sheet.bookletPass == nil)
    }
}
