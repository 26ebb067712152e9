import CGtk
import QuireRender

/// An archive's files in the window, to open one (Quick Look of an entry): a list that draws
/// only the rows in view (GtkListView: 100,000 entries scroll as smoothly as ten), sorted by
/// name, size or date with the buttons above it; Enter or a double click opens the chosen file
/// (``onOpen``), Esc goes back to the listing pages.
@MainActor
final class ArchiveEntriesView {
    enum SortKey: Int, CaseIterable {
        case name, size, date
        var title: String { ["Name", "Size", "Modified"][rawValue] }
    }

    let root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
    private let list = gtk_list_view_new(nil, nil)!
    private let countLabel = gtk_label_new(nil)!
    private var sortButtons: [UnsafeMutablePointer<GtkWidget>] = []
    private var entries: [ArchiveEntryFact] = []
    private var sortKey: SortKey = .name
    /// The list's selection model (GtkSingleSelection*), owned by the list view.
    private var selection: OpaquePointer?
    /// Called with the entry chosen.
    var onOpen: (ArchiveEntryFact) -> Void = { _ in }

    init() {
        gtk_widget_set_margin_start(root, 12)
        gtk_widget_set_margin_end(root, 12)
        gtk_widget_set_margin_top(root, 8)
        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        let sortLabel = gtk_label_new("Sort by")!
        gtk_box_append(cast(bar), sortLabel)
        let group = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_add_css_class(group, "linked")
        var first: UnsafeMutablePointer<GtkWidget>?
        for key in SortKey.allCases {
            let button = gtk_toggle_button_new_with_label(key.title)!
            Accessibility.setLabel(button, "Sort by \(key.title)")
            if let first { gtk_toggle_button_set_group(cast(button), cast(first)) } else { first = button }
            gtk_box_append(cast(group), button)
            sortButtons.append(button)
            Signal.connect(button, "toggled") { [unowned self] in
                if gtk_toggle_button_get_active(cast(button)) != 0 { self.sort(by: key) }
            }
        }
        gtk_box_append(cast(bar), group)
        gtk_widget_set_hexpand(countLabel, 1)
        gtk_label_set_xalign(cast(countLabel), 1)
        Accessibility.setLabel(countLabel, "Files in the archive")
        gtk_box_append(cast(bar), countLabel)
        gtk_box_append(cast(root), bar)

        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "setup") { item in
            let label = gtk_label_new(nil)!
            gtk_label_set_xalign(cast(label), 0)
            gtk_widget_add_css_class(label, "monospace")
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_MIDDLE)
            gtk_list_item_set_child(item, label)
        }
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "bind") { item in
            guard let child = gtk_list_item_get_child(item), let object = gtk_list_item_get_item(item) else { return }
            let text = gtk_string_object_get_string(OpaquePointer(object))
            gtk_label_set_text(cast(child), text)
            Accessibility.setLabel(child, text.map { String(cString: $0) } ?? "")
        }
        gtk_list_view_set_factory(cast(list), factory)
        g_object_unref(UnsafeMutableRawPointer(factory))
        Accessibility.setLabel(list, "Files in the archive")
        Signal.connectActivatePosition(list) { [unowned self] position in
            if self.entries.indices.contains(position) { self.onOpen(self.entries[position]) }
        }
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scroller), list)
        gtk_widget_set_vexpand(scroller, 1)
        gtk_box_append(cast(root), scroller)
    }

    /// Shows `entries` (an archive's files), sorted by the key chosen.
    func show(_ entries: [ArchiveEntryFact]) {
        self.entries = entries
        sort(by: sortKey)
        gtk_toggle_button_set_active(cast(sortButtons[sortKey.rawValue]), 1)
        gtk_widget_grab_focus(list)
    }

    /// Opens the selected file (Enter, whatever has the focus in the list).
    func activateSelected() {
        guard let selection else { return }
        let position = Int(gtk_single_selection_get_selected(selection))
        if entries.indices.contains(position) { onOpen(entries[position]) }
    }

    /// Moves the selection by `step` rows (the window's arrow keys), or to the first/last.
    func moveSelection(by step: Int) {
        guard let selection, !entries.isEmpty else { return }
        let current = Int(gtk_single_selection_get_selected(selection))
        let target = max(0, min(entries.count - 1, (current < entries.count ? current : 0) + step))
        gtk_single_selection_set_selected(selection, guint(target))
        // GTK 4.8 has no gtk_list_view_scroll_to: the list's own action scrolls the row into view.
        _ = gtk_widget_activate_action_variant(list, "list.scroll-to-item", g_variant_new_uint32(guint32(target)))
    }

    private func sort(by key: SortKey) {
        sortKey = key
        switch key {
        case .name: entries.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        case .size: entries.sort { ($0.size ?? -1, $1.path) > ($1.size ?? -1, $0.path) }
        case .date: entries.sort { ($0.modified ?? .min, $1.path) > ($1.modified ?? .min, $0.path) }
        }
        let rows = entries.map { entry -> String in
            let size = entry.size.map(ArchiveEntryFact.sizeText) ?? "—"
            return String(repeating: " ", count: max(0, 9 - size.count)) + size + "   " + (entry.modifiedText ?? "") + "   " + entry.path
        }
        let strings = rows.map { UnsafePointer(strdup($0)) } + [nil]
        let model = strings.withUnsafeBufferPointer { gtk_string_list_new($0.baseAddress) }
        for pointer in strings { free(UnsafeMutableRawPointer(mutating: pointer)) }
        // The selection takes the list (transfer full); the view takes its own reference.
        let selection = gtk_single_selection_new(model)
        gtk_list_view_set_model(cast(list), selection)
        g_object_unref(UnsafeMutableRawPointer(selection))
        self.selection = selection
        gtk_label_set_text(cast(countLabel), "\(entries.count) files, sorted by \(key.title.lowercased()) · Enter opens · Esc back")
        gtk_widget_grab_focus(list)
    }
}
