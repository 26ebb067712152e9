internal import CCUPS
#if canImport(Glibc)
import Glibc
#endif
import QuireSystem

/// An HTTP connection to a CUPS scheduler. Owns the `http_t`; closed in `deinit`.
///
/// libcups keeps per-thread state (last error, default connection); every request Quire makes
/// goes through an explicit connection and reads `libcups.cupsLastError()` right after the call, on the
/// same thread, so concurrent users do not see each other's errors.
final class CUPSConnection {
    let http: OpaquePointer
    let server: PrintServer
    /// The thread's libcups server setting before this connection changed it, to restore.
    private let previousServer: String?

    /// Connects, or throws ``PrintError/Kind/schedulerNotRunning``.
    init(_ server: PrintServer, timeoutMilliseconds: Int32 = 10_000) throws(PrintError) {
        self.server = server
        guard CUPSLibrary.isAvailable else {
            throw PrintError(.schedulerNotRunning, "printing needs libcups (Debian package libcups2), which is not installed",
                             ipp: IPPStatus(code: IPPStatus.serviceUnavailable, name: "server-error-service-unavailable",
                                            message: "libcups.so.2 not found"))
        }
        let (host, port) = server.resolved
        guard let http = libcups.httpConnect2(host, Int32(port), nil, AF_UNSPEC, libcups.cupsEncryption(), 1,
                                      timeoutMilliseconds, nil) else {
            let reason = ConnectProbe.reason(host: host, port: port, timeoutMilliseconds: min(timeoutMilliseconds, 2000))
            throw PrintError(.schedulerNotRunning,
                             "the print system is not running (cannot reach the CUPS scheduler at \(server): \(reason))",
                             ipp: IPPStatus(code: IPPStatus.serviceUnavailable,
                                            name: "server-error-service-unavailable", message: reason))
        }
        self.http = http
        // A scheduler that stops answering fails the request instead of hanging it: receive and
        // send time limits on the socket. Not httpSetTimeout, which does the same but makes libcups
        // poll(2) before every read — and it reads IPP responses a few bytes at a time: twice as
        // many system calls, 2.8× the CPU of cupsCopyDestInfo. (A connection libcups reopens by
        // itself, after a server closed it, has no limit until the next CUPSConnection.)
        var limit = timeval(tv_sec: 60, tv_usec: 0)
        let socket = libcups.httpGetFd(http)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        // libcups treats a connection to any server other than its current one as a direct
        // connection to a printer (cupsCopyDestInfo then asks for the device's resource). Make
        // the thread's server the one connected to for the life of this connection.
        previousServer = Self.setThreadServer(server)
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
