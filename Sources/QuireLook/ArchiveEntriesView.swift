import CGtk
import QuireRender

/// An archive's files in the window, to open one (Quick Look of an entry): a column view as a
/// file manager's list view — Name (the type's icon, the folder dimmed before the file's name),
/// Size (right-aligned), Modified — that draws only the rows in view (100,000 entries scroll
/// as smoothly as ten) and sorts by the column whose header is clicked (again: the other way).
/// Enter or a double click opens the chosen file (``onOpen``), Esc goes back to the listing.
@MainActor
final class ArchiveEntriesView {
    enum SortKey: Int, CaseIterable {
        case name, size, date
        var title: String { ["Name", "Size", "Modified"][rawValue] }
    }

    let root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    private let view = gtk_column_view_new(nil)!
    private let countLabel = gtk_label_new(nil)!
    private var columns: [OpaquePointer] = []
    private var entries: [ArchiveEntryFact] = []
    /// Each entry's place in ascending order by each key (`ranks[key][index]`): the columns'
    /// sorters compare these, so a click on a header sorts 100,000 rows without reading paths.
    private var ranks: [[Int32]] = []
    /// The view's selection model (GtkSingleSelection* over the sorted list), owned by the view.
    private var selection: OpaquePointer?
    /// Called with the entry chosen.
    var onOpen: (ArchiveEntryFact) -> Void = { _ in }

