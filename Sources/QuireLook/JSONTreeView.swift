import CGtk
import QuireRender

/// A JSON document (or JSON Lines) in the window as a tree: a GtkListView over a
/// GtkTreeListModel built from the worker's ``JSONOutline`` (each node a line of the
/// pretty-printed text, its children made only when it is expanded), each row a GtkTreeExpander
/// holding the node's line (`"items": [ … ]` with its count). The top level opens expanded.
/// Enter or a double click opens or closes a node, Right/Left too; the selected node's path
/// (`.items[3].name`) is shown under the tree and copied by Ctrl+C, the Copy Path button or
/// the row's context menu (``onCopyPath``).
@MainActor
final class JSONTreeView {
    let root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
    /// The list view (focus, accessibility).
    let view: UnsafeMutablePointer<GtkWidget>
    private let pathLabel = gtk_label_new(nil)!
    let copyPathButton = Accessibility.textButton("Copy Path")
    /// The row's context menu.
    private var menu: ContextMenu?
    private var lines: [String] = []
    private var outline = JSONOutline()
    /// Lines that close an object or array (not nodes of their own).
    private var closers = Set<Int>()
    private var selection: OpaquePointer?  // GtkSingleSelection over the tree list model
    /// The label of each row on screen and its list item (a right click finds its row).
    private var itemOfLabel: [UnsafeMutableRawPointer: OpaquePointer] = [:]
    /// Called with the path to copy.
    var onCopyPath: (String) -> Void = { _ in }

    init() {
        view = gtk_list_view_new(nil, nil)!
        gtk_widget_add_css_class(view, "data-table")
        Accessibility.setLabel(view, "JSON tree")
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(scroller), view)
        gtk_scrolled_window_set_policy(cast(scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC)
        gtk_widget_add_css_class(scroller, "card")
        gtk_widget_set_vexpand(scroller, 1)
        gtk_box_append(cast(root), scroller)
        for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end, gtk_widget_set_margin_top] { side(root, 12) }
        gtk_widget_set_margin_bottom(root, 6)

        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_margin_top(bar, 6)
        gtk_label_set_xalign(cast(pathLabel), 0)
        gtk_label_set_selectable(cast(pathLabel), 1)
        gtk_label_set_ellipsize(cast(pathLabel), PANGO_ELLIPSIZE_START)
        gtk_widget_set_hexpand(pathLabel, 1)
        gtk_widget_add_css_class(pathLabel, "monospace")
        // Named by its text (the path, said as it changes), described as what it is.
        Accessibility.setDescription(pathLabel, "Path of the selected node")
        gtk_box_append(cast(bar), pathLabel)
        gtk_widget_set_tooltip_text(copyPathButton, "Copy the selected node's path (Ctrl+C)")
        gtk_box_append(cast(bar), copyPathButton)
        gtk_box_append(cast(root), bar)

        // The row's context menu: Copy Path (the row under the pointer is selected first).
        menu = ContextMenu(on: view, prefix: "json", items: [
            .init(label: "Copy Path", name: "copy-path") { [unowned self] in self.copyPath() },
            .init(label: "Expand All Below", name: "expand-all") { [unowned self] in self.expandSelected(all: true) },
        ]) { [unowned self] x, y in self.openMenu(x: x, y: y) }

