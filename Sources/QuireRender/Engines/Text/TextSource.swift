internal import CPangoCairo
internal import CCairo
import QuireTypes

/// Text (plain text, source code, Markdown, CSV, logs…) laid out with Pango as A4 pages: a
/// fixed 12 pt line pitch, long lines wrapped (at words, else anywhere), tab stops every 8
/// columns, invalid UTF-8 replaced with U+FFFD. Code and data use a monospace font.
final class TextSource: PageSource {
    /// A4 portrait, in points.
    static let page = PageSize(width: 595.28, height: 841.89)
    static let margin = 48.0
    static let fontSize = 10.0
    static let linePitch = 12.0
    /// Lines that fit on one page: floor((841.89 − 2 × 48) / 12) = 62.
    static var linesPerPage: Int { Int((page.height - 2 * margin) / linePitch) }

    let path: DocumentPath
    /// One PangoLayout per chunk of source lines (they own the lines below).
    let layouts: [OpaquePointer]
    let context: OpaquePointer  // PangoContext*
    /// Pango's entry points (loaded on first use).
    let pango: quire_pangocairo_api
    /// PangoLayoutLine pointers in order (the layouts keep them alive).
    private let lines: [OpaquePointer]
    let pageCount: Int
    /// True when the text was cut at the byte limit.
    let isTruncated: Bool
    var isPaper: Bool { true }

    init(text bytes: [UInt8], truncated: Bool, contentType: ContentType, path: DocumentPath) throws(DocumentError) {
        self.path = path
        let pango = try LazyLibraries.pango(path)
        self.pango = pango
        isTruncated = truncated
        let text = Self.clean(bytes)
        let fontMap = pango.pango_cairo_font_map_get_default()
        guard let context = pango.pango_font_map_create_context(fontMap) else {
            throw DocumentError(kind: .unsupported, path: path, reason: "Pango found no fonts (install fonts-dejavu-core)")
        }
        self.context = context
        // Unhinted metrics: the same line breaks at every scale and in PDF output.
        let options = libcairo.cairo_font_options_create()
        libcairo.cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        libcairo.cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango.pango_cairo_context_set_font_options(context, options)
        libcairo.cairo_font_options_destroy(options)
        let family = Self.usesProportionalFont(contentType) ? "Sans" : "Monospace"
        guard let font = pango.pango_font_description_from_string("\(family) \(Self.fontSize)") else {
            g_object_unref(UnsafeMutableRawPointer(context))
            throw DocumentError(kind: .unsupported, path: path, reason: "Pango could not load a \(family) font")
        }
        defer { pango.pango_font_description_free(font) }

        // One layout for a whole file is quadratic in Pango (a 6 MB log took minutes): lay the
        // text out in chunks of source lines, each its own layout, and page through their lines.
        var sourceLines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if text.hasSuffix("\n") { sourceLines.removeLast() }
        var pieces: [Substring] = []
        pieces.reserveCapacity(sourceLines.count)
        for line in sourceLines {
            // A line of megabytes without a newline would be one huge paragraph: cut it into
            // pieces that wrap the same way, just with a break every few thousand characters.
            var rest = line
            while rest.unicodeScalars.count > Self.longestPiece {
                let cut = rest.unicodeScalars.index(rest.unicodeScalars.startIndex, offsetBy: Self.longestPiece)
                pieces.append(rest[..<cut])
                rest = rest[cut...]
            }
            pieces.append(rest)
        }
        var layouts: [OpaquePointer] = []
        var collected: [OpaquePointer] = []
        var start = 0
        while start < pieces.count {
            let end = min(pieces.count, start + Self.linesPerChunk)
            guard let layout = pango.pango_layout_new(context) else {
                layouts.forEach { g_object_unref(UnsafeMutableRawPointer($0)) }
                g_object_unref(UnsafeMutableRawPointer(context))
                throw DocumentError(kind: .unsupported, path: path, reason: "Pango could not create a layout")
            }
            layouts.append(layout)
            pango.pango_layout_set_font_description(layout, font)
            pango.pango_layout_set_width(layout, Int32((Self.page.width - 2 * Self.margin) * Double(quire_pango_scale)))
            pango.pango_layout_set_wrap(layout, quire_pango_wrap_word_char)
            pango.pango_layout_set_text(layout, pieces[start..<end].joined(separator: "\n"), -1)
            var node = pango.pango_layout_get_lines_readonly(layout)
            while let current = node {
                if let data = current.pointee.data { collected.append(OpaquePointer(data)) }
                node = current.pointee.next
            }
            start = end
        }
        self.layouts = layouts
        lines = collected
        pageCount = max(1, (collected.count + Self.linesPerPage - 1) / Self.linesPerPage)
    }

    /// Source lines per Pango layout.
    static let linesPerChunk = 200
    /// Longest run of characters laid out as one paragraph.
    static let longestPiece = 4096

    deinit {
        layouts.forEach { g_object_unref(UnsafeMutableRawPointer($0)) }
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// Prose types get a proportional font; everything else (code, data, logs, plain text that
    /// may hold aligned columns) is monospace.
    static func usesProportionalFont(_ type: ContentType) -> Bool {
        type.conforms(to: "text/markdown") || type.conforms(to: "text/x-readme")
            || type.conforms(to: "text/html") || type.conforms(to: "text/enriched")
    }

    /// UTF-8 with invalid bytes replaced; CRLF and CR become LF; other control characters
    /// (except tab, and form feed which is dropped) become U+FFFD so nothing invisible hides.
    static func clean(_ bytes: [UInt8]) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        let decoded = String(decoding: body, as: UTF8.self)
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in decoded.unicodeScalars {
            switch scalar.value {
            case 0x0D:
                out.append("\n")
                previousCR = true
                continue
            case 0x0A:
                if !previousCR { out.append(scalar) }
            case 0x09:
                out.append(scalar)
            case 0x0C:
                break
            case 0x00..<0x20, 0x7F:
                out.append("\u{FFFD}")
            default:
                out.append(scalar)
            }
            previousCR = false
        }
        return String(out)
    }

    func pageSize(at index: Int) -> PageSize { Self.page }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        let first = index * Self.linesPerPage
        guard first < lines.count else { return }
        let last = min(lines.count, first + Self.linesPerPage)
        libcairo.cairo_save(cr)
        libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
        for (row, line) in lines[first..<last].enumerated() {
            // Baseline 80 % down the line pitch.
            libcairo.cairo_move_to(cr, Self.margin, Self.margin + Double(row) * Self.linePitch + Self.linePitch * 0.8)
            pango.pango_cairo_show_layout_line(cr, line)
        }
        libcairo.cairo_restore(cr)
    }
}

extension RenderEngine {
    /// Text, source, Markdown and CSV laid out on A4 pages with Pango.
    static let text = RenderEngine(name: "text", families: [.text]) { (input) throws(DocumentError) in
        let limit = input.textByteLimit
        var bytes: [UInt8]
        do throws(InputError) { bytes = try input.file.read(upTo: limit + 1) } catch { throw DocumentError(error) }
        var truncated = false
        if bytes.count > limit {
            truncated = true
            bytes.removeLast(bytes.count - limit)
            // Cut at the last line end so no half line (or half character) is shown.
            if let newline = bytes.lastIndex(of: 0x0A) { bytes.removeSubrange((newline + 1)...) }
        }
        let source = try TextSource(text: bytes, truncated: truncated, contentType: input.contentType, path: input.file.path)
        return Opened(source: source, isTruncated: truncated)
    }
}
