import QuireTypes

/// A printing failure: what went wrong in words the user can act on, and the IPP status libcups
/// reported when there was one.
public struct PrintError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// The scheduler (cupsd) cannot be reached.
        case schedulerNotRunning
        /// The scheduler accepts connections but does not answer within the time limit
        /// (stopped, hung, or something else listening on its port).
        case schedulerNotAnswering
        /// The scheduler runs but has no printers.
        case noPrinters
        /// The named destination does not exist.
        case unknownDestination
        /// The destination refuses new jobs.
        case notAccepting
        /// A print option is malformed or not supported by the destination.
        case invalidOption
        /// A page range is malformed or outside the document.
        case invalidPageRange
        /// No job with that id.
        case unknownJob
        /// The scheduler refused the request (permissions).
        case notPermitted
        /// The content cannot be printed (type, conversion not available).
        case unprintable
        /// The job was cancelled or aborted by someone else (another user, an operator, the
        /// scheduler) before Quire had sent it all.
        case cancelled
        /// Any other failure while talking to the scheduler.
        case requestFailed
    }

    public let kind: Kind
    /// One line for the user, naming the printer, job or file and the reason.
    public let message: String
    /// The IPP status behind the failure, when libcups reported one.
    public let ipp: IPPStatus?
    /// Destination names that exist (filled for ``Kind/unknownDestination``).
    public let available: [String]
    /// A job the failure left on the scheduler ("queue-12"), when it could not be cancelled
    /// (the scheduler stopped while the job was being sent). The message says how to remove it.
    public let leftoverJob: String?

    /// Which setting would help (naming a destination), if any.
    public let remedy: Remedy?

    public init(_ kind: Kind, _ message: String, ipp: IPPStatus? = nil, available: [String] = [],
                leftoverJob: String? = nil, remedy: Remedy? = nil) {
        self.remedy = remedy
        self.kind = kind
        self.message = message
        self.ipp = ipp
        self.available = available
        self.leftoverJob = leftoverJob
    }

    /// The message, followed by the IPP status when there is one.
    public var description: String {
        guard let ipp, !ipp.isSuccess else { return message }
        return "\(message) [\(ipp)]"
    }
}
