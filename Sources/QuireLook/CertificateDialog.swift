import CGtk
import QuireViewer

/// Markup's Sign with Certificate… dialog, after the box was dragged on the page: which
/// certificate (those in `~/.pki/nssdb` that can sign), why (saved as the signature's reason)
/// and the key database's password when it has one; Sign hands them back, Cancel (or closing
/// the window) nothing.
@MainActor
final class CertificateDialog {
    struct Choice {
        let nickname: String
        let reason: String?
        let password: String?
    }

    private let window = gtk_window_new()!
    private let certificateChoice: UnsafeMutablePointer<GtkWidget>
    private let reasonEntry = gtk_entry_new()!
    private let passwordEntry = gtk_password_entry_new()!
    private let cancelButton = Accessibility.textButton("Cancel")
    private let signButton = Accessibility.textButton("Sign Document")
    private let nicknames: [String]
    private let done: (Choice?) -> Void
    private var closed = false

    /// `done` is called once: with the choice (Sign), or nil.
    init(parent: UnsafeMutablePointer<GtkWidget>, nicknames: [String], done: @escaping (Choice?) -> Void) {
        self.nicknames = nicknames
        self.done = done
        certificateChoice = GtkStrings.with(nicknames) { gtk_drop_down_new_from_strings($0) }!
        ModalDialog.configure(window, title: "Sign with Certificate", parent: parent)
        build()
        connect()
    }

    func present() {
        gtk_window_present(cast(window))
        gtk_widget_grab_focus(reasonEntry)
    }

    private func build() {
        let box = ModalDialog.column(hint: "A digital signature: readers check that the document has not changed since. "
                                     + "It is saved into the file at once (Revert takes it back).", width: 44)
        let grid = gtk_grid_new()!
        gtk_grid_set_row_spacing(cast(grid), 8)
        gtk_grid_set_column_spacing(cast(grid), 12)
        Accessibility.nameDropDownButton(certificateChoice, "Certificate")
        Accessibility.setLabel(certificateChoice, "Certificate")
        gtk_entry_set_placeholder_text(cast(reasonEntry), "Optional")
        Accessibility.setLabel(reasonEntry, "Reason")
        Accessibility.setLabel(passwordEntry, "Key Password")
        gtk_password_entry_set_show_peek_icon(OpaquePointer(passwordEntry), 1)
        gtk_widget_set_tooltip_text(passwordEntry, "The password of the certificate database's keys, if it has one")
        for (row, (title, widget)) in [("Certificate", certificateChoice), ("Reason", reasonEntry), ("Key password", passwordEntry)].enumerated() {
            let label = gtk_label_new(title)!
            gtk_widget_set_halign(label, GTK_ALIGN_END)
            gtk_grid_attach(cast(grid), label, 0, Int32(row), 1, 1)
            gtk_widget_set_hexpand(widget, 1)
            gtk_grid_attach(cast(grid), widget, 1, Int32(row), 1, 1)
        }
        gtk_box_append(cast(box), grid)
        gtk_widget_set_tooltip_text(signButton, "Sign the document with this certificate and save it")
        ModalDialog.addButtons([cancelButton, signButton], to: box)
        gtk_window_set_child(cast(window), box)
    }

    private func connect() {
        Signal.connect(cancelButton, "clicked") { [unowned self] in self.finish(nil, destroy: true) }
        Signal.connect(signButton, "clicked") { [unowned self] in self.finish(self.choice, destroy: true) }
        Signal.connect(reasonEntry, "activate") { [unowned self] in self.finish(self.choice, destroy: true) }
        Signal.connect(passwordEntry, "activate") { [unowned self] in self.finish(self.choice, destroy: true) }
        Signal.connectReturning(window, "close-request") { [unowned self] in
            self.finish(nil, destroy: false)
            return false
        }
    }

    private var choice: Choice? {
        let index = Int(gtk_drop_down_get_selected(OpaquePointer(certificateChoice)))
        guard nicknames.indices.contains(index) else { return nil }
        func text(_ widget: UnsafeMutablePointer<GtkWidget>) -> String? {
            gtk_editable_get_text(OpaquePointer(widget)).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return Choice(nickname: nicknames[index], reason: text(reasonEntry), password: text(passwordEntry))
    }

    private func finish(_ choice: Choice?, destroy: Bool) {
        guard !closed else { return }
        closed = true
        if destroy { gtk_window_destroy(cast(window)) }
        done(choice)
    }
}
