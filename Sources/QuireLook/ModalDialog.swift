import CGtk

/// What Markup's small dialogs (the signature pad, the certificate choice) share: a fixed-size
/// modal window over the viewer, and their content as a column with a margin, a wrapped hint on
/// top and the buttons at the bottom right.
@MainActor
enum ModalDialog {
    /// `window` made modal over `parent`, titled, not resizable.
    static func configure(_ window: UnsafeMutablePointer<GtkWidget>, title: String, parent: UnsafeMutablePointer<GtkWidget>) {
        gtk_window_set_title(cast(window), title)
        gtk_window_set_transient_for(cast(window), cast(parent))
        gtk_window_set_modal(cast(window), 1)
        gtk_window_set_resizable(cast(window), 0)
    }

    /// The dialog's column, 16 pixels in from its edges, with `hint` wrapped at `width` characters.
    static func column(hint: String, width: Int32) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 10)!
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(box, 16)
        }
        let label = gtk_label_new(hint)!
        gtk_label_set_wrap(cast(label), 1)
        gtk_label_set_max_width_chars(cast(label), width)
        gtk_box_append(cast(box), label)
        return box
    }

    /// `buttons` in a row at the bottom right of `column`, the last one suggested.
    static func addButtons(_ buttons: [UnsafeMutablePointer<GtkWidget>], to column: UnsafeMutablePointer<GtkWidget>) {
        let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(row, GTK_ALIGN_END)
        if let last = buttons.last { gtk_widget_add_css_class(last, "suggested-action") }
        for button in buttons { gtk_box_append(cast(row), button) }
        gtk_box_append(cast(column), row)
    }
}
