/// Whether the print system can take a job now, and if not, why in words the user can act on.
public enum PrintAvailability: Sendable {
    /// A destination that refuses jobs, and why.
    public struct Refusal: Sendable, Hashable {
        public let destination: String
        public let reason: String
        public init(_ destination: String, _ reason: String) {
            self.destination = destination
            self.reason = reason
        }
    }

    /// At least one destination accepts jobs (these).
    case available([Destination])
    /// The scheduler runs but has no printers.
    case noPrinters
    /// The scheduler cannot be reached.
    case schedulerNotRunning(detail: String)
    /// The scheduler accepts connections but does not answer in time.
    case schedulerNotAnswering(detail: String)
    /// Every destination is rejecting jobs.
    case allRejecting([Refusal])

    public var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }

    /// Why printing is unavailable, or nil when it is available.
    public var reason: String? {
        switch self {
        case .available: return nil
        case .noPrinters: return "no printers are set up"
        case .schedulerNotRunning: return "the print system is not running"
        case .schedulerNotAnswering: return "the print system does not answer"
        case .allRejecting(let refusals):
            let list = refusals.map { "\($0.destination): \($0.reason)" }.joined(separator: "; ")
            return "every printer is rejecting jobs (\(list))"
        }
    }

    /// The matching error, for callers that must refuse to print.
    public var error: PrintError? {
        switch self {
        case .available: return nil
        case .noPrinters: return PrintSystem.noPrintersError(.default)
        case .schedulerNotRunning(let detail): return PrintError(.schedulerNotRunning, detail)
        case .schedulerNotAnswering(let detail): return PrintError(.schedulerNotAnswering, detail)
        case .allRejecting: return PrintError(.notAccepting, reason ?? "every printer is rejecting jobs")
        }
    }
}
