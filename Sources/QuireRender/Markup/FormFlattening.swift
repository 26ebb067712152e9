internal import CQPDF

/// A filled form made part of its pages (`quire form --flatten`), as objects of the update
/// ``PDFAppendedUpdate`` appends: each visible widget's normal appearance (for a check box or
/// radio button, the one its `/AS` names) is drawn into its page's content — the page's
/// original content streams wrapped between a `q` stream and a `Q` stream that then draws each
/// appearance, a form XObject in the page's resources, transformed from its `/BBox` and
/// `/Matrix` onto the widget's `/Rect` as a reader draws it — and the widgets leave the page's
/// `/Annots`; the catalog loses its `/AcroForm`. Hidden widgets and widgets without an
/// appearance are dropped (nothing of them was shown). Other annotations stay as they are. A
/// signed signature field is refused: flattening would remove what the signature covers.
enum FormFlattening {
    struct Update {
        var objects: [(number: Int, generation: Int, body: String)] = []
        var streams: [(number: Int, body: [UInt8])] = []
    }

    /// The update flattening every page's widgets; new stream objects are numbered from
    /// `firstNumber`. `page` finds a page's object by its 0-based index.
    static func flatten(pageCount: Int, page: (Int) -> qpdf_oh?, firstNumber: Int,
                        api: quire_qpdf_api, qpdf: qpdf_data) throws(FormValueError) -> Update {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        func numbers(_ object: qpdf_oh, _ key: String) -> [Double] {
            let array = api.qpdf_oh_get_key(qpdf, object, key)
            guard api.qpdf_oh_is_array(qpdf, array) != 0 else { return [] }
            return (0..<min(Int(api.qpdf_oh_get_array_n_items(qpdf, array)), 16)).map {
                api.qpdf_oh_get_numeric_value(qpdf, api.qpdf_oh_get_array_item(qpdf, array, Int32($0)))
            }
        }
        /// A field's key, looked up on the widget and then its parents (fields inherit /FT, /V).
        func inherited(_ widget: qpdf_oh, _ key: String) -> qpdf_oh? { api.inherited(key, of: widget, in: qpdf) }
        let n = AnnotationAppearance.n
        var update = Update()
        var widgets = 0
        /// The pages changed, and the text each gets added.
        var pages: [(object: qpdf_oh, number: Int, added: String)] = []
        /// Other objects changed (resources, their XObject dictionaries, a page-tree node).
        var rewritten: [qpdf_oh] = []
        for index in 0..<pageCount {
            guard let pageObject = page(index) else { continue }
            let annots = api.qpdf_oh_get_key(qpdf, pageObject, "/Annots")
            guard api.qpdf_oh_is_array(qpdf, annots) != 0 else { continue }
            var kept: [String] = []
            var draws = ""
            var xobjects: [(name: String, stream: qpdf_oh)] = []
            var removed = false
            for item in 0..<Int(api.qpdf_oh_get_array_n_items(qpdf, annots)) {
                let annot = api.qpdf_oh_get_array_item(qpdf, annots, Int32(item))
                guard api.qpdf_oh_is_name_and_equals(qpdf, api.qpdf_oh_get_key(qpdf, annot, "/Subtype"), "/Widget") != 0 else {
                    kept.append(text(api.qpdf_oh_unparse(qpdf, annot)))
                    continue
                }
                if let type = inherited(annot, "/FT"), api.qpdf_oh_is_name_and_equals(qpdf, type, "/Sig") != 0,
                   let value = inherited(annot, "/V"), api.qpdf_oh_is_null(qpdf, value) == 0 {
                    throw FormValueError("the PDF is signed: flattening its form would break the signature")
                }
                widgets += 1
                removed = true
                let flags = api.qpdf_oh_get_key(qpdf, annot, "/F")
                let hidden = api.qpdf_oh_is_integer(qpdf, flags) != 0 && api.qpdf_oh_get_int_value_as_int(qpdf, flags) & 2 != 0
                guard !hidden, let stream = normalAppearance(annot, api: api, qpdf: qpdf) else { continue }
                let rect = numbers(annot, "/Rect"), dictionary = api.qpdf_oh_get_dict(qpdf, stream)
                let box = numbers(dictionary, "/BBox")
                var matrix = numbers(dictionary, "/Matrix")
                if matrix.count != 6 { matrix = [1, 0, 0, 1, 0, 0] }
                guard rect.count == 4, box.count == 4, (rect + box + matrix).allSatisfy(\.isFinite) else { continue }
                // The appearance's box as its matrix turns it, fitted onto the widget's rectangle.
                let corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])].map { x, y in
                    (matrix[0] * x + matrix[2] * y + matrix[4], matrix[1] * x + matrix[3] * y + matrix[5])
                }
                let (bx1, bx2) = (corners.map(\.0).min()!, corners.map(\.0).max()!)
                let (by1, by2) = (corners.map(\.1).min()!, corners.map(\.1).max()!)
                let (rx1, ry1, rx2, ry2) = (min(rect[0], rect[2]), min(rect[1], rect[3]), max(rect[0], rect[2]), max(rect[1], rect[3]))
                guard bx2 - bx1 > 0, by2 - by1 > 0 else { continue }
                let (sx, sy) = ((rx2 - rx1) / (bx2 - bx1), (ry2 - ry1) / (by2 - by1))
                let name = "/QuireFlat\(index + 1)x\(xobjects.count + 1)"
                xobjects.append((name, stream))
                draws += "q \(n(sx)) 0 0 \(n(sy)) \(n(rx1 - sx * bx1)) \(n(ry1 - sy * by1)) cm \(name) Do Q\n"
            }
            guard removed else { continue }
            let number = Int(api.qpdf_oh_get_object_id(qpdf, pageObject))
            guard number > 0 else { throw FormValueError("page \(index + 1) is not an object of its own") }
            // libqpdf's C parser takes no references to objects: what refers to objects is
            // written into the page's text, or set as handles.
            var added = ""
            if !xobjects.isEmpty {
                // The page's content between "q" and "Q", then the appearances.
                let opening = firstNumber + update.streams.count, closing = opening + 1
                update.streams.append((opening, stream("q\n")))
                update.streams.append((closing, stream("Q\n" + draws)))
                var contents = ""
                if api.qpdf_oh_has_key(qpdf, pageObject, "/Contents") != 0 {
                    contents = text(api.qpdf_oh_unparse(qpdf, api.qpdf_oh_get_key(qpdf, pageObject, "/Contents")))
                    if contents.hasPrefix("[") && contents.hasSuffix("]") { contents = String(contents.dropFirst().dropLast()) }
                }
                api.qpdf_oh_remove_key(qpdf, pageObject, "/Contents")
                added += " /Contents [\(opening) 0 R \(contents) \(closing) 0 R]"
                // The appearances join the page's resources (its own, or those it inherits,
                // written again wherever they are an object of their own; names unique to the page).
                var owner = pageObject
                for _ in 0..<32 where api.qpdf_oh_has_key(qpdf, owner, "/Resources") == 0 && api.qpdf_oh_has_key(qpdf, owner, "/Parent") != 0 {
                    owner = api.qpdf_oh_get_key(qpdf, owner, "/Parent")
                }
                if api.qpdf_oh_has_key(qpdf, owner, "/Resources") == 0 {
                    owner = pageObject
                    api.qpdf_oh_replace_key(qpdf, pageObject, "/Resources", api.qpdf_oh_parse(qpdf, "<< >>"))
                }
                let resources = api.qpdf_oh_get_key(qpdf, owner, "/Resources")
                guard api.qpdf_oh_is_dictionary(qpdf, resources) != 0 else { throw FormValueError("page \(index + 1)'s resources are not a dictionary") }
                if api.qpdf_oh_is_dictionary(qpdf, api.qpdf_oh_get_key(qpdf, resources, "/XObject")) == 0 {
                    api.qpdf_oh_replace_key(qpdf, resources, "/XObject", api.qpdf_oh_parse(qpdf, "<< >>"))
                }
                let xobject = api.qpdf_oh_get_key(qpdf, resources, "/XObject")
                for entry in xobjects { api.qpdf_oh_replace_key(qpdf, xobject, entry.name, entry.stream) }
                for changed in [owner, resources, xobject] where changed != pageObject { rewritten.append(changed) }
            }
            api.qpdf_oh_remove_key(qpdf, pageObject, "/Annots")
            if !kept.isEmpty { added += " /Annots [\(kept.joined(separator: " "))]" }
            pages.append((pageObject, number, added))
        }
        guard widgets > 0 else { throw FormValueError("the PDF has no form fields to flatten") }
        let root = api.qpdf_get_root(qpdf)
        if api.qpdf_oh_has_key(qpdf, root, "/AcroForm") != 0 {
            api.qpdf_oh_remove_key(qpdf, root, "/AcroForm")
            rewritten.append(root)
        }
        // Written once each, as they are after every page's change.
        var written = Set(pages.map(\.number))
        for page in pages {
            var dictionary = text(api.qpdf_oh_unparse_resolved(qpdf, page.object))
            guard dictionary.hasSuffix(">>") else { throw FormValueError("a page is not a dictionary") }
            dictionary.removeLast(2)
            update.objects.append((page.number, Int(api.qpdf_oh_get_generation(qpdf, page.object)), dictionary + page.added + " >>"))
        }
        for object in rewritten {
            let number = Int(api.qpdf_oh_get_object_id(qpdf, object))
            guard number > 0, written.insert(number).inserted else { continue }
            update.objects.append((number, Int(api.qpdf_oh_get_generation(qpdf, object)), text(api.qpdf_oh_unparse_resolved(qpdf, object))))
        }
        return update
    }

    /// The widget's normal appearance stream: `/AP /N` itself, or the state `/AS` names in it.
    private static func normalAppearance(_ widget: qpdf_oh, api: quire_qpdf_api, qpdf: qpdf_data) -> qpdf_oh? {
        let appearances = api.qpdf_oh_get_key(qpdf, widget, "/AP")
        guard api.qpdf_oh_is_dictionary(qpdf, appearances) != 0 else { return nil }
        let normal = api.qpdf_oh_get_key(qpdf, appearances, "/N")
        if api.qpdf_oh_is_stream(qpdf, normal) != 0 { return normal }
        let state = api.qpdf_oh_get_key(qpdf, widget, "/AS")
        guard api.qpdf_oh_is_dictionary(qpdf, normal) != 0, api.qpdf_oh_is_name(qpdf, state) != 0,
              let name = api.qpdf_oh_get_name(qpdf, state) else { return nil }
        let chosen = api.qpdf_oh_get_key(qpdf, normal, name)
        return api.qpdf_oh_is_stream(qpdf, chosen) != 0 ? chosen : nil
    }

    private static func stream(_ content: String) -> [UInt8] {
        Array("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream".utf8)
    }
}
