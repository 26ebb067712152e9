import Foundation
import QuireTestSupport
import Testing

/// Office documents printed through the real cupsd and IPP printer of the test bed: converted
/// to PDF by LibreOffice, page ranges checked against the document's real page count.
@Suite("Printing office documents (real cupsd)")
final class OfficePrintTests {
    let bed: CUPSTestBed

    init() throws {
        bed = try CUPSTestBed(.full)
    }

    func quire(_ arguments: [String]) -> ProcessRunner.Result {
        QuireBinary.run(arguments, timeout: 120, environment: bed.environment())
    }

    /// Page 2 of a 20-page .docx reaches the printer as one page, and it is page 2 (its text).
    @Test func pageTwoOfADocxReachesThePrinter() throws {
        let result = quire(["print", "-P", "2", "-t", "office-page-2", Samples.path("office-report.docx")])
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "office-page-2", timeout: 60))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 1)
        let text = ProcessRunner.run(["/usr/bin/pdftotext", received.path, "-"], timeout: 30).standardOutputText
        #expect(text.contains("Section 2") && !text.contains("Section 1\n"), "\(text.prefix(200))")
    }

    @Test func rangesBeyondTheRealPageCountAreUsageErrors() {
        let result = quire(["print", "-P", "21", Samples.path("office-report.docx")])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.errorLines.count == 1 && result.standardError.contains("the document has 20 pages"), "\(result.standardError)")
    }

    /// `actions` offers Print for an office file when a printer takes jobs.
    @Test func actionsOfferPrint() {
        let result = quire(["actions", Samples.path("office-sheet.xlsx")])
        #expect(result.status == 0, "\(result.standardError)")
        let print = result.standardOutputText.split(separator: "\n").first { $0.contains("Print") }.map(String.init) ?? ""
        #expect(print.contains("yes") || print.contains("available"), "\(result.standardOutputText)")
    }
}
