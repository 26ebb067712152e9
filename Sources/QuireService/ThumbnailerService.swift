#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import CGIO
import FoundationEssentials
import QuireTypes

/// The freedesktop thumbnail service on D-Bus, as Tumbler provides it:
/// `org.freedesktop.thumbnails.Thumbnailer1` (`Queue`, `Dequeue`, `GetSupported`,
/// `GetSchedulers`, `GetFlavors`; signals `Started`, `Ready`, `Error`, `Finished`) and
/// `org.freedesktop.thumbnails.Cache1` (`Move`, `Copy`, `Delete`, `Cleanup`), built on GDBus.
///
/// Requests are answered at once with a handle; the work runs in the background through the
/// backend and is reported with signals. Bad arguments get D-Bus errors, and a request that
/// fails only produces `Error` signals: the service never dies from a request. It exits after
/// `idleTimeout` seconds with nothing to do, or on SIGTERM/SIGINT.
public final class ThumbnailerService: @unchecked Sendable {
    public static let thumbnailerName = "org.freedesktop.thumbnails.Thumbnailer1"
    public static let thumbnailerPath = "/org/freedesktop/thumbnails/Thumbnailer1"
    public static let cacheName = "org.freedesktop.thumbnails.Cache1"
    public static let cachePath = "/org/freedesktop/thumbnails/Cache1"

    static let introspection = """
        <node>
          <interface name="org.freedesktop.thumbnails.Thumbnailer1">
            <method name="Queue">
              <arg type="as" name="uris" direction="in"/>
              <arg type="as" name="mime_types" direction="in"/>
              <arg type="s" name="flavor" direction="in"/>
              <arg type="s" name="scheduler" direction="in"/>
              <arg type="u" name="handle_to_unqueue" direction="in"/>
              <arg type="u" name="handle" direction="out"/>
            </method>
            <method name="Dequeue"><arg type="u" name="handle" direction="in"/></method>
            <method name="GetSupported">
              <arg type="as" name="uri_schemes" direction="out"/>
              <arg type="as" name="mime_types" direction="out"/>
            </method>
            <method name="GetSchedulers"><arg type="as" name="schedulers" direction="out"/></method>
            <method name="GetFlavors"><arg type="as" name="flavors" direction="out"/></method>
            <signal name="Started"><arg type="u" name="handle"/></signal>
            <signal name="Finished"><arg type="u" name="handle"/></signal>
            <signal name="Ready"><arg type="u" name="handle"/><arg type="as" name="uris"/></signal>
            <signal name="Error">
              <arg type="u" name="handle"/><arg type="as" name="failed_uris"/>
              <arg type="i" name="error_code"/><arg type="s" name="message"/>
            </signal>
          </interface>
          <interface name="org.freedesktop.thumbnails.Cache1">
            <method name="Move"><arg type="as" name="from_uris" direction="in"/><arg type="as" name="to_uris" direction="in"/></method>
            <method name="Copy"><arg type="as" name="from_uris" direction="in"/><arg type="as" name="to_uris" direction="in"/></method>
            <method name="Delete"><arg type="as" name="uris" direction="in"/></method>
            <method name="Cleanup"><arg type="as" name="base_uris" direction="in"/><arg type="u" name="since" direction="in"/></method>
          </interface>
        </node>
        """

    public struct Configuration: Sendable {
        /// Seconds with nothing queued or running before the service exits.
        public var idleTimeout: Double
        /// A bus address; nil for the session bus.
        public var busAddress: String?

        public init(idleTimeout: Double = 30, busAddress: String? = nil) {
            self.idleTimeout = idleTimeout
            self.busAddress = busAddress
        }
    }

    let backend: any ThumbnailerBackend
    let configuration: Configuration
    let queue = RequestQueue()
    private var connection: OpaquePointer?
    private var loop: OpaquePointer?
    private var nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>?
    private var registrations: [guint] = []

    public init(backend: any ThumbnailerBackend, configuration: Configuration = Configuration()) {
        self.backend = backend
        self.configuration = configuration
    }

