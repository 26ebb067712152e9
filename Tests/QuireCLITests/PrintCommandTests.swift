import Foundation
import QuireTestSupport
import Testing

/// The printing commands through the built `quire` binary, against a real private cupsd and
/// IPP printer: what the user sees, the exit status, and what actually reaches the printer.
@Suite("quire print, jobs, cancel, release (real cupsd)")
final class PrintCommandTests {
    let bed: CUPSTestBed
    let sixPages: String

    init() throws {
        bed = try CUPSTestBed(.full)
        sixPages = bed.directory.file("six.pdf")
        try TestPDF.write(pages: 6, to: sixPages)
    }

    func quire(_ arguments: [String], _ extra: [String: String] = [:]) -> ProcessRunner.Result {
        QuireBinary.run(arguments, environment: bed.environment(extra))
    }

    func activeJobCount() -> Int {
        quire(["jobs"]).standardOutputText.split(separator: "\n").count
    }

    @Test func printsLikeLpAndThePrinterReceivesTheRightPagesCopiesAndSides() throws {
        let result = quire(["print", "-P", "2-4", "-n", "3", "--sides", "long", "-t", "cli-ranges", sixPages])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let line = result.standardOutputText
        #expect(line.hasPrefix("request id is quire-office-"))
        #expect(line.hasSuffix(" (1 file(s))\n"))
        let received = try #require(bed.waitForDocument(titled: "cli-ranges"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 3)
        #expect(received.attributes["IPP_COPIES"] == "3")
        #expect(received.attributes["IPP_SIDES"] == "two-sided-long-edge")
    }

    @Test func passthroughOptionsAndPriorityReachTheJob() throws {
        let result = quire(["print", "-o", "job-sheets=none", "-o", "print-quality=5", "-q", "80", "-t", "cli-extra", sixPages])
        #expect(result.status == 0)
        let received = try #require(bed.waitForDocument(titled: "cli-extra"))
        #expect(received.attributes["IPP_PRINT_QUALITY"] == "high")
        // job-priority is the scheduler's: it stays with the job on cupsd.
        let requestID = try #require(result.standardOutputText.split(separator: " ").dropFirst(3).first.map(String.init))
        #expect(quire(["job", requestID]).standardOutputText.contains("Priority:   80\n"))
    }

    @Test func collateLandscapeAndMediaAreApplied() throws {
        let result = quire(["print", "--collate", "-n", "2", "--landscape", "--media", "iso_a4_210x297mm",
                            "-t", "cli-layout", sixPages])
        #expect(result.status == 0)
        let received = try #require(bed.waitForDocument(titled: "cli-layout"))
        #expect(received.attributes["IPP_MULTIPLE_DOCUMENT_HANDLING"] == "separate-documents-collated-copies")
        // Quire composed landscape A4 sides (CUPS got no orientation of its own); the queue's
        // pdftopdf turns each onto the A4 sheet in the tray: A4 pages arrive.
        let info = ProcessRunner.run(["/usr/bin/pdfinfo", received.path]).standardOutputText
        #expect(info.contains("Page size:       595.276 x 841.89 pts (A4)"), "\(info)")
        #expect(received.attributes["IPP_ORIENTATION_REQUESTED"] == nil, "\(received.attributes)")
        let saved = bed.directory.file("landscape.pdf")
        #expect(quire(["print", "--output", saved, "--landscape", "--media", "iso_a4_210x297mm", sixPages]).status == 0)
        #expect(ProcessRunner.run(["/usr/bin/pdfinfo", saved]).standardOutputText.contains("Page size:       841.89 x 595.276 pts (A4)"))
    }

