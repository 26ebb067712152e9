internal import CGIO

/// A failed GLib/GIO call: what Quire was doing, and the GError it got (domain, code, message).
public struct GIOError: Error, Sendable, CustomStringConvertible {
    /// What failed, for the user ("cannot connect to the D-Bus session bus").
    public let message: String
    /// The GError's domain (e.g. `g-dbus-error-quark`), code and message, when there was one.
    public let domain: String?
    public let code: Int32?
    public let detail: String?

    package init(_ message: String, domain: String? = nil, code: Int32? = nil, detail: String? = nil) {
        self.message = message
        self.domain = domain
        self.code = code
        self.detail = detail
    }

    /// Takes (copies and frees) `gerror`.
    init(_ message: String, taking gerror: UnsafeMutablePointer<GError>?) {
        self.message = message
        if let gerror {
            domain = g_quark_to_string(gerror.pointee.domain).map { String(cString: $0) }
            code = gerror.pointee.code
            detail = gerror.pointee.message.map { String(cString: $0) }
            g_error_free(gerror)
        } else {
            domain = nil
            code = nil
            detail = nil
        }
    }

    public var description: String { detail.map { "\(message): \($0)" } ?? message }
}
