internal import CPangoCairo
internal import CFontconfig
internal import CCairo
import QuireTypes

/// A font file shown as GNOME's font viewer shows one: a specimen page per face — its name,
/// the alphabet and digits, and a sentence in the face's own script at sizes from 8 to 72
/// points — and, as a thumbnail, "Aa" in the face.
///
/// The faces are read into a private fontconfig configuration that holds this file alone, and
/// Pango lays the samples out on a font map over it: a character the face lacks shows as a
/// missing-glyph box, never in another font. The labels (name, sizes) use the system's sans font.
final class FontSource: PageSource {
    /// A4 portrait, in points (fonts print their specimen).
    static let page = PageSize(width: 595.28, height: 841.89)
    static let margin = 48.0
    /// Sizes of the sample sentence, in points.
    static let sampleSizes: [Double] = [8, 10, 12, 18, 24, 36, 48, 72]

    let path: DocumentPath
    let faces: [FontFace]
    /// The file's faces in their private fontconfig configuration (outlives the font map).
    private let font: FontFile
    private let patterns: [OpaquePointer]   // FcPattern*, owned by `font`
    private let pango: quire_pangocairo_api
    private let fontconfig: quire_fontconfig_api
    private let fontMap: OpaquePointer         // PangoFontMap* over `configuration`
    private let context: OpaquePointer         // PangoContext* on `fontMap`
    private let labelContext: OpaquePointer    // PangoContext* on the system's fonts
    /// Per face, cairo's FreeType face when Pango cannot draw it (Type 1: ``FontCairoText``).
    private let cairoText: [FontCairoText?]

    var pageCount: Int { faces.count }
    var isPaper: Bool { true }

    /// - Parameter type1WithFreeType: draw Type 1 faces with cairo's FreeType face (always,
    ///   but for the test that shows what Pango alone makes of them: missing-glyph boxes).
    init(file: InputFile, limits: RenderLimits, type1WithFreeType: Bool = true) throws(DocumentError) {
        path = file.path
        let fontconfig = try LazyLibraries.fontconfig(file.path)
        let pango = try LazyLibraries.pango(file.path)
        self.fontconfig = fontconfig
        self.pango = pango
        let font = try FontFile(file: file, copy: try FontCopy(of: file, limits: limits), limits: limits)
        self.font = font
        patterns = font.patterns
        faces = font.faces
        if font.faces.contains(where: { Self.needsCairoText($0) }) { try LazyLibraries.requireCairo(file.path) }
        cairoText = zip(font.faces, font.patterns).map { face, pattern in
            type1WithFreeType && Self.needsCairoText(face) ? FontCairoText(pattern: pattern) : nil
        }

        guard let fontMap = pango.pango_cairo_font_map_new_for_font_type(quire_cairo_font_type_ft) else {
            throw DocumentError(kind: .unsupported, path: file.path, reason: "Pango has no fontconfig font map")
        }
        pango.pango_fc_font_map_set_config(fontMap, font.configuration)
        self.fontMap = fontMap
        guard let context = pango.pango_font_map_create_context(fontMap),
              let labelContext = pango.pango_font_map_create_context(pango.pango_cairo_font_map_get_default()) else {
            g_object_unref(UnsafeMutableRawPointer(fontMap))
            throw DocumentError(kind: .unsupported, path: file.path, reason: "Pango found no fonts (install fonts-dejavu-core)")
        }
        self.context = context
        self.labelContext = labelContext
        for context in [context, labelContext] {
            pango.pango_cairo_context_set_resolution(context, 72)
            // Unhinted metrics: the same layout at every scale and in PDF output.
            let options = libcairo.cairo_font_options_create()
            libcairo.cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            libcairo.cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            pango.pango_cairo_context_set_font_options(context, options)
            libcairo.cairo_font_options_destroy(options)
        }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(labelContext))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    func pageSize(at index: Int) -> PageSize { Self.page }

    /// Whether Pango cannot draw `face`: it shapes with HarfBuzz, which reads only SFNT fonts;
    /// fontconfig calls a PostScript Type 1 font's format "Type 1".
    static func needsCairoText(_ face: FontFace) -> Bool {
        face.format == "Type 1"
    }

