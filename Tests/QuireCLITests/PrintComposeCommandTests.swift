import Foundation
import QuireTestSupport
import Testing

/// `quire print` composing the job itself, through the built binary against the real test bed
/// (cupsd + IPP Everywhere printer): what reaches the printer is read back with poppler's
/// pdftotext and pdfinfo, page by page.
@Suite("quire print composes sheets (real cupsd)")
final class PrintComposeCommandTests {
    let bed: CUPSTestBed
    let twelve: String

    init() throws {
        bed = try CUPSTestBed(.full)
        twelve = bed.directory.file("twelve.pdf")
        try TestPDF.write(pages: 12, to: twelve)
    }

    func quire(_ arguments: [String], _ extra: [String: String] = [:]) -> ProcessRunner.Result {
        QuireBinary.run(arguments, environment: bed.environment(extra))
    }

    /// The "Page N" numbers on each page of a PDF, left to right (pdftotext -layout).
    static func pageNumbers(_ pdf: String) -> [[Int]] {
        guard let count = CUPSTestBed.pageCount(ofPDF: pdf) else { return [] }
        return (1...max(1, count)).map { page in
            let text = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", String(page), "-l", String(page), pdf, "-"]).standardOutputText
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            return zip(words, words.dropFirst()).compactMap { $0 == "Page" ? Int($1) : nil }
        }
    }

    /// "W x H" of each page (pdfinfo), rounded to points.
    static func pageSizes(_ pdf: String) -> [String] {
        let info = ProcessRunner.run(["/usr/bin/pdfinfo", "-f", "1", "-l", "999", pdf]).standardOutputText
        return info.split(separator: "\n").filter { $0.hasPrefix("Page") && $0.contains("size:") }.map { line in
            let parts = line.split(separator: " ")
            guard let x = parts.firstIndex(of: "x"), x > 0, x + 1 < parts.count,
                  let w = Double(parts[x - 1]), let h = Double(parts[x + 1]) else { return "?" }
            return "\(Int(w.rounded())) x \(Int(h.rounded()))"
        }
    }

