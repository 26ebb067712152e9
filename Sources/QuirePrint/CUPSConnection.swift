internal import CCUPS
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP connection to a CUPS scheduler. Owns the `http_t`; closed in `deinit`.
///
/// libcups keeps per-thread state (last error, default connection); every request Quire makes
/// goes through an explicit connection and reads `cupsLastError()` right after the call, on the
/// same thread, so concurrent users do not see each other's errors.
final class CUPSConnection {
    let http: OpaquePointer
    let server: PrintServer
    /// The thread's libcups server setting before this connection changed it, to restore.
    private let previousServer: String?

    /// Connects, or throws ``PrintError/Kind/schedulerNotRunning``.
    init(_ server: PrintServer, timeoutMilliseconds: Int32 = 10_000) throws(PrintError) {
        self.server = server
        let (host, port) = server.resolved
        guard let http = httpConnect2(host, Int32(port), nil, AF_UNSPEC, cupsEncryption(), 1,
                                      timeoutMilliseconds, nil) else {
            let reason = String(cString: strerror(errno))
            throw PrintError(.schedulerNotRunning,
                             "the print system is not running (cannot reach the CUPS scheduler at \(server): \(reason))",
                             ipp: IPPStatus(code: IPPStatus.serviceUnavailable,
                                            name: "server-error-service-unavailable", message: reason))
        }
        self.http = http
        // libcups treats a connection to any server other than its current one as a direct
        // connection to a printer (cupsCopyDestInfo then asks for the device's resource). Make
        // the thread's server the one connected to for the life of this connection.
        if server.host != nil || server.port != nil {
            let current = cupsServer().map { String(cString: $0) } ?? ""
            previousServer = current.hasPrefix("/") ? current : "\(current):\(ippPort())"
            cupsSetServer(host.hasPrefix("/") ? host : "\(host):\(port)")
        } else {
            previousServer = nil
        }
    }

    deinit {
        httpClose(http)
        if let previousServer { cupsSetServer(previousServer) }
    }

    /// Sends `request` (consumed) and returns the response with its status.
    func send(_ request: OpaquePointer, resource: String = "/") -> (response: IPPResponse?, status: IPPStatus) {
        let response = cupsDoRequest(http, request, resource)
        let last = IPPStatus.last()
        guard let response else { return (nil, last) }
        let code = ippGetStatusCode(response)
        return (IPPResponse(response), IPPStatus(code, message: last.message))
    }
}

/// An IPP response owned by Swift; deleted in `deinit`.
final class IPPResponse {
    let ipp: OpaquePointer
    init(_ ipp: OpaquePointer) { self.ipp = ipp }
    deinit { ippDelete(ipp) }

    /// The attribute groups of one tag (e.g. one per printer or job), as Swift values.
    func groups(_ tag: ipp_tag_t) -> [IPPAttributes] {
        var result: [IPPAttributes] = []
        var current: IPPAttributes?
        var attribute = ippFirstAttribute(ipp)
        while let attr = attribute {
            let name = ippGetName(attr)
            if name == nil || ippGetGroupTag(attr) != tag {
                if let done = current { result.append(done); current = nil }
            } else if let name {
                if current == nil { current = IPPAttributes() }
                current?.values[String(cString: name)] = IPPAttributes.read(attr)
            }
            attribute = ippNextAttribute(ipp)
        }
        if let done = current { result.append(done) }
        return result
    }
}

/// Attributes copied out of an IPP message into Swift values.
struct IPPAttributes: Sendable {
    enum Value: Sendable {
        case strings([String])
        case integers([Int])
        case booleans([Bool])
        case ranges([ClosedRange<Int>])
        case dates([Int])   // seconds since 1970
        case other
    }

    var values: [String: Value] = [:]

