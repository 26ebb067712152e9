import CGtk
import QuireViewer

/// A search's matches marked in a text buffer (a tag each; the current one brighter), the
/// current one scrolled into view; an inactive search clears the marks. The buffer holds the
/// worker's lines joined by line ends, after `lineOffset` lines of its own (a table's header),
/// so a match's line and characters are the worker's. Used by the text and Markdown views.
@MainActor
enum TextFindMarks {
    static func mark(_ find: FindResults, in buffer: UnsafeMutablePointer<GtkTextBuffer>,
                     view: UnsafeMutablePointer<GtkWidget>, lineOffset: Int = 0) {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_bounds(buffer, &start, &end)
        let table = gtk_text_buffer_get_tag_table(buffer)
        if gtk_text_tag_table_lookup(table, "quire-match") == nil {
            for (name, colour) in [("quire-match", "#fce94f"), ("quire-current-match", "#f5a623")] {
                let tag = gtk_text_tag_new(name)!
                var value = GValue()
                g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
                g_value_set_string(&value, colour)
                g_object_set_property(UnsafeMutableRawPointer(tag).assumingMemoryBound(to: GObject.self), "background", &value)
                g_value_unset(&value)
                gtk_text_tag_table_add(table, tag)
                g_object_unref(UnsafeMutableRawPointer(tag))
            }
        }
        gtk_text_buffer_remove_tag_by_name(buffer, "quire-match", &start, &end)
        gtk_text_buffer_remove_tag_by_name(buffer, "quire-current-match", &start, &end)
        guard find.isActive, find.isText else { return }
        let lines = gtk_text_buffer_get_line_count(buffer)
        for (index, var match) in find.matches.enumerated() {
            match.page += lineOffset
            guard let characters = match.characters, match.page < lines else { continue }
            var from = GtkTextIter(), to = GtkTextIter()
            gtk_text_buffer_get_iter_at_line_offset(buffer, &from, Int32(match.page), Int32(characters.lowerBound))
            gtk_text_buffer_get_iter_at_line_offset(buffer, &to, Int32(match.page), Int32(characters.upperBound))
            let isCurrent = index == find.current
            gtk_text_buffer_apply_tag_by_name(buffer, isCurrent ? "quire-current-match" : "quire-match", &from, &to)
            if isCurrent {
                gtk_text_view_scroll_to_iter(cast(view), &from, 0.1, 0, 0, 0)
            }
        }
    }
}
