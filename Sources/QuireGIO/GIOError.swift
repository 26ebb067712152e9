internal import CGIO

/// A failed GLib/GIO call: what Quire was doing, and the GError it got, when there was one.
public struct GIOError: Error, Sendable, CustomStringConvertible {
    /// What failed, for the user ("cannot connect to the D-Bus session bus").
    public let message: String
    /// The GError (domain, code, message), when there was one.
    public let underlying: GLibError?

    public var domain: String? { underlying?.domain }
    public var code: Int32? { underlying?.code }
    public var detail: String? { underlying?.message }

    package init(_ message: String, underlying: GLibError? = nil) {
        self.message = message
        self.underlying = underlying
    }

    /// Takes (copies and frees) `gerror`.
    init(_ message: String, taking gerror: UnsafeMutablePointer<GError>?) {
        self.init(message, underlying: GLibError(taking: UnsafeMutableRawPointer(gerror)))
    }

    public var description: String { detail.map { "\(message): \($0)" } ?? message }

    /// The GError's message without the `GDBus.Error:NAME: ` GDBus puts before a remote
    /// service's own words (what `g_dbus_error_strip_remote_error` removes).
    package var remoteDetail: String? {
        guard let detail, detail.hasPrefix("GDBus.Error:") else { return detail }
        // The error's name has no colon: the first one after the prefix ends it.
        let rest = detail.dropFirst("GDBus.Error:".count)
        guard let colon = rest.firstIndex(of: ":") else { return detail }
        return String(rest[rest.index(after: colon)...].drop(while: { $0 == " " }))
    }
}
