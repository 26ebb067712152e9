#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import QuireGIO
import FoundationEssentials
import QuireTypes
import QuireSystem
import Synchronization

/// The freedesktop thumbnail service on D-Bus, as Tumbler provides it:
/// `org.freedesktop.thumbnails.Thumbnailer1` (`Queue`, `Dequeue`, `GetSupported`,
/// `GetSchedulers`, `GetFlavors`; signals `Started`, `Ready`, `Error`, `Finished`) and
/// `org.freedesktop.thumbnails.Cache1` (`Move`, `Copy`, `Delete`, `Cleanup`), built on GDBus.
///
/// Requests are answered at once with a handle; the work runs in the background through the
/// backend and is reported with signals. Bad arguments get D-Bus errors, and a request that
/// fails only produces `Error` signals: the service never dies from a request. It exits after
/// `idleTimeout` seconds with nothing to do, or on SIGTERM/SIGINT.
public final class ThumbnailerService: Sendable {
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
    /// Set once by `connect()`, read by the D-Bus thread and at the end of `run()`.
    private let connectionState = Mutex<DBusConnection?>(nil)
    private var connection: DBusConnection? { connectionState.withLock { $0 } }
    private let loop = GLibMainLoop()

    public init(backend: any ThumbnailerBackend, configuration: Configuration = Configuration()) {
        self.backend = backend
        self.configuration = configuration
    }

