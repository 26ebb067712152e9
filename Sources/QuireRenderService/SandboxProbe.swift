#if canImport(Glibc)
import Glibc
#endif
import QuireSystem

/// Test hook: what a worker can reach from inside its sandbox. When
/// `QUIRE_TEST_WORKER_PROBE_WRITE` (paths separated by `:`) or `QUIRE_TEST_WORKER_PROBE_CONNECT`
/// (a TCP port on 127.0.0.1) is set, the worker answers every request with a failure of kind
/// `probe` whose reason lists each attempt: `write <path>: created` or `write <path>: <error>`,
/// `read <path>: read` or `read <path>: <error>` (`QUIRE_TEST_WORKER_PROBE_READ`),
/// `connect <port>: connected` or `connect <port>: <error>`. Files it manages to create are
/// left in place so the caller can see them.
struct SandboxProbe {
    let writePaths: [String]
    let readPaths: [String]
    let connectPort: UInt16?

    init?(environment: [String: String]) {
        writePaths = environment["QUIRE_TEST_WORKER_PROBE_WRITE"].map {
            $0.split(separator: ":").map(String.init)
        } ?? []
        readPaths = environment["QUIRE_TEST_WORKER_PROBE_READ"].map {
            $0.split(separator: ":").map(String.init)
        } ?? []
        connectPort = environment["QUIRE_TEST_WORKER_PROBE_CONNECT"].flatMap { UInt16($0) }
        if writePaths.isEmpty && readPaths.isEmpty && connectPort == nil { return nil }
    }

    func run() -> ThumbnailReply {
        var results: [String] = []
        for path in writePaths {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                close(fd)
                results.append("write \(path): created")
            } else {
                results.append("write \(path): \(Self.describe(errno))")
            }
        }
        for path in readPaths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            var byte: UInt8 = 0
            if fd >= 0 && Glibc.read(fd, &byte, 1) == 1 {
                results.append("read \(path): read")
            } else {
                results.append("read \(path): \(Self.describe(errno))")
            }
            if fd >= 0 { close(fd) }
        }
        if let port = connectPort { results.append("connect \(port): \(Self.connect(port: port))") }
        return .failed(ThumbnailFailure(.probe, results.joined(separator: "; ")), modificationTime: -1, size: -1)
    }

    static func connect(port: UInt16) -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return describe(errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0 ? "connected" : describe(errno)
    }

    static func describe(_ code: Int32) -> String {
        Errno(rawValue: code).description
    }
}