    /// The script a face's specimen is written in: Latin when the face has it, else the first
    /// it covers; nil for symbol fonts (their specimen shows the characters they map).
    static func specimenScript(of face: FontFace) -> FontScript? {
        FontScript.all.first { face.scripts.contains($0.name) }
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        guard faces.indices.contains(index) else { return }
        let face = faces[index]
        let width = Self.page.width - 2 * Self.margin
        var y = Self.margin
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        libcairo.cairo_set_source_rgb(cr, 0, 0, 0)

        y += show(face.fullName, label: true, size: 22, bold: true, width: width, at: y, in: cr) + 4
        var details: [String] = []
        if let version = face.version { details.append(version) }
        if let designer = face.designer { details.append("Designed by \(designer)") } else if let maker = face.manufacturer { details.append(maker) }
        if let glyphs = face.glyphCount { details.append("\(glyphs) glyphs") }
        if !face.scripts.isEmpty { details.append(face.scripts.joined(separator: ", ")) }
        if !details.isEmpty {
            libcairo.cairo_set_source_rgb(cr, 0.35, 0.35, 0.35)
            y += show(details.joined(separator: " · "), label: true, size: 10, width: width, at: y, in: cr)
            libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
        }
        y += 18

        let script = Self.specimenScript(of: face)
        var lines: [String] = []
        if script?.name == "Latin" {
            lines = ["abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789.:,;(*!?')"]
        } else if script == nil {
            lines = [symbolSample(face: index)]
        }
        for line in lines {
            y += show(line, face: index, size: 24, width: width, at: y, in: cr) + 4
        }
        y += 14
        let sample = script?.sample ?? symbolSample(face: index)
        var words = sample.split(separator: " ", omittingEmptySubsequences: false)
        for size in Self.sampleSizes {
            let room = Self.page.height - Self.margin - y
            // Large sizes show as many words as fit on one line (GNOME's font viewer does too).
            var text = words.joined(separator: " ")
            var height = measure(text, face: index, size: size, width: width - 28, in: cr)
            while size >= 36, height > size * 1.7, words.count > 1 {
                words.removeLast()
                text = words.joined(separator: " ")
                height = measure(text, face: index, size: size, width: width - 28, in: cr)
            }
            guard height <= room else { break }
            libcairo.cairo_set_source_rgb(cr, 0.5, 0.5, 0.5)
            show("\(Int(size))", label: true, size: 7, width: 24, at: y + 2, in: cr, x: Self.margin)
            libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
            y += show(text, face: index, size: size, width: width - 28, at: y, in: cr, x: Self.margin + 28) + size * 0.4
        }
    }