    init() {
        gtk_widget_set_margin_start(root, 12)
        gtk_widget_set_margin_end(root, 12)
        gtk_widget_set_margin_top(root, 12)
        gtk_widget_set_margin_bottom(root, 6)

        gtk_widget_add_css_class(view, "data-table")
        Accessibility.setLabel(view, "Files in the archive")
        for key in SortKey.allCases {
            let column = gtk_column_view_column_new(key.title, factory(for: key))!
            gtk_column_view_column_set_resizable(column, 1)
            if key == .name { gtk_column_view_column_set_expand(column, 1) }
            let sorter = gtk_custom_sorter_new(Self.compare, Self.retain { [unowned self] a, b in self.order(a, b, by: key) },
                                               Self.release)!
            gtk_column_view_column_set_sorter(column, UnsafeMutableRawPointer(sorter).assumingMemoryBound(to: GtkSorter.self))
            g_object_unref(UnsafeMutableRawPointer(sorter))
            gtk_column_view_append_column(cast(view), column)
            columns.append(column)
            g_object_unref(UnsafeMutableRawPointer(column))
        }
        nameHeaders()
        if let sorter = gtk_column_view_get_sorter(cast(view)) {
            // After GTK has updated the headers' sort indicators for the click.
            Signal.connectIgnoringArgument(UnsafeMutableRawPointer(sorter), "changed") { [unowned self] in
                Signal.idle { [weak self] in self?.describeSort() }
            }
        }
        Signal.connectActivatePosition(view) { [unowned self] position in
            if let entry = self.entry(at: position) { self.onOpen(entry) }
        }
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scroller), view)
        gtk_scrolled_window_set_policy(cast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_add_css_class(scroller, "card")
        gtk_widget_set_vexpand(scroller, 1)
        gtk_box_append(cast(root), scroller)

        gtk_label_set_xalign(cast(countLabel), 0)
        gtk_widget_add_css_class(countLabel, "dim-label")
        gtk_widget_add_css_class(countLabel, "caption")
        gtk_widget_set_margin_top(countLabel, 6)
        Accessibility.setLabel(countLabel, "Files in the archive")
        gtk_box_append(cast(root), countLabel)
    }

    /// Shows `entries` (an archive's files), sorted by the column chosen (by name at first).
    func show(_ entries: [ArchiveEntryFact]) {
        let firstTime = self.entries.isEmpty && selection == nil
        self.entries = entries
        ranks = SortKey.allCases.map { Self.ranks(of: entries, by: $0) }
        // The rows are the entries' indices; the view's own sorter (its clicked column) orders them.
        let list = GtkStrings.list(entries.indices.map(String.init))
        let sorter = gtk_column_view_get_sorter(cast(view))
        if let sorter { g_object_ref(UnsafeMutableRawPointer(sorter)) }
        // Each model takes the one below (transfer full); the view takes its own reference.
        let sorted = gtk_sort_list_model_new(list, sorter)
        let selection = gtk_single_selection_new(sorted)
        gtk_column_view_set_model(cast(view), selection)
        g_object_unref(UnsafeMutableRawPointer(selection))
        self.selection = selection
        if firstTime { gtk_column_view_sort_by_column(cast(view), columns[SortKey.name.rawValue], GTK_SORT_ASCENDING) }
        describeSort()
        gtk_widget_grab_focus(view)
    }

    /// Opens the selected file (Enter, whatever has the focus in the list).
    func activateSelected() {
        guard let selection else { return }
        if let entry = entry(at: Int(gtk_single_selection_get_selected(selection))) { onOpen(entry) }
    }

    /// Moves the selection by `step` rows (the window's arrow keys), or to the first/last.
    func moveSelection(by step: Int) {
        guard let selection, !entries.isEmpty else { return }
        let current = Int(gtk_single_selection_get_selected(selection))
        let target = max(0, min(entries.count - 1, (current < entries.count ? current : 0) + step))
        gtk_single_selection_set_selected(selection, guint(target))
        // GTK 4.8 has no gtk_column_view_scroll_to: the inner list view's action scrolls the row into view.
        if let list = WidgetTree.innerList(of: view) {
            _ = gtk_widget_activate_action_variant(list, "list.scroll-to-item", g_variant_new_uint32(guint32(target)))
        }
    }

    /// GTK 4.8 leaves the header buttons unnamed (the title is a label inside): each is named
    /// after its column, as a screen reader should say it.
    private func nameHeaders() {
        for (title, key) in zip(WidgetTree.columnHeaders(of: view), SortKey.allCases) { Accessibility.setLabel(title, key.title) }
    }

    /// The column the rows are sorted by and which way, from the headers' sort indicators (the
    /// CSS nodes `sort-indicator.ascending`/`.descending`: GTK 4.8 has no getter for the
    /// column view's primary sort column); said in each header's accessible description and
    /// under the list.
    private func describeSort() {
        var sorted: (SortKey, ascending: Bool)?
        for (title, key) in zip(WidgetTree.columnHeaders(of: view), SortKey.allCases) {
            let direction = WidgetTree.sortDirection(below: title)
            if let direction, sorted == nil { sorted = (key, direction) }
            Accessibility.setDescription(title, direction.map { "Sorted \($0 ? "ascending" : "descending"); click to reverse" }
                                         ?? "Click to sort by \(key.title.lowercased())")
        }
        let count = entries.count == 1 ? "1 file" : "\(entries.count) files"
        var order = ""
        if let (key, ascending) = sorted {
            let way: String
            switch key {
            case .name: way = ascending ? "A to Z" : "Z to A"
            case .size: way = ascending ? "smallest first" : "largest first"
            case .date: way = ascending ? "oldest first" : "newest first"
            }
            order = ", sorted by \(key.title.lowercased()) (\(way))"
        }
        gtk_label_set_text(cast(countLabel), "\(count)\(order) · Enter or a double click opens one · Esc goes back")
    }

    /// The entry shown in row `position` (of the sorted list).
    private func entry(at position: Int) -> ArchiveEntryFact? {
        guard let selection, position >= 0, let item = g_list_model_get_item(selection, guint(position)) else { return nil }
        defer { g_object_unref(item) }
        guard let text = gtk_string_object_get_string(OpaquePointer(item)) else { return nil }
        let index = Int(atoi(text))
        return entries.indices.contains(index) ? entries[index] : nil
    }

    // MARK: Cells

    /// The factory drawing one column's cells.
    private func factory(for key: SortKey) -> OpaquePointer {
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "setup") { item in
            let label = gtk_label_new(nil)!
            switch key {
            case .name:
                let row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
                let icon = gtk_image_new()!
                gtk_image_set_icon_size(cast(icon), GTK_ICON_SIZE_NORMAL)
                gtk_box_append(cast(row), icon)
                gtk_label_set_xalign(cast(label), 0)
                gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_MIDDLE)
                gtk_widget_set_hexpand(label, 1)
                gtk_box_append(cast(row), label)
                gtk_list_item_set_child(item, row)
            case .size:
                gtk_label_set_xalign(cast(label), 1)
                gtk_widget_add_css_class(label, "numeric")
                gtk_list_item_set_child(item, label)
            case .date:
                gtk_label_set_xalign(cast(label), 0)
                gtk_widget_add_css_class(label, "numeric")
                gtk_list_item_set_child(item, label)
            }
        }
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "bind") { [unowned self] item in
            guard let child = gtk_list_item_get_child(item), let object = gtk_list_item_get_item(item),
                  let text = gtk_string_object_get_string(OpaquePointer(object)) else { return }
            let index = Int(atoi(text))
            guard self.entries.indices.contains(index) else { return }
            let entry = self.entries[index]
            switch key {
            case .name:
                guard let icon = gtk_widget_get_first_child(child), let label = gtk_widget_get_next_sibling(icon) else { return }
                Self.showIcon(icon, for: entry)
                gtk_label_set_markup(cast(label), Self.nameMarkup(entry.path))
                Accessibility.setLabel(label, entry.path)
            case .size:
                let size = entry.size.map(ArchiveEntryFact.sizeText) ?? "—"
                gtk_label_set_text(cast(child), size)
                Accessibility.setLabel(child, entry.size == nil ? "size unknown" : size)
            case .date:
                let date = entry.modifiedText ?? "—"
                gtk_label_set_text(cast(child), date)
                Accessibility.setLabel(child, entry.modifiedText ?? "date unknown")
            }
        }
        return factory
    }

    /// The entry's type icon, as a file manager shows it: a folder for a folder, else GIO's
    /// icon for the content type its name suggests (the entry is not read to show the list).
    private static func showIcon(_ image: UnsafeMutablePointer<GtkWidget>, for entry: ArchiveEntryFact) {
        if entry.path.hasSuffix("/") {
            gtk_image_set_from_icon_name(cast(image), "folder")
            return
        }
        var uncertain: gboolean = 0
        let type = g_content_type_guess(entry.name, nil, 0, &uncertain)
        defer { g_free(type) }
        TypeIcon.show(image, mimeType: type.map { String(cString: $0) }, fallback: "text-x-generic")
    }

    /// "folder/" dimmed, then the file's own name: the path stays whole, the name stands out.
    static func nameMarkup(_ path: String) -> String {
        func escaped(_ text: some StringProtocol) -> String {
            guard let pointer = g_markup_escape_text(String(text), -1) else { return "" }
            defer { g_free(pointer) }
            return String(cString: pointer)
        }
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return escaped(path) }
        let folder = path[...slash], name = path[path.index(after: slash)...]
        return "<span alpha=\"55%\">\(escaped(folder))</span>\(escaped(name))"
    }

    // MARK: Sorting

    /// Each entry's rank in ascending order by `key`: name (bytes), size or date (unknown
    /// first), ties by name.
    private static func ranks(of entries: [ArchiveEntryFact], by key: SortKey) -> [Int32] {
        let order: [Int]
        switch key {
        case .name: order = entries.indices.sorted { entries[$0].path.utf8.lexicographicallyPrecedes(entries[$1].path.utf8) }
        case .size: order = entries.indices.sorted {
            let a = entries[$0], b = entries[$1]
            if (a.size ?? -1) != (b.size ?? -1) { return (a.size ?? -1) < (b.size ?? -1) }
            return a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
        }
        case .date: order = entries.indices.sorted {
            let a = entries[$0], b = entries[$1]
            if (a.modified ?? .min) != (b.modified ?? .min) { return (a.modified ?? .min) < (b.modified ?? .min) }
            return a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
        }
        }
        var ranks = [Int32](repeating: 0, count: entries.count)
        for (rank, index) in order.enumerated() { ranks[index] = Int32(rank) }
        return ranks
    }

    /// GtkOrdering of the rows holding entries `a` and `b` (their indices) by `key`.
    private func order(_ a: Int, _ b: Int, by key: SortKey) -> Int32 {
        let table = ranks[key.rawValue]
        guard table.indices.contains(a), table.indices.contains(b) else { return 0 }
        return table[a] < table[b] ? -1 : table[a] > table[b] ? 1 : 0
    }

    private final class Comparison {
        let function: @MainActor (Int, Int) -> Int32
        init(_ function: @escaping @MainActor (Int, Int) -> Int32) { self.function = function }
    }

    private static func retain(_ function: @escaping @MainActor (Int, Int) -> Int32) -> gpointer {
        Unmanaged.passRetained(Comparison(function)).toOpaque()
    }

    private static let release: GDestroyNotify = { data in
        guard let data else { return }
        Unmanaged<Comparison>.fromOpaque(data).release()
    }

    /// A GtkCustomSorter's function: two rows (string objects holding entry indices).
    private static let compare: GCompareDataFunc = { a, b, data in
        guard let a, let b, let data,
              let first = gtk_string_object_get_string(OpaquePointer(a)),
              let second = gtk_string_object_get_string(OpaquePointer(b)) else { return 0 }
        let (x, y) = (Int(atoi(first)), Int(atoi(second)))
        // As an address: a pointer is not Sendable across the isolation check.
        let address = UInt(bitPattern: data)
        return MainActor.assumeIsolated {
            Unmanaged<Comparison>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue().function(x, y)
        }
    }
}
