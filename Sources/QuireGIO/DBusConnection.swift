internal import CGIO

/// A GDBus connection serving objects: connect, register interfaces described by introspection
/// XML, claim well-known names, emit signals. Method calls arrive on the thread that runs the
/// default main context (a ``GLibMainLoop``).
// Shared across threads unchecked because: GDBusConnection is thread-safe (GIO documents it so); the Swift
// state (node info, registrations, handler) is written only by `register`, before the main
// loop that delivers calls runs, and read afterwards.
package final class DBusConnection: @unchecked Sendable {
    /// Called for each method call: interface, method, arguments, the call to answer.
    package typealias Handler = (String, String, DBusArguments, DBusInvocation) -> Void

    private let connection: OpaquePointer
    private var nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>?
    private var registrations: [guint] = []
    private var handler: Handler?

    /// Connects to the message bus at `address`, or the session bus when nil.
    package init(address: String?) throws(GIOError) {
        var error: UnsafeMutablePointer<GError>?
        let connection: OpaquePointer?
        if let address {
            connection = g_dbus_connection_new_for_address_sync(
                address,
                GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                     | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue),
                nil, nil, &error)
        } else {
            connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        }
        guard let connection else { throw GIOError("cannot connect to the D-Bus session bus", taking: error) }
        self.connection = connection
        g_dbus_connection_set_exit_on_close(connection, 0)
    }

    deinit {
        for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        g_object_unref(UnsafeMutableRawPointer(connection))
        if let nodeInfo { g_dbus_node_info_unref(nodeInfo) }
    }

    /// Registers each `(path, interface)` of `introspection` with `handler` for its calls.
    package func register(introspection: String, objects: [(path: String, interface: String)],
                          handler: @escaping Handler) throws(GIOError) {
        var error: UnsafeMutablePointer<GError>?
        guard let nodeInfo = g_dbus_node_info_new_for_xml(introspection, &error) else {
            throw GIOError("invalid introspection data", taking: error)
        }
        self.nodeInfo = nodeInfo
        self.handler = handler
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, interface, method, parameters, invocation, userData in
            guard let userData, let interface, let method, let parameters, let invocation else { return }
            let connection = Unmanaged<DBusConnection>.fromOpaque(userData).takeUnretainedValue()
            connection.handler?(String(cString: interface), String(cString: method),
                                DBusArguments(tuple: parameters), DBusInvocation(pointer: invocation))
        }
        // Unretained: the registrations are removed in deinit, before the object goes away.
        let context = Unmanaged.passUnretained(self).toOpaque()
        for object in objects {
            guard let info = g_dbus_node_info_lookup_interface(nodeInfo, object.interface) else {
                throw GIOError("no interface \(object.interface) in the introspection data")
            }
            let id = g_dbus_connection_register_object(connection, object.path, info, &vtable, context, nil, &error)
            if id == 0 { throw GIOError("cannot register \(object.path)", taking: error) }
            registrations.append(id)
        }
    }

    /// Claims `name` without queueing behind another owner. False when another connection
    /// owns it.
    package func requestName(_ name: String) throws(GIOError) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let doNotQueue: UInt32 = 4
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "RequestName", DBusValue.tuple([.string(name), .uint32(doNotQueue)]), nil,
            G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        guard let reply else { throw GIOError("cannot claim \(name)", taking: error) }
        defer { g_variant_unref(reply) }
        let code = DBusArguments(tuple: reply).uint32(0)
        return code == 1 || code == 4   // primary owner / already the owner
    }

    /// Who owns `name` on this bus now: its unique name and process id; nil when nobody does
    /// (asking never starts a service by activation).
    package func nameOwner(_ name: String) -> (uniqueName: String, pid: UInt32?)? {
        guard let unique = callBus("GetNameOwner", [.string(name)]).map({ $0.string(0) }), !unique.isEmpty else { return nil }
        let pid = callBus("GetConnectionUnixProcessID", [.string(unique)]).map { $0.uint32(0) }
        return (unique, pid)
    }

    private func callBus(_ method: String, _ values: [DBusValue]) -> DBusArguments? {
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            method, DBusValue.tuple(values), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil, &error)
        guard let reply else {
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        return DBusArguments(tuple: reply)
    }

    /// Emits `name` on `interface` at `path` to every listener.
    package func emitSignal(path: String, interface: String, name: String, _ values: [DBusValue]) {
        g_dbus_connection_emit_signal(connection, nil, path, interface, name, DBusValue.tuple(values), nil)
    }

    /// Sends everything queued (signals, replies) before the process goes on or exits.
    package func flush() {
        g_dbus_connection_flush_sync(connection, nil, nil)
    }
}
