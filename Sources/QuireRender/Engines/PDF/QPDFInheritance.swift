internal import CQPDF

extension quire_qpdf_api {
    /// `key` of `node`, or of the nearest node up its `/Parent` chain that has it: a page's
    /// inherited attributes (`/Resources`, `/Rotate`) and a field's (`/FT`, `/V`); nil when
    /// none of at most 32 has it.
    func inherited(_ key: String, of node: qpdf_oh, in qpdf: qpdf_data) -> qpdf_oh? {
        var node = node
        for _ in 0..<32 {
            if qpdf_oh_has_key(qpdf, node, key) != 0 { return qpdf_oh_get_key(qpdf, node, key) }
            guard qpdf_oh_has_key(qpdf, node, "/Parent") != 0 else { return nil }
            node = qpdf_oh_get_key(qpdf, node, "/Parent")
        }
        return nil
    }
}
