internal import CCUPS
import FoundationEssentials

/// The scheduler's jobs: list, details, cancel, hold and release.
public struct JobQueue: Sendable {
    public enum Which: String, Sendable, CaseIterable {
        case active = "not-completed", completed, all
    }

    public let system: PrintSystem

    public init(system: PrintSystem = PrintSystem()) {
        self.system = system
    }

    static let attributes = [
        "job-id", "job-printer-uri", "job-name", "job-originating-user-name", "job-state",
        "job-state-reasons", "job-state-message", "job-k-octets", "job-priority",
        "job-impressions-completed", "job-media-sheets-completed", "job-hold-until",
        "time-at-creation", "time-at-processing", "time-at-completed",
    ]

    /// Jobs on `destination` (a queue name) or on every queue, newest last.
    public func jobs(on destination: String? = nil, which: Which = .active) throws(PrintError) -> [JobInfo] {
        let connection = try system.connect()
        let request = IPPRequest(IPP_OP_GET_JOBS)
        let queue = destination.map { $0.split(separator: "/").first.map(String.init) ?? $0 }
        request.addURI("printer-uri", queue.map { "ipp://localhost/printers/\($0)" } ?? "ipp://localhost/")
        request.addKeyword("which-jobs", which.rawValue)
        request.addKeywords("requested-attributes", Self.attributes)
        let (response, status) = connection.send(request)
        guard status.isSuccess, let response else {
            if status.code == IPPStatus.notFound, let queue {
                throw PrintError(.unknownDestination, "\(queue): no such printer", ipp: status)
            }
            throw PrintError(.requestFailed, "cannot list jobs (\(status.message))", ipp: status)
        }
        return response.groups(IPP_TAG_JOB).compactMap(Self.job).sorted { $0.id < $1.id }
    }

    /// Details of job `id`.
    public func job(_ id: Int) throws(PrintError) -> JobInfo {
        try job(id, system.connect())
    }

    /// Details of job `id`, asked on an open connection.
    func job(_ id: Int, _ connection: CUPSConnection) throws(PrintError) -> JobInfo {
        let request = IPPRequest(IPP_OP_GET_JOB_ATTRIBUTES)
        request.addURI("job-uri", "ipp://localhost/jobs/\(id)")
        request.addKeywords("requested-attributes", Self.attributes)
        let (response, status) = connection.send(request)
        guard status.isSuccess, let response, let job = response.groups(IPP_TAG_JOB).first.flatMap(Self.job) else {
            throw error(for: status, job: id, action: "read")
        }
        return job
    }

    /// Follows job `id` until it is completed, cancelled or aborted, asking the scheduler
    /// (Get-Job-Attributes) every `interval`. Returns the finished job; what the caller makes
    /// of a cancelled or aborted one is up to it.
    ///
    /// - Parameter observe: called with the job each time it is read, finished or not (to show
    ///   its progress).
    /// - Throws: ``PrintError/Kind/schedulerNotRunning`` when the scheduler stops answering,
    ///   ``PrintError/Kind/requestFailed`` when the job disappears (purged) or the task is
    ///   cancelled.
    public func waitUntilFinished(_ id: Int, interval: Duration = .milliseconds(500),
                                  observe: (JobInfo) -> Void = { _ in }) async throws(PrintError) -> JobInfo {
        var queue: String?
        while true {
            let current: JobInfo
            do {
                current = try job(id)
                observe(current)
            } catch where error.kind == .unknownJob {
                // Purged: its printer was deleted (which takes its jobs with it), or the
                // scheduler keeps no job history.
                if let queue, let names = try? system.destinations().map(\.name), !names.contains(queue) {
                    throw PrintError(.requestFailed, "\(queue)-\(id): the printer was removed, and the job with it",
                                     ipp: error.ipp)
                }
                throw PrintError(.requestFailed, "job \(id) is no longer known to the scheduler; whether it printed is unknown",
                                 ipp: error.ipp)
            }
            queue = current.destination
            if current.state.isFinished { return current }
            do {
                try await Task.sleep(for: interval)
            } catch {
                throw PrintError(.requestFailed, "stopped waiting for job \(id)")
            }
        }
    }

    /// Cancels job `id`.
    public func cancel(_ id: Int) throws(PrintError) {
        try jobOperation(IPP_OP_CANCEL_JOB, id, action: "cancel")
    }

    /// Holds job `id` (it stays in the queue until released).
    public func hold(_ id: Int) throws(PrintError) {
        try jobOperation(IPP_OP_HOLD_JOB, id, action: "hold")
    }

    /// Releases held job `id`.
    public func release(_ id: Int) throws(PrintError) {
        try jobOperation(IPP_OP_RELEASE_JOB, id, action: "release")
    }

    /// Cancels every active job on `destination`, or on every queue; returns the ids cancelled.
    @discardableResult
    public func cancelAll(on destination: String? = nil) throws(PrintError) -> [Int] {
        let active = try jobs(on: destination, which: .active)
        var cancelled: [Int] = []
        for job in active {
            do {
                try cancel(job.id)
                cancelled.append(job.id)
            } catch where error.kind == .unknownJob {
                continue  // finished meanwhile
            }
        }
        return cancelled
    }

    private func jobOperation(_ operation: ipp_op_t, _ id: Int, action: String) throws(PrintError) {
        let connection = try system.connect()
        let request = IPPRequest(operation)
        request.addURI("job-uri", "ipp://localhost/jobs/\(id)")
        let (_, status) = connection.send(request, resource: "/jobs")
        guard status.isSuccess else { throw error(for: status, job: id, action: action) }
    }

    private func error(for status: IPPStatus, job id: Int, action: String) -> PrintError {
        switch status.code {
        case IPPStatus.notFound:
            return PrintError(.unknownJob, "job \(id): no such job", ipp: status)
        case IPPStatus.notPossible:
            let why = status.message.isEmpty ? "not possible in its current state" : status.message
            return PrintError(.invalidOption, "job \(id): cannot \(action) (\(why))", ipp: status)
        case IPPStatus.forbidden, IPPStatus.notAuthorized:
            return PrintError(.notPermitted, "job \(id): not allowed to \(action) it", ipp: status)
        default:
            return PrintError(.requestFailed, "job \(id): cannot \(action) (\(status.message))", ipp: status)
        }
    }

    static func job(_ attributes: IPPAttributes) -> JobInfo? {
        guard let id = attributes.integer("job-id") else { return nil }
        func date(_ name: String) -> Date? {
            guard let seconds = attributes.integer(name), seconds > 0 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        let printer = attributes.string("job-printer-uri") ?? ""
        let queue = printer.split(separator: "/").last.map(String.init) ?? printer
        let pages = attributes.integer("job-impressions-completed") ?? attributes.integer("job-media-sheets-completed")
        return JobInfo(
            id: id, destination: queue, title: attributes.string("job-name") ?? "",
            user: attributes.string("job-originating-user-name"),
            state: .init(ipp: attributes.integer("job-state")),
            stateReasons: attributes.strings("job-state-reasons").filter { $0 != "none" },
            stateMessage: nonEmpty(attributes.string("job-state-message")),
            sizeKilobytes: attributes.integer("job-k-octets"), priority: attributes.integer("job-priority"),
            pagesCompleted: pages, holdUntil: attributes.string("job-hold-until"),
            created: date("time-at-creation"), processingStarted: date("time-at-processing"),
            completed: date("time-at-completed"))
    }
}
