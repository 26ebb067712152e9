internal import CCUPS

/// An IPP status as libcups reported it: the numeric code, its IPP name and libcups' message.
public struct IPPStatus: Sendable, Hashable, CustomStringConvertible {
    /// The status code (e.g. `0x0506` for client-error-not-accepting-jobs).
    public let code: Int
    /// The IPP name of the status ("client-error-not-accepting-jobs").
    public let name: String
    /// libcups' message for the failure (`libcups.cupsLastErrorString()`), which may be empty.
    public let message: String

    public init(code: Int, name: String, message: String) {
        self.code = code
        self.name = name
        self.message = message
    }

    /// "client-error-not-accepting-jobs (0x0506)".
    public var description: String {
        let hex = String(code, radix: 16)
        return "\(name) (0x\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))"
    }

    /// Whether the code is a success (`successful-ok*`, below 0x0100).
    public var isSuccess: Bool { code < 0x0100 }

    /// The last error libcups recorded on this thread.
    static func last() -> IPPStatus {
        let status = libcups.cupsLastError()
        return IPPStatus(status, message: libcups.cupsLastErrorString().map { String(cString: $0) } ?? "")
    }

    init(_ status: ipp_status_t, message: String = "") {
        self.init(code: Int(status.rawValue),
                  name: libcups.ippErrorString(status).map { String(cString: $0) } ?? "unknown",
                  message: message)
    }

    static let serviceUnavailable = 0x0502
    static let notFound = 0x0406
    static let notAcceptingJobs = 0x0506
    static let notPossible = 0x0404
    static let forbidden = 0x0401
    static let notAuthorized = 0x0403
}
