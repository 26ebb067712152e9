import CGtk
import Quire
import QuireRenderService
import QuireViewer

/// A PDF's form filled in the window (issue 36), whether Markup is on or not: every field a
/// person can change is tinted on its page; a click on a check box ticks it, on a radio button
/// chooses it, on a text field or a list opens an editor at the field (a text entry, or the
/// choices) where Tab and Shift+Tab go on to the next and previous field and Enter or Escape
/// closes it. Values wait in the Markup's changes (drawn over the fields at once, undone with
/// Ctrl+Z) until Done saves them into the form, with appearance streams, by the worker.
///
/// The fields come with each page's text from the worker (``PageText/fields``); the window
/// never reads the PDF.
@MainActor
final class FormFields {
    private let pages: PageView
    private let model: () -> ViewerModel
    /// The value waiting for a field (by name), nil for none.
    private let pending: (String) -> String?
    /// Gives field `name` value `value`, saying `said` in the status line.
    private let change: (String, String, String) -> Void
    /// Whether the current file's form may be filled here now (a PDF Markup may change).
    private let enabled: () -> Bool
    /// Says something in the status line.
    private let say: (String) -> Void
    /// The file (by the model's index) whose XFA-only form was said to be unfillable.
    private var toldXFA: Int?

    private let popover = gtk_popover_new()!
    private let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
    /// The widget being edited: its page, its place among that page's fields.
    private(set) var editing: (page: Int, widget: FormWidget)?
    /// The editor's text entry while a text field (or an editable choice) is edited.
    private var entry: UnsafeMutablePointer<GtkWidget>?
    /// Where the editor points (the field's box in the view): followed when the page moves.
    private var pointing: GdkRectangle?

    init(pages: PageView, model: @escaping () -> ViewerModel, pending: @escaping (String) -> String?,
         change: @escaping (String, String, String) -> Void, enabled: @escaping () -> Bool, say: @escaping (String) -> Void) {
        self.say = say
        self.pages = pages
        self.model = model
        self.pending = pending
        self.change = change
        self.enabled = enabled
        gtk_widget_set_parent(popover, pages.area)
        gtk_popover_set_child(cast(popover), box)
        gtk_popover_set_autohide(cast(popover), 1)
        gtk_widget_set_margin_start(box, 4)
        gtk_widget_set_margin_end(box, 4)
        Signal.connect(popover, "closed") { [unowned self] in self.closed() }
        // Tab and Shift+Tab anywhere in the editor go on to the next or previous field.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        Signal.connectKey(keys) { [unowned self] keyval, state in self.key(keyval, state) }
        gtk_widget_add_controller(popover, keys)
        pages.fieldClick = { [unowned self] page, x, y in self.clicked(page: page, x: x, y: y) }
        pages.pageTextArrived = { [unowned self] page in self.textArrived(page: page) }
    }

    /// Page 1's text says whether the form is XFA only: said once per file.
    private func textArrived(page: Int) {
        let model = model()
        guard page == 0, toldXFA != model.fileIndex, case .success(let text)? = model.pageText(0), text.formIsXFAOnly else { return }
        toldXFA = model.fileIndex
        say("This PDF's form is XFA only, which Quire cannot fill: its pages are shown as they are")
    }

    // MARK: Fields

    /// The fields a person can change on page `page`, as its text brought them.
    func widgets(onPage page: Int) -> [FormWidget] {
        guard enabled(), case .success(let text)? = model().pageText(page) else { return [] }
        return text.fields.filter(\.isFillable)
    }

    /// The value shown for a widget's field: the one waiting, else the form's.
    func value(of widget: FormWidget) -> String? { pending(widget.field.name) ?? widget.field.value }

    /// One stop per field on the pages whose fields are known, in page then annotation order
    /// (a radio group's buttons are one stop).
    private var stops: [(page: Int, widget: FormWidget)] {
        let model = model()
        var found: [(page: Int, widget: FormWidget)] = []
        var seen: Set<String> = []
        for page in 0..<model.pageCount {
            for widget in widgets(onPage: page) where seen.insert(widget.field.name).inserted { found.append((page, widget)) }
        }
        return found
    }

    // MARK: Clicks and keys

    private func clicked(page: Int, x: Double, y: Double) -> Bool {
        guard let widget = widgets(onPage: page).last(where: { Self.contains($0.box, x, y) }) else { return false }
        switch widget.field.kind {
        case .checkbox:
            let on = value(of: widget).map { FormField.onWords.contains($0.lowercased()) } ?? false
            give(widget, on ? "off" : "on")
        case .radio:
            if let state = widget.state { give(widget, state) }
        default:
            edit(page: page, widget: widget)
        }
        return true
    }

