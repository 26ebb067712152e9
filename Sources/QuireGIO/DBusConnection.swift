internal import CGIO
import Synchronization

/// A GDBus connection serving objects: connect, register interfaces described by introspection
/// XML (methods and read-only properties), own well-known names, emit signals and property
/// changes. Method calls, property reads and name-owner callbacks arrive on the thread that runs
/// the main context that was the thread's default when they were set up (a ``GLibMainLoop``, or
/// a GTK main loop).
// Shared across threads unchecked because: GDBusConnection is thread-safe (GIO documents it so); the Swift
// state (node info, registrations, handler, property reader, name owners) is written only by
// `register` and `ownName`, before the main loop that delivers calls runs, and read afterwards;
// what the message filter (GDBus's own thread) shares with the handlers is behind a Mutex.
package final class DBusConnection: @unchecked Sendable {
    /// Called for each method call: interface, method, arguments, the call to answer.
    package typealias Handler = (String, String, DBusArguments, DBusInvocation) -> Void
    /// Reads a property: interface, property name; nil for one it does not have.
    package typealias PropertyReader = (String, String) -> DBusValue?

    private let connection: OpaquePointer
    private var nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>?
    private var registrations: [guint] = []
    private var handler: Handler?
    private var properties: PropertyReader?
    private var nameOwners: [guint] = []
    private var filter: guint?
    /// Calls with more arguments than declared (``acceptExtraArguments(path:interface:method:declared:)``).
    private let extraArguments = Mutex(ExtraArguments())

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
        for id in nameOwners { g_bus_unown_name(id) }
        if let filter { g_dbus_connection_remove_filter(connection, filter) }
        for id in registrations { g_dbus_connection_unregister_object(connection, id) }
        g_object_unref(UnsafeMutableRawPointer(connection))
        if let nodeInfo { g_dbus_node_info_unref(nodeInfo) }
    }

    /// Registers each `(path, interface)` of `introspection` with `handler` for its calls and
    /// `properties` for reading its properties (GDBus answers `org.freedesktop.DBus.Properties`
    /// Get and GetAll with them; a property `properties` has no value for is an error).
    package func register(introspection: String, objects: [(path: String, interface: String)],
                          properties: PropertyReader? = nil, handler: @escaping Handler) throws(GIOError) {
        var error: UnsafeMutablePointer<GError>?
        guard let nodeInfo = g_dbus_node_info_new_for_xml(introspection, &error) else {
            throw GIOError("invalid introspection data", taking: error)
        }
        self.nodeInfo = nodeInfo
        self.handler = handler
        self.properties = properties
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, interface, method, parameters, invocation, userData in
            guard let userData, let interface, let method, let parameters, let invocation else { return }
            let connection = Unmanaged<DBusConnection>.fromOpaque(userData).takeUnretainedValue()
            var arguments = DBusArguments(tuple: parameters)
            if let extra = connection.takeExtraArguments(of: invocation) {
                arguments = DBusArguments(arguments.values + extra)
            }
            connection.handler?(String(cString: interface), String(cString: method), arguments, DBusInvocation(pointer: invocation))
        }
        if properties != nil {
            vtable.get_property = { _, _, _, interface, property, gerror, userData in
                guard let userData, let interface, let property else { return nil }
                let connection = Unmanaged<DBusConnection>.fromOpaque(userData).takeUnretainedValue()
                let name = String(cString: property)
                guard let value = connection.properties?(String(cString: interface), name), let variant = value.variant else {
                    g_set_error_literal(gerror, g_dbus_error_quark(), gint(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no property \(name)")
                    return nil
                }
                return variant  // floating: GDBus takes it
            }
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

    /// Owns `name` for as long as this connection lives, without queueing behind another owner
    /// (`g_bus_own_name_on_connection`): `acquired` runs once the name is this connection's,
    /// `lost` when another connection has it or the connection closes. Both run on the thread
    /// of the main context that is this thread's default now.
    package func ownName(_ name: String, acquired: @escaping @Sendable () -> Void, lost: @escaping @Sendable () -> Void) {
        let callbacks = Unmanaged.passRetained(NameCallbacks(acquired: acquired, lost: lost)).toOpaque()
        let id = g_bus_own_name_on_connection(
            connection, name, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
            { _, _, userData in Unmanaged<NameCallbacks>.fromOpaque(userData!).takeUnretainedValue().acquired() },
            { _, _, userData in Unmanaged<NameCallbacks>.fromOpaque(userData!).takeUnretainedValue().lost() },
            callbacks,
            { userData in Unmanaged<NameCallbacks>.fromOpaque(userData!).release() })
        nameOwners.append(id)
    }

    /// Who owns `name` on this bus now: its unique name and process id; nil when nobody does
    /// (asking never starts a service by activation).
    package func nameOwner(_ name: String) -> (uniqueName: String, pid: UInt32?)? {
        guard let unique = callBus("GetNameOwner", [.string(name)]).map({ $0.string(0) }), !unique.isEmpty else { return nil }
        let pid = callBus("GetConnectionUnixProcessID", [.string(unique)]).map { $0.uint32(0) }
        return (unique, pid)
    }

    /// Calls `method` of `interface` on `destination`'s object at `path` and waits at most
    /// `timeout` milliseconds for the reply (a service is started by D-Bus activation if need be).
    package func call(destination: String, path: String, interface: String, method: String, _ values: [DBusValue],
                      timeout: Int32 = 5000) throws(GIOError) -> DBusArguments {
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(connection, destination, path, interface, method, DBusValue.tuple(values), nil,
                                                G_DBUS_CALL_FLAGS_NONE, timeout, nil, &error)
        guard let reply else { throw GIOError("\(destination) did not answer \(method)", taking: error) }
        defer { g_variant_unref(reply) }
        return DBusArguments(tuple: reply)
    }

    /// Calls `method` like ``call(destination:path:interface:method:_:timeout:)``, sending
    /// `fileDescriptors` with the message (a `GUnixFDList`: each is duplicated, the caller
    /// keeps its own); the arguments refer to them by index (``DBusValue/handles(_:)``).
    /// - Parameter autoStart: false: a service that is not running is not started by D-Bus
    ///   activation (the call fails instead).
    package func call(destination: String, path: String, interface: String, method: String, _ values: [DBusValue],
                      fileDescriptors: [Int32], autoStart: Bool = true, timeout: Int32 = 5000) throws(GIOError) -> DBusArguments {
        var error: UnsafeMutablePointer<GError>?
        let list = g_unix_fd_list_new()
        defer { g_object_unref(UnsafeMutableRawPointer(list)) }
        for descriptor in fileDescriptors where g_unix_fd_list_append(list, descriptor, &error) < 0 {
            throw GIOError("cannot pass a file to \(destination)", taking: error)
        }
        let flags = autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START
        let reply = g_dbus_connection_call_with_unix_fd_list_sync(connection, destination, path, interface, method,
                                                                  DBusValue.tuple(values), nil, flags, timeout,
                                                                  fileDescriptors.isEmpty ? nil : list, nil, nil, &error)
        guard let reply else { throw GIOError("\(destination) did not answer \(method)", taking: error) }
        defer { g_variant_unref(reply) }
        return DBusArguments(tuple: reply)
    }

    /// Reads property `name` of `interface` on `destination`'s object at `path`
    /// (`org.freedesktop.DBus.Properties.Get`).
    package func property(destination: String, path: String, interface: String, name: String,
                          autoStart: Bool = true, timeout: Int32 = 5000) throws(GIOError) -> DBusValue? {
        try call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                 [.string(interface), .string(name)], fileDescriptors: [], autoStart: autoStart, timeout: timeout)[0]
    }

    /// This connection's unique name on the bus (":1.42").
    package var uniqueName: String {
        g_dbus_connection_get_unique_name(connection).map { String(cString: $0) } ?? ""
    }

    /// Whether `name` has an owner now or can be started by D-Bus activation (asking starts
    /// nothing).
    package func canReach(_ name: String) -> Bool {
        if nameOwner(name) != nil { return true }
        return callBus("ListActivatableNames", []).map { $0.strings(0).contains(name) } ?? false
    }

    /// Runs `action` (which sends a call and returns the object path its answer will come
    /// from) and waits at most `timeout` milliseconds for signal `member` of `interface` from
    /// `sender` at that path: its arguments, or nil when it did not come. Listening starts
    /// before `action`, so an answer sent at once is not missed; the wait runs a main context
    /// of its own on this thread (not the thread's default loop).
    package func awaitSignal(sender: String, interface: String, member: String, timeout: Int32,
                             during action: () throws(GIOError) -> String) throws(GIOError) -> DBusArguments? {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        let received = ReceivedSignals()
        let subscription = g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, nil, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, path, _, _, parameters, userData in
                guard let userData, let path, let parameters else { return }
                Unmanaged<ReceivedSignals>.fromOpaque(userData).takeUnretainedValue()
                    .keep(String(cString: path), DBusArguments(tuple: parameters))
            },
            Unmanaged.passRetained(received).toOpaque(),
            { userData in if let userData { Unmanaged<ReceivedSignals>.fromOpaque(userData).release() } })
        defer {
            g_dbus_connection_signal_unsubscribe(connection, subscription)
            while g_main_context_iteration(context, 0) != 0 {}
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        let path = try action()
        let deadline = g_get_monotonic_time() + Int(timeout) * 1000
        while true {
            while g_main_context_iteration(context, 0) != 0 {}
            if let arguments = received.take(path) { return arguments }
            if g_get_monotonic_time() >= deadline { return nil }
            g_usleep(10_000)
        }
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

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface` at `path` with
    /// the new values of `changed`, in this order.
    package func emitPropertiesChanged(path: String, interface: String, _ changed: [(name: String, value: DBusValue)]) {
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        var entries: [OpaquePointer?] = changed.map { property in
            g_variant_new_dict_entry(g_variant_new_string(property.name), g_variant_new_variant(property.value.variant))
        }
        let dictionary = entries.withUnsafeMutableBufferPointer { g_variant_new_array(entryType, $0.baseAddress, gsize($0.count)) }
        var items: [OpaquePointer?] = [g_variant_new_string(interface), dictionary, DBusValue.strings([]).variant]
        let body = items.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        g_dbus_connection_emit_signal(connection, nil, path, "org.freedesktop.DBus.Properties", "PropertiesChanged", body, nil)
    }

    /// Sends everything queued (signals, replies) before the process goes on or exits.
    package func flush() {
        g_dbus_connection_flush_sync(connection, nil, nil)
    }

    // MARK: Calls with more arguments than declared

    /// Lets `method` of `interface` at `path` also be called with arguments after the ones its
    /// introspection declares (`declared`, their signature, e.g. `ssb`) — a newer caller's form
    /// of the method. GDBus refuses a call whose signature differs from the declared one, so
    /// such a call is passed on with the declared arguments and the handler finds the others
    /// after them in its ``DBusArguments`` (only values ``DBusValue`` can hold). Call before
    /// the main loop runs.
    package func acceptExtraArguments(path: String, interface: String, method: String, declared: String) {
        let type = g_variant_type_new("(\(declared))")
        let count = Int(g_variant_type_n_items(type))
        g_variant_type_free(type)
        extraArguments.withLock {
            $0.rules.append(ExtraArguments.Rule(path: path, interface: interface, method: method, declared: declared, count: count))
        }
        guard filter == nil else { return }
        // Unretained: the filter is removed in deinit. It runs on GDBus's worker thread.
        filter = g_dbus_connection_add_filter(connection, { _, message, incoming, userData in
            guard incoming != 0, let message, let userData else { return message }
            return Unmanaged<DBusConnection>.fromOpaque(userData).takeUnretainedValue().trimmingExtraArguments(message)
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// `message` itself, or a copy with only the declared arguments when it is a call of a
    /// method with extra arguments allowed (the extra ones kept for the handler). Runs on
    /// GDBus's worker thread; takes `message`'s reference as GDBus filters must.
    private func trimmingExtraArguments(_ message: OpaquePointer) -> OpaquePointer? {
        guard g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL,
              let path = g_dbus_message_get_path(message).map({ String(cString: $0) }),
              let member = g_dbus_message_get_member(message).map({ String(cString: $0) }),
              let signature = g_dbus_message_get_signature(message).map({ String(cString: $0) }),
              let body = g_dbus_message_get_body(message) else {
            return message
        }
        let interface = g_dbus_message_get_interface(message).map { String(cString: $0) }
        let rules = extraArguments.withLock { $0.rules }
        guard let rule = rules.first(where: {
            $0.path == path && $0.method == member && (interface == nil || interface == $0.interface)
                && signature.count > $0.declared.count && signature.hasPrefix($0.declared)
        }) else {
            return message
        }
        var error: UnsafeMutablePointer<GError>?
        guard let copy = g_dbus_message_copy(message, &error) else {
            g_clear_error(&error)
            return message
        }
        let total = Int(g_variant_n_children(body))
        var declared: [OpaquePointer?] = (0..<rule.count).map { g_variant_get_child_value(body, gsize($0)) }
        let extra: [DBusValue?] = (rule.count..<total).map { index in
            guard let child = g_variant_get_child_value(body, gsize(index)) else { return nil }
            defer { g_variant_unref(child) }
            return DBusValue(variant: child)
        }
        let trimmed = declared.withUnsafeMutableBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        for child in declared { g_variant_unref(child) }
        g_dbus_message_set_body(copy, trimmed)
        let key = ExtraArguments.Key(sender: g_dbus_message_get_sender(message).map { String(cString: $0) },
                                     serial: g_dbus_message_get_serial(message))
        extraArguments.withLock { $0.keep(extra, for: key) }
        g_object_unref(UnsafeMutableRawPointer(message))
        return copy
    }

    /// The extra arguments the filter kept for the call `invocation` answers, removed.
    private func takeExtraArguments(of invocation: OpaquePointer) -> [DBusValue?]? {
        guard let message = g_dbus_method_invocation_get_message(invocation) else { return nil }
        let key = ExtraArguments.Key(sender: g_dbus_message_get_sender(message).map { String(cString: $0) },
                                     serial: g_dbus_message_get_serial(message))
        return extraArguments.withLock { $0.take(key) }
    }
}

/// Signals received while ``DBusConnection/awaitSignal(sender:interface:member:timeout:during:)`` waits
/// (GDBus delivers them on the waiting thread's own main context).
private final class ReceivedSignals: Sendable {
    private let signals = Mutex<[(path: String, arguments: DBusArguments)]>([])

    func keep(_ path: String, _ arguments: DBusArguments) {
        signals.withLock { $0.append((path, arguments)) }
    }

    func take(_ path: String) -> DBusArguments? {
        signals.withLock { list in
            guard let index = list.firstIndex(where: { $0.path == path }) else { return nil }
            return list.remove(at: index).arguments
        }
    }
}

/// The callbacks of one owned name (the user data GDBus holds until it is unowned).
private final class NameCallbacks: Sendable {
    let acquired: @Sendable () -> Void
    let lost: @Sendable () -> Void

    init(acquired: @escaping @Sendable () -> Void, lost: @escaping @Sendable () -> Void) {
        self.acquired = acquired
        self.lost = lost
    }
}

/// Which methods may be called with extra arguments, and the extra arguments of calls on
/// their way from the message filter to the handler.
private struct ExtraArguments {
    struct Rule {
        let path: String
        let interface: String
        let method: String
        let declared: String
        /// How many arguments `declared` is.
        let count: Int
    }

    /// A call: its sender's unique name and its serial (unique per sender).
    struct Key: Hashable {
        let sender: String?
        let serial: UInt32
    }

    var rules: [Rule] = []
    private var pending: [(key: Key, values: [DBusValue?])] = []

    /// Keeps `values` for the call `key`. A call GDBus refuses after the filter never reaches
    /// the handler: only the latest few are kept.
    mutating func keep(_ values: [DBusValue?], for key: Key) {
        pending.append((key, values))
        if pending.count > 64 { pending.removeFirst(pending.count - 64) }
    }

    mutating func take(_ key: Key) -> [DBusValue?]? {
        guard let index = pending.firstIndex(where: { $0.key == key }) else { return nil }
        return pending.remove(at: index).values
    }
}
