internal import CPangoCairo
internal import CCairo
import QuireTypes

/// A delimited table drawn as pages (thumbnails, `preview`, print): A4 portrait, a grid of
/// cells in a monospace face, the header row bold over a rule, numbers right-aligned, cells cut
/// at their column's width. Columns that do not fit the page's width continue on the next page
/// with the header repeated (a band of rows is printed across, then the next band). Rows come
/// from the table on demand, page by page; only the rows that start within the engine's text
/// byte limit are paged (``isTruncated`` says when that is not all of them).
final class TableSource: PageSource {
    static let page = TextSource.page
    static let margin = 36.0
    static let fontSize = 8.0
    static let rowHeight = 12.0
    static let padding = 3.0

    let path: DocumentPath
    let table: DelimitedTable
    let pango: quire_pangocairo_api
    /// Rows paged (those that start within the byte limit).
    let rowCount: Int
    let isTruncated: Bool
    /// The columns of each page across (indices into the table's columns), and their widths in points.
    let groups: [[Int]]
    let widths: [Double]
    var isPaper: Bool { true }

    /// Rows under the header on one page.
    static var rowsPerPage: Int { Int((page.height - 2 * margin) / rowHeight) - 1 }

    init(table: DelimitedTable, byteLimit: Int, path: DocumentPath) throws(DocumentError) {
        self.path = path
        self.table = table
        pango = try LazyLibraries.pango(path)
        let within = table.rowCount(within: byteLimit)
        rowCount = within.rows
        isTruncated = !within.isAll
        // Monospace at 8 pt: 0.6 em a character (DejaVu Sans Mono's advance).
        let character = Self.fontSize * 0.6
        let usable = Self.page.width - 2 * Self.margin
        widths = table.columns.map { min(usable, Double($0.width) * character + 2 * Self.padding) }
        var groups: [[Int]] = []
        var current: [Int] = []
        var used = 0.0
        for (column, width) in widths.enumerated() {
            if !current.isEmpty && used + width > usable {
                groups.append(current)
                current = []
                used = 0
            }
            current.append(column)
            used += width
        }
        if !current.isEmpty { groups.append(current) }
        self.groups = groups
    }

    var pageCount: Int {
        let bands = max(1, (rowCount + Self.rowsPerPage - 1) / Self.rowsPerPage)
        return bands * max(1, groups.count)
    }

    func pageSize(at index: Int) -> PageSize { Self.page }

    /// Rows and columns of page `index`.
    private func extent(of index: Int) -> (rows: Range<Int>, columns: [Int]) {
        let across = max(1, groups.count)
        let band = index / across
        let first = band * Self.rowsPerPage
        return (first..<min(rowCount, first + Self.rowsPerPage), groups.isEmpty ? [] : groups[index % across])
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        let (rows, columns) = extent(of: index)
        let cells = table.rows(rows)
        guard let layout = pango.pango_cairo_create_layout(cr),
              let regular = pango.pango_font_description_from_string("Monospace"),
              let bold = pango.pango_font_description_from_string("Monospace Bold") else {
            throw DocumentError(kind: .unsupported, path: path, reason: "Pango could not create a layout")
        }
        defer {
            g_object_unref(UnsafeMutableRawPointer(layout))
            pango.pango_font_description_free(regular)
            pango.pango_font_description_free(bold)
        }
        pango.pango_font_description_set_absolute_size(regular, Self.fontSize * Double(quire_pango_scale))
        pango.pango_font_description_set_absolute_size(bold, Self.fontSize * Double(quire_pango_scale))
        let c = libcairo
        c.cairo_save(cr)
        defer { c.cairo_restore(cr) }
        let left = Self.margin, top = Self.margin
        let width = columns.reduce(0.0) { $0 + widths[$1] }
        let height = Double(cells.count + 1) * Self.rowHeight

        // Header background, grid, and the rule under the header.
        c.cairo_set_source_rgb(cr, 0.92, 0.92, 0.92)
        c.cairo_rectangle(cr, left, top, width, Self.rowHeight)
        c.cairo_fill(cr)
        c.cairo_set_source_rgb(cr, 0.75, 0.75, 0.75)
        for row in 0...(cells.count + 1) {
            c.cairo_rectangle(cr, left, top + Double(row) * Self.rowHeight - 0.15, width, 0.3)
        }
        var x = left
        for column in columns {
            c.cairo_rectangle(cr, x - 0.15, top, 0.3, height)
            x += widths[column]
        }
        c.cairo_rectangle(cr, x - 0.15, top, 0.3, height)
        c.cairo_fill(cr)
        c.cairo_set_source_rgb(cr, 0, 0, 0)
        c.cairo_rectangle(cr, left, top + Self.rowHeight - 0.5, width, 1)
        c.cairo_fill(cr)

        func show(_ text: String, column: Int, x: Double, y: Double, font: OpaquePointer) {
            pango.pango_layout_set_font_description(layout, font)
            pango.pango_layout_set_text(layout, Self.shown(text), -1)
            var textWidth: Int32 = 0, textHeight: Int32 = 0
            pango.pango_layout_get_pixel_size(layout, &textWidth, &textHeight)
            let cellWidth = widths[column]
            c.cairo_save(cr)
            c.cairo_rectangle(cr, x + Self.padding, y, cellWidth - 2 * Self.padding, Self.rowHeight)
            c.cairo_clip(cr)
            let right = table.columns[column].kind.isNumeric && Double(textWidth) <= cellWidth - 2 * Self.padding
            c.cairo_move_to(cr, right ? x + cellWidth - Self.padding - Double(textWidth) : x + Self.padding,
                            y + (Self.rowHeight - Double(textHeight)) / 2)
            pango.pango_cairo_show_layout(cr, layout)
            c.cairo_restore(cr)
        }
        x = left
        for column in columns {
            show(table.columns[column].name, column: column, x: x, y: top, font: bold)
            for (row, cells) in cells.enumerated() {
                show(cells[column], column: column, x: x, y: top + Double(row + 1) * Self.rowHeight, font: regular)
            }
            x += widths[column]
        }
    }

    /// A cell's text on one line: line ends as "↵", other control characters as U+FFFD, and at
    /// most a few hundred characters (the cell is cut by its column anyway).
    static func shown(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars.prefix(512) {
            switch scalar.value {
            case 0x0A, 0x0D: out.append("↵")
            case 0x09: out.append(" ")
            case 0x00..<0x20, 0x7F: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The page's cells, a row a line, separated by tabs (find and copy).
    func text(page index: Int) throws(DocumentError) -> String? {
        let (rows, columns) = extent(of: index)
        let header = columns.map { table.columns[$0].name }.joined(separator: "\t")
        return ([header] + table.rows(rows).map { cells in columns.map { cells[$0] }.joined(separator: "\t") }).joined(separator: "\n")
    }
}

extension RenderEngine {
    /// CSV, TSV and other delimited text as a table (``DelimitedTable``, ``TableSource``);
    /// `--csv-as-spreadsheet` goes to LibreOffice instead (``Renderer``).
    static let delimited = RenderEngine(name: "table", families: [.text], open: { (input) throws(DocumentError) in
        let table = try DelimitedTable(file: input.file, tabSeparated: input.contentType.conforms(to: "text/tab-separated-values"))
        let source = try TableSource(table: table, byteLimit: input.textByteLimit, path: input.file.path)
        return Opened(source: source, isTruncated: source.isTruncated, details: table.details(rows: table.rowCount))
    }, accepts: { type, path in DelimitedTable.applies(to: type, path: path) })
}