    private static func contains(_ box: TextBox, _ x: Double, _ y: Double) -> Bool {
        x >= box.x && x <= box.maxX && y >= box.y && y <= box.maxY
    }

    private func give(_ widget: FormWidget, _ value: String) {
        guard value != (self.value(of: widget) ?? "") else { return }
        let shown = value.isEmpty ? "emptied" : "set to “\(value)”"
        change(widget.field.name, value, "Field \(widget.field.name) \(shown)")
        gtk_widget_queue_draw(pages.area)
    }

    private func key(_ keyval: UInt32, _ state: GdkModifierType) -> Bool {
        guard keyval == UInt32(GDK_KEY_Tab) || keyval == UInt32(GDK_KEY_ISO_Left_Tab) else { return false }
        let backwards = keyval == UInt32(GDK_KEY_ISO_Left_Tab) || state.rawValue & GDK_SHIFT_MASK.rawValue != 0
        move(by: backwards ? -1 : 1)
        return true
    }

    /// The editor goes on to the next (or previous) field; past the last, it closes.
    private func move(by step: Int) {
        guard let editing else { return }
        commitEntry()
        let stops = stops
        guard let at = stops.firstIndex(where: { $0.widget.field.name == editing.widget.field.name }) else { return close() }
        let next = at + step
        guard stops.indices.contains(next) else { return close() }
        let target = stops[next]
        if target.page != model().page { _ = model().goTo(target.page + 1) }
        edit(page: target.page, widget: target.widget)
    }

    private func close() {
        gtk_popover_popdown(cast(popover))
    }

    // MARK: The editor

    /// The editor at `widget`'s field: a text entry, the choices of a list, a check box or a
    /// radio group's buttons (reached with Tab).
    func edit(page: Int, widget: FormWidget) {
        commitEntry()
        editing = (page, widget)
        entry = nil
        while let child = gtk_widget_get_first_child(box) { gtk_box_remove(cast(box), child) }
        let title = gtk_label_new(widget.field.name)!
        gtk_widget_add_css_class(title, "heading")
        gtk_widget_set_halign(title, GTK_ALIGN_START)
        gtk_box_append(cast(box), title)
        let current = value(of: widget) ?? ""
        switch widget.field.kind {
        case .text:
            addEntry(widget, text: current)
        case .combo, .list:
            if widget.field.isEditable { addEntry(widget, text: current) }
            addChoices(widget, current: current)
        case .checkbox:
            let button = gtk_check_button_new_with_label(widget.field.name)!
            gtk_check_button_set_active(cast(button), FormField.onWords.contains(current.lowercased()) ? 1 : 0)
            Signal.connect(button, "toggled") { [unowned self] in self.give(widget, gtk_check_button_get_active(cast(button)) != 0 ? "on" : "off") }
            gtk_box_append(cast(box), button)
        case .radio:
            addChoices(widget, current: current)
        default:
            break
        }
        let hint = gtk_label_new("Tab: next field · Enter: done")!
        gtk_widget_add_css_class(hint, "dim-label")
        gtk_box_append(cast(box), hint)
        guard var rect = pages.viewRect(page: page, box: widget.box) else { return }
        pointing = rect
        gtk_popover_set_pointing_to(cast(popover), &rect)
        gtk_popover_set_position(cast(popover), GTK_POS_BOTTOM)
        gtk_popover_popup(cast(popover))
        if let entry { gtk_widget_grab_focus(entry) } else if let button = gtk_widget_get_next_sibling(title) { gtk_widget_grab_focus(button) }
        gtk_widget_queue_draw(pages.area)
    }

    /// One radio button per choice (a list's items, a radio group's buttons): the one chosen
    /// becomes the field's value at once.
    private func addChoices(_ widget: FormWidget, current: String) {
        var first: UnsafeMutablePointer<GtkWidget>?
        for choice in widget.field.choices {
            let button = gtk_check_button_new_with_label(choice)!
            if let first { gtk_check_button_set_group(cast(button), cast(first)) } else { first = button }
            gtk_check_button_set_active(cast(button), choice == current ? 1 : 0)
            Signal.connect(button, "toggled") { [unowned self] in
                if gtk_check_button_get_active(cast(button)) != 0 { self.give(widget, choice) }
            }
            gtk_box_append(cast(box), button)
        }
    }

