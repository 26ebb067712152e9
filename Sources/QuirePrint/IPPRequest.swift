internal import CCUPS
#if canImport(Glibc)
import Glibc
#endif

/// Builds an IPP request; the request is handed to ``CUPSConnection/send(_:resource:)`` which
/// consumes it, or deleted if never sent.
final class IPPRequest {
    private(set) var ipp: OpaquePointer?

    init(_ operation: ipp_op_t) {
        ipp = libcups.ippNewRequest(operation)
        addName("requesting-user-name", libcups.cupsUser().map { String(cString: $0) } ?? "root")
    }

    deinit { if let ipp { libcups.ippDelete(ipp) } }

    func addURI(_ name: String, _ value: String) {
        libcups.ippAddString(ipp, IPP_TAG_OPERATION, IPP_TAG_URI, name, nil, value)
    }
    func addName(_ name: String, _ value: String) {
        libcups.ippAddString(ipp, IPP_TAG_OPERATION, IPP_TAG_NAME, name, nil, value)
    }
    func addInteger(_ name: String, _ value: Int, group: ipp_tag_t = IPP_TAG_OPERATION) {
        libcups.ippAddInteger(ipp, group, IPP_TAG_INTEGER, name, Int32(value))
    }
    func addKeyword(_ name: String, _ value: String, group: ipp_tag_t = IPP_TAG_OPERATION) {
        libcups.ippAddString(ipp, group, IPP_TAG_KEYWORD, name, nil, value)
    }
    func addKeywords(_ name: String, _ values: [String]) {
        var copies = values.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        copies.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { rebound in
                _ = libcups.ippAddStrings(ipp, IPP_TAG_OPERATION, IPP_TAG_KEYWORD, name, Int32(values.count), nil,
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
