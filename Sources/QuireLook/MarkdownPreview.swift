import CGtk
import QuireRender
import QuireViewer
import QuireRenderService

/// Markdown (and a notebook's cells) in the window as rendered text, not source: a read-only
/// GtkTextView whose lines are the worker's (``MarkdownText``: bullets, quote bars, table
/// rules already in them) with text tags from their kinds and style runs — headings larger and
/// bold by level, emphasis, strikethrough, links underlined, code in a monospace face on a grey
/// ground, code blocks and tables in monospace, marks (bullets, quote bars, addresses) dimmed.
/// The text stays selectable and Ctrl+C copies it, as a text view does.
@MainActor
final class MarkdownPreview {
    /// The scrolled window to put in the window's stack.
    let root = gtk_scrolled_window_new()!
    /// The text view (focus, accessibility).
    let view = gtk_text_view_new()!
    private let buffer: UnsafeMutablePointer<GtkTextBuffer>

    /// How much larger each heading level is drawn (h1…h6).
    static let headingScales = [2.0, 1.6, 1.35, 1.2, 1.1, 1.0]

    init() {
        buffer = gtk_text_view_get_buffer(cast(view))
        gtk_text_buffer_set_enable_undo(buffer, 0)
        gtk_text_view_set_editable(cast(view), 0)
        gtk_text_view_set_cursor_visible(cast(view), 0)
        gtk_text_view_set_wrap_mode(cast(view), GTK_WRAP_WORD_CHAR)
        gtk_text_view_set_left_margin(cast(view), 24)
        gtk_text_view_set_right_margin(cast(view), 24)
        gtk_text_view_set_top_margin(cast(view), 16)
        gtk_text_view_set_bottom_margin(cast(view), 16)
        gtk_text_view_set_pixels_below_lines(cast(view), 2)
        Accessibility.setLabel(view, "Rendered Markdown")
        gtk_scrolled_window_set_child(cast(root), view)
        gtk_scrolled_window_set_policy(cast(root), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        makeTags()
        if let adjustment = gtk_scrolled_window_get_vadjustment(cast(root)) {
            Signal.connect(UnsafeMutableRawPointer(adjustment), "value-changed") { [unowned self] in self.onScroll(self.firstVisibleLine) }
        }
    }

    /// Called with the first line in view when the text scrolls (a book's contents follow it).
    var onScroll: (Int) -> Void = { _ in }

    /// Shows line `line` at the top of the view (a book's contents entry chosen).
    func scroll(toLine line: Int) {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(buffer, &iter, Int32(max(0, line)))
        gtk_text_buffer_place_cursor(buffer, &iter)
        // A mark, not the iter: the view scrolls once its lines are laid out.
        let mark = gtk_text_buffer_get_insert(buffer)
        gtk_text_view_scroll_to_mark(cast(view), mark, 0, 1, 0, 0)
    }

    /// The first line in view (its top at or above the view's top).
    var firstVisibleLine: Int {
        var rect = GdkRectangle()
        gtk_text_view_get_visible_rect(cast(view), &rect)
        var iter = GtkTextIter()
        var top: Int32 = 0
        gtk_text_view_get_line_at_y(cast(view), &iter, rect.y, &top)
        return Int(gtk_text_iter_get_line(&iter))
    }

    /// Whether some text is selected (Ctrl+C then copies it).
    var hasSelection: Bool { gtk_text_buffer_get_has_selection(buffer) != 0 }

    /// Marks a search's matches (lines and characters are the worker's, as the buffer's).
    func mark(_ find: FindResults) {
        TextFindMarks.mark(find, in: buffer, view: view)
    }

    /// Shows the worker's `lines` styled by `markdown` (the same lines' kinds and runs), each
    /// of `pictures` in place of its line's placeholder.
    func show(lines: [String], markdown: MarkdownText, pictures: [OpenedDocument.Picture] = [], isTruncated: Bool) {
        let text = lines.joined(separator: "\n") + (isTruncated ? "\n…" : "")
        applyColours()  // the view is in the window now: its theme says light or dark
        gtk_text_buffer_set_text(buffer, text, -1)
        var described: [String] = []
        for (number, line) in zip(lines.indices, markdown.lines) {
            let length = lines[number].unicodeScalars.count
            switch line.kind {
            case .heading:
                let level = max(1, min(6, line.level))
                apply("h\(level)", line: number, from: 0, to: length)
                if described.count < 3 { described.append("heading \(level): \(lines[number])") }
            case .code, .html: apply("code-block", line: number, from: 0, to: length)
            case .table: apply("table", line: number, from: 0, to: length)
            case .rule: apply("dim", line: number, from: 0, to: length)
            case .body, .blank, .image: break
            }
            for run in line.runs {
                let from = max(0, min(length, run.start)), to = max(from, min(length, run.start + run.length))
                guard from < to else { continue }
                if run.style.contains(.bold) && line.kind != .heading { apply("bold", line: number, from: from, to: to) }
                if run.style.contains(.italic) { apply("italic", line: number, from: from, to: to) }
                if run.style.contains(.code) && line.kind != .code { apply("code", line: number, from: from, to: to) }
                if run.style.contains(.strike) { apply("strike", line: number, from: from, to: to) }
                if run.style.contains(.link) { apply("link", line: number, from: from, to: to) }
                if run.style.contains(.dim) { apply("dim", line: number, from: from, to: to) }
                // Code coloured by its language, a notebook's ANSI-coloured output.
                if (1...16).contains(run.colour) { apply("colour-\(run.colour)", line: number, from: from, to: to) }
            }
        }
        for picture in pictures where lines.indices.contains(picture.line) { show(picture) }
        if !pictures.isEmpty { described.append(pictures.count == 1 ? "1 picture" : "\(pictures.count) pictures") }
        Accessibility.setDescription(view, described.isEmpty ? "Rendered Markdown" : "Rendered Markdown; " + described.joined(separator: "; "))
        var start = GtkTextIter()
        gtk_text_buffer_get_start_iter(buffer, &start)
        gtk_text_buffer_place_cursor(buffer, &start)
        if let adjustment = gtk_scrolled_window_get_vadjustment(cast(root)) { gtk_adjustment_set_value(adjustment, 0) }
    }

    /// The picture in place of its line's text (the worker decoded it: only pixels come here).
    private func show(_ picture: OpenedDocument.Picture) {
        let image = picture.image
        let bytes = image.pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let texture = gdk_memory_texture_new(Int32(image.width), Int32(image.height), GDK_MEMORY_R8G8B8A8, bytes, gsize(image.width * 4))
        else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(buffer, &start, Int32(picture.line))
        end = start
        if gtk_text_iter_ends_line(&end) == 0 { gtk_text_iter_forward_to_line_end(&end) }
        gtk_text_buffer_delete(buffer, &start, &end)
        gtk_text_buffer_insert_paintable(buffer, &start, texture)
    }

    private func apply(_ tag: String, line: Int, from: Int, to: Int) {
        var start = GtkTextIter(), end = GtkTextIter()
        gtk_text_buffer_get_iter_at_line_offset(buffer, &start, Int32(line), Int32(from))
        gtk_text_buffer_get_iter_at_line_offset(buffer, &end, Int32(line), Int32(to))
        gtk_text_buffer_apply_tag_by_name(buffer, tag, &start, &end)
    }

    // MARK: Tags

    private func makeTags() {
        let grey = "rgba(127,127,127,0.18)"
        for (index, scale) in Self.headingScales.enumerated() {
            tag("h\(index + 1)", [("weight", .int(index < 2 ? 800 : 700)), ("scale", .double(scale)),
                                  ("pixels-above-lines", .int(index < 2 ? 14 : 8)), ("pixels-below-lines", .int(4))])
        }
        tag("bold", [("weight", .int(700))])
        tag("italic", [("style", .enumeration(pango_style_get_type(), Int32(PANGO_STYLE_ITALIC.rawValue)))])
        tag("code", [("family", .string("monospace")), ("background", .string(grey))])
        tag("code-block", [("family", .string("monospace")), ("paragraph-background", .string(grey))])
        // Box rules join from line to line: no space between a table's lines.
        tag("table", [("family", .string("monospace")), ("pixels-below-lines", .int(0)), ("pixels-above-lines", .int(0))])
        tag("strike", [("strikethrough", .bool(true))])
        tag("link", [("underline", .enumeration(pango_underline_get_type(), Int32(PANGO_UNDERLINE_SINGLE.rawValue))),
                     ("foreground", .string("#3584e4"))])
        tag("dim", [("foreground", .string("rgba(127,127,127,1)"))])
        for index in 1...16 { tag("colour-\(index)", []) }
        applyColours()
        ColorScheme.onChange { [weak self] in self?.applyColours() }
    }

    /// The terminal colours of runs (``MarkdownText/Run/colour``) as the pages draw them on a
    /// light window, and lighter on a dark one.
    private func applyColours() {
        let dark = ColorScheme.isDark(view)
        let colours = dark ? Self.darkColours : MarkdownText.Run.paperColours
        let table = gtk_text_buffer_get_tag_table(buffer)
        for index in 1...16 {
            guard let tag = gtk_text_tag_table_lookup(table, "colour-\(index)") else { continue }
            let object = UnsafeMutableRawPointer(tag).assumingMemoryBound(to: GObject.self)
            var value = GValue()
            g_value_init(&value, GType(16 << 2))  // G_TYPE_STRING
            g_value_set_string(&value, colours[index - 1])
            g_object_set_property(object, "foreground", &value)
            g_value_unset(&value)
        }
    }

    /// ``MarkdownText/Run/paperColours`` for a dark ground (GNOME's lighter palette).
    static let darkColours = ["#DEDDDA", "#F66151", "#57E389", "#F9F06B", "#62A0EA", "#DC8ADD", "#5BC8DE", "#FFFFFF",
                              "#9A9996", "#FF7B63", "#8FF0A4", "#FFF59D", "#99C1F1", "#E6A5EC", "#93DDEA", "#FFFFFF"]

    private enum Value {
        case string(String), int(Int32), double(Double), bool(Bool), enumeration(GType, Int32)
    }

    private func tag(_ name: String, _ properties: [(String, Value)]) {
        let tag = gtk_text_tag_new(name)!
        let object = UnsafeMutableRawPointer(tag).assumingMemoryBound(to: GObject.self)
        for (property, value) in properties {
            var gvalue = GValue()
            switch value {
            case .string(let text):
                g_value_init(&gvalue, GType(16 << 2))  // G_TYPE_STRING
                g_value_set_string(&gvalue, text)
            case .int(let number):
                g_value_init(&gvalue, GType(6 << 2))  // G_TYPE_INT
                g_value_set_int(&gvalue, number)
            case .double(let number):
                g_value_init(&gvalue, GType(15 << 2))  // G_TYPE_DOUBLE
                g_value_set_double(&gvalue, number)
            case .bool(let flag):
                g_value_init(&gvalue, GType(5 << 2))  // G_TYPE_BOOLEAN
                g_value_set_boolean(&gvalue, flag ? 1 : 0)
            case .enumeration(let type, let number):
                g_value_init(&gvalue, type)
                g_value_set_enum(&gvalue, number)
            }
            g_object_set_property(object, property, &gvalue)
            g_value_unset(&gvalue)
        }
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(buffer), tag)
        g_object_unref(UnsafeMutableRawPointer(tag))
    }
}
