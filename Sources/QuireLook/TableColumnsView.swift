import CGtk

/// A table in the window as a spreadsheet's list: a GtkColumnView with one column per table
/// column (numbers right-aligned in tabular figures), its header row staying on top while the
/// rows scroll, drawing only the rows in view. Clicking a header sorts by that column (again:
/// the other way) — through ``onSort`` (the render worker sorts a delimited table) or here
/// (a database table's first rows). Rows are selected as in a file manager (Shift/Ctrl add);
/// ``copiedText`` gives them as tab-separated lines. Scrolling to the first or last row loaded
/// asks for the rows before or after (``onEdge``), as the terminal viewer does past its window.
@MainActor
final class TableColumnsView {
    enum Edge { case start, end }

    let root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    /// The column view (focus, accessibility).
    let view = gtk_column_view_new(nil)!
    private let scroller = gtk_scrolled_window_new()!
    private let statusLabel = gtk_label_new(nil)!
    private var columns: [OpaquePointer] = []
    private(set) var cells = TableCells(names: [], numeric: [], rows: [])
    /// The row each position shows (sorted here when ``sortsHere``).
    private var order: [Int] = []
    /// The view's selection model (a GtkMultiSelection over the rows), owned by the view.
    private var selection: OpaquePointer?
    /// The column and direction the rows are sorted by, as the headers show it.
    private(set) var sort: (column: Int, ascending: Bool)?
    /// Set while the view's sorter is changed here (restoring the headers), not by a click.
    private var settingSort = false
    /// An edge was reached and its rows asked for, or rows were just shown: no request until
    /// the user scrolls again (a new model starts at the top, which is no request for rows).
    private var edgeAsked = true
    /// The scroll position last seen (an edge counts only when moved towards).
    private var lastValue = 0.0

    /// Whether a click on a header sorts the rows here (else ``onSort`` is called).
    var sortsHere = false
    /// A header was clicked: sort by `column`, ascending or not (the headers already say so).
    var onSort: (_ column: Int, _ ascending: Bool) -> Void = { _, _ in }
    /// Rows before (`.start`) or after (`.end`) those loaded are wanted.
    var onEdge: (Edge) -> Void = { _ in }
    /// Whether rows exist before / after those loaded (a window of a large table).
    var hasRowsBefore = false
    var hasRowsAfter = false
    /// The accessible name of the rows ("Table rows", "Rows of customers").
    var label = "Table rows" { didSet { Accessibility.setLabel(view, label) } }

    /// Copies text (the clipboard and a toast: the window's), with what was copied ("cell").
    var onCopy: (_ text: String, _ what: String) -> Void = { _, _ in }
    /// The right-clicked cell's text, for the context menu's Copy Cell.
    private var clickedCell: String?
    private var menu: ContextMenu?

