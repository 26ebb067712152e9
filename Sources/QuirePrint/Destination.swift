/// A print queue (or an instance of one, as `lpoptions -p name/instance` creates) and its state.
public struct Destination: Sendable, Hashable, Codable {
    /// Whether the queue is idle, printing or stopped (IPP `printer-state`).
    public enum State: String, Sendable, Hashable, Codable {
        case idle, printing, stopped

        init(ipp: Int?) {
            switch ipp {
            case 4: self = .printing
            case 5: self = .stopped
            default: self = .idle
            }
        }
    }

    /// Queue name.
    public let name: String
    /// Instance name, or nil for the queue itself.
    public let instance: String?
    public let state: State
    /// IPP `printer-state-reasons` other than "none" (e.g. "paused", "media-empty-error").
    public let stateReasons: [String]
    /// The administrator's or printer's message (`printer-state-message`), e.g. why it is stopped.
    public let stateMessage: String?
    /// Whether the queue accepts new jobs.
    public let isAcceptingJobs: Bool
    public let location: String?
    /// The description (`printer-info`).
    public let info: String?
    public let makeAndModel: String?
    /// Whether this is the destination `lp` would use without `-d`.
    public let isDefault: Bool
    /// The device or printer URI, when the scheduler tells it.
    public let deviceURI: String?

    public init(name: String, instance: String? = nil, state: State = .idle, stateReasons: [String] = [],
                stateMessage: String? = nil, isAcceptingJobs: Bool = true, location: String? = nil,
                info: String? = nil, makeAndModel: String? = nil, isDefault: Bool = false,
                deviceURI: String? = nil) {
        self.name = name
        self.instance = instance
        self.state = state
        self.stateReasons = stateReasons
        self.stateMessage = stateMessage
        self.isAcceptingJobs = isAcceptingJobs
        self.location = location
        self.info = info
        self.makeAndModel = makeAndModel
        self.isDefault = isDefault
        self.deviceURI = deviceURI
    }

    /// "name" or "name/instance", as `lp -d` takes it.
    public var fullName: String { instance.map { "\(name)/\($0)" } ?? name }

    /// Why the queue will not print right now, for people: "rejecting jobs: closed for
    /// maintenance", "stopped: paper jam in tray 2", or nil when it is ready.
    public var problem: String? {
        let detail = stateMessage.flatMap { $0.isEmpty ? nil : $0 }
            ?? (stateReasons.isEmpty ? nil : stateReasons.joined(separator: ", "))
        if !isAcceptingJobs { return "rejecting jobs" + (detail.map { ": \($0)" } ?? "") }
        if state == .stopped { return "stopped" + (detail.map { ": \($0)" } ?? "") }
        return nil
    }
}
