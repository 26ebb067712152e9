internal import CCUPS
#if canImport(Glibc)
import Glibc
#endif
import QuireSystem
import QuireTypes
import Synchronization

/// An HTTP connection to a CUPS scheduler. Owns the `http_t`; closed in `deinit`.
///
/// libcups keeps per-thread state (last error, default connection); every request Quire makes
/// goes through an explicit connection and reads `libcups.cupsLastError()` right after the call, on the
/// same thread, so concurrent users do not see each other's errors.
final class CUPSConnection {
    /// Set by libcups's time-out callback (``CUPSConnection/init(_:timeout:silence:)``).
    final class StallFlag: Sendable {
        let fired = Atomic<Bool>(false)
    }

    let http: OpaquePointer
    let server: PrintServer
    /// The thread's libcups server setting before this connection changed it, to restore.
    private let previousServer: String?

    /// Whether a wait for the scheduler ran out of time on this connection (set by libcups's
    /// time-out callback, on the thread making the call).
    private let stall = StallFlag()

    /// Connects, or throws ``PrintError/Kind/schedulerNotRunning`` (nothing listens) or
    /// ``PrintError/Kind/schedulerNotAnswering`` (`silence` heard nothing from this scheduler a
    /// moment ago).
    ///
    /// - Parameter timeout: the longest wait for the scheduler, in seconds: to connect, and for
    ///   each answer (libcups's `httpSetTimeout`). A scheduler that accepts connections but never
    ///   answers (stopped, hung, a stand-in) fails the request after this long instead of libcups's
    ///   60 s per read; 0 waits for ever.
    init(_ server: PrintServer, timeout: Double = PrintSystem.defaultTimeout,
         silence: SchedulerSilence? = nil) throws(PrintError) {
        self.server = server
        guard CUPSLibrary.isAvailable else {
            throw PrintError(.schedulerNotRunning, "printing needs libcups (Debian package libcups2), which is not installed",
                             ipp: IPPStatus(code: IPPStatus.serviceUnavailable, name: "server-error-service-unavailable",
                                            message: "libcups.so.2 not found"))
        }
        if let silence, silence.isRecent(within: timeout) { throw Self.notAnswering(server, timeout: timeout) }
        self.silence = silence
        self.timeout = timeout
        let (host, port) = server.resolved
        let connectMilliseconds = Int32(timeout > 0 ? min(timeout, 30) * 1000 : 30_000)
        guard let http = libcups.httpConnect2(host, Int32(port), nil, AF_UNSPEC, libcups.cupsEncryption(), 1,
                                      connectMilliseconds, nil) else {
            let reason = ConnectProbe.reason(host: host, port: port, timeoutMilliseconds: min(connectMilliseconds, 2000))
            throw PrintError(.schedulerNotRunning,
                             "the print system is not running (cannot reach the CUPS scheduler at \(server): \(reason))",
                             ipp: IPPStatus(code: IPPStatus.serviceUnavailable,
                                            name: "server-error-service-unavailable", message: reason))
        }
        self.http = http
        // A scheduler that stops answering fails the request instead of hanging it. libcups
        // waits (poll) before each read and write for `timeout` seconds; the callback notes that
        // the wait ran out and tells libcups to give up (0). It stays set on the `http_t`, so a
        // connection libcups reopens by itself keeps the limit. (Socket-level SO_RCVTIMEO, used
        // before, did not bound libcups: its own 60 s poll came first, and on EAGAIN it reads again.)
        if timeout > 0 {
            libcups.httpSetTimeout(http, Self.answerWait(timeout), cupsWaitTimedOut, Unmanaged.passUnretained(stall).toOpaque())
        }
        // libcups treats a connection to any server other than its current one as a direct
        // connection to a printer (cupsCopyDestInfo then asks for the device's resource). Make
        // the thread's server the one connected to for the life of this connection.
        previousServer = Self.setThreadServer(server)
    }

    /// The time limit of each wait, in seconds (0: none).
    let timeout: Double

    /// What libcups's own wait for an answer gets out of `timeout`. Before it reads a request's
    /// answer, libcups waits up to one second for the server's "100 Continue" (a fixed
    /// `httpWait(http, 1000)` in `cupsSendRequest`, which no setting shortens; a live server
    /// answers it at once), so a silent server costs that second plus this wait: together the limit.
    static func answerWait(_ timeout: Double) -> Double {
        max(0.25, timeout - 1)
    }
    private let silence: SchedulerSilence?