    deinit {
        if let connection {
            for id in registrations { g_dbus_connection_unregister_object(connection, id) }
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        if let nodeInfo { g_dbus_node_info_unref(nodeInfo) }
        if let loop { g_main_loop_unref(loop) }
    }

    /// Connects, claims the bus names, serves until idle or signalled, then returns.
    public func run() async throws(ServiceError) {
        try connect()
        let worker = Task { [self] in
            while let request = await queue.next() {
                await process(request)
            }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // GLib's main loop blocks its thread for the life of the service: a thread of its
            // own, not one of the concurrency pool's.
            let loopAddress = UInt(bitPattern: loop)   // the loop outlives the thread (see deinit)
            _ = JoinableThread(stackSize: 1 << 20) {
                g_main_loop_run(OpaquePointer(bitPattern: loopAddress))
                done.resume()
            }
        }
        queue.close()
        worker.cancel()
        _ = await worker.value
        if let connection { g_dbus_connection_flush_sync(connection, nil, nil) }
    }

    // MARK: Connection

    private func connect() throws(ServiceError) {
        var error: UnsafeMutablePointer<GError>?
        if let address = configuration.busAddress {
            connection = g_dbus_connection_new_for_address_sync(
                address,
                GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                     | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue),
                nil, nil, &error)
        } else {
            connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        }
        guard let connection else {
            throw ServiceError(message: "cannot connect to the D-Bus session bus", gerror: error)
        }
        g_dbus_connection_set_exit_on_close(connection, 0)

        nodeInfo = g_dbus_node_info_new_for_xml(Self.introspection, &error)
        guard let nodeInfo else { throw ServiceError(message: "invalid introspection data", gerror: error) }

        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, interface, method, parameters, invocation, userData in
            guard let userData, let interface, let method, let parameters, let invocation else { return }
            let service = Unmanaged<ThumbnailerService>.fromOpaque(userData).takeUnretainedValue()
            service.handle(interface: String(cString: interface), method: String(cString: method),
                           parameters: parameters, invocation: invocation)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        for (path, index) in [(Self.thumbnailerPath, 0), (Self.cachePath, 1)] {
            let id = g_dbus_connection_register_object(connection, path, nodeInfo.pointee.interfaces[index],
                                                       &vtable, context, nil, &error)
            if id == 0 { throw ServiceError(message: "cannot register \(path)", gerror: error) }
            registrations.append(id)
        }
        for name in [Self.thumbnailerName, Self.cacheName] {
            try requestName(name, on: connection)
        }

        loop = g_main_loop_new(nil, 0)
        g_timeout_add_full(G_PRIORITY_DEFAULT, 500, { userData in
            let service = Unmanaged<ThumbnailerService>.fromOpaque(userData!).takeUnretainedValue()
            if let idle = service.queue.idleSeconds, idle >= service.configuration.idleTimeout {
                g_main_loop_quit(service.loop)
                return 0
            }
            return 1
        }, context, nil)
        for signal in [SIGTERM, SIGINT] {
            g_unix_signal_add_full(G_PRIORITY_DEFAULT, signal, { userData in
                let service = Unmanaged<ThumbnailerService>.fromOpaque(userData!).takeUnretainedValue()
                g_main_loop_quit(service.loop)
                return 0
            }, context, nil)
        }
    }

