internal import CCUPS

/// An IPP response owned by Swift; deleted in `deinit`.
final class IPPResponse {
    let ipp: OpaquePointer
    init(_ ipp: OpaquePointer) { self.ipp = ipp }
    deinit { libcups.ippDelete(ipp) }

    /// The attribute groups of one tag (e.g. one per printer or job), as Swift values.
    func groups(_ tag: ipp_tag_t) -> [IPPAttributes] {
        var result: [IPPAttributes] = []
        var current: IPPAttributes?
        var attribute = libcups.ippFirstAttribute(ipp)
        while let attr = attribute {
            let name = libcups.ippGetName(attr)
            if name == nil || libcups.ippGetGroupTag(attr) != tag {
                if let done = current { result.append(done); current = nil }
            } else if let name {
                if current == nil { current = IPPAttributes() }
                current?.values[String(cString: name)] = IPPAttributes.read(attr)
            }
            attribute = libcups.ippNextAttribute(ipp)
        }
        if let done = current { result.append(done) }
        return result
    }
}
