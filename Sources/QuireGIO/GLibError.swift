internal import CGIO

/// A `GError` copied into Swift: domain (as its quark string), code and message. The one GError
/// wrapper: GIO calls (``GIOError``) and the rendering libraries (poppler, gdk-pixbuf, librsvg)
/// hand their GErrors here.
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

    /// Copies and frees a `GError *` (given untyped: each C module that includes GLib's headers
    /// declares the struct itself); nil when there is none.
    package init?(taking raw: UnsafeMutableRawPointer?) {
        guard let error = raw?.assumingMemoryBound(to: GError.self) else { return nil }
        defer { g_error_free(error) }
        domain = g_quark_to_string(error.pointee.domain).map { String(cString: $0) } ?? "unknown"
        code = error.pointee.code
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    }
}
