#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireGIO

/// The user's session bus, only when one is running (`DBUS_SESSION_BUS_ADDRESS`, else
/// `$XDG_RUNTIME_DIR/bus`): sharing never starts a bus of its own (GIO would autolaunch one
/// under X11).
enum SessionBus {
    static func connect() -> DBusConnection? {
        var address = getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) }
        if address?.isEmpty ?? true {
            address = nil
            if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty,
               access(runtime + "/bus", F_OK) == 0 {
                address = "unix:path=" + runtime + "/bus"
            }
        }
        guard let address else { return nil }
        return try? DBusConnection(address: address)
    }
}
