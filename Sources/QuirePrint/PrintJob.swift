import QuireTypes

/// A job the scheduler accepted: its id, destination and any warnings (e.g. the printer is
/// stopped, so the job waits in the queue).
public struct PrintJob: Sendable, Hashable, Codable {
    public let id: Int
    /// The destination's full name ("queue" or "queue/instance").
    public let destination: String
    /// Number of documents sent.
    public let documentCount: Int
    public let warnings: [String]

    /// "quire-office-12", as `lp` prints it.
    public var requestID: String {
        let queue = destination.split(separator: "/").first.map(String.init) ?? destination
        return "\(queue)-\(id)"
    }
}
