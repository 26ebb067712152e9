import CGtk

/// Walking GTK's widget tree where GTK 4.8 has no accessor for what Quire needs (a column
/// view's headers and inner list, a drop-down's button, the sort indicator of a header).
@MainActor
enum WidgetTree {
    /// `widget`'s children, in order.
    static func children(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var children: [UnsafeMutablePointer<GtkWidget>] = []
        var child = gtk_widget_get_first_child(widget)
        while let next = child {
            children.append(next)
            child = gtk_widget_get_next_sibling(next)
        }
        return children
    }

    /// Whether `widget` is an instance of `type` (or of a type derived from it).
    static func isA(_ widget: UnsafeMutablePointer<GtkWidget>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    /// A column view's headers (GtkColumnViewTitle, in its first child), in column order.
    static func columnHeaders(of view: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        gtk_widget_get_first_child(view).map(children(of:)) ?? []
    }

    /// The GtkListView a column view draws its rows with (its child after the header).
    static func innerList(of view: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
        children(of: view).first { isA($0, gtk_list_view_get_type()) }
    }

    /// Whether the sort indicator below a column header says ascending (true), descending
    /// (false), or the column is not the one sorted by (nil): the CSS nodes
    /// `sort-indicator.ascending`/`.descending`, since GTK 4.8 has no getter for a column view's
    /// primary sort column.
    static func sortDirection(below widget: UnsafeMutablePointer<GtkWidget>) -> Bool? {
        if gtk_widget_has_css_class(widget, "ascending") != 0 { return true }
        if gtk_widget_has_css_class(widget, "descending") != 0 { return false }
        for child in children(of: widget) {
            if let found = sortDirection(below: child) { return found }
        }
        return nil
    }
}
