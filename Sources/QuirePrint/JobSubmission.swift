internal import CCUPS
import QuireSheets
import QuireTypes

/// Submitting jobs: checking options against the destination, sending the documents to the
/// scheduler (``PrintJob`` is what comes back).
extension PrintSystem {
    /// Checks `options` against what `destination` supports, without sending anything.
    /// - Throws: ``PrintError/Kind/invalidOption`` naming the printer and the supported values.
    public func validate(_ options: PrintOptions, for destination: Destination) throws(PrintError) {
        let connection = try connect()
        let info = try destinationInfo(connection, destination)
        try validate(options, info: info, destination: destination)
    }

    /// `destination`'s `cups_dest_t` and capabilities: a queue looked up alone
    /// (``NamedDestination``), an instance or a queue the scheduler does not report that way
    /// through the whole list (which names the destinations that exist when it is missing).
    func destinationInfo(_ connection: CUPSConnection, _ destination: Destination) throws(PrintError) -> DestinationInfo {
        if destination.instance == nil, let named = try NamedDestination(connection, queue: destination.name) {
            return try DestinationInfo(connection, named: named, destination: destination)
        }
        return try DestinationInfo(connection, list: DestinationList(connection), destination: destination)
    }

    func validate(_ options: PrintOptions, info: DestinationInfo, destination: Destination) throws(PrintError) {
        let capabilities = PrintCapabilities(info)
        let name = destination.fullName
        if let copies = options.copies, !capabilities.copies.contains(copies) {
            throw PrintError(.invalidOption,
                             "\(name): cannot print \(copies) copies (allowed: \(capabilities.copies.lowerBound)-\(capabilities.copies.upperBound))")
        }
        if let sides = options.sides, !capabilities.sides.isEmpty, !capabilities.sides.contains(sides.rawValue) {
            throw PrintError(.invalidOption,
                             "\(name): does not print \(sides.rawValue) (supported: \(capabilities.sides.joined(separator: ", ")))")
        }
        if let media = options.media, !info.check("media", media) {
            let shown = PaperSize.named(media)?.displayName ?? media
            throw PrintError(.invalidOption,
                             "\(name): does not support media \(shown) (supported: \(capabilities.media.map { PaperSize.named($0)?.displayName ?? $0 }.joined(separator: ", ")))")
        }
        if let mode = options.colorMode, !capabilities.colorModes.isEmpty, !capabilities.colorModes.contains(mode.rawValue) {
            throw PrintError(.invalidOption,
                             "\(name): does not print in \(mode.rawValue) (supported: \(capabilities.colorModes.joined(separator: ", ")))")
        }
        if !options.composedByQuire, let numberUp = options.numberUp, !capabilities.numberUp.contains(numberUp) {
            throw PrintError(.invalidOption,
                             "\(name): cannot print \(numberUp) pages per side (supported: \(capabilities.numberUp.map(String.init).joined(separator: ", ")))")
        }
        if let priority = options.priority, !(1...100).contains(priority) {
            throw PrintError(.invalidOption, "priority \(priority) is out of range (1-100)")
        }
    }

