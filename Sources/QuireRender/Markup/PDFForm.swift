internal import CPoppler
import QuireSystem
import QuireTypes

/// The form of an open PDF (poppler-glib's form fields): read its fields, set their values.
/// poppler regenerates each changed widget's appearance stream, so every reader shows the value;
/// ``PDFDocument/savedUpdate(original:)`` then writes the change as an incremental update.
///
/// Holds a reference to each widget (`PopplerFormField`), released in `deinit`. Not `Sendable`:
/// used where its document was opened.
public final class PDFForm {
    /// The widgets of one field (poppler gives each widget its own object; a radio group is one
    /// field with a widget per button).
    struct Group {
        let name: String
        let widgets: [OpaquePointer]
        let page: Int
        /// Each widget's box on its page as shown (``FormWidget/box``), in `widgets`' order.
        var boxes: [TextBox] = []
    }

    public let document: PDFDocument
    private let groups: [Group]
    /// Radio groups' export names by field name (``RadioExportNames``), when the file was given:
    /// read (with libqpdf) the first time a radio group is named, not for a page without one.
    private lazy var radioExports: [String: [String]] = source.map { RadioExportNames.read($0.file, password: $0.password) } ?? [:]
    private let source: (file: InputFile, password: String?)?

    /// The form of `document`; with the `file` it was opened from, radio buttons are named by
    /// their export names (as other readers name them) rather than by position.
    ///
    /// `pages`: only the widgets on these pages (0-based; a viewer asks for the pages it shows).
    public init(_ document: PDFDocument, file: InputFile? = nil, password: String? = nil, pages: Range<Int>? = nil) {
        self.document = document
        source = file.map { ($0, password) }
        var groups: [Group] = []
        var index: [String: Int] = [:]
        let wanted = pages.map { $0.clamped(to: 0..<document.pageCount) } ?? 0..<document.pageCount
        for pageIndex in wanted {
            guard let page = libpoppler.poppler_document_get_page(document.document, Int32(pageIndex)) else { continue }
            let list = libpoppler.poppler_page_get_form_field_mapping(page)
            let shown = Self.widgetBoxes(page)
            var width = 0.0, height = 0.0
            libpoppler.poppler_page_get_size(page, &width, &height)
            let count = Int(g_list_length(list))
            var position = 0
            // poppler prepends each widget: the list is in reverse annotation order.
            var node = g_list_last(list)
            while let current = node {
                if let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerFormFieldMapping.self),
                   let field = mapping.pointee.field {
                    g_object_ref(UnsafeMutableRawPointer(field))
                    let name = Self.take(libpoppler.poppler_form_field_get_name(field)) ?? ""
                    // The page's widget annotations, in the same order, carry the rotation;
                    // where they do not match one for one, the box as on an upright page.
                    let area = mapping.pointee.area
                    let box = shown.count == count ? shown[position]
                        : TextBox(x: min(area.x1, area.x2), y: height - max(area.y1, area.y2), width: abs(area.x2 - area.x1), height: abs(area.y2 - area.y1))
                    if let at = index[name], !name.isEmpty {
                        groups[at] = Group(name: name, widgets: groups[at].widgets + [field], page: groups[at].page, boxes: groups[at].boxes + [box])
                    } else {
                        index[name] = groups.count
                        groups.append(Group(name: name, widgets: [field], page: pageIndex + 1, boxes: [box]))
                    }
                }
                position += 1
                node = current.pointee.prev
            }
            libpoppler.poppler_page_free_form_field_mapping(list)
            g_object_unref(UnsafeMutableRawPointer(page))
        }
        self.groups = groups
    }

    deinit {
        for group in groups {
            for widget in group.widgets { g_object_unref(UnsafeMutableRawPointer(widget)) }
        }
    }

    /// Whether the document's permissions let its form be filled.
    public var allowsFilling: Bool {
        let permissions = libpoppler.poppler_document_get_permissions(document.document).rawValue
        return permissions & POPPLER_PERMISSIONS_OK_TO_FILL_FORM.rawValue != 0
    }

    /// The fields, in page order (a field's first widget decides).
    public var fields: [FormField] { groups.map(field) }

    /// Every widget of the fields read, in page order then annotation order.
    public var widgets: [FormWidget] {
        groups.flatMap { group -> [FormWidget] in
            let field = field(group)
            let names = field.kind == .radio ? radioNames(group) : []
            return group.boxes.indices.map { index in
                FormWidget(field: field, box: group.boxes[index],
                           state: field.kind == .radio ? names[index] : field.kind == .checkbox ? "on" : nil)
            }
        }
    }

    /// The boxes of a page's widget annotations as shown (poppler-glib's annot mapping applies
    /// the page's rotation), in annotation order.
    private static func widgetBoxes(_ page: OpaquePointer) -> [TextBox] {
        var width = 0.0, height = 0.0
        libpoppler.poppler_page_get_size(page, &width, &height)
        let list = libpoppler.poppler_page_get_annot_mapping(page)
        defer { libpoppler.poppler_page_free_annot_mapping(list) }
        var boxes: [TextBox] = []
        // In annotation order (unlike the form mapping, which poppler-glib prepends).
        var node = list
        while let current = node {
            node = current.pointee.next
            guard let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerAnnotMapping.self), let annot = mapping.pointee.annot,
                  libpoppler.poppler_annot_get_annot_type(annot) == POPPLER_ANNOT_WIDGET else { continue }
            let area = mapping.pointee.area
            boxes.append(TextBox(x: min(area.x1, area.x2), y: height - max(area.y1, area.y2), width: abs(area.x2 - area.x1), height: abs(area.y2 - area.y1)))
        }
        return boxes
    }

    private func field(_ group: Group) -> FormField {
        let first = group.widgets[0]
        let readOnly = libpoppler.poppler_form_field_is_read_only(field(first)) != 0
        switch kind(first) {
        case .text:
            let text = Self.take(libpoppler.poppler_form_field_text_get_text(field(first)))
            return FormField(name: group.name, kind: .text, value: text?.isEmpty == false ? text : nil, choices: [],
                             isReadOnly: readOnly, page: group.page)
        case .checkbox:
            let on = group.widgets.contains { libpoppler.poppler_form_field_button_get_state(field($0)) != 0 }
            return FormField(name: group.name, kind: .checkbox, value: on ? "on" : "off", choices: ["on", "off"],
                             isReadOnly: readOnly, page: group.page)
        case .radio:
            let names = radioNames(group)
            let chosen = group.widgets.firstIndex { libpoppler.poppler_form_field_button_get_state(field($0)) != 0 }
            return FormField(name: group.name, kind: .radio, value: chosen.map { names[$0] } ?? "off", choices: names,
                             isReadOnly: readOnly, page: group.page)
        case .combo, .list:
            let items = choiceItems(first)
            let selected = items.indices.filter { libpoppler.poppler_form_field_choice_is_item_selected(field(first), Int32($0)) != 0 }
            var value = selected.first.map { items[$0] }
            let editable = kind(first) == .combo && libpoppler.poppler_form_field_choice_is_editable(field(first)) != 0
            if value == nil, editable {
                value = Self.take(libpoppler.poppler_form_field_choice_get_text(field(first))).flatMap { $0.isEmpty ? nil : $0 }
            }
            return FormField(name: group.name, kind: kind(first), value: value, choices: items, isReadOnly: readOnly,
                             page: group.page, isEditable: editable)
        case let other:
            return FormField(name: group.name, kind: other, value: nil, choices: [], isReadOnly: readOnly, page: group.page)
        }
    }

    /// Sets field `name` to `value` (in the form's words: see ``FormField``).
    /// - Throws: ``FormValueError`` naming the field when it does not exist, is read-only or
    ///   cannot take the value; nothing is changed then.
    public func set(_ name: String, to value: String) throws(FormValueError) {
        guard let group = groups.first(where: { $0.name == name }) else {
            throw FormValueError("no field named \(Self.quoted(name)) in this form")
        }
        let first = group.widgets[0]
        let shown = Self.quoted(name)
        if libpoppler.poppler_form_field_is_read_only(field(first)) != 0 {
            throw FormValueError("field \(shown) is read-only")
        }
        switch kind(first) {
        case .text:
            libpoppler.poppler_form_field_text_set_text(field(first), value)
        case .checkbox:
            let word = value.lowercased()
            guard FormField.onWords.contains(word) || FormField.offWords.contains(word) else {
                throw FormValueError("check box \(shown) takes on or off, not \(Self.quoted(value))")
            }
            for widget in group.widgets {
                libpoppler.poppler_form_field_button_set_state(field(widget), FormField.onWords.contains(word) ? 1 : 0)
            }
        case .radio:
            let names = radioNames(group)
            if value.lowercased() == "off" {
                for widget in group.widgets { libpoppler.poppler_form_field_button_set_state(field(widget), 0) }
                return
            }
            guard let chosen = names.firstIndex(of: value) else {
                throw FormValueError("radio group \(shown) does not offer \(Self.quoted(value)) (it offers \(names.joined(separator: ", ")))")
            }
            libpoppler.poppler_form_field_button_set_state(field(group.widgets[chosen]), 1)
        case .combo, .list:
            let items = choiceItems(first)
            if let at = items.firstIndex(of: value) {
                libpoppler.poppler_form_field_choice_unselect_all(field(first))
                libpoppler.poppler_form_field_choice_select_item(field(first), Int32(at))
            } else if kind(first) == .combo, libpoppler.poppler_form_field_choice_is_editable(field(first)) != 0 {
                libpoppler.poppler_form_field_choice_set_text(field(first), value)
            } else {
                let offered = items.map { Self.quoted($0) }.joined(separator: ", ")
                throw FormValueError("field \(shown) does not offer \(Self.quoted(value)) (it offers \(offered))")
            }
        case .signature:
            throw FormValueError("field \(shown) is a signature field; it is signed, not filled")
        case .pushButton:
            throw FormValueError("field \(shown) is a push button; it has no value")
        case .unknown:
            throw FormValueError("field \(shown) is of a kind that cannot be filled")
        }
    }

    /// The kind of a widget's field.
    private func kind(_ widget: OpaquePointer) -> FormField.Kind {
        switch libpoppler.poppler_form_field_get_field_type(field(widget)) {
        case POPPLER_FORM_FIELD_TEXT: return .text
        case POPPLER_FORM_FIELD_BUTTON:
            switch libpoppler.poppler_form_field_button_get_button_type(field(widget)) {
            case POPPLER_FORM_BUTTON_CHECK: return .checkbox
            case POPPLER_FORM_BUTTON_RADIO: return .radio
            default: return .pushButton
            }
        case POPPLER_FORM_FIELD_CHOICE:
            return libpoppler.poppler_form_field_choice_get_choice_type(field(widget)) == POPPLER_FORM_CHOICE_COMBO ? .combo : .list
        case POPPLER_FORM_FIELD_SIGNATURE: return .signature
        default: return .unknown
        }
    }

    /// A radio group's buttons: their export names where libqpdf found one for each button and
    /// no two alike, else their positions (`1`, `2`…).
    private func radioNames(_ group: Group) -> [String] {
        if let names = radioExports[group.name], names.count == group.widgets.count, !names.contains(""),
           Set(names).count == names.count, !names.contains(where: { $0.lowercased() == "off" }) {
            return names
        }
        return group.widgets.indices.map { String($0 + 1) }
    }

    private func choiceItems(_ widget: OpaquePointer) -> [String] {
        let count = max(0, Int(libpoppler.poppler_form_field_choice_get_n_items(field(widget))))
        return (0..<count).map { Self.take(libpoppler.poppler_form_field_choice_get_item(field(widget), Int32($0))) ?? "" }
    }

    private func field(_ widget: OpaquePointer) -> OpaquePointer { widget }

    /// Whether the file names an XFA packet (`/XFA`) in its plain bytes (one read in 1 MiB
    /// chunks). With no AcroForm fields, that is an XFA-only form. A packet named only inside a
    /// compressed object stream is not seen.
    public static func hasXFA(_ file: InputFile) -> Bool {
        let name = Array("/XFA".utf8)
        let chunk = 1 << 20
        var offset: Int64 = 0
        while offset < file.size {
            guard let bytes = try? file.read(upTo: chunk + name.count, at: offset), !bytes.isEmpty else { return false }
            if bytes.count >= name.count {
                for index in 0...(bytes.count - name.count) where bytes[index] == 0x2F {
                    if bytes[index..<index + name.count].elementsEqual(name) {
                        let next = index + name.count < bytes.count ? bytes[index + name.count] : 0x20
                        // A delimiter after the name (not /XFAFoo).
                        if !(next >= 0x41 && next <= 0x5A) && !(next >= 0x61 && next <= 0x7A) && !(next >= 0x30 && next <= 0x39) { return true }
                    }
                }
            }
            offset += Int64(chunk)
        }
        return false
    }

    /// A name or value from the file, quoted and made safe for a one-line message.
    static func quoted(_ text: String) -> String { "'\(TerminalEscaping.escaped(text))'" }

    /// Copies a GLib string and frees it.
    static func take(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }
}