    /// Connects, claims the bus names, serves until idle or signalled, then returns.
    public func run() async throws(ServiceError) {
        try connect()
        let worker = Task { [self] in
            while let request = await queue.next() {
                await process(request)
            }
        }
        var loopThread: JoinableThread?
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // GLib's main loop blocks its thread for the life of the service: a thread of its
            // own, not one of the concurrency pool's.
            let loop = self.loop
            loopThread = JoinableThread(stackSize: 1 << 20) {
                loop.run()
                done.resume()
            }
        }
        loopThread?.join()
        queue.close()
        worker.cancel()
        _ = await worker.value
        connection?.flush()
    }

    // MARK: Connection

    private func connect() throws(ServiceError) {
        let connection: DBusConnection
        do {
            connection = try DBusConnection(address: configuration.busAddress)
            connectionState.withLock { $0 = connection }
            try connection.register(
                introspection: Self.introspection,
                objects: [(Self.thumbnailerPath, Self.thumbnailerName), (Self.cachePath, Self.cacheName)]
            ) { [weak self] interface, method, arguments, invocation in
                guard let self else { return invocation.fail("org.freedesktop.DBus.Error.Failed", "the service is stopping") }
                self.handle(interface: interface, method: method, arguments: arguments, invocation: invocation)
            }
            for name in [Self.thumbnailerName, Self.cacheName] where !(try connection.requestName(name)) {
                throw ServiceError(message: "another thumbnail service already owns \(name)", gerror: nil)
            }
        } catch let error as GIOError {
            throw ServiceError(message: error.message, gerror: error)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(message: "\(error)", gerror: nil)
        }
        let queue = self.queue, idleTimeout = configuration.idleTimeout
        loop.quit(every: 500) { queue.idleSeconds.map { $0 >= idleTimeout } ?? false }
        loop.quitOnTerminationSignals()
    }

    // MARK: Methods (called on the D-Bus thread)

    private func handle(interface: String, method: String, arguments: DBusArguments,
                        invocation: DBusInvocation) {
        let flavors = backend.flavors
        switch (interface, method) {
        case (Self.thumbnailerName, "Queue"):
            let uris = arguments.strings(0)
            let mimeTypes = arguments.strings(1)
            let flavor = arguments.string(2)
            let schedulerName = arguments.string(3)
            let unqueue = arguments.uint32(4)
            guard uris.count == mimeTypes.count else {
                return invocation.fail("org.freedesktop.DBus.Error.InvalidArgs",
                            "uris and mime_types must have the same length (\(uris.count) ≠ \(mimeTypes.count))")
            }
            guard flavors.contains(flavor) else {
                return invocation.fail("org.freedesktop.thumbnails.Thumbnailer1.Error.UnsupportedFlavor",
                            "unsupported flavor \"\(flavor)\"; supported: \(flavors.joined(separator: ", "))")
            }
            let schedulerKey = schedulerName.isEmpty ? "default" : schedulerName
            guard let scheduler = ThumbnailRequest.Scheduler(rawValue: schedulerKey) else {
                return invocation.fail("org.freedesktop.thumbnails.Thumbnailer1.Error.UnsupportedScheduler",
                            "unsupported scheduler \"\(schedulerName)\"; supported: default, foreground, background")
            }
            if unqueue != 0 { queue.dequeue(unqueue) }
            let handle = queue.enqueue(uris: uris, flavor: flavor, scheduler: scheduler)
            invocation.reply([.uint32(handle)])
        case (Self.thumbnailerName, "Dequeue"):
            queue.dequeue(arguments.uint32(0))
            invocation.reply()
        case (Self.thumbnailerName, "GetSupported"):
            let types = backend.supportedMimeTypes
            invocation.reply([.strings(Array(repeating: "file", count: types.count)), .strings(types)])
        case (Self.thumbnailerName, "GetSchedulers"):
            invocation.reply([.strings(ThumbnailRequest.Scheduler.allCases.map(\.rawValue))])
        case (Self.thumbnailerName, "GetFlavors"):
            invocation.reply([.strings(flavors)])
        case (Self.cacheName, "Move"), (Self.cacheName, "Copy"):
            let from = arguments.strings(0), to = arguments.strings(1)
            guard from.count == to.count else {
                return invocation.fail("org.freedesktop.DBus.Error.InvalidArgs",
                            "from_uris and to_uris must have the same length")
            }
            let isMove = method == "Move"
            let backend = self.backend
            complete(invocation) { isMove ? await backend.move(from: from, to: to) : await backend.copy(from: from, to: to) }
        case (Self.cacheName, "Delete"):
            let uris = arguments.strings(0)
            let backend = self.backend
            complete(invocation) { await backend.delete(uris: uris) }
        case (Self.cacheName, "Cleanup"):
            let bases = arguments.strings(0), since = arguments.uint32(1)
            let backend = self.backend
            complete(invocation) { await backend.cleanup(baseURIs: bases, since: since) }
        default:
            invocation.fail("org.freedesktop.DBus.Error.UnknownMethod", "no method \(interface).\(method)")
        }
    }

    /// Runs cache work off the D-Bus thread and replies when it is done.
    private func complete(_ invocation: DBusInvocation, _ work: @escaping @Sendable () async -> Void) {
        Task {
            await work()
            invocation.reply()
        }
    }

    // MARK: Work

    private func process(_ request: ThumbnailRequest) async {
        emit("Started", [.uint32(request.handle)])
        defer { emit("Finished", [.uint32(request.handle)]) }
        var outcomes: [ThumbnailOutcome] = []
        var local: [String] = []
        for uri in request.uris {
            // The scheme as GLib reads it (case-insensitive); the backend decides, through
            // FileURI, whether the URI names a local file.
            if uri.prefix(5).lowercased() == "file:" {
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
            emit("Ready", [.uint32(request.handle), .strings(ready)])
        }
        for failure in outcomes where failure.error != nil {
            emit("Error", [.uint32(request.handle), .strings([failure.uri]),
                           .int32(failure.error!.code.rawValue), .string(failure.error!.message)])
        }
    }

    private func emit(_ signal: String, _ values: [DBusValue]) {
        connection?.emitSignal(path: Self.thumbnailerPath, interface: Self.thumbnailerName, name: signal, values)
    }
}

/// The service could not start or keep its bus names.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The underlying GError's domain, code and message, if any.
    public let domain: String?
    public let code: Int32?
    public let detail: String?

    init(message: String, gerror: GIOError?) {
        self.message = message
        domain = gerror?.domain
        code = gerror?.code
        detail = gerror?.detail
    }

    public var description: String { detail.map { "\(message): \($0)" } ?? message }
}