    /// Submits `documents` as one job: `cupsCreateDestJob`, then for each document
    /// `cupsStartDestDocument` / `cupsWriteRequestData` / `cupsFinishDestDocument`.
    ///
    /// The destination is looked up again on the scheduler, so a printer removed, stopped or
    /// set to reject jobs since `destination` was read is reported as it is now.
    ///
    /// - Parameters:
    ///   - pageRangesValue: the IPP `page-ranges` text to send (document pages already
    ///     validated), or nil when all pages print or the pages were selected beforehand.
    ///   - willSend: called before each document is sent, with its index (progress).
    /// - Returns: the job, with a warning when the destination is stopped (the job waits).
    /// - Throws: ``PrintError``. If anything fails after the job was created, the job is
    ///   cancelled before this throws: no stray jobs. When even that is impossible (the
    ///   scheduler stopped), the error is ``PrintError/Kind/schedulerNotRunning`` and names the
    ///   job left behind (``PrintError/leftoverJob``).
    public func submit(_ documents: [PrintDocument], to destination: Destination, options: PrintOptions,
                       pageRangesValue: String? = nil,
                       willSend: (_ index: Int, _ document: PrintDocument) -> Void = { _, _ in }) throws(PrintError) -> PrintJob {
        guard !documents.isEmpty else { throw PrintError(.invalidOption, "nothing to print") }
        let connection = try connect()
        let info: DestinationInfo
        if destination.instance == nil, let named = try NamedDestination(connection, queue: destination.name) {
            info = try DestinationInfo(connection, named: named, destination: destination)
        } else {
            info = try listedDestinationInfo(connection, destination)
        }
        try validate(options, info: info, destination: destination)
        return try createJob(documents, connection: connection, info: info, destination: destination, options: options,
                             pageRangesValue: pageRangesValue, willSend: willSend)
    }

    /// The print system's half of a job, before anything is created: finds the destination
    /// (`name`, or the default as ``destination(named:)`` resolves it), reads its capabilities
    /// and checks `options` against them, on one connection that then carries the job
    /// (``submit(_:to:options:pageRangesValue:willSend:)``). A queue named on the command line is
    /// looked up alone (`cupsGetNamedDest`, as `lp` does: one request); anything else, or a queue
    /// that lookup does not find, through the whole list, which names what exists.
    ///
    /// - Throws: ``PrintError``, the same errors as planning (unknown destination, no printers,
    ///   scheduler not running) and ``validate(_:for:)`` (option not supported).
    package func target(named name: String?, options: PrintOptions) throws(PrintError) -> PrintTarget {
        let connection = try connect()
        let destination: Destination
        let info: DestinationInfo
        if let name, !name.contains("/"), let named = try NamedDestination(connection, queue: name) {
            destination = Self.destination(name: name, instance: nil, attributes: nil, listed: named.options, isDefault: false)
            info = try DestinationInfo(connection, named: named, destination: destination)
        } else {
            destination = try self.destination(named: name)
            info = try destinationInfo(connection, destination)
        }
        try validate(options, info: info, destination: destination)
        let saved = Self.destinationOptions(info.dest.pointee).filter { SheetOptions.optionNames.contains($0.0) || $0.0 == "sides" }
        return PrintTarget(destination: destination, savedSheetOptions: saved,
                           handles: PrintTarget.Handles(connection: connection, info: info))
    }

    /// Sends `documents` as one job to a checked ``PrintTarget`` (see
    /// ``submit(_:to:options:pageRangesValue:willSend:)`` for what is sent, reported and undone
    /// on failure). `options` must be the ones the target was checked with.
    package func submit(_ documents: [PrintDocument], to target: PrintTarget, options: PrintOptions,
                        pageRangesValue: String? = nil,
                        willSend: (_ index: Int, _ document: PrintDocument) -> Void = { _, _ in }) throws(PrintError) -> PrintJob {
        guard !documents.isEmpty else { throw PrintError(.invalidOption, "nothing to print") }
        return try target.withConnection { (connection, info) throws(PrintError) -> PrintJob in
            try connection.onThisThread { () throws(PrintError) -> PrintJob in
                try createJob(documents, connection: connection, info: info, destination: target.destination,
                              options: options, pageRangesValue: pageRangesValue, willSend: willSend)
            }
        }
    }

