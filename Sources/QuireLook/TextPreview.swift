import CGtk
import CGtkSourceView
import QuireViewer
import QuireRenderService

/// Text, source, Markdown and CSV files in the window: selectable, scrollable, read-only text
/// in a GtkSourceView 5 view, highlighted in the language GtkSourceView guesses from the file
/// name and content type, with the style scheme (Adwaita or Adwaita-dark) that matches the
/// window's light or dark look. Source code gets line numbers and no wrapping; prose wraps.
@MainActor
final class TextPreview {
    /// The scrolled window to put in the window's stack.
    let root: UnsafeMutablePointer<GtkWidget>
    /// The text view (focus, accessibility).
    let view: UnsafeMutablePointer<GtkWidget>
    private let buffer: UnsafeMutablePointer<GtkSourceBuffer>
    /// Lines above the text's first (a table's header and rule): find's line numbers are moved by them.
    private var headerLines = 0
    /// The language the current text is highlighted as (GtkSourceView's name), nil for none.
    private(set) var languageName: String?

    private static var initialized = false

    init() {
        if !Self.initialized {
            gtk_source_init()
            Self.initialized = true
        }
        let buffer = gtk_source_buffer_new(nil)!
        self.buffer = buffer
        view = gtk_source_view_new_with_buffer(buffer)!
        g_object_unref(UnsafeMutableRawPointer(buffer))  // the view holds it
        gtk_text_buffer_set_enable_undo(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GtkTextBuffer.self), 0)
        gtk_source_buffer_set_highlight_matching_brackets(buffer, 0)
        gtk_text_view_set_editable(cast(view), 0)
        gtk_text_view_set_monospace(cast(view), 1)
        gtk_text_view_set_left_margin(cast(view), 12)
        gtk_text_view_set_right_margin(cast(view), 12)
        gtk_text_view_set_top_margin(cast(view), 8)
        gtk_text_view_set_bottom_margin(cast(view), 8)
        Accessibility.setLabel(view, "Text")
        let root = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(cast(root), view)
        self.root = root
        ColorScheme.onChange { [weak self] in self?.applyStyleScheme() }
        // The theme's colours are known once the view is in the window on screen.
        Signal.connect(view, "map") { [weak self] in self?.applyStyleScheme() }
    }

    private var textBuffer: UnsafeMutablePointer<GtkTextBuffer> {
        UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GtkTextBuffer.self)
    }

    /// Shows `text`, highlighted as the language of a file named `fileName` of type `mimeType`.
    func show(_ text: TextContent, fileName: String, mimeType: String?) {
        let manager = gtk_source_language_manager_get_default()
        let language = gtk_source_language_manager_guess_language(manager, fileName, mimeType)
        gtk_source_buffer_set_language(buffer, language)
        gtk_source_buffer_set_highlight_syntax(buffer, language == nil ? 0 : 1)
        languageName = language.flatMap { gtk_source_language_get_name($0) }.map { String(cString: $0) }
        let section = language.flatMap { gtk_source_language_get_section($0) }.map { String(cString: $0) }
        let identifier = language.flatMap { gtk_source_language_get_id($0) }.map { String(cString: $0) }
        // Code keeps its lines (scroll sideways) and gets line numbers; prose and Markdown wrap.
        let isCode = section == "Source" || section == "Script" || identifier == "csv"
        gtk_source_view_set_show_line_numbers(cast(view), isCode && identifier != "csv" ? 1 : 0)
        gtk_text_view_set_wrap_mode(cast(view), isCode ? GTK_WRAP_NONE : GTK_WRAP_WORD_CHAR)
        Accessibility.setDescription(view, languageName.map { "Highlighted as \($0)" } ?? "Plain text")

        // A table's header and rule come first (its lines are its rows).
        headerLines = text.table?.header.count ?? 0
        let joined = ((text.table?.header ?? []) + text.lines).joined(separator: "\n") + (text.isTruncated ? "\n…" : "")
        gtk_text_buffer_set_text(textBuffer, joined, -1)
        var start = GtkTextIter()
        gtk_text_buffer_get_start_iter(textBuffer, &start)
        gtk_text_buffer_place_cursor(textBuffer, &start)
        applyStyleScheme()
    }

    /// Marks the search's matches (a tag each; the current one brighter) and scrolls the current
    /// one into view; an inactive search clears the marks. Lines and characters are the
    /// worker's (the buffer holds the same lines, joined by line ends).
    func mark(_ find: FindResults) {
        TextFindMarks.mark(find, in: textBuffer, view: view, lineOffset: headerLines)
    }

    /// Whether some text is selected (Ctrl+C then copies it, not the file).
    var hasSelection: Bool { gtk_text_buffer_get_has_selection(textBuffer) != 0 }

    /// Adwaita or Adwaita-dark, matching the window (the theme's text colour there says which).
    private func applyStyleScheme() {
        let manager = gtk_source_style_scheme_manager_get_default()
        // Not the view's own colour: the scheme sets that. The window's, as the theme has it.
        let dark = ColorScheme.isDark(gtk_widget_get_root(view).map { widget(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self)) } ?? root)
        guard let scheme = gtk_source_style_scheme_manager_get_scheme(manager, dark ? "Adwaita-dark" : "Adwaita")
                ?? gtk_source_style_scheme_manager_get_scheme(manager, dark ? "classic-dark" : "classic") else { return }
        gtk_source_buffer_set_style_scheme(buffer, scheme)
    }
}