    init() {
        gtk_widget_add_css_class(view, "data-table")
        gtk_column_view_set_show_column_separators(cast(view), 1)
        gtk_column_view_set_reorderable(cast(view), 0)
        Accessibility.setLabel(view, label)
        gtk_scrolled_window_set_child(cast(scroller), view)
        gtk_scrolled_window_set_policy(cast(scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
        gtk_widget_add_css_class(scroller, "card")
        gtk_widget_set_vexpand(scroller, 1)
        gtk_widget_set_hexpand(scroller, 1)
        gtk_box_append(cast(root), scroller)
        gtk_widget_set_margin_start(root, 12)
        gtk_widget_set_margin_end(root, 12)
        gtk_widget_set_margin_top(root, 12)
        gtk_widget_set_margin_bottom(root, 6)

        gtk_label_set_xalign(cast(statusLabel), 0)
        gtk_label_set_ellipsize(cast(statusLabel), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(statusLabel, "dim-label")
        gtk_widget_add_css_class(statusLabel, "caption")
        gtk_widget_set_margin_top(statusLabel, 6)
        Accessibility.setLabel(statusLabel, "Table status")
        gtk_box_append(cast(root), statusLabel)

        if let sorter = gtk_column_view_get_sorter(cast(view)) {
            // After GTK has updated the headers' sort indicators for the click.
            Signal.connectIgnoringArgument(UnsafeMutableRawPointer(sorter), "changed") { [unowned self] in
                guard !self.settingSort else { return }
                Signal.idle { [weak self] in self?.headerClicked() }
            }
        }
        if let adjustment = gtk_scrolled_window_get_vadjustment(cast(scroller)) {
            Signal.connect(UnsafeMutableRawPointer(adjustment), "value-changed") { [unowned self] in self.scrolled() }
        }
        makeContextMenu()
    }

    // MARK: Context menu

    /// A right click on a cell: Copy Cell (its text as shown), Copy Selected Rows.
    private func makeContextMenu() {
        menu = ContextMenu(on: view, prefix: "table", items: [
            .init(label: "Copy Cell", name: "copy-cell") { [unowned self] in
                if let text = self.clickedCell { self.onCopy(text, "cell") }
            },
            .init(label: "Copy Selected Rows", name: "copy-rows") { [unowned self] in
                if let text = self.copiedText { self.onCopy(text, self.selectedCount == 1 ? "1 row" : "\(self.selectedCount) rows") }
            },
        ]) { [unowned self] x, y in self.openMenu(x: x, y: y) }
    }

    /// Whether the context menu is open (it reads its own keys).
    var isMenuOpen: Bool { menu?.isOpen ?? false }

    private func openMenu(x: Double, y: Double) {
        guard let menu else { return }
        clickedCell = nil
        var widget = gtk_widget_pick(view, x, y, GTK_PICK_DEFAULT)
        // The cell's label, or the label inside the cell under the pointer.
        while let current = widget, current != view {
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_label_get_type()) != 0 {
                clickedCell = String(cString: gtk_label_get_text(cast(current)))
                break
            }
            if let child = gtk_widget_get_first_child(current),
               g_type_check_instance_is_a(UnsafeMutableRawPointer(child).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_label_get_type()) != 0, gtk_widget_get_next_sibling(child) == nil {
                clickedCell = String(cString: gtk_label_get_text(cast(child)))
                break
            }
            widget = gtk_widget_get_parent(current)
        }
        menu.popup(x: x, y: y)
    }

    /// Shows `cells`, sorted as `sort` says (the worker's order, or sorted here), the row at
    /// position `top` scrolled into view.
    func show(_ cells: TableCells, sort: (column: Int, ascending: Bool)?, top: Int? = nil, status: String) {
        let sameColumns = cells.names == self.cells.names && !columns.isEmpty
        self.cells = cells
        if !sameColumns { rebuildColumns() }
        setWidths(growingOnly: sameColumns)
        self.sort = sort
        order = Array(0..<cells.rowCount)
        if sortsHere, let sort { sortRows(by: sort.column, ascending: sort.ascending) }
        setModel()
        showSortInHeaders()
        gtk_label_set_text(cast(statusLabel), status)
        Accessibility.setDescription(statusLabel, status)
        edgeAsked = true
        if let top, top > 0 { scroll(to: top) }
        Signal.timeout(milliseconds: 400) { [weak self] in
            guard let self else { return }
            if let adjustment = gtk_scrolled_window_get_vadjustment(cast(self.scroller)) { self.lastValue = gtk_adjustment_get_value(adjustment) }
            self.edgeAsked = false
        }
    }

    /// The selected rows as tab-separated lines (cells as shown), nil when none is selected.
    var copiedText: String? {
        guard let selection else { return nil }
        var lines: [String] = []
        for position in order.indices where gtk_selection_model_is_selected(selection, guint(position)) != 0 {
            lines.append(cells.row(order[position]).joined(separator: "\t"))
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// How many rows are selected.
    var selectedCount: Int {
        guard let selection else { return 0 }
        return order.indices.filter { gtk_selection_model_is_selected(selection, guint($0)) != 0 }.count
    }

    /// Scrolls row `position` (of those shown) into view and selects it.
    func scroll(to position: Int) {
        guard !order.isEmpty, let list = WidgetTree.innerList(of: view) else { return }
        let target = max(0, min(order.count - 1, position))
        if target >= Self.firstRows { addRemainingRows() }
        _ = gtk_widget_activate_action_variant(list, "list.scroll-to-item", g_variant_new_uint32(guint32(target)))
    }

    /// Selects row `position` (of those shown) alone and scrolls it into view (a search's match).
    func select(_ position: Int) {
        guard let selection, order.indices.contains(position) else { return }
        if position >= Self.firstRows { addRemainingRows() }
        _ = gtk_selection_model_select_item(selection, guint(position), 1)
        scroll(to: position)
    }

    // MARK: Columns

    private func rebuildColumns() {
        for column in columns { gtk_column_view_remove_column(cast(view), column) }
        columns = []
        for (index, name) in cells.names.enumerated() {
            let column = gtk_column_view_column_new(name.isEmpty ? "Column \(index + 1)" : name, factory(for: index))!
            gtk_column_view_column_set_resizable(column, 1)
            // A sorter without a function: the header is clickable and shows the order; the
            // rows are ordered by the worker or by ``sortRows``, not by GTK.
            let sorter = gtk_custom_sorter_new(nil, nil, nil)!
            gtk_column_view_column_set_sorter(column, UnsafeMutableRawPointer(sorter).assumingMemoryBound(to: GtkSorter.self))
            g_object_unref(UnsafeMutableRawPointer(sorter))
            gtk_column_view_append_column(cast(view), column)
            columns.append(column)
            g_object_unref(UnsafeMutableRawPointer(column))
        }
        for (title, name) in zip(WidgetTree.columnHeaders(of: view), cells.names) { Accessibility.setLabel(title, name.isEmpty ? "Column" : name) }
    }

    /// Fixed widths from the cells, as the terminal's columns: a column keeps its width while
    /// the rows scroll (GTK would measure only the rows in view). A delimited table's widths
    /// are the worker's for its window (its column starts); a later window only widens them.
    private func setWidths(growingOnly: Bool) {
        let digit = characterWidth()
        for (index, column) in columns.enumerated() {
            var characters = cells.names[index].count
            if cells.starts.indices.contains(index + 1) {
                characters = max(characters, cells.starts[index + 1] - cells.starts[index] - 3)
            } else {
                for row in 0..<min(500, cells.rowCount) { characters = max(characters, cells.cell(row, index).count) }
            }
            var width = Int32(max(56, min(480, min(characters, 48) * digit + 28)))
            if growingOnly { width = max(width, gtk_column_view_column_get_fixed_width(column)) }
            gtk_column_view_column_set_fixed_width(column, width)
        }
    }

    /// The width of a character of the view's font (a digit's, as tabular figures are).
    private func characterWidth() -> Int {
        guard let layout = gtk_widget_create_pango_layout(view, "0123456789") else { return 8 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var width: Int32 = 0, height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return max(6, Int(width + 9) / 10)
    }

    private func factory(for column: Int) -> OpaquePointer {
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "setup") { item in
            let label = gtk_label_new(nil)!
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
            gtk_label_set_max_width_chars(cast(label), 48)
            gtk_label_set_single_line_mode(cast(label), 1)
            gtk_list_item_set_child(item, label)
        }
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "bind") { [unowned self] item in
            guard let label = gtk_list_item_get_child(item) else { return }
            let position = Int(gtk_list_item_get_position(item))
            guard self.order.indices.contains(position) else { return }
            let text = self.cells.cell(self.order[position], column)
            gtk_label_set_text(cast(label), text)
            let numeric = column < self.cells.numeric.count && self.cells.numeric[column]
            gtk_label_set_xalign(cast(label), numeric ? 1 : 0)
            if numeric { gtk_widget_add_css_class(label, "numeric") } else { gtk_widget_remove_css_class(label, "numeric") }
        }
        return factory
    }

    /// How many rows a new model starts with: a screen's worth (a tall window shows about 40),
    /// the rest added once that frame is on screen. GTK 4.8's list view makes a row of widgets
    /// for up to 200 items at once: for a window of thousands of rows that is ~1,200 labels
    /// laid out before the first frame (100 ms and more), for 64 it is a third of that.
    static let firstRows = 64
    /// The model's list of positions (owned by ``selection``) and which model it is.
    private var positions: OpaquePointer?
    private var modelGeneration = 0

    /// The rows as a list of positions (strings: the list model GTK 4.8 has for plain items):
    /// the first ``firstRows`` at once, the rest after the next frame was drawn.
    private func setModel() {
        let first = min(order.count, Self.firstRows)
        let list = Self.positionList(0..<first)
        let selection = gtk_multi_selection_new(list)  // takes the list
        gtk_column_view_set_model(cast(view), selection)
        g_object_unref(UnsafeMutableRawPointer(selection))
        self.selection = selection
        positions = list
        modelGeneration += 1
        guard first < order.count else { return }
        let generation = modelGeneration
        Signal.afterNextFrame(of: view) { [weak self] in
            guard let self, self.modelGeneration == generation else { return }
            self.addRemainingRows()
        }
    }

    /// Adds the rows a new model did not start with (at once when one of them is wanted now).
    private func addRemainingRows() {
        guard let positions else { return }
        let count = Int(g_list_model_get_n_items(positions))
        guard count < order.count else { return }
        GtkStrings.with((count..<order.count).map(String.init)) { gtk_string_list_splice(positions, guint(count), 0, $0) }
    }

    private static func positionList(_ range: Range<Int>) -> OpaquePointer {
        GtkStrings.list(range.map(String.init))
    }

    // MARK: Sorting

    /// A header was clicked: the column and direction its indicator now shows.
    private func headerClicked() {
        var clicked: (Int, Bool)?
        for (index, title) in WidgetTree.columnHeaders(of: view).enumerated() {
            if let ascending = WidgetTree.sortDirection(below: title) { clicked = (index, ascending); break }
        }
        guard let (column, ascending) = clicked, column < cells.names.count else { return }
        if let sort, sort.column == column, sort.ascending == ascending { return }
        sort = (column, ascending)
        describeSortInHeaders()
        if sortsHere {
            sortRows(by: column, ascending: ascending)
            setModel()
        } else {
            onSort(column, ascending)
        }
    }

    /// The headers' indicators set to ``sort`` (a table shown again, sorted by the worker).
    private func showSortInHeaders() {
        settingSort = true
        if let sort, columns.indices.contains(sort.column) {
            gtk_column_view_sort_by_column(cast(view), columns[sort.column], sort.ascending ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING)
        } else {
            gtk_column_view_sort_by_column(cast(view), nil, GTK_SORT_ASCENDING)
        }
        settingSort = false
        describeSortInHeaders()
    }

    private func describeSortInHeaders() {
        for (index, title) in WidgetTree.columnHeaders(of: view).enumerated() where index < cells.names.count {
            let description: String
            if let sort, sort.column == index {
                description = "Sorted \(sort.ascending ? "ascending" : "descending"); click to reverse"
            } else {
                description = "Click to sort by \(cells.names[index])"
            }
            Accessibility.setDescription(title, description)
        }
    }

    /// Orders the rows by `column`: numbers as numbers, text as written; empty cells last.
    private func sortRows(by column: Int, ascending: Bool) {
        let numeric = column < cells.numeric.count && cells.numeric[column]
        let keys = (0..<cells.rowCount).map { cells.cell($0, column) }
        let numbers = numeric ? keys.map { Double($0.filter { $0 != " " && $0 != "," }) } : []
        order = keys.indices.sorted { a, b in
            let x = keys[a], y = keys[b]
            if x.isEmpty != y.isEmpty { return y.isEmpty }
            if numeric, let p = numbers[a], let q = numbers[b], p != q { return ascending ? p < q : p > q }
            if x != y { return ascending ? x < y : x > y }
            return a < b
        }
    }

    // MARK: Scrolling past the rows loaded

    private func scrolled() {
        guard let adjustment = gtk_scrolled_window_get_vadjustment(cast(scroller)) else { return }
        let value = gtk_adjustment_get_value(adjustment), page = gtk_adjustment_get_page_size(adjustment)
        let upper = gtk_adjustment_get_upper(adjustment)
        let previous = lastValue
        lastValue = value
        guard !edgeAsked, upper > page else { return }
        if hasRowsAfter && value > previous && value + page >= upper - 1 {
            edgeAsked = true
            onEdge(.end)
        } else if hasRowsBefore && value < previous && value <= page / 4 {
            edgeAsked = true
            onEdge(.start)
        }
    }

}
