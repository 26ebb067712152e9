import CGtk
import Quire
import QuireViewer

/// A name typed on Markup's signature pad, written in the desktop's cursive face (fontconfig's
/// `cursive`: URW's Z003 where fonts-urw-base35 is installed) and turned into ink strokes — the
/// letters' outlines, traced as a pen would — so that a typed signature is kept, placed and
/// saved exactly as a drawn one is (an ink annotation, no font in the PDF).
enum TypedSignature {
    /// The face asked of fontconfig.
    static let family = "cursive"
    /// The longest name written (characters); the rest is left off.
    static let maximumLength = 64

    /// The strokes of `name` in points at `size`, from the top left of its line, y down; empty
    /// for a name of spaces only.
    static func strokes(_ name: String, size: Double = 48) -> [[PageAnnotation.Point]] {
        let trimmed = name.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        let text = String(String(trimmed).prefix(maximumLength))
        guard !text.isEmpty, let surface = cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil) else { return [] }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { return [] }
        defer { cairo_destroy(cairo) }
        guard let layout = pango_cairo_create_layout(cairo) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font = pango_font_description_new()
        pango_font_description_set_family(font, family)
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_single_paragraph_mode(layout, 1)
        pango_layout_set_text(layout, text, -1)
        pango_cairo_layout_path(cairo, layout)
        // Curves become lines a tenth of a point from the outline; a long name is traced more
        // coarsely rather than past what an ink annotation holds.
        for tolerance in [0.1, 0.4, 1.5] {
            cairo_set_tolerance(cairo, tolerance)
            let strokes = flattened(cairo)
            if strokes.joined().count <= PageAnnotation.maximumInkPoints { return strokes }
        }
        return []
    }

    // cairo_path_data_type_t's values, as cairo.h numbers them (their names belong to the cairo
    // module, which only the renderer imports; GTK's headers bring the type and the functions).
    private static let moveTo: UInt32 = 0, lineTo: UInt32 = 1, closePath: UInt32 = 3

    /// The path on `cairo`, as lines: one stroke from each move to its close.
    private static func flattened(_ cairo: OpaquePointer) -> [[PageAnnotation.Point]] {
        guard let path = cairo_copy_path_flat(cairo) else { return [] }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS, let data = path.pointee.data else { return [] }
        var strokes: [[PageAnnotation.Point]] = []
        var index = 0
        let count = Int(path.pointee.num_data)
        while index < count {
            let header = data[index].header
            let length = max(1, Int(header.length))
            guard index + length <= count else { break }
            let kind = header.type
            if kind.rawValue == Self.moveTo, length >= 2 {
                strokes.append([PageAnnotation.Point(x: data[index + 1].point.x, y: data[index + 1].point.y)])
            } else if kind.rawValue == Self.lineTo, length >= 2 {
                let point = PageAnnotation.Point(x: data[index + 1].point.x, y: data[index + 1].point.y)
                if strokes.isEmpty { strokes.append([point]) } else { strokes[strokes.count - 1].append(point) }
            } else if kind.rawValue == Self.closePath, let first = strokes.last?.first {
                strokes[strokes.count - 1].append(first)
            }
            index += length
        }
        return strokes.filter { $0.count >= 2 }
    }
}
