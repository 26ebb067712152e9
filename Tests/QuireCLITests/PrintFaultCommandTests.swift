import Foundation
import QuireTestSupport
import Testing

/// Printing faults through the built `quire` binary (issue 7, item 5): a printer paused,
/// rejecting or removed by an administrator, a job cancelled by someone else while
/// `quire print --wait` follows it, the scheduler stopping under it. Each checks the message,
/// the exit status, and that `quire jobs` shows no stray job afterwards.
@Suite("quire print faults and --wait (real cupsd)")
final class PrintFaultCommandTests {
    let bed: CUPSTestBed
    let pdf: String

    init() throws {
        bed = try CUPSTestBed(.full)
        pdf = bed.directory.file("report.pdf")
        try TestPDF.write(pages: 2, to: pdf)
    }

    func quire(_ arguments: [String]) -> ProcessRunner.Result {
        QuireBinary.run(arguments, environment: bed.environment())
    }

    /// `quire print --wait …` running in the background.
    func background(_ arguments: [String]) throws -> BackgroundProcess {
        try BackgroundProcess([QuireBinary.path] + arguments, environment: bed.environment(),
                              directory: bed.directory.path)
    }

    /// Waits until `quire jobs` lists a job titled `title`; returns its request id.
    func waitForActiveJob(titled title: String, timeout: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            for line in quire(["jobs"]).standardOutputText.split(separator: "\n") where line.hasSuffix("  \(title)") {
                return line.split(separator: " ").first.map(String.init)
            }
            usleep(100_000)
        }
        return nil
    }

    var activeJobs: String { quire(["jobs"]).standardOutputText }

    @Test func waitReportsACompletedJob() throws {
        let result = quire(["print", "--wait", "-t", "cli-wait-done", pdf])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutputText.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        let requestID = try #require(lines[0].split(separator: " ").dropFirst(3).first.map(String.init))
        #expect(lines[1] == "\(requestID): completed")
        #expect(quire(["job", requestID]).standardOutputText.contains("State:      completed"))
        #expect(bed.waitForDocument(titled: "cli-wait-done", timeout: 5) != nil)
        #expect(activeJobs.isEmpty)
    }

    @Test func waitReportsAJobCancelledByAnotherClient() throws {
        let process = try background(["print", "--wait", "-H", "hold", "-t", "cli-wait-cancel", pdf])
        let requestID = try #require(waitForActiveJob(titled: "cli-wait-cancel"))
        #expect(process.isRunning)  // still following the held job
        try bed.admin("cancel", requestID)  // lp's cancel: another client
        #expect(process.waitForExit(timeout: 20))
        #expect(process.exitStatus == 75)
        #expect(process.output == "request id is \(requestID) (1 file(s))\n")
        #expect(process.errorOutput.hasPrefix("quire: \(requestID) was cancelled before it completed"))
        #expect(process.errorOutput.split(separator: "\n").count == 1)
        #expect(activeJobs.isEmpty)
        #expect(quire(["jobs", "--all"]).standardOutputText.contains("\(requestID)  root"))
    }

    @Test func waitWhileTheSchedulerStopsIsUnavailable() throws {
        let process = try background(["print", "--wait", "-H", "hold", "-t", "cli-wait-down", pdf])
        let requestID = try #require(waitForActiveJob(titled: "cli-wait-down"))
        try bed.stopScheduler()
        #expect(process.waitForExit(timeout: 30))
        #expect(process.exitStatus == 69)
        #expect(process.errorOutput.hasPrefix("quire: the print system is not running"))
        #expect(process.errorOutput.contains("; stopped waiting for \(requestID), which stays in the queue"))
        #expect(process.errorOutput.split(separator: "\n").count == 1)
        // The held job survives the restart, as jobs do; it is the user's to release or cancel.
        try bed.startScheduler()
        #expect(quire(["cancel", requestID]).status == 0)
        #expect(activeJobs.isEmpty)
    }

    @Test func printerPausedByTheAdministratorTakesTheJobWithAWarning() throws {
        try bed.admin("cupsdisable", "-r", "out of toner", "quire-office")
        let process = try background(["print", "--wait", "-t", "cli-paused", pdf])
        let requestID = try #require(waitForActiveJob(titled: "cli-paused"))
        #expect(process.isRunning)
        #expect(quire(["jobs"]).standardOutputText.contains("pending"))
        try bed.admin("cupsenable", "quire-office")
        #expect(process.waitForExit(timeout: 30))
        #expect(process.exitStatus == 0)
        #expect(process.errorOutput == "quire: warning: quire-office is stopped (out of toner); the job waits in the queue until the printer is resumed\n")
        #expect(process.output == "request id is \(requestID) (1 file(s))\n\(requestID): completed\n")
        #expect(activeJobs.isEmpty)
    }

    @Test func queueRejectingIsRefusedWithItsReasonAndNoJob() throws {
        let before = quire(["jobs", "--all"]).standardOutputText
        #expect(before.isEmpty)
        try bed.admin("cupsreject", "-r", "toner being replaced", "quire-office")
        let result = quire(["print", "--wait", "-t", "cli-rejected", pdf])
        #expect(result.status == 69)
        #expect(result.standardOutputText.isEmpty)
        #expect(result.standardError.hasPrefix("quire: quire-office: the printer is not accepting jobs (toner being replaced)"))
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func removedPrinterIsAUsageErrorListingTheOthers() throws {
        #expect(quire(["can-print", pdf]).status == 0)  // the availability check a file manager makes
        try bed.admin("lpadmin", "-x", "quire-office")
        let result = quire(["print", "-d", "quire-office", pdf])
        #expect(result.status == 64)
        #expect(result.standardError == "quire: quire-office: no such printer (available: quire-rejecting, quire-stopped)\n")
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func schedulerStoppedIsUnavailableAndLeavesNoJob() throws {
        try bed.stopScheduler()
        let result = quire(["print", "-t", "cli-down", pdf])
        #expect(result.status == 69)
        #expect(result.standardError.hasPrefix("quire: the print system is not running (cannot reach the CUPS scheduler at \(bed.server)"))
        try bed.startScheduler()
        #expect(quire(["jobs", "--all"]).standardOutputText.isEmpty)
    }

    @Test func waitExcludesDryRunAndPreview() {
        let dry = quire(["print", "--wait", "--dry-run", pdf])
        #expect(dry.status == 64)
        #expect(dry.standardError.contains("--wait needs a job"))
        #expect(quire(["print", "--wait", "--preview", bed.directory.file("p.pdf"), pdf]).status == 64)
    }
}