    /// The thumbnail: "Aa" (or the first two letters of the face's script) centred on white.
    func thumbnail(longestSide: Int) throws(DocumentError) -> CairoImage? {
        let width = longestSide, height = longestSide
        let image = try CairoImage(width: width, height: height, path: path)
        image.fillWhite()
        let face = 0
        let glyphs: String
        if let script = faces.first.flatMap(Self.specimenScript(of:)) {
            glyphs = script.name == "Latin" ? "Aa" : String(script.sample.prefix(2))
        } else {
            glyphs = String(symbolSample(face: 0).prefix(2))
        }
        try image.draw(path: path) { (cr) throws(DocumentError) in
            if let text = cairoText.first ?? nil {
                // The pair's ink centred, shrunk to fit as below.
                let size = Double(height) * 0.5
                let ink = text.inkBox(glyphs, size: size, in: cr)
                let scale = min(1, Double(width) * 0.9 / max(ink.width, 1), Double(height) * 0.9 / max(ink.height, 1))
                libcairo.cairo_translate(cr, (Double(width) - ink.width * scale) / 2, (Double(height) - ink.height * scale) / 2)
                libcairo.cairo_scale(cr, scale, scale)
                libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
                text.showLine(glyphs, size: size, x: -ink.x, y: -ink.y, in: cr)
                return
            }
            guard let layout = pango.pango_layout_new(context), let font = description(face: face, size: Double(height) * 0.5) else { return }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)); pango.pango_font_description_free(font) }
            pango.pango_layout_set_font_description(layout, font)
            pango.pango_layout_set_text(layout, glyphs, -1)
            var w: Int32 = 0, h: Int32 = 0
            pango.pango_layout_get_pixel_size(layout, &w, &h)
            // Shrink a wide pair (a condensed face is not, an ornamental one may be) to fit.
            let scale = min(1, Double(width) * 0.9 / Double(max(w, 1)), Double(height) * 0.9 / Double(max(h, 1)))
            libcairo.cairo_translate(cr, (Double(width) - Double(w) * scale) / 2, (Double(height) - Double(h) * scale) / 2)
            libcairo.cairo_scale(cr, scale, scale)
            libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
            libcairo.cairo_move_to(cr, 0, 0)
            pango.pango_cairo_show_layout(cr, layout)
        }
        return image
    }

    /// Up to 48 characters the face maps, from U+0021 on (for faces with none of the known scripts).
    private func symbolSample(face index: Int) -> String {
        var charset: OpaquePointer?
        guard fontconfig.FcPatternGetCharSet(patterns[index], FC_CHARSET, 0, &charset) == FcResultMatch, let charset else { return "" }
        var scalars = String.UnicodeScalarView()
        var code: UInt32 = 0x21
        while scalars.count < 48, code < 0x3_0000 {
            if fontconfig.FcCharSetHasChar(charset, code) != 0, let scalar = Unicode.Scalar(code),
               !(0xD800...0xDFFF).contains(code) { scalars.append(scalar) }
            code += 1
        }
        return String(scalars)
    }

    private func description(face index: Int, size: Double) -> OpaquePointer? {
        guard let font = pango.pango_fc_font_description_from_pattern(patterns[index], 0) else { return nil }
        pango.pango_font_description_set_absolute_size(font, size * Double(quire_pango_scale))
        return font
    }

    /// The height of `text` laid out `width` points wide in face `index`.
    private func measure(_ text: String, face: Int, size: Double, width: Double, in cr: OpaquePointer) -> Double {
        if let cairoText = cairoText[face] { return cairoText.measure(text, size: size, width: width, in: cr) }
        return layOut(text, face: face, size: size, width: width)
    }

    /// Lays `text` out `width` points wide at (`x`, `y`) and draws it; returns its height.
    @discardableResult
    private func show(_ text: String, face: Int = 0, label: Bool = false, size: Double, bold: Bool = false, width: Double,
                      at y: Double, in cr: OpaquePointer, x: Double = margin) -> Double {
        if !label, let cairoText = cairoText[face] { return cairoText.show(text, size: size, width: width, x: x, y: y, in: cr) }
        return layOut(text, face: face, label: label, bold: bold, size: size, width: width) { layout in
            libcairo.cairo_move_to(cr, x, y)
            pango.pango_cairo_show_layout(cr, layout)
        }
    }

    /// Lays `text` out with Pango `width` points wide, in face `face` or, for a `label`, in the
    /// system's Sans, and hands the layout to `draw`; returns its height. Measuring and drawing
    /// share it so that a text is measured exactly as it will be drawn.
    private func layOut(_ text: String, face: Int, label: Bool = false, bold: Bool = false, size: Double, width: Double,
                        draw: (_ layout: OpaquePointer) -> Void = { _ in }) -> Double {
        guard let layout = pango.pango_layout_new(label ? labelContext : context) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let font: OpaquePointer?
        if label {
            font = pango.pango_font_description_from_string("Sans\(bold ? " Bold" : "") \(size)")
        } else {
            font = description(face: face, size: size)
        }
        guard let font else { return 0 }
        defer { pango.pango_font_description_free(font) }
        pango.pango_layout_set_font_description(layout, font)
        pango.pango_layout_set_width(layout, Int32(width * Double(quire_pango_scale)))
        pango.pango_layout_set_wrap(layout, quire_pango_wrap_word_char)
        pango.pango_layout_set_text(layout, text, -1)
        var w: Int32 = 0, h: Int32 = 0
        pango.pango_layout_get_pixel_size(layout, &w, &h)
        draw(layout)
        return Double(h)
    }
}

extension RenderEngine {
    /// Fonts (TrueType, OpenType, WOFF, collections, Type 1): a specimen per face.
    static let font = RenderEngine(name: "font", families: [.font]) { (input) throws(DocumentError) in
        let source = try FontSource(file: input.file, limits: input.limits)
        var opened = Opened(source: source)
        if let face = source.faces.first {
            opened.title = source.faces.count == 1 ? face.fullName : face.family
            var details = [CardRow("Family", face.family)]
            if source.faces.count > 1 { details.append(CardRow("Faces", "\(source.faces.count)")) }
            else if let style = face.style { details.append(CardRow("Style", style)) }
            if let glyphs = face.glyphCount { details.append(CardRow("Glyphs", "\(glyphs)")) }
            if !face.scripts.isEmpty { details.append(CardRow("Scripts", face.scripts.joined(separator: ", "))) }
            opened.details = details
            opened.author = face.designer ?? face.manufacturer
        }
        return opened
    }
}
