import Foundation
import Quire
import QuireTestSupport
import Testing

/// Submitting jobs and managing the queue against a real cupsd and IPP printer, checking what
/// actually arrives at the printer.
@Suite("Print jobs (real cupsd + ippeveprinter)")
final class PrintJobTests {
    let bed: CUPSTestBed
    let system: PrintSystem
    let printer: DocumentPrinter
    let queue: JobQueue
    let sixPages: String

    init() throws {
        bed = try CUPSTestBed(.full)
        system = PrintSystem(server: PrintServer(bed.server), environment: ["HOME": bed.directory.file("home")])
        printer = DocumentPrinter(system: system)
        queue = JobQueue(system: system)
        sixPages = bed.directory.file("six.pdf")
        try TestPDF.write(pages: 6, to: sixPages)
    }

    func options(_ title: String) -> PrintOptions {
        var options = PrintOptions()
        options.title = title
        return options
    }

    func options(_ title: String, _ change: (inout PrintOptions) throws -> Void) rethrows -> PrintOptions {
        var options = PrintOptions()
        options.title = title
        try change(&options)
        return options
    }

    @Test func pageRangesCopiesAndSidesArriveAtThePrinter() throws {
        let plan = try printer.plan([try Document(path: DocumentPath(sixPages))], destination: nil,
                                    options: try options("ranges") {
                                        $0.pageRanges = try PageRanges("2-3,5")
                                        $0.copies = 2
                                        $0.sides = .twoSidedLongEdge
                                    })
        #expect(plan.destination.name == "quire-office")
        #expect(plan.pageRangesValue == "2-3,5")
        let job = try printer.submit(plan)
        #expect(job.destination == "quire-office")
        #expect(job.requestID == "quire-office-\(job.id)")
        #expect(job.warnings.isEmpty)
        let received = try #require(bed.waitForDocument(titled: "ranges"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 3)
        #expect(received.attributes["IPP_COPIES"] == "2")
        #expect(received.attributes["IPP_SIDES"] == "two-sided-long-edge")
    }

    @Test func documentPrintFacade() throws {
        let document = try Document(path: DocumentPath(sixPages))
        let actions = document.interaction(printSystem: system)
        #expect(actions.print.isAvailable)
        #expect(actions.print.detail == "sent as it is; printer quire-office (of 2 printers accepting jobs)")
        let job = try document.print(options: options("facade"), system: system)
        #expect(job.destination == "quire-office")
        let received = try #require(bed.waitForDocument(titled: "facade"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 6)
    }

    @Test func convertedContentPrintsThroughTheConversionSeam() throws {
        let text = bed.directory.file("notes.txt")
        try "three pages of notes\n".write(toFile: text, atomically: true, encoding: .utf8)
        let document = try Document(path: DocumentPath(text))
        #expect(document.capabilities.print == .byConversion(to: "application/pdf"))
        // The standard converter lays the text out with the renderers: one page here.
        let standardPlan = try printer.plan([document], destination: nil, options: options("text"))
        #expect(standardPlan.items[0].pageCount == 1)
        #expect(document.interaction(printSystem: system).print.isAvailable)
        // Any converter plugs into the same path: ranges count the converted PDF's pages.
        let converter = PrintConversion { _ in TestPDF.make(pages: 3) }
        #expect(document.interaction(printSystem: system, conversion: converter).print.detail?.hasPrefix("converted to PDF") == true)
        let converting = DocumentPrinter(system: system, conversion: converter)
        let plan = try converting.plan([document], destination: nil,
                                       options: try options("converted") { $0.pageRanges = try PageRanges("2-3") })
        #expect(plan.items[0].pageCount == 3)
        #expect(plan.items[0].document.mimeType == "application/pdf")
        #expect(plan.items[0].document.name == "notes.txt")
        _ = try converting.submit(plan)
        let received = try #require(bed.waitForDocument(titled: "converted"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2)
        #expect(received.attributes["IPP_DOCUMENT_FORMAT_SUPPLIED"] == "application/pdf")
    }

