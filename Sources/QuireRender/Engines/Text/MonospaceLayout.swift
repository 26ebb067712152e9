internal import CPangoCairo
import QuireTypes

/// A Pango layout on a cairo context in the monospace face at a size in points (whatever
/// Pango's resolution), for pages drawn as lines of characters: archive listings, line pages and
/// database overviews. The layout and its font are freed with it.
final class MonospaceLayout {
    let layout: OpaquePointer
    private let font: OpaquePointer
    private let pango: quire_pangocairo_api

    /// - Throws: ``DocumentError`` naming `path` when Pango has no monospace font.
    init(on cr: OpaquePointer, points: Double, pango: quire_pangocairo_api, path: DocumentPath) throws(DocumentError) {
        guard let layout = pango.pango_cairo_create_layout(cr),
              let font = pango.pango_font_description_from_string("Monospace") else {
            throw DocumentError(kind: .unsupported, path: path, reason: "Pango could not load a Monospace font")
        }
        self.layout = layout
        self.font = font
        self.pango = pango
        pango.pango_font_description_set_absolute_size(font, points * Double(quire_pango_scale))
        pango.pango_layout_set_font_description(layout, font)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
        pango.pango_font_description_free(font)
    }
}
