import ArgumentParser
import FoundationEssentials
import Quire

struct PrintersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "printers",
        abstract: "List the print queues with their state, and with --long their capabilities.",
        discussion: """
            The default destination is resolved as lp(1) does: LPDEST, PRINTER, \
            ~/.cups/lpoptions Default, then the scheduler's default. The scheduler is the one \
            libcups uses (CUPS_SERVER, client.conf). Exits 69 when the print system is not \
            running or does not answer within --timeout; an empty list (exit 0) means no \
            printers are set up.

            Examples:
              quire printers --long          # queues, state, capabilities
            """)

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .shortAndLong, help: "Also show each printer's capabilities (copies, sides, media, colour, number-up, formats).")
    var long = false

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Seconds to wait for the print system to answer before giving up (exit status 69); 0 waits forever (default 10).",
        valueName: "seconds"))
    var timeout: Double = PrintSystem.defaultTimeout

    func validate() throws {
        _ = try Watchdog.validated(timeout, name: "--timeout", allowZero: true)
    }

    struct Record: Encodable {
        let destination: Destination
        let capabilities: PrintCapabilities?
        let capabilitiesError: String?
        enum CodingKeys: String, CodingKey { case name, instance, state, stateReasons, stateMessage, acceptingJobs, location, info, makeAndModel, isDefault, deviceURI, capabilities, capabilitiesError }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(destination.name, forKey: .name)
            try c.encodeIfPresent(destination.instance, forKey: .instance)
            try c.encode(destination.state, forKey: .state)
            try c.encode(destination.stateReasons, forKey: .stateReasons)
            try c.encodeIfPresent(destination.stateMessage, forKey: .stateMessage)
            try c.encode(destination.isAcceptingJobs, forKey: .acceptingJobs)
            try c.encodeIfPresent(destination.location, forKey: .location)
            try c.encodeIfPresent(destination.info, forKey: .info)
            try c.encodeIfPresent(destination.makeAndModel, forKey: .makeAndModel)
            try c.encode(destination.isDefault, forKey: .isDefault)
            try c.encodeIfPresent(destination.deviceURI, forKey: .deviceURI)
            try c.encodeIfPresent(capabilities, forKey: .capabilities)
            try c.encodeIfPresent(capabilitiesError, forKey: .capabilitiesError)
        }
    }

    func run() async throws {
        let system = PrintSystem(timeout: timeout)
        let destinations: [Destination]
        do { destinations = try system.destinations() } catch {
            throw PrintFailure.report(error).exitCode
        }
        var records: [Record] = []
        for destination in destinations {
            var capabilities: PrintCapabilities?
            var problem: String?
            if long {
                do { capabilities = try system.capabilities(of: destination) } catch { problem = error.description }
            }
            records.append(Record(destination: destination, capabilities: capabilities, capabilitiesError: problem))
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.out(String(decoding: try encoder.encode(records), as: UTF8.self) + "\n")
            return
        }
        if records.isEmpty {
            Terminal.out("No printers are set up.\n")
            return
        }
        let styled = Terminal.stylesStandardOutput
        for record in records {
            Terminal.out(Self.text(record, styled: styled))
        }
    }

    static func text(_ record: Record, styled: Bool) -> String {
        let d = record.destination
        var line = Terminal.bold(d.fullName, enabled: styled)
        if d.isDefault { line += " (default)" }
        line += ": \(d.state.rawValue), " + (d.isAcceptingJobs ? "accepting jobs" : "rejecting jobs")
        if let message = d.stateMessage { line += " — \(TerminalEscaping.escaped(message, backslashes: false))" }
        var out = line + "\n"
        let facts = [d.info, d.location, d.makeAndModel].compactMap { $0 }
        if !facts.isEmpty { out += "    " + TerminalEscaping.escaped(facts.joined(separator: " · "), backslashes: false) + "\n" }
        if !d.stateReasons.isEmpty { out += "    reasons: \(d.stateReasons.joined(separator: ", "))\n" }
        if let c = record.capabilities {
            out += "    copies: \(c.copies.lowerBound)-\(c.copies.upperBound); page ranges: \(c.pageRanges ? "yes" : "no")\n"
            out += "    sides: \(c.sides.joined(separator: ", "))\n"
            out += "    media: \(c.media.joined(separator: ", "))" + (c.defaultMedia.map { " (default \($0))" } ?? "") + "\n"
            out += "    colour: \(c.colorModes.joined(separator: ", "))" + (c.defaultColorMode.map { " (default \($0))" } ?? "") + "\n"
            out += "    quality: \(c.qualities.joined(separator: ", ")); number-up: \(c.numberUp.map(String.init).joined(separator: ", "))\n"
            out += "    formats: \(c.documentFormats.joined(separator: ", "))\n"
        } else if let problem = record.capabilitiesError {
            out += "    capabilities unavailable: \(problem)\n"
        }
        return out
    }
}
