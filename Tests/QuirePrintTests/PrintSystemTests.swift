import Foundation
import Quire
import QuirePrint
import QuireTestSupport
import Testing

/// Destinations, defaults, capabilities and availability against a real private cupsd.
@Suite("Print system (real cupsd)")
final class PrintSystemTests {
    let bed: CUPSTestBed
    let system: PrintSystem

    init() throws {
        bed = try CUPSTestBed(.full)
        system = PrintSystem(server: PrintServer(bed.server), environment: ["HOME": bed.directory.file("home")])
    }

    @Test func listsQueuesWithStateAndDefault() throws {
        let all = try system.destinations()
        #expect(all.map(\.name) == ["quire-office", "quire-rejecting", "quire-stopped"])
        let office = try #require(all.first { $0.name == "quire-office" })
        #expect(office.isDefault)
        #expect(office.state == .idle)
        #expect(office.isAcceptingJobs)
        #expect(office.location == "Room 101")
        #expect(office.info == "Office printer")
        #expect(office.problem == nil)
        let rejecting = try #require(all.first { $0.name == "quire-rejecting" })
        #expect(!rejecting.isAcceptingJobs)
        #expect(!rejecting.isDefault)
        #expect(rejecting.stateMessage == "closed for maintenance")
        #expect(rejecting.problem == "rejecting jobs: closed for maintenance")
        let stopped = try #require(all.first { $0.name == "quire-stopped" })
        #expect(stopped.state == .stopped)
        #expect(stopped.isAcceptingJobs)
        #expect(stopped.stateReasons.contains("paused"))
        #expect(stopped.problem == "stopped: paper jam in tray 2")
    }

    @Test func defaultFollowsLpOrder() throws {
        let home = bed.directory.file("home")
        try FileManager.default.createDirectory(atPath: home + "/.cups", withIntermediateDirectories: true)
        try "Default quire-stopped\n".write(toFile: home + "/.cups/lpoptions", atomically: true, encoding: .utf8)
        let server = PrintServer(bed.server)
        // lpoptions beats the server default…
        #expect(try PrintSystem(server: server, environment: ["HOME": home]).destination().name == "quire-stopped")
        // …PRINTER beats lpoptions…
        #expect(try PrintSystem(server: server, environment: ["HOME": home, "PRINTER": "quire-rejecting"])
            .destination().name == "quire-rejecting")
        // …and LPDEST beats PRINTER.
        #expect(try PrintSystem(server: server, environment: ["HOME": home, "PRINTER": "quire-rejecting", "LPDEST": "quire-office"])
            .destination().name == "quire-office")
        // A default naming a missing queue is an error that lists the real ones.
        do {
            _ = try PrintSystem(server: server, environment: ["LPDEST": "gone"]).destination()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unknownDestination)
            #expect(error.available == ["quire-office", "quire-rejecting", "quire-stopped"])
        }
    }

    @Test func unknownDestinationListsAvailableOnes() throws {
        do {
            _ = try system.destination(named: "nope")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .unknownDestination)
            #expect(error.message == "nope: no such printer (available: quire-office, quire-rejecting, quire-stopped)")
        }
    }

    @Test func capabilitiesComeFromTheScheduler() throws {
        let capabilities = try system.capabilities(of: try system.destination(named: "quire-office"))
        #expect(capabilities.copies.lowerBound == 1)
        #expect(capabilities.copies.upperBound >= 99)
        #expect(capabilities.pageRanges)
        #expect(capabilities.sides.contains("two-sided-long-edge"))
        #expect(capabilities.duplex)
        #expect(capabilities.documentFormats.contains("application/pdf"))
        #expect(!capabilities.media.isEmpty)
        let defaultMedia = try #require(capabilities.defaultMedia)
        #expect(capabilities.media.contains(defaultMedia))
        #expect(capabilities.colorModes.contains("monochrome"))
        #expect(capabilities.numberUp.contains(2))
    }

    @Test func availableWhenAQueueAcceptsJobs() throws {
        let availability = system.availability()
        #expect(availability.isAvailable)
        #expect(availability.reason == nil)
    }

    @Test func everyPrinterRejecting() throws {
        try bed.rejectAll(reason: "out of toner")
        let availability = system.availability()
        #expect(!availability.isAvailable)
        let reason = try #require(availability.reason)
        #expect(reason.hasPrefix("every printer is rejecting jobs"))
        #expect(reason.contains("quire-office: rejecting jobs: out of toner"))
    }
}

/// Availability without printers, and without a scheduler.
@Suite("Print system without printers or scheduler")
struct PrintSystemUnavailableTests {
    @Test func noPrinters() throws {
        let bed = try CUPSTestBed(.empty)
        let system = PrintSystem(server: PrintServer(bed.server), environment: [:])
        #expect(try system.destinations().isEmpty)
        let availability = system.availability()
        #expect(availability.reason == "no printers are set up")
        do {
            _ = try system.destination()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .noPrinters)
        }
    }

    @Test func printActionCombinesContentAndPrintSystem() throws {
        let bed = try CUPSTestBed(.dead)
        let pdf = bed.directory.file("report.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let system = PrintSystem(server: PrintServer(bed.server), environment: [:])
        let actions = try Document(path: DocumentPath(pdf)).interaction(printSystem: system)
        #expect(actions.preview.isAvailable)
        #expect(!actions.print.isAvailable)
        #expect(actions.print.reason == "the print system is not running")
        // Content that cannot print says so whatever the print system's state.
        let unsupported = DocumentInteraction.printAction(content: .unsupported(reason: "this file type cannot be printed (ZIP archive)"),
                                                          system: .available([]))
        #expect(unsupported.reason == "this file type cannot be printed (ZIP archive)")
    }

    @Test func schedulerNotRunning() throws {
        let bed = try CUPSTestBed(.dead)
        let system = PrintSystem(server: PrintServer(bed.server), environment: [:])
        let availability = system.availability()
        #expect(availability.reason == "the print system is not running")
        do {
            _ = try system.destinations()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .schedulerNotRunning)
            #expect(error.ipp?.code == 0x0502)
            #expect(error.message.contains(bed.server))
        }
    }
}