    /// Claims a well-known name without queueing behind another owner.
    private func requestName(_ name: String, on connection: OpaquePointer) throws(ServiceError) {
        var error: UnsafeMutablePointer<GError>?
        let doNotQueue: UInt32 = 4
        let arguments = Variant.tuple([g_variant_new_string(name), g_variant_new_uint32(doNotQueue)])
        let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "RequestName", arguments, nil, G_DBUS_CALL_FLAGS_NONE, -1, nil, &error)
        guard let reply else { throw ServiceError(message: "cannot claim \(name)", gerror: error) }
        defer { g_variant_unref(reply) }
        let child = g_variant_get_child_value(reply, 0)
        defer { if let child { g_variant_unref(child) } }
        let code = g_variant_get_uint32(child)
        if code != 1 && code != 4 {  // primary owner / already owner
            throw ServiceError(message: "another thumbnail service already owns \(name)", gerror: nil)
        }
    }

    // MARK: Methods (called on the D-Bus thread)

    private func handle(interface: String, method: String, parameters: OpaquePointer,
                        invocation: OpaquePointer) {
        let flavors = backend.flavors
        switch (interface, method) {
        case (Self.thumbnailerName, "Queue"):
            let uris = Variant.strings(parameters, 0)
            let mimeTypes = Variant.strings(parameters, 1)
            let flavor = Variant.string(parameters, 2)
            let schedulerName = Variant.string(parameters, 3)
            let unqueue = Variant.uint32(parameters, 4)
            guard uris.count == mimeTypes.count else {
                return fail(invocation, "org.freedesktop.DBus.Error.InvalidArgs",
                            "uris and mime_types must have the same length (\(uris.count) ≠ \(mimeTypes.count))")
            }
            guard flavors.contains(flavor) else {
                return fail(invocation, "org.freedesktop.thumbnails.Thumbnailer1.Error.UnsupportedFlavor",
                            "unsupported flavor \"\(flavor)\"; supported: \(flavors.joined(separator: ", "))")
            }
            let schedulerKey = schedulerName.isEmpty ? "default" : schedulerName
            guard let scheduler = ThumbnailRequest.Scheduler(rawValue: schedulerKey) else {
                return fail(invocation, "org.freedesktop.thumbnails.Thumbnailer1.Error.UnsupportedScheduler",
                            "unsupported scheduler \"\(schedulerName)\"; supported: default, foreground, background")
            }
            if unqueue != 0 { queue.dequeue(unqueue) }
            let handle = queue.enqueue(uris: uris, flavor: flavor, scheduler: scheduler)
            reply(invocation, [g_variant_new_uint32(handle)])
        case (Self.thumbnailerName, "Dequeue"):
            queue.dequeue(Variant.uint32(parameters, 0))
            reply(invocation, [])
        case (Self.thumbnailerName, "GetSupported"):
            let types = backend.supportedMimeTypes
            reply(invocation, [Variant.strv(Array(repeating: "file", count: types.count)), Variant.strv(types)])
        case (Self.thumbnailerName, "GetSchedulers"):
            reply(invocation, [Variant.strv(ThumbnailRequest.Scheduler.allCases.map(\.rawValue))])
        case (Self.thumbnailerName, "GetFlavors"):
            reply(invocation, [Variant.strv(flavors)])
        case (Self.cacheName, "Move"), (Self.cacheName, "Copy"):
            let from = Variant.strings(parameters, 0), to = Variant.strings(parameters, 1)
            guard from.count == to.count else {
                return fail(invocation, "org.freedesktop.DBus.Error.InvalidArgs",
                            "from_uris and to_uris must have the same length")
            }
            let isMove = method == "Move"
            let backend = self.backend
            complete(invocation) { isMove ? await backend.move(from: from, to: to) : await backend.copy(from: from, to: to) }
        case (Self.cacheName, "Delete"):
            let uris = Variant.strings(parameters, 0)
            let backend = self.backend
            complete(invocation) { await backend.delete(uris: uris) }
        case (Self.cacheName, "Cleanup"):
            let bases = Variant.strings(parameters, 0), since = Variant.uint32(parameters, 1)
            let backend = self.backend
            complete(invocation) { await backend.cleanup(baseURIs: bases, since: since) }
        default:
            fail(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "no method \(interface).\(method)")
        }
    }

    /// Runs cache work off the D-Bus thread and replies when it is done.
    private func complete(_ invocation: OpaquePointer, _ work: @escaping @Sendable () async -> Void) {
        let call = InvocationBox(invocation)
        Task {
            await work()
            g_dbus_method_invocation_return_value(call.pointer, Variant.tuple([]))
        }
    }

    private func reply(_ invocation: OpaquePointer, _ values: [OpaquePointer?]) {
        g_dbus_method_invocation_return_value(invocation, Variant.tuple(values))
    }

    private func fail(_ invocation: OpaquePointer, _ name: String, _ message: String) {
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }

    // MARK: Work

    private func process(_ request: ThumbnailRequest) async {
        emit("Started", [g_variant_new_uint32(request.handle)])
        defer { emit("Finished", [g_variant_new_uint32(request.handle)]) }
        var outcomes: [ThumbnailOutcome] = []
        var local: [String] = []
        for uri in request.uris {
            if uri.hasPrefix("file://") {
                local.append(uri)
            } else {
                outcomes.append(ThumbnailOutcome(uri: uri, error: (.unsupported, "only file:// URIs are supported")))
            }
        }
        if !local.isEmpty && !queue.isCancelled(request.handle) {
            outcomes += await backend.thumbnail(uris: local, flavor: request.flavor)
        }
        let ready = outcomes.filter { $0.error == nil }.map(\.uri)
        if !ready.isEmpty {
            emit("Ready", [g_variant_new_uint32(request.handle), Variant.strv(ready)])
        }
        for failure in outcomes where failure.error != nil {
            emit("Error", [g_variant_new_uint32(request.handle), Variant.strv([failure.uri]),
                           g_variant_new_int32(failure.error!.code.rawValue),
                           g_variant_new_string(failure.error!.message)])
        }
    }

    private func emit(_ signal: String, _ values: [OpaquePointer?]) {
        guard let connection else { return }
        g_dbus_connection_emit_signal(connection, nil, Self.thumbnailerPath, Self.thumbnailerName,
                                      signal, Variant.tuple(values), nil)
    }
}

/// A method invocation handed to a task (GDBus allows replying from any thread).
private struct InvocationBox: @unchecked Sendable {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}

/// The service could not start or keep its bus names.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The underlying GError's domain, code and message, if any.
    public let domain: String?
    public let code: Int32?
    public let detail: String?

    init(message: String, gerror: UnsafeMutablePointer<GError>?) {
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
