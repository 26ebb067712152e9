import CGtk
import QuireRender
import QuireRenderService
import QuireViewer

/// An SQLite database in the window: its tables and views listed on the left (name, then what
/// it is: "table · 1,204 rows"), the chosen one's first rows on the right as a column view
/// (``TableColumnsView``, sorted here by a click on a header), its heading and columns above
/// them. The rows come from the render worker (``onChoose`` reads them); nothing is written.
@MainActor
final class DatabaseBrowser {
    let root = gtk_paned_new(GTK_ORIENTATION_HORIZONTAL)!
    let tableList = gtk_list_box_new()!
    let table = TableColumnsView()
    private let heading = gtk_label_new(nil)!
    private var entries: [ArchiveEntryFact] = []
    /// The table shown (an index into the entries).
    private(set) var chosen: Int?
    /// Reads a table's lines (``DatabaseText``) from the worker.
    var onChoose: (ArchiveEntryFact) -> Result<[String], RenderProblem> = { _ in .success([]) }

    init() {
        gtk_list_box_set_selection_mode(cast(tableList), GTK_SELECTION_BROWSE)
        gtk_widget_add_css_class(tableList, "navigation-sidebar")
        Accessibility.setLabel(tableList, "Tables")
        let listScroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(listScroller), tableList)
        gtk_scrolled_window_set_policy(cast(listScroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_widget_set_size_request(listScroller, 200, -1)
        gtk_paned_set_start_child(cast(root), listScroller)
        gtk_paned_set_resize_start_child(cast(root), 0)
        gtk_paned_set_shrink_start_child(cast(root), 0)

        let right = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_label_set_xalign(cast(heading), 0)
        gtk_label_set_wrap(cast(heading), 1)
        gtk_label_set_selectable(cast(heading), 1)
        gtk_widget_set_margin_start(heading, 12)
        gtk_widget_set_margin_end(heading, 12)
        gtk_widget_set_margin_top(heading, 12)
        Accessibility.setLabel(heading, "Table")
        gtk_box_append(cast(right), heading)
        table.sortsHere = true
        gtk_box_append(cast(right), table.root)
        gtk_paned_set_end_child(cast(root), right)
        gtk_paned_set_position(cast(root), 220)
        Signal.connectRowSelected(UnsafeMutableRawPointer(tableList)) { [unowned self] index in
            guard index >= 0, index != self.chosen else { return }
            self.choose(index)
        }
    }

    /// Lists `entries` (the database's tables and views) and shows the first one's rows.
    func show(_ entries: [ArchiveEntryFact]) {
        guard entries != self.entries else { return }
        self.entries = entries
        chosen = nil
        while let row = gtk_widget_get_first_child(tableList) { gtk_list_box_remove(cast(tableList), row) }
        for entry in entries {
            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
            let name = gtk_label_new(entry.path)!
            gtk_label_set_xalign(cast(name), 0)
            gtk_label_set_ellipsize(cast(name), PANGO_ELLIPSIZE_END)
            gtk_box_append(cast(box), name)
            if let summary = entry.summary {
                let detail = gtk_label_new(summary)!
                gtk_label_set_xalign(cast(detail), 0)
                gtk_widget_add_css_class(detail, "dim-label")
                gtk_widget_add_css_class(detail, "caption")
                gtk_box_append(cast(box), detail)
            }
            let row = gtk_list_box_row_new()!
            gtk_list_box_row_set_child(cast(row), box)
            Accessibility.setLabel(row, entry.path)
            if let summary = entry.summary { Accessibility.setDescription(row, summary) }
            gtk_list_box_append(cast(tableList), row)
        }
        if !entries.isEmpty, let first = gtk_list_box_get_row_at_index(cast(tableList), 0) {
            gtk_list_box_select_row(cast(tableList), first)  // row-selected shows it
            if chosen == nil { choose(0) }
        }
    }

    private func choose(_ index: Int) {
        guard entries.indices.contains(index) else { return }
        chosen = index
        let entry = entries[index]
        table.label = "Rows of \(entry.path)"
        switch onChoose(entry) {
        case .failure(let problem):
            gtk_label_set_text(cast(heading), "\(entry.path) cannot be read: \(problem.message)")
            table.show(TableCells(names: [], numeric: [], rows: []), sort: nil, status: "")
        case .success(let lines):
            guard let cells = TableCells.database(lines: lines) else {
                gtk_label_set_text(cast(heading), lines.filter { !$0.isEmpty }.joined(separator: "\n"))
                table.show(TableCells(names: [], numeric: [], rows: []), sort: nil, status: "")
                return
            }
            gtk_label_set_text(cast(heading), cells.notes.joined(separator: "\n"))
            let count = cells.rows.count == 1 ? "1 row shown" : "\(cells.rows.count) rows shown"
            table.show(cells, sort: nil, status: "\(count) · click a header to sort · Ctrl+C copies the selected rows")
        }
    }
}
