internal import CCairo

/// Text in one face drawn by cairo through FreeType, for the faces Pango cannot draw: Pango
/// shapes with HarfBuzz, which reads only SFNT fonts (TrueType, OpenType, WOFF), so a
/// PostScript Type 1 font (.pfb, .pfa, .t1) came out as rows of missing-glyph boxes and a blank
/// thumbnail. FreeType reads Type 1 and gives it a Unicode character map from its glyph names;
/// cairo's FreeType face draws from the pattern fontconfig made of the file (its private copy).
/// No shaping (none is needed for the specimen's alphabets and sentences); lines break between
/// words, as Pango's layout does for the other faces.
final class FontCairoText {
    private let face: OpaquePointer   // cairo_font_face_t*

    /// A face for `pattern` (an FcPattern* naming the file and face index), or nil when cairo
    /// cannot make one.
    init?(pattern: OpaquePointer) {
        guard let face = libcairo.cairo_ft_font_face_create_for_pattern(UnsafeMutableRawPointer(pattern)) else { return nil }
        guard libcairo.cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            libcairo.cairo_font_face_destroy(face)
            return nil
        }
        self.face = face
    }

    deinit {
        libcairo.cairo_font_face_destroy(face)
    }

    /// The lines `text` breaks into `width` points wide at `size` points, and the line height.
    private func lines(_ text: String, size: Double, width: Double, in cr: OpaquePointer) -> (lines: [String], lineHeight: Double, ascent: Double) {
        select(size: size, in: cr)
        var font = cairo_font_extents_t()
        libcairo.cairo_font_extents(cr, &font)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if !current.isEmpty, advance(candidate, in: cr) > width {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return (lines, font.height, font.ascent)
    }

    /// The height of `text` laid out `width` points wide at `size` points.
    func measure(_ text: String, size: Double, width: Double, in cr: OpaquePointer) -> Double {
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        let laid = lines(text, size: size, width: width, in: cr)
        return Double(laid.lines.count) * laid.lineHeight
    }

    /// Draws `text` `width` points wide with its top left at (`x`, `y`); returns its height.
    @discardableResult
    func show(_ text: String, size: Double, width: Double, x: Double, y: Double, in cr: OpaquePointer) -> Double {
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        let laid = lines(text, size: size, width: width, in: cr)
        for (index, line) in laid.lines.enumerated() {
            libcairo.cairo_move_to(cr, x, y + laid.ascent + Double(index) * laid.lineHeight)
            line.withCString { libcairo.cairo_show_text(cr, $0) }
        }
        return Double(laid.lines.count) * laid.lineHeight
    }

    /// The ink box of `text` at `size` points: where it starts relative to the pen and how
    /// large it is (for centring the thumbnail's "Aa").
    func inkBox(_ text: String, size: Double, in cr: OpaquePointer) -> (x: Double, y: Double, width: Double, height: Double) {
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        select(size: size, in: cr)
        var extents = cairo_text_extents_t()
        text.withCString { libcairo.cairo_text_extents(cr, $0, &extents) }
        return (extents.x_bearing, extents.y_bearing, extents.width, extents.height)
    }

    /// Draws `text` at `size` points with the pen at (`x`, `y`) (the baseline's start).
    func showLine(_ text: String, size: Double, x: Double, y: Double, in cr: OpaquePointer) {
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        select(size: size, in: cr)
        libcairo.cairo_move_to(cr, x, y)
        text.withCString { libcairo.cairo_show_text(cr, $0) }
    }

    private func advance(_ text: String, in cr: OpaquePointer) -> Double {
        var extents = cairo_text_extents_t()
        text.withCString { libcairo.cairo_text_extents(cr, $0, &extents) }
        return extents.x_advance
    }

    private func select(size: Double, in cr: OpaquePointer) {
        libcairo.cairo_set_font_face(cr, face)
        libcairo.cairo_set_font_size(cr, size)
        // Unhinted, as the Pango specimens: the same shapes at every scale and in PDF output.
        let options = libcairo.cairo_font_options_create()
        libcairo.cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        libcairo.cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        libcairo.cairo_set_font_options(cr, options)
        libcairo.cairo_font_options_destroy(options)
    }
}