    /// Creates the job on `connection` and sends the documents (options already checked).
    private func createJob(_ documents: [PrintDocument], connection: CUPSConnection, info: DestinationInfo,
                           destination: Destination, options: PrintOptions, pageRangesValue: String?,
                           willSend: (_ index: Int, _ document: PrintDocument) -> Void) throws(PrintError) -> PrintJob {
        let name = destination.fullName
        let cupsOptions = options.cupsOptions(pageRangesValue: pageRangesValue)
        var count: Int32 = 0
        var array: UnsafeMutablePointer<cups_option_t>?
        defer { libcups.cupsFreeOptions(count, array) }
        for (key, value) in cupsOptions { count = libcups.cupsAddOption(key, value, count, &array) }
        // As lp does: the destination's own options (lpoptions, an instance's settings, the
        // queue's defaults) apply where the user set nothing.
        let composed = options.composedByQuire
        for (key, value) in Self.destinationOptions(info.dest.pointee) where libcups.cupsGetOption(key, count, array) == nil {
            // Composed by Quire: the saved sheet options were applied to the document already.
            if composed && (SheetOptions.optionNames.contains(key) || key == "page-ranges") { continue }
            count = libcups.cupsAddOption(key, value, count, &array)
        }

        var jobID: Int32 = 0
        let title = options.title ?? documents[0].name
        let created = libcups.cupsCreateDestJob(connection.http, info.dest, info.info, &jobID, title, count, array)
        let createStatus = IPPStatus(created, message: IPPStatus.last().message)
        if !createStatus.isSuccess || jobID == 0 {
            if createStatus.code == IPPStatus.notAcceptingJobs {
                // The reason as the queue states it now, not as it was when planned.
                let now = currentState(of: destination.name, connection) ?? destination
                let why = (now.stateMessage ?? destination.stateMessage).map { " (\($0))" } ?? ""
                throw PrintError(.notAccepting, "\(name): the printer is not accepting jobs\(why)", ipp: createStatus)
            }
            if createStatus.code == IPPStatus.forbidden || createStatus.code == IPPStatus.notAuthorized {
                throw PrintError(.notPermitted, "\(name): not allowed to print here", ipp: createStatus)
            }
            if createStatus.code == IPPStatus.notFound {
                let available = (try? destinations(connection))?.map(\.fullName) ?? []
                throw Self.removed(name, available: available, ipp: createStatus)
            }
            if createStatus.code == IPPStatus.serviceUnavailable || !Self.reachable(server) {
                throw PrintError(.schedulerNotRunning,
                                 "the print system stopped before \(name) took the job (\(createStatus.message))",
                                 ipp: createStatus)
            }
            throw PrintError(.requestFailed, "\(name): the scheduler refused the job (\(createStatus.message))", ipp: createStatus)
        }

        let job = PrintJob(id: Int(jobID), destination: name, documentCount: documents.count, warnings: [])
        var answer: IPPAttributes?
        do {
            for (index, document) in documents.enumerated() {
                willSend(index, document)
                answer = try send(document, last: index == documents.count - 1, jobID: jobID,
                                  connection: connection, info: info, destination: name)
            }
        } catch {
            // No stray jobs: cancel on a fresh connection (this one may be mid-request).
            if let fresh = try? CUPSConnection(server),
               libcups.cupsCancelDestJob(fresh.http, info.dest, jobID).rawValue < 0x0100 {
                throw error
            }
            if let all = try? destinations() {
                // The scheduler answers. A printer deleted meanwhile took the job with it.
                if !all.contains(where: { $0.name == destination.name }) {
                    let available = all.map(\.fullName)
                    let list = available.isEmpty ? "" : " (available: \(available.joined(separator: ", ")))"
                    throw PrintError(.unknownDestination,
                                     "\(name): the printer was removed while the job was being sent, and the job with it\(list)",
                                     ipp: error.ipp, available: available)
                }
                // Someone cancelled the half-sent job (e.g. `cancel -a`): nothing is left, say so.
                if let ended = endedWhileSending(job) { throw ended }
                throw error
            }
            throw PrintError(.schedulerNotRunning,
                             "the print system stopped while \(job.requestID) was being sent; the incomplete job stays "
                                 + "held on the scheduler: cancel it (quire cancel \(job.requestID)) once CUPS runs again",
                             ipp: error.ipp, leftoverJob: job.requestID)
        }

        // cupsd takes documents for a job cancelled meanwhile without complaint: check. (Only
        // cancelled: how a job that was sent whole ends is for `--wait` to report.) The answer to
        // the last document carries the job's state; a server whose answer does not is asked.
        if let jobState = answer?.integer("job-state") {
            if jobState == 7 { throw Self.cancelledWhileSending(job) }   // IPP_JSTATE_CANCELED
        } else if let ended = endedWhileSending(job, includingAborted: false, connection: connection) {
            throw ended
        }

        // The queue as it is now (its job-state-reasons in that answer say "none" for a pending
        // job on a stopped queue: cupsd does not tell there).
        var warnings: [String] = []
        let now = currentState(of: destination.name, connection) ?? destination
        if now.state == .stopped {
            let why = now.stateMessage ?? now.stateReasons.joined(separator: ", ")
            warnings.append("\(name) is stopped\(why.isEmpty ? "" : " (\(why))"); the job waits in the queue until the printer is resumed")
        }
        return PrintJob(id: job.id, destination: name, documentCount: documents.count, warnings: warnings)
    }

