import Foundation
import Quire
import QuireTestSupport
import Testing

/// Printing when things go wrong between planning and printing (issue 7, item 5), against a
/// real cupsd that the tests stop, restart and administer: the error or warning the user gets,
/// and what is left on the scheduler afterwards (no stray jobs).
@Suite("Printing faults (real cupsd + ippeveprinter)")
final class PrintFaultTests {
    let bed: CUPSTestBed
    let system: PrintSystem
    let printer: DocumentPrinter
    let queue: JobQueue
    let twoPages: String
    let threePages: String

    init() throws {
        bed = try CUPSTestBed(.full)
        system = PrintSystem(server: PrintServer(bed.server), environment: ["HOME": bed.directory.file("home")])
        printer = DocumentPrinter(system: system)
        queue = JobQueue(system: system)
        twoPages = bed.directory.file("two.pdf")
        threePages = bed.directory.file("three.pdf")
        try TestPDF.write(pages: 2, to: twoPages)
        try TestPDF.write(pages: 3, to: threePages)
    }

    func plan(_ title: String, files: [String]? = nil, destination: String? = nil) throws -> PrintPlan {
        var options = PrintOptions()
        options.title = title
        let documents = try (files ?? [twoPages]).map { try Document(path: DocumentPath($0)) }
        return try printer.plan(documents, destination: destination, options: options)
    }

    func submitError(_ plan: PrintPlan) -> PrintError? {
        do {
            let job = try printer.submit(plan)
            Issue.record("expected a failure, got job \(job.requestID)")
            return nil
        } catch {
            return error
        }
    }

    /// Every job the scheduler knows, finished or not.
    func allJobs() throws -> [JobInfo] { try queue.jobs(which: .all) }

    /// The first value `stream` gives (a waiter's first reading of its job).
    static func first(of stream: AsyncStream<JobInfo>) async -> JobInfo? {
        for await value in stream { return value }
        return nil
    }

    @Test func schedulerStoppedBetweenPlanningAndSubmission() throws {
        let plan = try plan("fault-stopped-before")
        try bed.stopScheduler()
        let error = try #require(submitError(plan))
        #expect(error.kind == .schedulerNotRunning)
        #expect(error.message.hasPrefix("the print system is not running (cannot reach the CUPS scheduler at \(bed.server)"))
        #expect(error.leftoverJob == nil)
        try bed.startScheduler()
        #expect(try allJobs().isEmpty)
    }

    /// The scheduler stops before the first document (index 0: the job exists, empty) or before
    /// the second (the first was sent).
    @Test(arguments: [0, 1])
    func schedulerStoppedWhileAMultiFileJobIsBeingSent(stopBefore: Int) throws {
        let plan = try plan("fault-stopped-midway", files: [twoPages, threePages])
        var stopped = false
        var sent: [String] = []
        let error: PrintError
        do {
            let job = try printer.submit(plan) { index, document in
                sent.append(document.name)
                if index == stopBefore { stopped = (try? bed.stopScheduler()) != nil }
            }
            Issue.record("expected a failure, got job \(job.requestID)")
            return
        } catch let caught {
            error = caught
        }
        #expect(stopped)
        #expect(sent == Array(["two.pdf", "three.pdf"].prefix(stopBefore + 1)))
        #expect(error.kind == .schedulerNotRunning)
        let leftover = try #require(error.leftoverJob)
        #expect(leftover.hasPrefix("quire-office-"))
        #expect(error.message == "the print system stopped while \(leftover) was being sent; the incomplete job stays "
                    + "held on the scheduler: cancel it (quire cancel \(leftover)) once CUPS runs again")

