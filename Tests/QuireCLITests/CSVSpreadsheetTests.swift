import Foundation
import QuireRenderService
import QuireTestSupport
import QuireTypes
import Testing

/// `--csv-as-spreadsheet` with the real LibreOffice: CSV and TSV files laid out by Calc (its
/// printed pages, as `soffice --convert-to pdf` makes them from the same file), a cell's text
/// on page 1, the default unchanged (text), the terminal viewer, and the option without
/// LibreOffice.
@Suite("CSV as a spreadsheet", .serialized)
struct CSVSpreadsheetTests {
    /// LibreOffice's own PDF of `sample`, read with the CSV filter options for `separator`
    /// (the separator given explicitly: soffice's default import does not split at semicolons).
    /// Paper from LC_PAPER=en_US, as Quire's office (Language=en-US) lays it out: US Letter.
    static func sofficePages(_ sample: String, separator: Int, in scratch: TemporaryDirectory) -> Int? {
        var environment = ProcessInfo.processInfo.environment
        environment["LC_PAPER"] = "en_US.UTF-8"
        let profile = scratch.file("profile")
        let converted = ProcessRunner.run(["/usr/bin/soffice", "-env:UserInstallation=file://\(profile)", "--headless", "--norestore",
                                           "--infilter=Text - txt - csv (StarCalc):\(separator),34,76,1",
                                           "--convert-to", "pdf", "--outdir", scratch.file("soffice"), Samples.path(sample)],
                                          environment: environment, timeout: 120)
        guard converted.status == 0 else { return nil }
        let base = (sample as NSString).deletingPathExtension
        return CUPSTestBed.pageCount(ofPDF: scratch.file("soffice/\(base).pdf"))
    }

    static func textOfPage(_ page: Int, _ pdf: String) -> String {
        ProcessRunner.run(["/usr/bin/pdftotext", "-f", "\(page)", "-l", "\(page)", "-layout", pdf, "-"], timeout: 30).standardOutputText
    }