    @Test func numberUpWithRangesSelectsDocumentPagesFirst() throws {
        // 4 document pages, 2 per side → 2 sides. Had CUPS applied "2-5" after number-up, it
        // would have selected output pages 2-3 of 3.
        let plan = try printer.plan([try Document(path: DocumentPath(sixPages))], destination: nil,
                                    options: try options("nup") {
                                        $0.pageRanges = try PageRanges("2-5")
                                        $0.numberUp = 2
                                    })
        #expect(plan.pageRangesValue == nil)
        #expect(plan.items[0].pagesSelectedBeforeSending)
        #expect(try printer.previewPDF(plan).count > 0)
        _ = try printer.submit(plan)
        let received = try #require(bed.waitForDocument(titled: "nup"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2)
    }

    @Test func previewHoldsExactlyTheSelectedPages() throws {
        let plan = try printer.plan([try Document(path: DocumentPath(sixPages))], destination: nil,
                                    options: try options("preview") { $0.pageRanges = try PageRanges("1,4-6") })
        let out = bed.directory.file("preview.pdf")
        try Data(try printer.previewPDF(plan)).write(to: URL(fileURLWithPath: out))
        #expect(CUPSTestBed.pageCount(ofPDF: out) == 4)
    }

    @Test func rangeBeyondTheLastPageIsRefusedBeforeAnythingIsSent() throws {
        let before = try queue.jobs(which: .all).count
        #expect(throws: PrintError.self) {
            try self.printer.plan([try Document(path: DocumentPath(self.sixPages))], destination: nil,
                                  options: try self.options("beyond") { $0.pageRanges = try PageRanges("5-9") })
        }
        #expect(try queue.jobs(which: .all).count == before)
    }

    @Test func heldJobIsListedThenCancelledAndGone() throws {
        let plan = try printer.plan([try Document(path: DocumentPath(sixPages))], destination: nil,
                                    options: options("held") { $0.holdUntil = PrintOptions.holdValue("hold") })
        let job = try printer.submit(plan)
        let listed = try queue.jobs(on: "quire-office")
        let held = try #require(listed.first { $0.id == job.id })
        #expect(held.state == .held)
        #expect(held.title == "held")
        #expect(try queue.job(job.id).holdUntil == "indefinite")

        try queue.cancel(job.id)
        #expect(try queue.jobs(on: "quire-office").contains { $0.id == job.id } == false)
        #expect(try queue.job(job.id).state == .canceled)
        #expect(try queue.jobs(which: .completed).contains { $0.id == job.id && $0.state == .canceled })
        // Nothing reached the printer.
        #expect(bed.waitForDocument(titled: "held", timeout: 1) == nil)
    }

    @Test func releasedJobPrints() throws {
        let plan = try printer.plan([try Document(path: DocumentPath(sixPages))], destination: nil,
                                    options: options("released") { $0.holdUntil = "indefinite" })
        let job = try printer.submit(plan)
        #expect(try queue.job(job.id).state == .held)
        try queue.release(job.id)
        let received = try #require(bed.waitForDocument(titled: "released"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 6)
    }

    @Test func holdThenCancelAllOnADestination() throws {
        var ids: [Int] = []
        for index in 0..<2 {
            let plan = try printer.plan([try Document(path: DocumentPath(sixPages))], destination: "quire-office",
                                        options: options("all-\(index)") { $0.holdUntil = "indefinite" })
            ids.append(try printer.submit(plan).id)
        }
        let cancelled = try queue.cancelAll(on: "quire-office")
        #expect(Set(cancelled) == Set(ids))
        #expect(try queue.jobs(on: "quire-office").isEmpty)
    }

    @Test func rejectingQueueRefusesWithItsReason() throws {
        let destination = try system.destination(named: "quire-rejecting")
        let document = PrintDocument(source: .data(TestPDF.make(pages: 1)), mimeType: "application/pdf", name: "r.pdf")
        let rejected = options("rejected")
        do {
            _ = try system.submit([document], to: destination, options: rejected)
            Issue.record("expected the queue to refuse")
        } catch {
            #expect(error.kind == .notAccepting)
            #expect(error.message == "quire-rejecting: the printer is not accepting jobs (closed for maintenance)")
            #expect(error.ipp?.code == 0x0506)
        }
        #expect(try queue.jobs(on: "quire-rejecting", which: .all).isEmpty)
    }

    @Test func stoppedPrinterQueuesTheJobWithAWarning() throws {
        let destination = try system.destination(named: "quire-stopped")
        let document = PrintDocument(source: .data(TestPDF.make(pages: 1)), mimeType: "application/pdf", name: "s.pdf")
        let job = try system.submit([document], to: destination, options: options("stopped"))
        #expect(job.warnings.count == 1)
        #expect(job.warnings.first?.contains("paper jam in tray 2") == true)
        let info = try queue.job(job.id)
        #expect(info.state == .pending)
        #expect(info.destination == "quire-stopped")
        try queue.cancel(job.id)
    }

    @Test func holdAndReleaseAPendingJob() throws {
        // On the stopped queue the job stays pending, so it can be held and released.
        let destination = try system.destination(named: "quire-stopped")
        let document = PrintDocument(source: .data(TestPDF.make(pages: 1)), mimeType: "application/pdf", name: "h.pdf")
        let job = try system.submit([document], to: destination, options: options("hold-release"))
        #expect(try queue.job(job.id).state == .pending)
        try queue.hold(job.id)
        #expect(try queue.job(job.id).state == .held)
        try queue.release(job.id)
        #expect(try queue.job(job.id).state == .pending)
        try queue.cancel(job.id)
        #expect(try queue.job(job.id).state == .canceled)
        do {
            try queue.hold(job.id)
            Issue.record("a cancelled job cannot be held")
        } catch {
            #expect(error.message.hasPrefix("job \(job.id): cannot hold"))
        }
    }

    @Test func failureAfterCreationLeavesNoStrayJob() throws {
        // The scheduler creates the job, then refuses the document format: the job must be cancelled.
        let destination = try system.destination(named: "quire-office")
        let document = PrintDocument(source: .data(Array("not really".utf8)), mimeType: "application/x-quire-bogus",
                                     name: "bogus")
        #expect(throws: PrintError.self) {
            try self.system.submit([document], to: destination, options: self.options("bogus"))
        }
        #expect(try queue.jobs(on: "quire-office").isEmpty)
        let all = try queue.jobs(on: "quire-office", which: .all)
        #expect(all.count == 1, "the job was created before the document was refused")
        #expect(all.first?.state == .canceled, "Quire cancelled it")
    }

    @Test func unsupportedOptionsAreRefusedNamingThePrinter() throws {
        let destination = try system.destination(named: "quire-office")
        var options = PrintOptions()
        options.media = "not_a_real_media_1x1in"
        do {
            try system.validate(options, for: destination)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidOption)
            #expect(error.message.hasPrefix("quire-office: does not support media"))
        }
        options = PrintOptions()
        options.numberUp = 5
        #expect(throws: PrintError.self) { try self.system.validate(options, for: destination) }
    }

    @Test func unprintableContentIsRefusedWithTheTypeInTheReason() throws {
        let zip = bed.directory.file("archive.zip")
        // An empty ZIP (end-of-central-directory record only).
        try Data([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)).write(to: URL(fileURLWithPath: zip))
        do {
            _ = try printer.plan([try Document(path: DocumentPath(zip))], destination: nil, options: PrintOptions())
            Issue.record("expected an error")
        } catch let error as PrintError {
            #expect(error.kind == .unprintable)
            #expect(error.message.contains("does not print archives"))
        }
    }
}
