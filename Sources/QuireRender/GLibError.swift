internal import CPoppler

/// A `GError` copied into Swift: domain (as its quark string), code and message.
public struct GLibError: Error, Sendable, Hashable, CustomStringConvertible {
    public let domain: String
    public let code: Int32
    public let message: String

    public init(domain: String, code: Int32, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(domain) \(code))" }

    /// Copies and frees a `GError`.
    static func take(_ error: UnsafeMutablePointer<GError>?) -> GLibError? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        let domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? "unknown"
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        return GLibError(domain: domain, code: error.pointee.code, message: message)
    }
}