    /// The destination as the whole list has it, with the errors for a scheduler that went away,
    /// no printers left, or this one removed.
    private func listedDestinationInfo(_ connection: CUPSConnection, _ destination: Destination) throws(PrintError) -> DestinationInfo {
        let list = DestinationList(connection)
        let name = destination.fullName
        if list.count == 0 {
            // The scheduler went away after connecting, or its last printer was removed.
            if list.status.code == IPPStatus.serviceUnavailable {
                throw PrintError(.schedulerNotRunning,
                                 "the print system is not running (the CUPS scheduler at \(server) does not answer)",
                                 ipp: list.status)
            }
            throw PrintError(.noPrinters, "\(name): the printer was removed, and no printers are set up now",
                             ipp: list.status)
        }
        guard list.find(name: destination.name, instance: destination.instance) != nil else {
            throw Self.removed(name, available: list.entries.map { entry in entry.instance.map { "\(entry.name)/\($0)" } ?? entry.name })
        }
        return try DestinationInfo(connection, list: list, destination: destination)
    }

    /// The error for a job that was cancelled or aborted (by another user, an operator or the
    /// scheduler) while Quire was sending it, or nil when it is still going.
    func endedWhileSending(_ job: PrintJob, includingAborted: Bool = true, connection: CUPSConnection? = nil) -> PrintError? {
        let queue = JobQueue(system: self)
        guard let info = try? (connection.map { connection throws(PrintError) in try queue.job(job.id, connection) } ?? queue.job(job.id))
        else { return nil }
        switch info.state {
        case .canceled:
            return Self.cancelledWhileSending(job)
        case .aborted where includingAborted:
            let why = info.stateMessage.map { " (\($0))" } ?? ""
            return PrintError(.cancelled, "\(job.requestID) was aborted by the print system while it was being sent\(why)")
        default:
            return nil
        }
    }

    static func cancelledWhileSending(_ job: PrintJob) -> PrintError {
        PrintError(.cancelled, "\(job.requestID) was cancelled by another user or the print system while it was being sent")
    }

    static func removed(_ name: String, available: [String], ipp: IPPStatus? = nil) -> PrintError {
        let list = available.isEmpty ? "" : " (available: \(available.joined(separator: ", ")))"
        return PrintError(.unknownDestination, "\(name): the printer no longer exists\(list)", ipp: ipp, available: available)
    }

    /// Whether the scheduler accepts a connection now.
    static func reachable(_ server: PrintServer) -> Bool {
        (try? CUPSConnection(server, timeout: 2)) != nil
    }

