import FoundationEssentials

/// One job as the scheduler reports it.
public struct JobInfo: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable {
        case pending, held, processing, stopped, canceled, aborted, completed

        init(ipp: Int?) {
            switch ipp {
            case 4: self = .held
            case 5: self = .processing
            case 6: self = .stopped
            case 7: self = .canceled
            case 8: self = .aborted
            case 9: self = .completed
            default: self = .pending
            }
        }

        /// Whether the job is finished (completed, cancelled or aborted).
        public var isFinished: Bool { self == .canceled || self == .aborted || self == .completed }
    }

    public let id: Int
    /// Queue name.
    public let destination: String
    public let title: String
    public let user: String?
    public let state: State
    /// `job-state-reasons` other than "none".
    public let stateReasons: [String]
    public let stateMessage: String?
    /// Size in kilobytes as the scheduler counts it (`job-k-octets`).
    public let sizeKilobytes: Int?
    public let priority: Int?
    /// Pages (impressions) completed, when the scheduler counted them.
    public let pagesCompleted: Int?
    public let holdUntil: String?
    public let created: Date?
    public let processingStarted: Date?
    public let completed: Date?

    /// "quire-office-12".
    public var requestID: String { "\(destination)-\(id)" }
}
