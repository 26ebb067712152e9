import CGtk

/// Asked at Done when another program changed the file since the window opened it: Cancel
/// (nothing is written; the changes stay), Save a Copy… (into a new file), or Save Over It (the
/// file is read again as it is now and the changes are saved into that).
@MainActor
final class ChangedFileDialog {
    enum Choice { case cancel, saveCopy, saveOver }

    private let window = gtk_window_new()!
    private let cancelButton = Accessibility.textButton("Cancel")
    private let copyButton = Accessibility.textButton("Save a Copy…")
    private let overButton = Accessibility.textButton("Save Over It")
    private let done: (Choice) -> Void
    private var closed = false

    /// `done` is called once, with what was chosen (closing the window is Cancel).
    init(parent: UnsafeMutablePointer<GtkWidget>, fileName: String, done: @escaping (Choice) -> Void) {
        self.done = done
        ModalDialog.configure(window, title: "File Changed on Disk", parent: parent)
        let box = ModalDialog.column(hint: "“\(fileName)” was changed by another program since it was opened. Save Over It reads "
                                     + "it again as it is now and saves your changes into that; Save a Copy… leaves it as it is.", width: 48)
        gtk_widget_set_tooltip_text(overButton, "Read the file again as it is now, then save the changes into it")
        ModalDialog.addButtons([cancelButton, copyButton, overButton], to: box)
        gtk_window_set_child(cast(window), box)
        Signal.connect(cancelButton, "clicked") { [unowned self] in self.finish(.cancel, destroy: true) }
        Signal.connect(copyButton, "clicked") { [unowned self] in self.finish(.saveCopy, destroy: true) }
        Signal.connect(overButton, "clicked") { [unowned self] in self.finish(.saveOver, destroy: true) }
        Signal.connectReturning(window, "close-request") { [unowned self] in
            self.finish(.cancel, destroy: false)
            return false
        }
    }

    func present() {
        gtk_window_present(cast(window))
        gtk_widget_grab_focus(cancelButton)
    }

    private func finish(_ choice: Choice, destroy: Bool) {
        guard !closed else { return }
        closed = true
        if destroy { gtk_window_destroy(cast(window)) }
        done(choice)
    }
}
