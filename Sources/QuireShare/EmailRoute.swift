#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireGIO

/// How a mail with attachments can be started here: the desktop portal's Email interface
/// (attachments passed as open descriptors, so it works from a sandbox too), else `xdg-email`
/// (xdg-utils), else not at all — with the reason and what to install.
package enum EmailRoute: Sendable, Equatable {
    /// `org.freedesktop.portal.Email` version 3 or later answers on the session bus.
    case portal(version: UInt32)
    /// `xdg-email` at this path.
    case xdgEmail(String)
    /// Neither: why, naming what to install.
    case unavailable(String)

    static let portalName = "org.freedesktop.portal.Desktop"
    static let portalPath = "/org/freedesktop/portal/desktop"
    static let emailInterface = "org.freedesktop.portal.Email"
    /// The first version with `addresses` beside `attachment_fds` (ComposeEmail's options).
    static let minimumVersion: UInt32 = 3

    /// Looks for the portal on `bus` (nil: the user's session bus, when one runs), then
    /// for `xdg-email` on `PATH`.
    package static func find(bus: DBusConnection? = nil) -> EmailRoute {
        var portalProblem = "no desktop portal on the session bus"
        if let bus = bus ?? SessionBus.connect() {
            if bus.canReach(portalName) {
                do {
                    let value = try bus.property(destination: portalName, path: portalPath, interface: emailInterface,
                                                 name: "version", timeout: 5000)
                    if case .uint32(let version)? = value {
                        if version >= minimumVersion { return .portal(version: version) }
                        portalProblem = "the desktop portal's Email interface is version \(version) (attachments need \(minimumVersion))"
                    }
                } catch {
                    portalProblem = "the desktop portal has no Email interface"
                }
            }
        } else {
            portalProblem = "no session bus"
        }
        if let program = Self.program(named: "xdg-email") { return .xdgEmail(program) }
        return .unavailable("\(portalProblem) and xdg-email is not installed (install xdg-desktop-portal with a backend, or xdg-utils)")
    }

    /// The first executable `name` on `PATH`.
    static func program(named name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    package var isAvailable: Bool {
        if case .unavailable = self { return false }
        return true
    }

    /// What the route is, for the user ("the desktop portal (Email version 4)", "xdg-email").
    package var description: String {
        switch self {
        case .portal(let version): return "the desktop portal (Email version \(version))"
        case .xdgEmail: return "xdg-email"
        case .unavailable(let reason): return reason
        }
    }
}
