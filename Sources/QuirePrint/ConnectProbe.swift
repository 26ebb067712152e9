#if canImport(Glibc)
import Glibc
#endif
import QuireSystem

/// Why the scheduler cannot be reached, found by connecting once more without libcups.
///
/// When `httpConnect2` fails, libcups has already closed its socket: `errno` then says "Bad file
/// descriptor", and `cupsLastErrorString()` says "Host is down" for a port nobody listens on.
/// Neither tells the user what happened. Only the failure path pays for this.
enum ConnectProbe {
    /// The reason a stream connection to `host` (a name, an address, or a domain socket path
    /// starting with "/") on `port` fails, in the system's words ("Connection refused", "No such
    /// file or directory", "Name or service not known"); a general phrase if it now succeeds.
    static func reason(host: String, port: Int, timeoutMilliseconds: Int32) -> String {
        if host.hasPrefix("/") { return localReason(path: host, timeoutMilliseconds: timeoutMilliseconds) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            return status == EAI_SYSTEM ? Errno.current.description : String(cString: gai_strerror(status))
        }
        defer { freeaddrinfo(first) }
        var reason = "the connection failed"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            if let failure = connectReason(family: address.pointee.ai_family, address: address.pointee.ai_addr,
                                           length: address.pointee.ai_addrlen, timeoutMilliseconds: timeoutMilliseconds) {
                reason = failure
            } else {
                return "the connection failed"
            }
            entry = address.pointee.ai_next
        }
        return reason
    }

    private static func localReason(path: String, timeoutMilliseconds: Int32) -> String {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return "the socket path is too long" }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                connectReason(family: AF_UNIX, address: generic, length: socklen_t(MemoryLayout<sockaddr_un>.size),
                              timeoutMilliseconds: timeoutMilliseconds)
            }
        } ?? "the connection failed"
    }

    /// nil when the connection succeeds; the error's description otherwise.
    private static func connectReason(family: Int32, address: UnsafePointer<sockaddr>?, length: socklen_t,
                                      timeoutMilliseconds: Int32) -> String? {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return Errno.current.description }
        defer { close(fd) }
        if connect(fd, address, length) == 0 { return nil }
        guard errno == EINPROGRESS else { return Errno.current.description }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, timeoutMilliseconds)
        guard ready > 0 else { return ready == 0 ? Errno(rawValue: ETIMEDOUT).description : Errno.current.description }
        var failure: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else { return Errno.current.description }
        return failure == 0 ? nil : Errno(rawValue: failure).description
    }
}