    /// The queue's state, reasons and message as the scheduler reports them now.
    func currentState(of queue: String, _ connection: CUPSConnection) -> Destination? {
        guard let attributes = printerStates(connection)[queue] else { return nil }
        return Destination(
            name: queue, state: .init(ipp: attributes.integer("printer-state")),
            stateReasons: attributes.strings("printer-state-reasons").filter { $0 != "none" },
            stateMessage: nonEmpty(attributes.string("printer-state-message")),
            isAcceptingJobs: attributes.boolean("printer-is-accepting-jobs") ?? true)
    }

    /// Options stored with a destination that are job settings, not descriptions of the queue.
    static func destinationOptions(_ dest: cups_dest_t) -> [(String, String)] {
        guard let options = dest.options else { return [] }
        var result: [(String, String)] = []
        for index in 0..<Int(dest.num_options) {
            guard let name = options[index].name, let value = options[index].value else { continue }
            let key = String(cString: name)
            let descriptive = ["printer-", "marker-", "device-uri", "auth-info-required", "job-sheets"]
            if descriptive.contains(where: { key.hasPrefix($0) }) { continue }
            result.append((key, String(cString: value)))
        }
        return result
    }

    /// Sends one document of job `jobID`; returns the job's attributes from the scheduler's
    /// answer (`job-state`), nil when the answer has none.
    @discardableResult
    private func send(_ document: PrintDocument, last: Bool, jobID: Int32, connection: CUPSConnection,
                      info: DestinationInfo, destination: String) throws(PrintError) -> IPPAttributes? {
        let started = libcups.cupsStartDestDocument(connection.http, info.dest, info.info, jobID, document.name,
                                            document.mimeType, 0, nil, last ? 1 : 0)
        guard started == HTTP_STATUS_CONTINUE else {
            throw PrintError(.requestFailed, "\(destination): cannot start sending \(document.name)", ipp: IPPStatus.last())
        }
        func write(_ chunk: [UInt8]) throws(PrintError) {
            guard !chunk.isEmpty else { return }
            let status = chunk.withUnsafeBytes { raw in
                libcups.cupsWriteRequestData(connection.http, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
            }
            guard status == HTTP_STATUS_CONTINUE else {
                throw PrintError(.requestFailed, "\(destination): sending \(document.name) failed", ipp: IPPStatus.last())
            }
        }
        switch document.source {
        case .data(let data):
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + 64 * 1024)
                try write(Array(data[offset..<end]))
                offset = end
            }
        case .file(let file):
            var offset: Int64 = 0
            while true {
                let chunk: [UInt8]
                do { chunk = try file.read(upTo: 64 * 1024, at: offset) } catch {
                    throw PrintError(.requestFailed, "\(file.path): cannot read the file (\(error.reason))")
                }
                if chunk.isEmpty { break }
                try write(chunk)
                offset += Int64(chunk.count)
            }
        }
        // What cupsFinishDestDocument does (cupsGetResponse, then cupsLastError), keeping the
        // answer it would delete: its job-state tells whether the job was cancelled while it was
        // being sent, which otherwise takes a Get-Job-Attributes round trip while the scheduler
        // is starting the job.
        let response = libcups.cupsGetResponse(connection.http, Self.resource(info.dest.pointee)).map(IPPResponse.init)
        let status = IPPStatus(libcups.cupsLastError(), message: IPPStatus.last().message)
        guard status.isSuccess else {
            throw PrintError(.requestFailed, "\(destination): the scheduler did not accept \(document.name) (\(status.message))", ipp: status)
        }
        return response?.groups(IPP_TAG_JOB).first
    }

    /// The resource path of a destination's printer URI ("/printers/office"), as
    /// cupsCopyDestInfo keeps it for the destination's requests; "/" when the URI is missing.
    static func resource(_ dest: cups_dest_t) -> String {
        guard let uri = libcups.cupsGetOption("printer-uri-supported", dest.num_options, dest.options).map({ String(cString: $0) }),
              let scheme = uri.firstRange(of: "://") else { return "/" }
        let rest = uri[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }
}
