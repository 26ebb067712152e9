internal import CQPDF
import QuireTypes

/// The export names of radio groups' buttons (`small`, `medium`…: each button's appearance
/// state other than `/Off`), which poppler-glib does not give: read with libqpdf from the
/// AcroForm's field tree, by each group's fully qualified name, buttons in `/Kids` order.
enum RadioExportNames {
    /// Fully qualified name → the export name of each button; empty when libqpdf is missing or
    /// cannot read the file.
    static func read(_ file: InputFile, password: String?) -> [String: [String]] {
        guard let session = QPDFSession(), session.read(file.procPath, password: password) else { return [:] }
        defer { session.drainErrors() }  // which also keeps the handle open for the raw calls below
        let api = session.api, qpdf = session.qpdf
        let form = api.qpdf_oh_get_key(qpdf, api.qpdf_get_root(qpdf), "/AcroForm")
        guard api.qpdf_oh_is_dictionary(qpdf, form) != 0 else { return [:] }
        var names: [String: [String]] = [:]
        var visited = 0

        func items(_ array: qpdf_oh) -> [qpdf_oh] {
            guard api.qpdf_oh_is_array(qpdf, array) != 0 else { return [] }
            return (0..<min(Int(api.qpdf_oh_get_array_n_items(qpdf, array)), 10_000)).map { api.qpdf_oh_get_array_item(qpdf, array, Int32($0)) }
        }
        func onState(_ widget: qpdf_oh) -> String? {
            let normal = api.qpdf_oh_get_key(qpdf, api.qpdf_oh_get_key(qpdf, widget, "/AP"), "/N")
            guard api.qpdf_oh_is_dictionary(qpdf, normal) != 0 else { return nil }
            api.qpdf_oh_begin_dict_key_iter(qpdf, normal)
            var found: String?
            while api.qpdf_oh_dict_more_keys(qpdf) != 0 {
                if let key = api.qpdf_oh_dict_next_key(qpdf), String(cString: key) != "/Off", found == nil {
                    found = String(String(cString: key).dropFirst())
                }
            }
            return found
        }
        func walk(_ field: qpdf_oh, parent: String, radio inheritedRadio: Bool, depth: Int) {
            visited += 1
            guard depth < 32, visited < 100_000 else { return }
            var name = parent
            if api.qpdf_oh_has_key(qpdf, field, "/T") != 0 {
                let part = api.qpdf_oh_get_utf8_value(qpdf, api.qpdf_oh_get_key(qpdf, field, "/T")).map { String(cString: $0) } ?? ""
                name = parent.isEmpty ? part : parent + "." + part
            }
            var radio = inheritedRadio
            if api.qpdf_oh_has_key(qpdf, field, "/FT") != 0 || api.qpdf_oh_has_key(qpdf, field, "/Ff") != 0 {
                let type = api.qpdf_oh_get_key(qpdf, field, "/FT")
                let flags = api.qpdf_oh_get_key(qpdf, field, "/Ff")
                let isButton = api.qpdf_oh_is_name_and_equals(qpdf, type, "/Btn") != 0
                let bits = api.qpdf_oh_is_integer(qpdf, flags) != 0 ? Int(api.qpdf_oh_get_int_value_as_int(qpdf, flags)) : 0
                if isButton || api.qpdf_oh_has_key(qpdf, field, "/Ff") != 0 { radio = (isButton || inheritedRadio) && bits & (1 << 15) != 0 }
            }
            let kids = items(api.qpdf_oh_get_key(qpdf, field, "/Kids"))
            // Kids without /T are the field's widgets.
            let widgets = kids.filter { api.qpdf_oh_has_key(qpdf, $0, "/T") == 0 }
            if radio, !widgets.isEmpty {
                names[name] = widgets.map { onState($0) ?? "" }
            }
            for kid in kids where api.qpdf_oh_has_key(qpdf, kid, "/T") != 0 {
                walk(kid, parent: name, radio: radio, depth: depth + 1)
            }
        }
        for field in items(api.qpdf_oh_get_key(qpdf, form, "/Fields")) { walk(field, parent: "", radio: false, depth: 0) }
        return names
    }
}
