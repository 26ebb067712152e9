internal import CCairo
internal import CPangoCairo
import QuireTypes

/// Lines of text (a pretty-printed JSON document, a rendering made for the purpose) on A4
/// pages in a 9 pt monospace font with the text pages' margins and pitch; a line longer than
/// ``columns`` is cut with "…" (the terminal and the window show it whole).
final class LinePageSource: PageSource {
    let path: DocumentPath
    let lines: [String]
    private let pango: quire_pangocairo_api

    static let fontSize = 9.0
    /// 9 pt monospace: 92 columns (0.602 em each) in the A4 text width of 499 pt.
    static let columns = 92

    var pageCount: Int { max(1, (lines.count + TextSource.linesPerPage - 1) / TextSource.linesPerPage) }
    var isPaper: Bool { true }

    init(path: DocumentPath, lines: [String]) throws(DocumentError) {
        self.path = path
        self.lines = lines
        pango = try LazyLibraries.pango(path)
    }

    func pageSize(at index: Int) -> PageSize { TextSource.page }

    func pageLines(_ index: Int) -> ArraySlice<String> {
        let first = index * TextSource.linesPerPage
        guard first < lines.count else { return [] }
        return lines[first..<min(lines.count, first + TextSource.linesPerPage)]
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        // In points whatever Pango's resolution.
        let monospace = try MonospaceLayout(on: cr, points: Self.fontSize, pango: pango, path: path)
        let layout = monospace.layout
        defer { withExtendedLifetime(monospace) {} }   // the layout is freed with it
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        libcairo.cairo_set_source_rgb(cr, 0, 0, 0)
        for (row, line) in pageLines(index).enumerated() {
            let shown = line.count > Self.columns ? String(line.prefix(Self.columns - 1)) + "…" : line
            pango.pango_layout_set_text(layout, shown, -1)
            libcairo.cairo_move_to(cr, TextSource.margin, TextSource.margin + Double(row) * TextSource.linePitch)
            pango.pango_cairo_show_layout(cr, layout)
        }
    }

    func text(page index: Int) throws(DocumentError) -> String? {
        pageLines(index).joined(separator: "\n")
    }
}