        Signal.connect(copyPathButton, "clicked") { [unowned self] in self.copyPath() }
        Signal.connectActivatePosition(view) { [unowned self] position in self.toggle(position) }
        let factory = gtk_signal_list_item_factory_new()!
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "setup") { item in
            let expander = gtk_tree_expander_new()!
            let label = gtk_label_new(nil)!
            gtk_label_set_xalign(cast(label), 0)
            gtk_label_set_ellipsize(cast(label), PANGO_ELLIPSIZE_END)
            gtk_widget_add_css_class(label, "monospace")
            gtk_tree_expander_set_child(cast(expander), label)
            gtk_list_item_set_child(item, expander)
        }
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "bind") { [unowned self] item in
            guard let expander = gtk_list_item_get_child(item), let row = gtk_list_item_get_item(item),
                  let label = gtk_tree_expander_get_child(cast(expander)) else { return }
            gtk_tree_expander_set_list_row(cast(expander), OpaquePointer(row))
            let index = Self.lineIndex(ofRow: OpaquePointer(row))
            let (markup, plain) = self.shown(index)
            gtk_label_set_markup(cast(label), markup)
            Accessibility.setLabel(label, plain)
            self.itemOfLabel[UnsafeMutableRawPointer(label)] = item
        }
        Signal.connectListItem(UnsafeMutableRawPointer(factory), "unbind") { [unowned self] item in
            if let expander = gtk_list_item_get_child(item), let label = gtk_tree_expander_get_child(cast(expander)) {
                self.itemOfLabel[UnsafeMutableRawPointer(label)] = nil
            }
        }
        gtk_list_view_set_factory(cast(view), factory)
        g_object_unref(UnsafeMutableRawPointer(factory))
    }

    /// Shows the document whose pretty-printed `lines` have `outline`.
    func show(lines: [String], outline: JSONOutline) {
        self.lines = lines
        self.outline = outline
        closers = Set(outline.lines.compactMap(\.end))
        let roots = outline.lines.indices.filter { outline.lines[$0].depth == 0 && !closers.contains($0) }
        let create: GtkTreeListModelCreateModelFunc = { item, data in
            guard let item, let data, let text = gtk_string_object_get_string(OpaquePointer(item)) else { return nil }
            let index = Int(atoi(text))
            let address = UInt(bitPattern: data)
            // As addresses: a pointer is not Sendable across the isolation check.
            let list = MainActor.assumeIsolated {
                Unmanaged<Children>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue().function(index)
                    .map { UInt(bitPattern: UnsafeRawPointer($0)) }
            }
            return list.flatMap { OpaquePointer(bitPattern: $0) }
        }
        let children = Unmanaged.passRetained(Children { [weak self] index in self?.children(of: index) }).toOpaque()
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<Children>.fromOpaque(data).release()
        }
        let model = gtk_tree_list_model_new(Self.stringList(roots), 0, 0, create, children, release)
        let selection = gtk_single_selection_new(model)  // takes the tree model
        gtk_list_view_set_model(cast(view), selection)
        g_object_unref(UnsafeMutableRawPointer(selection))
        self.selection = selection
        // The top level opens (one document: its keys or items show at once).
        if roots.count == 1, let row = gtk_tree_list_model_get_row(model, 0) {
            gtk_tree_list_row_set_expanded(row, 1)
            g_object_unref(UnsafeMutableRawPointer(row))
        }
        if let selection { Signal.connectIgnoringArgument(UnsafeMutableRawPointer(selection), "notify::selected") { [weak self] in self?.showPath() } }
        showPath()
    }

    /// The selected node's path (`.items[3].name`), nil when nothing is selected.
    var selectedPath: String? { selectedLine.map { outline.path(of: $0) } }

    /// Whether the row's context menu is open (it reads its own keys).
    var isMenuOpen: Bool { menu?.isOpen ?? false }

    /// Copies the selected node's path (through ``onCopyPath``).
    func copyPath() {
        if let path = selectedPath { onCopyPath(path) }
    }

    /// Right: opens the selected node (true) when it is closed; Left: closes it, or selects its
    /// parent. False when the key has nothing to do here.
    func key(expand: Bool) -> Bool {
        guard let selection, let row = selectedRow else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(row)) }
        let expanded = gtk_tree_list_row_get_expanded(row) != 0
        if expand {
            guard gtk_tree_list_row_is_expandable(row) != 0, !expanded else { return false }
            gtk_tree_list_row_set_expanded(row, 1)
            return true
        }
        if expanded {
            gtk_tree_list_row_set_expanded(row, 0)
            return true
        }
        guard let parent = gtk_tree_list_row_get_parent(row) else { return false }
        gtk_single_selection_set_selected(selection, gtk_tree_list_row_get_position(parent))
        g_object_unref(UnsafeMutableRawPointer(parent))
        return true
    }

    /// Shows line `line` of the document (a search's match): the nodes holding it are opened,
    /// its node selected and scrolled into view.
    func reveal(line: Int) {
        guard let selection, outline.lines.indices.contains(line) else { return }
        var target = line
        // A closing line is its opener's node.
        if closers.contains(line), let opener = outline.lines.indices.last(where: { $0 < line && outline.lines[$0].end == line }) {
            target = opener
        }
        // The openers holding the target, outermost first.
        var chain: [Int] = []
        var depth = outline.lines[target].depth
        var index = target
        while depth > 0 && index > 0 {
            index -= 1
            if outline.lines[index].depth == depth - 1, let end = outline.lines[index].end, end > target {
                chain.append(index)
                depth -= 1
            }
        }
        var position = 0
        for opener in chain.reversed() + [target] {
            guard let found = self.position(of: opener, from: position) else { return }
            position = found
            if opener != target, let item = g_list_model_get_item(selection, guint(found)) {
                gtk_tree_list_row_set_expanded(OpaquePointer(item), 1)
                g_object_unref(item)
            }
        }
        gtk_single_selection_set_selected(selection, guint(position))
        _ = gtk_widget_activate_action_variant(view, "list.scroll-to-item", g_variant_new_uint32(guint32(position)))
    }

    /// The row showing line `line`, searched from row `start` on.
    private func position(of line: Int, from start: Int) -> Int? {
        guard let selection else { return nil }
        let count = Int(g_list_model_get_n_items(selection))
        var position = start
        while position < count {
            guard let item = g_list_model_get_item(selection, guint(position)) else { return nil }
            let index = Self.lineIndex(ofRow: OpaquePointer(item))
            g_object_unref(item)
            if index == line { return position }
            position += 1
        }
        return nil
    }

    /// Opens or closes the selected node (Enter).
    func toggleSelected() {
        guard let selection else { return }
        let position = gtk_single_selection_get_selected(selection)
        if position != guint(GTK_INVALID_LIST_POSITION) { toggle(Int(position)) }
    }

    /// Opens or closes the node in row `position`.
    func toggle(_ position: Int) {
        guard let selection, let row = g_list_model_get_item(selection, guint(position)) else { return }
        defer { g_object_unref(row) }
        let treeRow = OpaquePointer(row)
        guard gtk_tree_list_row_is_expandable(treeRow) != 0 else { return }
        gtk_tree_list_row_set_expanded(treeRow, gtk_tree_list_row_get_expanded(treeRow) != 0 ? 0 : 1)
    }

    /// Opens the selected node and, with `all`, every node below it.
    private func expandSelected(all: Bool) {
        guard let selection, let row = selectedRow else { return }
        g_object_unref(UnsafeMutableRawPointer(row))
        let start = Int(gtk_single_selection_get_selected(selection))
        guard let first = g_list_model_get_item(selection, guint(start)) else { return }
        let depth = gtk_tree_list_row_get_depth(OpaquePointer(first))
        g_object_unref(first)
        // Rows below appear as each opens: walk on while deeper than the selected one.
        var position = start
        while let item = g_list_model_get_item(selection, guint(position)) {
            let treeRow = OpaquePointer(item)
            defer { g_object_unref(item) }
            if position > start && gtk_tree_list_row_get_depth(treeRow) <= depth { break }
            if gtk_tree_list_row_is_expandable(treeRow) != 0 { gtk_tree_list_row_set_expanded(treeRow, 1) }
            if !all { break }
            position += 1
            if position - start > 100_000 { break }
        }
    }

    // MARK: Rows

    /// The selected GtkTreeListRow (a reference the caller drops), nil when none.
    private var selectedRow: OpaquePointer? {
        guard let selection else { return nil }
        let position = gtk_single_selection_get_selected(selection)
        guard position != guint(GTK_INVALID_LIST_POSITION), let item = g_list_model_get_item(selection, position) else { return nil }
        return OpaquePointer(item)
    }

    private var selectedLine: Int? {
        guard let row = selectedRow else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(row)) }
        return Self.lineIndex(ofRow: row)
    }

    private func showPath() {
        let path = selectedPath
        gtk_label_set_text(cast(pathLabel), path ?? "Select a node to copy its path")
        gtk_widget_set_sensitive(copyPathButton, path == nil ? 0 : 1)
    }

    /// The line a row of the tree shows (its item is a string object holding the index).
    private static func lineIndex(ofRow row: OpaquePointer) -> Int {
        guard let item = gtk_tree_list_row_get_item(row) else { return 0 }
        defer { g_object_unref(item) }
        return gtk_string_object_get_string(OpaquePointer(item)).map { Int(atoi($0)) } ?? 0
    }

    /// The node's children: the lines one level deeper up to its closing line (not closers).
    private func children(of index: Int) -> OpaquePointer? {
        guard outline.lines.indices.contains(index), let end = outline.lines[index].end, end > index + 1 else { return nil }
        let depth = outline.lines[index].depth + 1
        let inside = (index + 1)..<end
        return Self.stringList(inside.filter { outline.lines[$0].depth == depth && !closers.contains($0) })
    }

    /// Line `index` as a row: its text without the indent and trailing comma; an object or
    /// array with what it holds ("5 items") dimmed. (Pango markup, and the plain text.)
    private func shown(_ index: Int) -> (String, String) {
        guard lines.indices.contains(index) else { return ("", "") }
        var text = Substring(lines[index])
        while text.first == " " { text.removeFirst() }
        if text.last == "," { text.removeLast() }
        var plain = String(text)
        var markup = Self.escaped(plain)
        if outline.lines.indices.contains(index), outline.lines[index].end != nil {
            let node = outline.lines[index]
            let noun = node.isObject ? (node.count == 1 ? "key" : "keys") : (node.count == 1 ? "item" : "items")
            let close = node.isObject ? "}" : "]"
            plain += " … \(close)  \(node.count) \(noun)"
            markup += "<span alpha=\"55%\"> … \(close)  \(node.count) \(noun)</span>"
        }
        return (markup, plain)
    }

    private static func escaped(_ text: String) -> String {
        guard let pointer = g_markup_escape_text(text, -1) else { return "" }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }

    private static func stringList(_ indices: [Int]) -> OpaquePointer? {
        GtkStrings.list(indices.map(String.init))
    }

    // MARK: Context menu

    /// A right click: selects the row under the pointer and opens the menu there.
    private func openMenu(x: Double, y: Double) {
        var widget = gtk_widget_pick(view, x, y, GTK_PICK_DEFAULT)
        while let current = widget, current != view {
            var label: UnsafeMutablePointer<GtkWidget>? = current
            // A row is an expander holding the label: the pointer may be on its arrow or indent.
            if g_type_check_instance_is_a(UnsafeMutableRawPointer(current).assumingMemoryBound(to: GTypeInstance.self),
                                          gtk_tree_expander_get_type()) != 0 {
                label = gtk_tree_expander_get_child(cast(current))
            }
            if let label, let item = itemOfLabel[UnsafeMutableRawPointer(label)], let selection {
                gtk_single_selection_set_selected(selection, gtk_list_item_get_position(item))
                break
            }
            widget = gtk_widget_get_parent(current)
        }
        menu?.popup(x: x, y: y)
    }

    private final class Children {
        let function: @MainActor (Int) -> OpaquePointer?
        init(_ function: @escaping @MainActor (Int) -> OpaquePointer?) { self.function = function }
    }
}