    private func addEntry(_ widget: FormWidget, text: String) {
        let field = gtk_entry_new()!
        gtk_editable_set_text(OpaquePointer(field), text)
        gtk_editable_set_width_chars(OpaquePointer(field), 28)
        Accessibility.setLabel(field, widget.field.name)
        Signal.connect(field, "activate") { [unowned self] in
            self.commitEntry()
            self.close()
        }
        gtk_box_append(cast(box), field)
        entry = field
    }

    /// The entry's text becomes the field's value (when it changed).
    private func commitEntry() {
        guard let entry, let editing, let text = gtk_editable_get_text(OpaquePointer(entry)) else { return }
        let typed = String(cString: text)
        if typed != (value(of: editing.widget) ?? "") { give(editing.widget, typed) }
    }

    private func closed() {
        commitEntry()
        entry = nil
        editing = nil
        gtk_widget_queue_draw(pages.area)
        gtk_widget_grab_focus(pages.area)
    }

    // MARK: Drawing

    /// The fields of page `page` over it: each one that can be changed tinted, the one being
    /// edited framed, values waiting drawn in their boxes.
    func draw(page: Int, _ cairo: OpaquePointer, x: Double, y: Double, sx: Double, sy: Double) {
        for widget in widgets(onPage: page) {
            let b = widget.box
            let rx = x + b.x * sx, ry = y + b.y * sy, rw = b.width * sx, rh = b.height * sy
            let waiting = pending(widget.field.name)
            if let waiting {
                // The value waiting replaces what the page shows inside the field's border.
                let inset = min(max(1.5, 1.2 * sx), min(rw, rh) / 4)
                cairo_set_source_rgb(cairo, 1, 1, 1)
                if widget.field.kind == .radio {
                    cairo_arc(cairo, rx + rw / 2, ry + rh / 2, max(1, min(rw, rh) / 2 - inset), 0, 2 * Double.pi)
                } else {
                    cairo_rectangle(cairo, rx + inset, ry + inset, rw - 2 * inset, rh - 2 * inset)
                }
                cairo_fill(cairo)
                cairo_set_source_rgb(cairo, 0.05, 0.05, 0.05)
                switch widget.field.kind {
                case .checkbox:
                    if FormField.onWords.contains(waiting.lowercased()) {
                        cairo_set_line_width(cairo, max(1.5, rh * 0.12))
                        cairo_move_to(cairo, rx + rw * 0.2, ry + rh * 0.55)
                        cairo_line_to(cairo, rx + rw * 0.42, ry + rh * 0.78)
                        cairo_line_to(cairo, rx + rw * 0.8, ry + rh * 0.25)
                        cairo_stroke(cairo)
                    }
                case .radio:
                    if waiting == widget.state {
                        cairo_arc(cairo, rx + rw / 2, ry + rh / 2, min(rw, rh) * 0.25, 0, 2 * Double.pi)
                        cairo_fill(cairo)
                    }
                default:
                    cairo_save(cairo)
                    cairo_rectangle(cairo, rx, ry, rw, rh)
                    cairo_clip(cairo)
                    let size = min(12, max(6, b.height * 0.6)) * sy
                    cairo_select_font_face(cairo, "Helvetica", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
                    cairo_set_font_size(cairo, size)
                    cairo_move_to(cairo, rx + 2 * sx, ry + rh / 2 + size * 0.35)
                    cairo_show_text(cairo, waiting)
                    cairo_restore(cairo)
                }
            }
            // Fields a person can change are tinted, as other readers show them.
            cairo_set_source_rgba(cairo, 0.25, 0.5, 1, 0.14)
            if widget.field.kind == .radio {
                cairo_arc(cairo, rx + rw / 2, ry + rh / 2, min(rw, rh) / 2, 0, 2 * Double.pi)
            } else {
                cairo_rectangle(cairo, rx, ry, rw, rh)
            }
            cairo_fill(cairo)
            if let editing, editing.page == page, editing.widget.field.name == widget.field.name, editing.widget.box == widget.box {
                // The page moved under the editor (scrolled, zoomed, the bar shown): it follows.
                if var rect = pages.viewRect(page: page, box: widget.box), rect.x != pointing?.x || rect.y != pointing?.y || rect.width != pointing?.width {
                    pointing = rect
                    Signal.idle { [weak self] in
                        guard let self, self.editing != nil else { return }
                        gtk_popover_set_pointing_to(cast(self.popover), &rect)
                    }
                }
                cairo_set_source_rgb(cairo, 0.21, 0.52, 0.89)
                cairo_set_line_width(cairo, 2)
                cairo_rectangle(cairo, rx - 1, ry - 1, rw + 2, rh + 2)
                cairo_stroke(cairo)
            }
        }
    }
}
