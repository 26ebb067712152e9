internal import CCUPS
import FoundationEssentials

/// The print system as one CUPS scheduler presents it: its destinations, their capabilities,
/// whether printing can work at all, and (see ``JobQueue`` and ``PrintJob``) its jobs.
///
/// Every call opens its own connection to the scheduler and closes it before returning, so a
/// `PrintSystem` can be shared between tasks. Calls block while the scheduler answers.
public struct PrintSystem: Sendable {
    /// The scheduler this talks to.
    public let server: PrintServer
    /// The environment used for default-destination resolution (`LPDEST`, `PRINTER`, `HOME`).
    public let environment: [String: String]
    /// The longest wait for the scheduler, in seconds: to connect, and for each of its answers.
    /// A scheduler that accepts connections but does not answer makes calls fail with
    /// ``PrintError/Kind/schedulerNotAnswering`` after this long; 0 waits for ever.
    public let timeout: Double
    /// Remembers a scheduler that did not answer, so that one call's several requests (and the
    /// calls right after it) wait once, not each.
    let silence = SchedulerSilence()

    /// The time limit when none is given: a scheduler on this machine answers in milliseconds,
    /// one across a network in well under a second.
    public static let defaultTimeout: Double = 10
    /// The time limit for questions asked on every context menu or card (`quire can-print`,
    /// `quire actions`): an answer within two seconds.
    public static let interactiveTimeout: Double = 1.5

    public init(server: PrintServer = .default,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                timeout: Double = PrintSystem.defaultTimeout) {
        self.server = server
        self.environment = environment
        self.timeout = timeout.isFinite && timeout > 0 ? timeout : 0
    }

    func connect() throws(PrintError) -> CUPSConnection { try CUPSConnection(server, timeout: timeout, silence: silence) }

    // MARK: Destinations

    /// Every queue and instance, sorted by name, with state and the default marked.
    ///
    /// - Throws: ``PrintError/Kind/schedulerNotRunning`` when the scheduler cannot be reached.
    ///   An empty array means the scheduler runs but has no printers.
    public func destinations() throws(PrintError) -> [Destination] {
        let connection = try connect()
        return try destinations(connection)
    }

    func destinations(_ connection: CUPSConnection) throws(PrintError) -> [Destination] {
        // The queues' states first: one request, so a scheduler that does not answer costs one
        // time limit (libcups's list, below, makes several requests, each waiting on its own).
        let states = printerStates(connection)
        try connection.requireAnswered()
        let list = DestinationList(connection)
        try connection.requireAnswered()
        if list.count == 0 {
            if list.status.code == IPPStatus.serviceUnavailable {
                throw PrintError(.schedulerNotRunning,
                                 "the print system is not running (the CUPS scheduler at \(server) does not answer)",
                                 ipp: list.status)
            }
            return []
        }
        let defaultName = defaultDestinationName(connection, known: list.entries.map(\.name))
        try connection.requireAnswered()
        return list.entries.map { entry in
            let fullName = entry.instance.map { "\(entry.name)/\($0)" } ?? entry.name
            return Self.destination(name: entry.name, instance: entry.instance, attributes: states[entry.name],
                                    listed: entry.options, isDefault: defaultName.map { $0 == fullName } ?? entry.isDefault)
        }.sorted { ($0.name, $0.instance ?? "") < ($1.name, $1.instance ?? "") }
    }

    /// A destination from the scheduler's state attributes (CUPS-Get-Printers), falling back
    /// on what libcups's list carries for the queue.
    static func destination(name: String, instance: String?, attributes: IPPAttributes?, listed: [String: String],
                            isDefault: Bool) -> Destination {
        let reasons = (attributes?.strings("printer-state-reasons")
            ?? listed["printer-state-reasons"].map { $0.split(separator: ",").map(String.init) } ?? [])
            .filter { $0 != "none" }
        let accepting = attributes?.boolean("printer-is-accepting-jobs")
            ?? (listed["printer-is-accepting-jobs"] != "false")
        return Destination(
            name: name, instance: instance,
            state: .init(ipp: attributes?.integer("printer-state") ?? listed["printer-state"].flatMap { Int($0) }),
            stateReasons: reasons,
            stateMessage: attributes?.string("printer-state-message").flatMap { $0.isEmpty ? nil : $0 },
            isAcceptingJobs: accepting,
            location: nonEmpty(attributes?.string("printer-location") ?? listed["printer-location"]),
            info: nonEmpty(attributes?.string("printer-info") ?? listed["printer-info"]),
            makeAndModel: nonEmpty(attributes?.string("printer-make-and-model") ?? listed["printer-make-and-model"]),
            isDefault: isDefault,
            deviceURI: nonEmpty(attributes?.string("device-uri") ?? listed["device-uri"]))
    }

    /// A queue (not an instance) named on the command line, from one CUPS-Get-Printers for the
    /// state attributes and the default's name — what ``destinations()`` would say about it,
    /// without libcups's whole destination list (the default printer's every attribute, then
    /// every queue's; libcups reads those a few bytes per system call). Nil when the queue is
    /// not there or the scheduler does not answer: the whole list then says which.
    func queue(named name: String) throws(PrintError) -> Destination? {
        guard !name.contains("/") else { return nil }
        let connection: CUPSConnection
        do { connection = try connect() } catch where error.kind == .schedulerNotAnswering { throw error } catch { return nil }
        let states = printerStates(connection)
        try connection.requireAnswered()
        guard let attributes = states[name] else { return nil }
        let defaultName = defaultDestinationName(connection, known: [name])
        try connection.requireAnswered()
        return Self.destination(name: name, instance: nil, attributes: attributes, listed: [:],
                                isDefault: defaultName == name)
    }