    @Test func pagesFiveToTenTwoPerSheetArriveAsThreeSheetsInOrder() throws {
        let result = quire(["print", "-P", "5-10", "-o", "number-up=2", "-t", "nup-5-10", twelve])
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "nup-5-10"))
        // Document pages 5–10, not CUPS's sheets 5–10 of 6 (pages 9–12 and nothing).
        #expect(Self.pageNumbers(received.path) == [[5, 6], [7, 8], [9, 10]])
        // Quire composed it: no number-up or page-ranges reached the printer.
        #expect(received.attributes["IPP_NUMBER_UP"] == nil || received.attributes["IPP_NUMBER_UP"] == "1")
        #expect(received.attributes["IPP_PAGE_RANGES"] == nil)
    }

    @Test func anEightPageBookletIsFourSidesInFoldingOrderDuplexShortEdge() throws {
        let result = quire(["print", "-P", "1-8", "--booklet", "-t", "booklet-8", twelve])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "a duplex printer needs no second pass: \(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "booklet-8"))
        #expect(Self.pageNumbers(received.path) == [[8, 1], [2, 7], [6, 3], [4, 5]])
        #expect(received.attributes["IPP_SIDES"] == "two-sided-short-edge")
    }

    @Test func saveAsPDFWritesExactlyTheComposedJobAndSendsNothing() throws {
        let out = bed.directory.file("a5.pdf")
        let result = quire(["print", "--output", out, "-o", "media=A5", "-o", "fit-to-page", "-P", "2-3", twelve])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText == "wrote \(out): 2 sheets of A5, 2 sides (pages 2-3)\n")
        #expect(Self.pageSizes(out) == ["420 x 595", "420 x 595"])
        #expect(Self.pageNumbers(out) == [[2], [3]])
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
        // The same options sent to the printer arrive as the same pages (A4 here: the bed's
        // printer has no A5, which is refused with its list).
        let booklet = bed.directory.file("booklet.pdf")
        #expect(quire(["print", "--output", booklet, "--booklet", "-P", "1-8", twelve]).status == 0)
        #expect(Self.pageNumbers(booklet) == [[8, 1], [2, 7], [6, 3], [4, 5]])
    }

    @Test func layoutOrderReverseOddEvenAndCollateAsLpSpellsThem() throws {
        let out = bed.directory.file("order.pdf")
        // 4 per side, top to bottom then left to right: pages 1,2 in the left column.
        #expect(quire(["print", "--output", out, "-P", "1-4", "-o", "number-up=4 number-up-layout=tblr", twelve]).status == 0)
        let text = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", out, "-"]).standardOutputText
        let rows = text.split(separator: "\n").map { line in
            let words = line.split(separator: " ")
            return zip(words, words.dropFirst()).compactMap { $0 == "Page" ? Int($1) : nil }
        }.filter { !$0.isEmpty }
        #expect(rows == [[1, 3], [2, 4]], "\(rows)")
        // Reverse: last side first; odd sides only.
        #expect(quire(["print", "--output", out, "-P", "1-6", "-o", "number-up=2", "-o", "outputorder=reverse", twelve]).status == 0)
        #expect(Self.pageNumbers(out) == [[5, 6], [3, 4], [1, 2]])
        #expect(quire(["print", "--output", out, "-P", "1-5", "-o", "page-set=odd", twelve]).status == 0)
        #expect(Self.pageNumbers(out) == [[1], [3], [5]])
        // A border is drawn: the bordered side has more dark pixels than the plain one.
        let plain = bed.directory.file("plain.pdf"), bordered = bed.directory.file("bordered.pdf")
        #expect(quire(["print", "--output", plain, "-P", "1-2", "-o", "number-up=2", twelve]).status == 0)
        #expect(quire(["print", "--output", bordered, "-P", "1-2", "-o", "number-up=2", "-o", "page-border=double-thick", twelve]).status == 0)
        func dark(_ pdf: String) -> Int {
            let png = pdf + ".pgm"
            _ = ProcessRunner.run(["/usr/bin/pdftoppm", "-r", "36", "-gray", "-singlefile", pdf, pdf])
            guard let data = FileManager.default.contents(atPath: png) else { return -1 }
            return data.suffix(data.count / 2).filter { $0 < 128 }.count
        }
        #expect(dark(bordered) > dark(plain) + 50, "borders: \(dark(bordered)) vs \(dark(plain))")
        // Collated copies of a composed job reach the scheduler as lp's collate does.
        let sent = quire(["print", "-n", "2", "-o", "collate=true", "-o", "number-up=2", "-P", "1-4", "-t", "collated", twelve])
        #expect(sent.status == 0, "\(sent.standardError)")
        let received = try #require(bed.waitForDocument(titled: "collated"))
        #expect(received.attributes["IPP_MULTIPLE_DOCUMENT_HANDLING"] == "separate-documents-collated-copies", "\(received.attributes)")
        #expect(received.attributes["IPP_COPIES"] == "2")
        #expect(Self.pageNumbers(received.path) == [[1, 2], [3, 4]])
    }

    @Test func fitToPageOnTheChosenPaperGivesPagesOfThatPaper() throws {
        let result = quire(["print", "-o", "media=A4", "-o", "fit-to-page", "-P", "1-2", "-t", "fit-a4", twelve])
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "fit-a4"))
        #expect(Self.pageSizes(received.path) == ["595 x 842", "595 x 842"])
        #expect(received.attributes["IPP_MEDIA"] == "iso_a4_210x297mm" || received.attributes["IPP_MEDIA_COL"]?.contains("21000") == true,
                "\(received.attributes.filter { $0.key.contains("MEDIA") })")
    }

    @Test(arguments: [
        (["-o", "media=A5"], 64, "quire: quire-office: does not support media A5 (supported: Env10, EnvDL, A4, Letter, Legal)\n"),
        (["-o", "media=Foolscap9"], 64, "quire: unknown paper \"Foolscap9\" (known: A3, A4, A5, A6, B5, B4, Letter, Legal, Tabloid, Executive, Statement, Env10, EnvDL, EnvC5, 4x6, JIS-B5, JIS-B4, or a PWG name such as iso_a4_210x297mm)\n"),
        (["-o", "number-up=3"], 64, "quire: number-up=3: expected 1, 2, 4, 6, 9 or 16\n"),
        (["-o", "number-up-layout=zz"], 64, "quire: number-up-layout=zz: expected one of lrtb, lrbt, rltb, rlbt, tblr, tbrl, btlr, btrl\n"),
        (["--booklet", "-P", "4"], 64, "quire: twelve.pdf: a booklet needs at least 2 pages (this has 1)\n"),
        (["-o", "number-up=2", "-P", "5-13"], 64, "quire: page range 5-13 is beyond the last page (the document has 12 pages)\n"),
    ])
    func badSheetOptionsAreOneLineAndNothingIsSent(_ arguments: [String], _ status: Int32, _ message: String) {
        let result = quire(["print"] + arguments + [twelve])
        #expect(result.status == status)
        #expect(result.standardError == message)
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func anUnwritableOutputIsExit73AndLeavesNothing() throws {
        let directory = bed.directory.file("locked")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let missing = quire(["print", "--output", directory + "/no/such/dir/out.pdf", "-o", "number-up=2", twelve])
        #expect(missing.status == 73)
        #expect(missing.standardError.hasPrefix("quire: \(directory)/no/such/dir/out.pdf: cannot create output"), "\(missing.standardError)")
        #expect(missing.standardError.split(separator: "\n").count == 1)
        // A directory where the file should go: refused, and nothing half-written beside it.
        let onDirectory = quire(["print", "--output", directory, "-o", "number-up=2", twelve])
        #expect(onDirectory.status == 73, "\(onDirectory.standardError)")
        #expect((try FileManager.default.contentsOfDirectory(atPath: directory)).isEmpty)
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func aOneSidedPrinterGetsTheBookletInTwoPassesSaidBeforeSending() throws {
        // A queue to the same printer that offers no duplex (CUPS's raw queue lists no sides).
        let uri = try #require(try String(contentsOfFile: bed.directory.file("env"), encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("TESTBED_IPP_URI=") }?.dropFirst("TESTBED_IPP_URI=".count))
        try bed.admin("lpadmin", "-p", "quire-simplex", "-E", "-v", String(uri), "-m", "raw")
        let fronts = quire(["print", "-d", "quire-simplex", "--booklet", "-P", "1-8", "-t", "fronts", twelve])
        #expect(fronts.status == 0, "\(fronts.standardError)")
        // Told before anything is sent (stderr comes before the request id on stdout).
        #expect(fronts.standardError.hasPrefix("quire: warning: quire-simplex prints on one side only, so the booklet prints in two passes"),
                "\(fronts.standardError)")
        #expect(fronts.standardError.contains("-o page-set=even"))
        let first = try #require(bed.waitForDocument(titled: "fronts"))
        // The fronts of the two sheets: 8|1 and 6|3.
        #expect(Self.pageNumbers(first.path) == [[8, 1], [6, 3]])
        let backs = quire(["print", "-d", "quire-simplex", "--booklet", "-P", "1-8", "-o", "page-set=even", "-t", "backs", twelve])
        #expect(backs.status == 0)
        #expect(backs.standardError.isEmpty, "the second pass is asked for: no warning: \(backs.standardError)")
        let second = try #require(bed.waitForDocument(titled: "backs"))
        #expect(Self.pageNumbers(second.path) == [[2, 7], [4, 5]])
    }

    @Test func savedOptionsAreReadBackByLpoptionsAndUsedByLpAndByQuire() throws {
        // Saved the CUPS way (as root, libcups keeps them in $CUPS_SERVERROOT/lpoptions; a user's in ~/.cups).
        let serverRoot = bed.directory.file("serverroot")
        try FileManager.default.createDirectory(atPath: serverRoot, withIntermediateDirectories: true)
        let env = ["CUPS_SERVERROOT": serverRoot]
        let save = quire(["print", "--remember", "-d", "quire-office", "-o", "number-up=2", "--sides", "long", "-o", "media=A4",
                          "-n", "3", "-P", "1-2", "--dry-run", twelve], env)
        #expect(save.status == 0, "\(save.standardError)")
        let listed = ProcessRunner.run(["/usr/bin/lpoptions", "-p", "quire-office"], environment: bed.environment(env)).standardOutputText
        #expect(listed.contains("number-up=2"), "\(listed)")
        #expect(listed.contains("sides=two-sided-long-edge"))
        #expect(listed.contains("media=iso_a4_210x297mm"))
        // Never copies or ranges.
        #expect(!listed.contains("copies=3") && !listed.contains("page-ranges"))
        // lp uses them: CUPS applies number-up 2 to 4 pages → 2 sheets, long-edge duplex.
        let four = bed.directory.file("four.pdf")
        try TestPDF.write(pages: 4, to: four)
        let lp = ProcessRunner.run(["/usr/bin/lp", "-d", "quire-office", "-t", "lp-saved", four], environment: bed.environment(env))
        #expect(lp.status == 0, "\(lp.standardError)")
        let byLp = try #require(bed.waitForDocument(titled: "lp-saved"))
        #expect(CUPSTestBed.pageCount(ofPDF: byLp.path) == 2)
        #expect(byLp.attributes["IPP_SIDES"] == "two-sided-long-edge")
        // --dry-run says so.
        let dry = quire(["print", "--dry-run", "-P", "5-8", twelve], env)
        #expect(dry.standardOutputText.contains("pages 5-8 (composed by Quire: 1 sheet of A4, 2 sides)"), "\(dry.standardOutputText)")
        // Quire uses them too, composing itself: pages 5–8 two per side.
        let byQuire = quire(["print", "-P", "5-8", "-t", "quire-saved", twelve], env)
        #expect(byQuire.status == 0, "\(byQuire.standardError)")
        let received = try #require(bed.waitForDocument(titled: "quire-saved"))
        #expect(Self.pageNumbers(received.path) == [[5, 6], [7, 8]])
        #expect(received.attributes["IPP_SIDES"] == "two-sided-long-edge")
        // Several files with the saved options: one job, CUPS applying them to each document
        // as lp does (Quire composes one file at a time), not a refusal.
        let both = quire(["print", "-t", "saved-two-files", four, twelve], env)
        #expect(both.status == 0, "\(both.standardError)")
        #expect(both.standardOutputText.contains("(2 file(s))"), "\(both.standardOutputText)")
        let oneOfTwo = try #require(bed.waitForDocument(titled: "saved-two-files"))
        // Two per side: 4 pages → 2 or 12 → 6 (without number-up: 4 or 12).
        let count = CUPSTestBed.pageCount(ofPDF: oneOfTwo.path)
        #expect(count == 2 || count == 6, "\(String(describing: count)) pages")
    }
}