        // Back up: the half-sent job is held (it never prints) and cancelling it, as the
        // message says, leaves nothing active.
        try bed.startScheduler()
        let id = try #require(Int(leftover.split(separator: "-").last ?? ""))
        #expect(try queue.job(id).state == .held)
        try queue.cancel(id)
        #expect(try queue.jobs(which: .active).isEmpty)
        #expect(try queue.job(id).state == .canceled)
        #expect(bed.waitForDocument(titled: "fault-stopped-midway", timeout: 1) == nil)
    }

    @Test func printerRemovedBetweenPlanningAndSubmission() throws {
        let plan = try plan("fault-removed")
        #expect(plan.destination.name == "quire-office")
        try bed.admin("lpadmin", "-x", "quire-office")
        let error = try #require(submitError(plan))
        #expect(error.kind == .unknownDestination)
        #expect(error.message == "quire-office: the printer no longer exists (available: quire-rejecting, quire-stopped)")
        #expect(error.available == ["quire-rejecting", "quire-stopped"])
        #expect(try allJobs().isEmpty)
    }

    @Test func printerRemovedWhileAMultiFileJobIsBeingSent() throws {
        let plan = try plan("fault-removed-midway", files: [twoPages, threePages])
        var removed = false
        let error: PrintError
        do {
            let job = try printer.submit(plan) { index, _ in
                if index == 1 { removed = (try? bed.admin("lpadmin", "-x", "quire-office")) != nil }
            }
            Issue.record("expected a failure, got job \(job.requestID)")
            return
        } catch let caught {
            error = caught
        }
        #expect(removed)
        #expect(error.kind == .unknownDestination)
        #expect(error.message == "quire-office: the printer was removed while the job was being sent, and the job with it (available: quire-rejecting, quire-stopped)")
        #expect(error.leftoverJob == nil)
        #expect(try allJobs().isEmpty)
    }

    @Test func jobCancelledByAnotherClientWhileBeingSent() throws {
        let plan = try plan("fault-cancelled-midway", files: [twoPages, threePages])
        var cancelled = false
        let error: PrintError
        do {
            let job = try printer.submit(plan) { index, _ in
                if index == 1 { cancelled = (try? bed.admin("cancel", "-a", "quire-office")) != nil }
            }
            Issue.record("expected a failure, got job \(job.requestID)")
            return
        } catch let caught {
            error = caught
        }
        #expect(cancelled)
        #expect(error.kind == .cancelled)
        #expect(error.message.hasPrefix("quire-office-"))
        #expect(error.message.hasSuffix(" was cancelled by another user or the print system while it was being sent"))
        #expect(try queue.jobs(which: .active).isEmpty)
        #expect(bed.waitForDocument(titled: "fault-cancelled-midway", timeout: 1) == nil)
    }

    @Test func lastPrinterRemovedBetweenPlanningAndSubmission() throws {
        let plan = try plan("fault-removed-all")
        for queue in ["quire-office", "quire-rejecting", "quire-stopped"] { try bed.admin("lpadmin", "-x", queue) }
        let error = try #require(submitError(plan))
        #expect(error.kind == .noPrinters)
        #expect(error.message == "quire-office: the printer was removed, and no printers are set up now")
    }

    @Test func printerPausedAfterPlanningQueuesTheJobWithAWarning() throws {
        let plan = try plan("fault-paused")
        #expect(plan.warnings.isEmpty)
        try bed.admin("cupsdisable", "-r", "out of toner", "quire-office")
        let job = try printer.submit(plan)
        #expect(job.warnings == ["quire-office is stopped (out of toner); the job waits in the queue until the printer is resumed"])
        #expect(try queue.job(job.id).state == .pending)
        #expect(bed.waitForDocument(titled: "fault-paused", timeout: 1) == nil)
        // Resumed, it prints: the job was queued, not lost.
        try bed.admin("cupsenable", "quire-office")
        #expect(bed.waitForDocument(titled: "fault-paused") != nil)
    }

    @Test func queueRejectingAfterPlanningIsRefusedWithItsReason() throws {
        let plan = try plan("fault-rejecting")
        try bed.admin("cupsreject", "-r", "toner being replaced", "quire-office")
        let error = try #require(submitError(plan))
        #expect(error.kind == .notAccepting)
        #expect(error.message == "quire-office: the printer is not accepting jobs (toner being replaced)")
        #expect(error.ipp?.code == 0x0506)
        #expect(try allJobs().isEmpty)
    }

    @Test func waitFollowsAJobToCompletion() async throws {
        let job = try printer.submit(try plan("fault-wait-done"))
        let finished = try await queue.waitUntilFinished(job.id, interval: .milliseconds(100))
        #expect(finished.state == .completed)
        #expect(finished.id == job.id)
    }

    @Test func waitSeesAJobCancelledByAnotherClient() async throws {
        var options = PrintOptions()
        options.title = "fault-wait-cancelled"
        options.holdUntil = "indefinite"
        let plan = try printer.plan([try Document(path: DocumentPath(twoPages))], destination: nil, options: options)
        let job = try printer.submit(plan)
        let queue = self.queue
        let (seen, reading) = AsyncStream<JobInfo>.makeStream()
        let waiting = Task { try await queue.waitUntilFinished(job.id, interval: .milliseconds(100)) { reading.yield($0) } }
        #expect(await Self.first(of: seen)?.state == .held, "the waiter has seen the job")
        try bed.admin("cancel", job.requestID)   // lp's cancel: another client
        let finished = try await waiting.value
        #expect(finished.state == .canceled)
        #expect(try queue.jobs(which: .active).isEmpty)
    }

    @Test func waitReportsAJobWhosePrinterWasRemoved() async throws {
        var options = PrintOptions()
        options.title = "fault-wait-removed"
        options.holdUntil = "indefinite"
        let plan = try printer.plan([try Document(path: DocumentPath(twoPages))], destination: nil, options: options)
        let job = try printer.submit(plan)
        let queue = self.queue
        let (seen, reading) = AsyncStream<JobInfo>.makeStream()
        let waiting = Task { () async -> PrintError? in
            do {
                _ = try await queue.waitUntilFinished(job.id, interval: .milliseconds(100)) { reading.yield($0) }
                return nil
            } catch { return error as? PrintError }
        }
        // Once the waiter has read the job (it then knows its printer), not after a guessed delay.
        #expect(await Self.first(of: seen)?.state == .held, "the waiter has seen the job")
        try bed.admin("lpadmin", "-x", "quire-office")
        let error = try #require(await waiting.value)
        #expect(error.kind == .requestFailed)
        #expect(error.message == "\(job.requestID): the printer was removed, and the job with it")
        #expect(try queue.jobs(which: .all).isEmpty)
    }

    @Test func waitFailsWhenTheSchedulerStops() async throws {
        var options = PrintOptions()
        options.title = "fault-wait-stopped"
        options.holdUntil = "indefinite"
        let plan = try printer.plan([try Document(path: DocumentPath(twoPages))], destination: nil, options: options)
        let job = try printer.submit(plan)
        let queue = self.queue
        let (seen, reading) = AsyncStream<JobInfo>.makeStream()
        let waiting = Task { () async -> PrintError? in
            do {
                _ = try await queue.waitUntilFinished(job.id, interval: .milliseconds(100)) { reading.yield($0) }
                return nil
            } catch { return error as? PrintError }
        }
        // Once the waiter has read the job (it then knows its printer), not after a guessed delay.
        #expect(await Self.first(of: seen)?.state == .held, "the waiter has seen the job")
        try bed.stopScheduler()
        let error = try #require(await waiting.value)
        #expect(error.kind == .schedulerNotRunning)
        #expect(error.message.hasPrefix("the print system is not running"))
    }
}