    @Test func severalFilesMakeOneJob() throws {
        let two = bed.directory.file("two.pdf")
        try TestPDF.write(pages: 2, to: two)
        let result = quire(["print", "-t", "cli-two-files", sixPages, two])
        #expect(result.status == 0)
        #expect(result.standardOutputText.hasSuffix(" (2 file(s))\n"))
        let requestID = try #require(result.standardOutputText.split(separator: " ").dropFirst(3).first.map(String.init))
        let json = quire(["job", "--json", requestID])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [String: Any])
        #expect(record["title"] as? String == "cli-two-files")
    }

    @Test func colourIsRefusedByAMonochromePrinter() {
        let result = quire(["print", "--color", sixPages])
        #expect(result.status == 64)
        #expect(result.standardError == "quire: quire-office: does not print in color (supported: monochrome)\n")
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test(arguments: [("0", "pages are numbered from 1"), ("5-3", "runs backwards"), ("x", "is not a page number"),
                      ("7", "beyond the last page (the document has 6 pages)")])
    func badPageRangesAreUsageErrorsAndSendNothing(_ range: String, _ message: String) throws {
        let result = quire(["print", "-P", range, sixPages])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.contains(message))
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func unknownDestinationListsTheAvailableOnes() {
        let result = quire(["print", "-d", "nope", sixPages])
        #expect(result.status == 64)
        #expect(result.standardError == "quire: nope: no such printer (available: quire-office, quire-rejecting, quire-stopped)\n")
    }

    @Test func rejectingQueueIsRefusedWithItsReason() {
        let result = quire(["print", "-d", "quire-rejecting", sixPages])
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.contains("quire-rejecting: the printer is not accepting jobs (closed for maintenance)"))
        #expect(result.standardError.contains("0x0506"))
    }

    @Test func stoppedPrinterQueuesTheJobWithAWarning() {
        let result = quire(["print", "-d", "quire-stopped", "-t", "cli-stopped", sixPages])
        #expect(result.status == 0)
        #expect(result.standardOutputText.hasPrefix("request id is quire-stopped-"))
        #expect(result.standardError.hasPrefix("quire: warning: quire-stopped is stopped (paper jam in tray 2)"))
        let jobs = quire(["jobs", "-d", "quire-stopped"]).standardOutputText
        #expect(jobs.contains("pending"))
        #expect(jobs.contains("cli-stopped"))
    }

    @Test func heldJobIsListedCancelledAndGone() throws {
        let printed = quire(["print", "-H", "hold", "-t", "cli-held", sixPages])
        #expect(printed.status == 0)
        let requestID = try #require(printed.standardOutputText.split(separator: " ").dropFirst(3).first.map(String.init))
        let listed = quire(["jobs"])
        #expect(listed.standardOutputText.contains("\(requestID)  root"))
        #expect(listed.standardOutputText.contains("held"))
        let details = quire(["job", requestID])
        #expect(details.status == 0)
        #expect(details.standardOutputText.contains("State:      held"))
        #expect(details.standardOutputText.contains("Hold until: indefinite"))

        let cancelled = quire(["cancel", requestID])
        #expect(cancelled.status == 0)
        #expect(!quire(["jobs"]).standardOutputText.contains(requestID))
        #expect(quire(["job", requestID]).standardOutputText.contains("State:      canceled"))
        let json = quire(["jobs", "--completed", "--json"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        #expect(records.contains { ($0["title"] as? String) == "cli-held" && ($0["state"] as? String) == "canceled" })
        #expect(bed.waitForDocument(titled: "cli-held", timeout: 1) == nil)
    }

    @Test func releasedJobReachesThePrinter() throws {
        let printed = quire(["print", "-H", "hold", "-t", "cli-release", sixPages])
        let requestID = try #require(printed.standardOutputText.split(separator: " ").dropFirst(3).first.map(String.init))
        #expect(quire(["release", requestID]).status == 0)
        #expect(bed.waitForDocument(titled: "cli-release") != nil)
    }

    @Test func cancelAllOnADestination() {
        for title in ["a", "b"] { _ = quire(["print", "-H", "hold", "-t", title, sixPages]) }
        #expect(activeJobCount() == 2)
        let result = quire(["cancel", "-a", "-d", "quire-office"])
        #expect(result.status == 0)
        #expect(result.standardOutputText == "cancelled 2 job(s)\n")
        #expect(activeJobCount() == 0)
    }

    @Test func unknownJobIsAUsageError() {
        let result = quire(["cancel", "4242"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("job 4242: no such job"))
        #expect(quire(["job", "x-y"]).status == 64)
    }

    @Test func dryRunShowsThePlanAndSendsNothing() {
        let result = quire(["print", "--dry-run", "-P", "2-5", "--number-up", "2", "-n", "2", sixPages])
        #expect(result.status == 0)
        let out = result.standardOutputText
        #expect(out.contains("destination: quire-office\n"))
        // Quire composes pages 2–5 two per side itself; CUPS gets neither number-up nor page-ranges.
        #expect(out.contains("six.pdf (application/pdf, 6 pages): pages 2-5 (composed by Quire: 2 sheets of Letter, 2 sides)"), "\(out)")
        #expect(out.contains("options: copies=2 media=na_letter_8.5x11in\n"))
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func previewWritesExactlyThePagesThatWouldPrint() {
        let out = bed.directory.file("preview.pdf")
        let result = quire(["print", "--preview", out, "-P", "1,3-4", sixPages])
        #expect(result.status == 0)
        #expect(CUPSTestBed.pageCount(ofPDF: out) == 3)
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func defaultDestinationFollowsLPDEST() {
        let result = quire(["print", "--dry-run", sixPages], ["LPDEST": "quire-stopped"])
        #expect(result.standardOutputText.hasPrefix("destination: quire-stopped (stopped: paper jam in tray 2)\n"))
    }

    @Test func lpoptionsInstanceIsTheDefaultAndItsOptionsApply() throws {
        let home = bed.directory.file("home")
        try FileManager.default.createDirectory(atPath: home + "/.cups", withIntermediateDirectories: true)
        try "Dest quire-office/draft print-quality=3\nDefault quire-office/draft\n"
            .write(toFile: home + "/.cups/lpoptions", atomically: true, encoding: .utf8)
        #expect(quire(["printers"]).standardOutputText.contains("quire-office/draft (default): idle, accepting jobs\n"))
        let result = quire(["print", "-t", "cli-instance", sixPages])
        #expect(result.standardOutputText.hasPrefix("request id is quire-office-"))
        let received = try #require(bed.waitForDocument(titled: "cli-instance"))
        #expect(received.attributes["IPP_PRINT_QUALITY"] == "draft")
        // An explicit option still wins over the instance's.
        _ = quire(["print", "-o", "print-quality=5", "-t", "cli-instance-high", sixPages])
        #expect(bed.waitForDocument(titled: "cli-instance-high")?.attributes["IPP_PRINT_QUALITY"] == "high")
    }

    @Test func printersListsStateAndCapabilities() throws {
        let text = quire(["printers"])
        #expect(text.status == 0)
        #expect(text.standardOutputText.contains("quire-office (default): idle, accepting jobs\n"))
        #expect(text.standardOutputText.contains("quire-rejecting: idle, rejecting jobs — closed for maintenance\n"))
        #expect(text.standardOutputText.contains("quire-stopped: stopped, accepting jobs — paper jam in tray 2\n"))
        let json = quire(["printers", "--json", "--long"])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        #expect(records.count == 3)
        let office = try #require(records.first { $0["name"] as? String == "quire-office" })
        #expect(office["isDefault"] as? Bool == true)
        let capabilities = try #require(office["capabilities"] as? [String: Any])
        #expect((capabilities["sides"] as? [String])?.contains("two-sided-long-edge") == true)
    }

    @Test func actionsAndCanPrintWithAPrinter() {
        let actions = quire(["actions", sixPages])
        #expect(actions.status == 0)
        #expect(actions.standardOutputText.contains("Print      yes (sent as it is; printer quire-office"))
        let can = quire(["can-print", sixPages])
        #expect(can.status == 0)
        #expect(can.standardOutput.isEmpty && can.standardError.isEmpty)
    }

    @Test func unprintableTypeIsADataError() throws {
        let zip = bed.directory.file("archive.zip")
        try Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)).write(to: URL(fileURLWithPath: zip))
        let result = quire(["print", zip])
        #expect(result.status == 65)
        #expect(result.standardError.contains("archive.zip: Quire does not print archives"))
        #expect(quire(["can-print", zip]).status == 1)
        #expect(quire(["actions", zip]).standardOutputText.contains("Print      no: Quire does not print archives"))
    }

    @Test func textAndImagesPrintAsConvertedPDFPages() throws {
        // 150 lines of text lay out on 3 A4 pages (the text renderer puts 62 lines on a page).
        let text = bed.directory.file("notes.txt")
        try (1...150).map { "line \($0)" }.joined(separator: "\n").write(toFile: text, atomically: true, encoding: .utf8)
        #expect(quire(["can-print", text]).status == 0)
        #expect(quire(["actions", text]).standardOutputText.contains("Print      yes (converted to PDF"))
        let result = quire(["print", "-t", "cli-text", "-P", "2-3", text])
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "cli-text"))
        #expect(received.attributes["IPP_DOCUMENT_FORMAT_SUPPLIED"] == "application/pdf")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2)
        // A range beyond the converted page count is refused before anything is sent.
        let beyond = quire(["print", "-t", "cli-text-beyond", "-P", "4", text])
        #expect(beyond.status == 64)
        let image = Samples.path("photo.jpg")
        let printed = quire(["print", "-t", "cli-image", image])
        #expect(printed.status == 0, "\(printed.standardError)")
        let page = try #require(bed.waitForDocument(titled: "cli-image"))
        #expect(CUPSTestBed.pageCount(ofPDF: page.path) == 1)
    }

    @Test func damagedConvertibleContentIsRefusedWithoutAJob() throws {
        let broken = bed.directory.file("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: URL(fileURLWithPath: broken))
        let result = quire(["print", broken])
        #expect(result.status == 65)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.contains("broken.png") == true)
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func missingFileIsNoInput() {
        let result = quire(["print", bed.directory.file("missing.pdf")])
        #expect(result.status == 66)
        #expect(result.errorLines.count == 1)
        #expect(quire(["can-print", bed.directory.file("missing.pdf")]).status == 1)
    }
}

/// Printing when there is nothing to print to.
@Suite("quire printing without printers or scheduler")
struct PrintUnavailableCommandTests {
    @Test func noPrintersSetUp() throws {
        let bed = try CUPSTestBed(.empty)
        let pdf = bed.directory.file("report.pdf")
        try TestPDF.write(pages: 2, to: pdf)
        let env = bed.environment()
        let actions = QuireBinary.run(["actions", pdf], environment: env)
        #expect(actions.status == 0)
        #expect(actions.standardOutputText.contains("Print      no: no printers are set up\n"))
        #expect(actions.standardOutputText.contains("Preview    yes"))
        #expect(QuireBinary.run(["can-print", pdf], environment: env).status == 1)
        let printed = QuireBinary.run(["print", pdf], environment: env)
        #expect(printed.status == 69)
        #expect(printed.standardError.hasPrefix("quire: no printers are set up"))
        let printers = QuireBinary.run(["printers"], environment: env)
        #expect(printers.status == 0)
        #expect(printers.standardOutputText == "No printers are set up.\n")
    }

    /// Issue 42: `info` said "Print: yes" (and `supported: true`) while `actions` said the print
    /// system is not running. `info` answers for the content and says so, pointing at the live
    /// answer; `actions` gives it.
    @Test func infoAnswersForTheContentAndActionsForThePrinterWithNoScheduler() throws {
        let bed = try CUPSTestBed(.dead)
        let pdf = bed.directory.file("report.pdf")
        try TestPDF.write(pages: 2, to: pdf)
        let text = bed.directory.file("notes.txt")
        try "a line\n".write(toFile: text, atomically: true, encoding: .utf8)
        let env = bed.environment()
        let actions = QuireBinary.run(["actions", pdf], environment: env)
        #expect(actions.standardOutputText.contains("Print      no: the print system is not running\n"))
        let info = QuireBinary.run(["info", pdf, text], environment: env)
        #expect(info.status == 0)
        // Each row fits an 80-column terminal.
        #expect(info.standardOutputText.contains("""
              Print:      yes, the content (sent as it is)
                          whether a printer accepts it: quire actions

            """), "\(info.standardOutputText)")
        #expect(info.standardOutputText.contains("""
              Print:      yes, the content (converted to PDF document)
                          whether a printer accepts it: quire actions

            """), "\(info.standardOutputText)")
        #expect(info.standardOutputText.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let json = QuireBinary.run(["info", "--json", pdf], environment: env)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        let print = try #require((records.first?["capabilities"] as? [String: [String: Any]])?["print"])
        #expect(print["supported"] as? Bool == true)
        #expect(print["note"] as? String == "the content; whether a printer accepts it: quire actions")
        // A type that cannot print says no in both, with the same reason.
        let zip = bed.directory.file("archive.zip")
        try Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)).write(to: URL(fileURLWithPath: zip))
        let zipCard = QuireBinary.run(["info", zip], environment: env).standardOutputText
        #expect(zipCard.contains("Print:      no — Quire does not print archives"))
        #expect(!zipCard.contains("quire actions"))
        #expect(QuireBinary.run(["actions", zip], environment: env).standardOutputText.contains("Print      no: Quire does not print archives"))
    }

    @Test func schedulerNotRunning() throws {
        let bed = try CUPSTestBed(.dead)
        let pdf = bed.directory.file("report.pdf")
        try TestPDF.write(pages: 2, to: pdf)
        let env = bed.environment()
        let actions = QuireBinary.run(["actions", pdf], environment: env)
        #expect(actions.standardOutputText.contains("Print      no: the print system is not running\n"))
        #expect(QuireBinary.run(["can-print", pdf], environment: env).status == 1)
        for arguments in [["print", pdf], ["printers"], ["jobs"], ["cancel", "1"]] {
            let result = QuireBinary.run(arguments, environment: env)
            #expect(result.status == 69, "\(arguments)")
            #expect(result.errorLines.count == 1)
            #expect(result.standardError.contains("the print system is not running"), "\(arguments)")
            // The system's reason for the failed connection (nothing listens on the dead bed's
            // port), not the "Bad file descriptor" errno libcups leaves after closing its socket.
            #expect(result.standardError.contains("Connection refused"), "\(result.standardError)")
        }
    }

    @Test func everyPrinterRejecting() throws {
        let bed = try CUPSTestBed(.full)
        try bed.rejectAll(reason: "out of toner")
        let pdf = bed.directory.file("report.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let actions = QuireBinary.run(["actions", pdf], environment: bed.environment())
        #expect(actions.standardOutputText.contains("Print      no: every printer is rejecting jobs (quire-office: rejecting jobs: out of toner;"))
    }
}