    /// Whether a wait for the scheduler timed out on this connection (then remembered in the
    /// print system's ``SchedulerSilence``, so the next connection fails at once).
    var timedOut: Bool {
        guard stall.fired.load(ordering: .relaxed) else { return false }
        silence?.record()
        return true
    }

    /// Sends one small request (CUPS-Get-Default, the default's name only) and throws
    /// ``PrintError/Kind/schedulerNotAnswering`` when it is not answered in time: for calls
    /// into libcups that would otherwise fall back on a connection without a time limit.
    func requireAnswering() throws(PrintError) {
        let request = IPPRequest(IPP_OP_CUPS_GET_DEFAULT)
        request.addKeywords("requested-attributes", ["printer-name"])
        _ = send(request)
        try requireAnswered()
    }

    /// Throws ``PrintError/Kind/schedulerNotAnswering`` when a wait on this connection timed out.
    func requireAnswered() throws(PrintError) {
        if timedOut { throw Self.notAnswering(server, timeout: timeout) }
    }

    private static func seconds(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : DecimalText.fixed(value, 1)
    }

    /// "the print system does not answer (…)": a scheduler that accepts connections but sends nothing.
    static func notAnswering(_ server: PrintServer, timeout: Double) -> PrintError {
        PrintError(.schedulerNotAnswering,
                   "the print system does not answer (the CUPS scheduler at \(server) accepted the connection but sent nothing for \(seconds(timeout)) s)",
                   ipp: IPPStatus(code: IPPStatus.serviceUnavailable, name: "server-error-service-unavailable",
                                  message: "timed out"))
    }

    /// Sets the calling thread's libcups server to `server` when it names one; returns the
    /// setting it replaced (to restore), nil when `server` is libcups's own choice.
    private static func setThreadServer(_ server: PrintServer) -> String? {
        guard server.host != nil || server.port != nil else { return nil }
        let (host, port) = server.resolved
        let current = libcups.cupsServer().map { String(cString: $0) } ?? ""
        libcups.cupsSetServer(host.hasPrefix("/") ? host : "\(host):\(port)")
        return current.hasPrefix("/") ? current : "\(current):\(libcups.ippPort())"
    }

    /// Runs `body` with the calling thread's libcups server set as `init` set it on the thread
    /// that connected: for a connection handed to another thread (``PrintTarget``).
    func onThisThread<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let previous = Self.setThreadServer(server)
        defer { if let previous { libcups.cupsSetServer(previous) } }
        return try body()
    }

    deinit {
        libcups.httpClose(http)
        if let previousServer { libcups.cupsSetServer(previousServer) }
    }

    /// Sends `request` (consumed) and returns the response with its status.
    func send(_ request: OpaquePointer, resource: String = "/") -> (response: IPPResponse?, status: IPPStatus) {
        let response = libcups.cupsDoRequest(http, request, resource)
        let last = IPPStatus.last()
        guard let response else { return (nil, last) }
        let code = libcups.ippGetStatusCode(response)
        return (IPPResponse(response), IPPStatus(code, message: last.message))
    }
}

extension CUPSConnection {
    func send(_ request: IPPRequest, resource: String = "/") -> (response: IPPResponse?, status: IPPStatus) {
        send(request.take(), resource: resource)
    }
}

/// libcups's time-out callback (`http_timeout_cb_t`): a wait on the connection ran out. Notes
/// the stall and gives up (0). libcups retries a failed request by itself (a new read, a
/// reconnection and the request again, a few times over); after the first stall each later wait
/// on this connection gets 10 ms, so the whole call ends about one time limit after it began.
private func cupsWaitTimedOut(_ http: OpaquePointer?, _ data: UnsafeMutableRawPointer?) -> Int32 {
    guard let data else { return 0 }
    let stall = Unmanaged<CUPSConnection.StallFlag>.fromOpaque(data).takeUnretainedValue()
    if !stall.fired.exchange(true, ordering: .relaxed), let http {
        libcups.httpSetTimeout(http, 0.01, cupsWaitTimedOut, data)
    }
    return 0
}