    @Test(arguments: [("table.csv", 44), ("table-semicolon.csv", 59), ("table.tsv", 9)])
    func previewGivesCalcsPages(sample: String, separator: Int) throws {
        let scratch = TemporaryDirectory()
        let pdf = scratch.file("sheet.pdf")
        let result = QuireBinary.run(["preview", "--csv-as-spreadsheet", Samples.path(sample), "--format", "pdf", "-o", pdf], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let pages = CUPSTestBed.pageCount(ofPDF: pdf) ?? 0
        #expect(pages > 1, "300 rows span several printed pages")
        let reference = Self.sofficePages(sample, separator: separator, in: scratch)
        #expect(reference != nil && pages == reference, "Quire \(pages) pages, soffice \(String(describing: reference))")
        // Page 1: the cells in their columns (no separators left), the quoted field with a
        // comma in one cell, UTF-8 read as UTF-8.
        let text = Self.textOfPage(1, pdf)
        for cell in ["Item 001", "Kraków", "Paris, France", "Amount"] {
            #expect(text.contains(cell), "\(cell) missing from page 1: \(text.prefix(400))")
        }
        #expect(!text.contains("Item 001,") && !text.contains("Item 001;"), "separators left in the cells: \(text.prefix(400))")
        let row = text.split(separator: "\n").first { $0.contains("Item 002") }.map(String.init) ?? ""
        #expect(row.contains("Kraków") && row.contains("14"), "row 2 across its columns: \(row)")
    }

    /// Without the option a CSV file is Quire's own table: `info` has no page count, the preview
    /// is the table's grid (cells without their separators), not Calc's pages.
    @Test func withoutTheOptionCSVIsText() throws {
        let scratch = TemporaryDirectory()
        let plain = QuireBinary.run(["info", Samples.path("table.csv")], timeout: 60)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(!plain.standardOutputText.contains("Pages:"), "\(plain.standardOutputText)")
        let asked = QuireBinary.run(["info", "--csv-as-spreadsheet", Samples.path("table.csv")], timeout: 120)
        #expect(asked.status == 0, "\(asked.standardError)")
        #expect(asked.standardOutputText.contains("Pages:") && asked.standardOutputText.contains("US Letter"), "\(asked.standardOutputText)")

        let pdf = scratch.file("text.pdf")
        let result = QuireBinary.run(["preview", Samples.path("table.csv"), "--format", "pdf", "-o", pdf], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let text = Self.textOfPage(1, pdf)
        #expect(text.contains("Item") && text.contains("Amount") && text.contains("Item 001") && text.contains("Lyon"), "\(text.prefix(300))")
        #expect(!text.contains("Item 001,"), "the table's cells, not the text as written: \(text.prefix(300))")
    }

    /// `print --output` (Save as PDF) sends Calc's pages with the option, the table's without.
    @Test func printSavesCalcsPages() throws {
        let scratch = TemporaryDirectory()
        let sheet = scratch.file("sheet.pdf")
        let asked = QuireBinary.run(["print", "--csv-as-spreadsheet", "--output", sheet, Samples.path("table-semicolon.csv")], timeout: 120)
        #expect(asked.status == 0, "\(asked.standardError)")
        let text = scratch.file("text.pdf")
        let plain = QuireBinary.run(["print", "--output", text, Samples.path("table-semicolon.csv")], timeout: 60)
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(Self.textOfPage(1, sheet).contains("Paris, France") && !Self.textOfPage(1, sheet).contains("Item 001;"))
        #expect(Self.textOfPage(1, text).contains("Item 001") && !Self.textOfPage(1, text).contains("Item 001;"))
        let preview = scratch.file("preview.pdf")
        _ = QuireBinary.run(["preview", "--csv-as-spreadsheet", Samples.path("table-semicolon.csv"), "--format", "pdf", "-o", preview], timeout: 120)
        #expect(CUPSTestBed.pageCount(ofPDF: sheet) != nil && CUPSTestBed.pageCount(ofPDF: sheet) == CUPSTestBed.pageCount(ofPDF: preview))
    }

    /// Without LibreOffice the option says so in one line, EX_UNAVAILABLE, nothing written.
    @Test(arguments: [["preview", "--csv-as-spreadsheet", "-o", "OUT"], ["info", "--csv-as-spreadsheet"],
                      ["print", "--csv-as-spreadsheet", "--output", "OUT"], ["look", "--terminal", "--csv-as-spreadsheet"]])
    func withoutLibreOfficeTheOptionIsOneLine(words: [String]) throws {
        let scratch = TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_OFFICE_PROGRAM"] = "/nonexistent/libreoffice/program"
        let arguments = words.map { $0 == "OUT" ? scratch.file("out.pdf") : $0 } + [Samples.path("table.csv")]
        let result = QuireBinary.run(arguments, timeout: 60, environment: environment)
        #expect(result.status == 69, "\(result.status) \(result.standardError)")
        #expect(result.errorLines.count == 1 && result.standardError.contains("--csv-as-spreadsheet: LibreOffice Calc is not installed"),
                "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    /// The terminal viewer (tmux): with the option the file is Calc's pages ("page 1 of N",
    /// N as `preview` counts them); without it, the table as text.
    @Test func terminalViewerShowsCalcsPages() throws {
        let scratch = TemporaryDirectory()
        let pdf = scratch.file("sheet.pdf")
        _ = QuireBinary.run(["preview", "--csv-as-spreadsheet", Samples.path("table.csv"), "--format", "pdf", "-o", pdf], timeout: 120)
        let pages = CUPSTestBed.pageCount(ofPDF: pdf) ?? 0
        try #require(pages > 1)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = scratch.file("state")
        environment["CUPS_SERVER"] = "127.0.0.1:1"
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let session = try TmuxSession([QuireBinary.path, "look", "--csv-as-spreadsheet", Samples.path("table.csv")], environment: environment)
        let screen = session.wait(for: "page 1 of \(pages)", timeout: 60)
        #expect(TmuxSession.lastLine(screen).contains("page 1 of \(pages)"), "\(screen)")
        session.send("q")

        let text = try TmuxSession([QuireBinary.path, "look", Samples.path("table.csv")], environment: environment)
        let shown = text.wait(for: "Item 001", timeout: 30)
        #expect(shown.contains("Item 001 │ Lyon") && !TmuxSession.lastLine(shown).contains("page 1 of"), "\(shown)")
        text.send("q")
    }

    /// The render worker (the viewers' path, over the wire): the request carries the choice;
    /// with it the file opens as Calc's pages (also when page 1 is asked for first, as the
    /// viewers do), without it as lines of text; the page has ink.
    @Test func renderWorkerCarriesTheChoice() throws {
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 120)
        defer { client.stop() }
        let path = DocumentPath(Samples.path("table.csv"))
        let sheet = try client.open(DocumentRequest(path: path, csvAsSpreadsheet: true))
        #expect(sheet.pageCount > 1 && sheet.text == nil, "\(sheet.pageCount) pages")
        let text = try client.open(DocumentRequest(path: path))
        #expect(text.pageCount == 0 && text.text?.lines.contains { $0.contains("Item 001") } == true)
        let first = try client.open(DocumentRequest(path: path, firstPageFirst: true, csvAsSpreadsheet: true))
        #expect(first.pageCount == sheet.pageCount)
        let image = try client.renderPage(PageRequest(document: DocumentRequest(path: path, csvAsSpreadsheet: true),
                                                      page: 0, width: 300, height: 400))
        #expect(image.width > 0 && image.pixels.contains { $0 < 128 }, "ink on page 1")
    }

    /// One-shot commands have Calc lay the file out in the sandboxed render worker (a `bwrap`
    /// child, LibreOffice never mapped into the command), as for office documents; the control
    /// without bubblewrap loads it into the command.
    @Test func oneShotCommandsConvertInTheSandboxedWorker() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap: make test installs it")
        let scratch = TemporaryDirectory()
        let arguments = ["info", "--csv-as-spreadsheet", Samples.path("table.csv"), Samples.path("table.tsv")]
        let sandboxed = try OfficeSandboxTests.observe(arguments, in: scratch)
        #expect(sandboxed.status == 0, "\(sandboxed.standardError)")
        #expect(sandboxed.sandboxedChild && !sandboxed.officeInCommand)
        #expect(sandboxed.workers.count == 1, "both files through one worker")
        #expect(sandboxed.standardOutput.components(separatedBy: "Pages:").count == 3, "\(sandboxed.standardOutput)")
        let unconfined = try OfficeSandboxTests.observe(arguments, environment: ["QUIRE_BWRAP": "/nonexistent/bwrap"], in: scratch)
        #expect(unconfined.status == 0 && unconfined.officeInCommand && !unconfined.sandboxedChild, "\(unconfined.standardError)")
        #expect(unconfined.standardOutput == sandboxed.standardOutput)
    }
}
