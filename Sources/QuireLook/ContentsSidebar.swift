import CGtk
import QuireRender
import QuireViewer

/// A book's table of contents beside its text (F9 or the header's sidebar button, as the page
/// thumbnails are for pages): its entries indented by level; a click or Enter goes to the
/// entry's line (``onChoose``); the entry the reader is in stays chosen as the text scrolls
/// (``follow(line:)``). An entry whose part is not shown (the text stopped at a limit) is
/// dimmed and cannot be chosen.
@MainActor
final class ContentsSidebar {
    let root = gtk_scrolled_window_new()!
    let list = gtk_list_box_new()!
    private var contents = TableOfContents()
    /// Called with the index of the entry chosen.
    var onChoose: (Int) -> Void = { _ in }
    /// Width of the column, in pixels.
    static let width: Int32 = 240

    init() {
        gtk_list_box_set_selection_mode(cast(list), GTK_SELECTION_SINGLE)
        gtk_list_box_set_activate_on_single_click(cast(list), 1)
        gtk_widget_add_css_class(list, "navigation-sidebar")
        Accessibility.setLabel(list, "Contents")
        gtk_scrolled_window_set_child(cast(root), list)
        gtk_scrolled_window_set_policy(cast(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(root, Self.width, -1)
        gtk_widget_add_css_class(root, "sidebar")
        gtk_widget_set_visible(root, 0)
        Signal.connectRowActivated(UnsafeMutableRawPointer(list)) { [unowned self] index in
            guard self.contents.entries.indices.contains(index) else { return }
            self.onChoose(index)
        }
    }

    var isShown: Bool { gtk_widget_get_visible(root) != 0 }

    func setShown(_ shown: Bool) {
        gtk_widget_set_visible(root, shown ? 1 : 0)
    }

    /// Lists `contents` (nothing is redone when they are the ones listed).
    func show(_ contents: TableOfContents) {
        guard contents != self.contents else { return }
        self.contents = contents
        while let row = gtk_widget_get_first_child(list) { gtk_list_box_remove(cast(list), row) }
        for entry in contents.entries {
            let label = gtk_label_new(entry.title)!
            gtk_label_set_xalign(cast(label), 0)
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
            gtk_widget_set_margin_start(label, Int32(6 + 14 * min(8, max(0, entry.level - 1))))
            if entry.level == 1 && !contents.isFromHeadings { gtk_widget_add_css_class(label, "heading") }
            let row = gtk_list_box_row_new()!
            gtk_list_box_row_set_child(cast(row), label)
            gtk_widget_set_tooltip_text(row, entry.line == nil ? "\(entry.title) (not in the text shown)" : entry.title)
            Accessibility.setLabel(row, entry.title)
            if entry.line == nil {
                gtk_widget_set_sensitive(row, 0)
                Accessibility.setDescription(row, "not in the text shown")
            }
            gtk_list_box_append(cast(list), row)
        }
    }

    /// Chooses the entry the reader at `line` is in (none before the first).
    func follow(line: Int) {
        guard let index = contents.entry(at: line), let row = gtk_list_box_get_row_at_index(cast(list), Int32(index)) else {
            gtk_list_box_unselect_all(cast(list))
            return
        }
        if gtk_list_box_get_selected_row(cast(list)) != row { gtk_list_box_select_row(cast(list), row) }
    }
}