    static func read(_ attr: OpaquePointer) -> Value {
        let count = Int(ippGetCount(attr))
        let tag = ippGetValueTag(attr)
        switch tag {
        case IPP_TAG_INTEGER:
            return .integers((0..<count).map { Int(ippGetInteger(attr, Int32($0))) })
        case IPP_TAG_ENUM:
            return .integers((0..<count).map { Int(ippGetInteger(attr, Int32($0))) })
        case IPP_TAG_BOOLEAN:
            return .booleans((0..<count).map { ippGetBoolean(attr, Int32($0)) != 0 })
        case IPP_TAG_RANGE:
            return .ranges((0..<count).map {
                var upper: Int32 = 0
                let lower = ippGetRange(attr, Int32($0), &upper)
                return Int(lower)...Int(max(lower, upper))
            })
        case IPP_TAG_DATE:
            return .dates((0..<count).compactMap {
                ippGetDate(attr, Int32($0)).map { Int(ippDateToTime($0)) }
            })
        case IPP_TAG_NOVALUE, IPP_TAG_UNKNOWN, IPP_TAG_NOTSETTABLE, IPP_TAG_DELETEATTR, IPP_TAG_BEGIN_COLLECTION:
            return .other
        default:
            return .strings((0..<count).compactMap {
                ippGetString(attr, Int32($0), nil).map { String(cString: $0) }
            })
        }
    }

    func strings(_ name: String) -> [String] {
        switch values[name] {
        case .strings(let v): return v
        case .integers(let v): return v.map(String.init)
        case .booleans(let v): return v.map { $0 ? "true" : "false" }
        default: return []
        }
    }
    func string(_ name: String) -> String? { strings(name).first }
    func integer(_ name: String) -> Int? {
        switch values[name] {
        case .integers(let v): return v.first
        case .dates(let v): return v.first
        case .strings(let v): return v.first.flatMap { Int($0) }
        default: return nil
        }
    }
    func integers(_ name: String) -> [Int] {
        if case .integers(let v) = values[name] { return v }
        return []
    }
    func boolean(_ name: String) -> Bool? {
        if case .booleans(let v) = values[name] { return v.first }
        return nil
    }
    func range(_ name: String) -> ClosedRange<Int>? {
        if case .ranges(let v) = values[name] { return v.first }
        return nil
    }
}

/// Builds an IPP request; the request is handed to ``CUPSConnection/send(_:resource:)`` which
/// consumes it, or deleted if never sent.
final class IPPRequest {
    private(set) var ipp: OpaquePointer?

    init(_ operation: ipp_op_t) {
        ipp = ippNewRequest(operation)
        addName("requesting-user-name", cupsUser().map { String(cString: $0) } ?? "root")
    }

    deinit { if let ipp { ippDelete(ipp) } }

    func addURI(_ name: String, _ value: String) {
        ippAddString(ipp, IPP_TAG_OPERATION, IPP_TAG_URI, name, nil, value)
    }
    func addName(_ name: String, _ value: String) {
        ippAddString(ipp, IPP_TAG_OPERATION, IPP_TAG_NAME, name, nil, value)
    }
    func addInteger(_ name: String, _ value: Int, group: ipp_tag_t = IPP_TAG_OPERATION) {
        ippAddInteger(ipp, group, IPP_TAG_INTEGER, name, Int32(value))
    }
    func addKeyword(_ name: String, _ value: String, group: ipp_tag_t = IPP_TAG_OPERATION) {
        ippAddString(ipp, group, IPP_TAG_KEYWORD, name, nil, value)
    }
    func addKeywords(_ name: String, _ values: [String]) {
        var copies = values.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        copies.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { rebound in
                _ = ippAddStrings(ipp, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, name, Int32(values.count), nil,
                                  rebound.baseAddress)
            }
        }
    }

    /// Gives up ownership (for `cupsDoRequest`, which frees the request).
    func take() -> OpaquePointer {
        let taken = ipp!
        ipp = nil
        return taken
    }
}

extension CUPSConnection {
    func send(_ request: IPPRequest, resource: String = "/") -> (response: IPPResponse?, status: IPPStatus) {
        send(request.take(), resource: resource)
    }
}