    /// The destination to use: `name` if given (as "queue" or "queue/instance"), otherwise the
    /// default as `lp` resolves it: `LPDEST`, `PRINTER`, `~/.cups/lpoptions` Default, then the
    /// scheduler's default. When no default is set and exactly one queue exists, that one.
    ///
    /// - Throws: ``PrintError`` naming the available destinations when `name` does not exist;
    ///   `noPrinters` / `schedulerNotRunning` when there is nothing to print to.
    public func destination(named name: String? = nil) throws(PrintError) -> Destination {
        if let name, let queue = try queue(named: name) { return queue }
        let all = try destinations()
        if all.isEmpty { throw Self.noPrintersError(server) }
        let available = all.map(\.fullName)
        if let name {
            if let found = all.first(where: { $0.fullName == name }) { return found }
            throw PrintError(.unknownDestination,
                             "\(name): no such printer (available: \(available.joined(separator: ", ")))",
                             available: available)
        }
        if let found = all.first(where: \.isDefault) { return found }
        if let requested = userDefault()?.name {
            throw PrintError(.unknownDestination,
                             "\(requested): the default printer does not exist (available: \(available.joined(separator: ", ")))",
                             available: available)
        }
        if all.count == 1 { return all[0] }
        throw PrintError(.unknownDestination,
                         "no default printer is set (available: \(available.joined(separator: ", ")))",
                         available: available, remedy: .destination)
    }

    static func noPrintersError(_ server: PrintServer) -> PrintError {
        PrintError(.noPrinters, "no printers are set up (add one in your desktop's printer settings or with lpadmin)",
                   ipp: IPPStatus(code: IPPStatus.notFound, name: "client-error-not-found", message: "No destinations added."))
    }

    /// Whether printing can work now: at least one destination exists and accepts jobs.
    public func availability() -> PrintAvailability {
        do {
            let all = try destinations()
            if all.isEmpty { return .noPrinters }
            if all.allSatisfy({ !$0.isAcceptingJobs }) {
                return .allRejecting(all.map { ($0.fullName, $0.problem ?? "rejecting jobs") }.map(PrintAvailability.Refusal.init))
            }
            return .available(all.filter(\.isAcceptingJobs))
        } catch where error.kind == .schedulerNotAnswering {
            return .schedulerNotAnswering(detail: error.message)
        } catch {
            return .schedulerNotRunning(detail: error.message)
        }
    }

    /// Whether a job could be printed now: what `availability().isAvailable` says (some queue
    /// accepts jobs; an instance accepts what its queue accepts), from one CUPS-Get-Printers for
    /// the queues' state instead of the whole destination list. For hooks that ask this on every
    /// context menu (`quire can-print`).
    package func acceptsJobs() -> Bool {
        guard let connection = try? connect() else { return false }
        return printerStates(connection).values.contains { $0.boolean("printer-is-accepting-jobs") ?? true }
    }

    // MARK: Default destination

    /// `LPDEST`, then `PRINTER` (ignoring the historical "lp"), then `~/.cups/lpoptions` Default.
    func userDefault() -> (name: String, source: String)? {
        if let value = environment["LPDEST"], !value.isEmpty { return (value, "LPDEST") }
        if let value = environment["PRINTER"], !value.isEmpty, value != "lp" { return (value, "PRINTER") }
        if let home = environment["HOME"], let name = Self.lpoptionsDefault(path: home + "/.cups/lpoptions") {
            return (name, "~/.cups/lpoptions")
        }
        return nil
    }

    /// The "Default name[/instance]" line of an lpoptions file.
    static func lpoptionsDefault(path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            if words.count >= 2, words[0].lowercased() == "default" { return String(words[1]) }
        }
        return nil
    }

    private func defaultDestinationName(_ connection: CUPSConnection, known: [String]) -> String? {
        if let user = userDefault() { return user.name }
        let request = IPPRequest(IPP_OP_CUPS_GET_DEFAULT)
        request.addKeywords("requested-attributes", ["printer-name"])
        let (response, status) = connection.send(request)
        guard status.isSuccess, let response else { return nil }
        return response.groups(IPP_TAG_PRINTER).first?.string("printer-name")
    }

    func printerStates(_ connection: CUPSConnection) -> [String: IPPAttributes] {
        let request = IPPRequest(IPP_OP_CUPS_GET_PRINTERS)
        request.addKeywords("requested-attributes", [
            "printer-name", "printer-state", "printer-state-reasons", "printer-state-message",
            "printer-is-accepting-jobs", "printer-info", "printer-location", "printer-make-and-model",
            "device-uri",
        ])
        let (response, status) = connection.send(request)
        guard status.isSuccess, let response else { return [:] }
        var result: [String: IPPAttributes] = [:]
        for group in response.groups(IPP_TAG_PRINTER) {
            if let name = group.string("printer-name") { result[name] = group }
        }
        return result
    }
}

func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
}
