internal import CCairo
internal import CPangoCairo
import QuireTypes

/// An SQLite database as A4 pages in a monospace font (the text pages' margins and pitch):
/// page 1 is the overview — what the database is, its table list, the first rows of its first
/// table — and each table or view after it gets a page of its first rows. The database is
/// opened read-only and immutable (``SQLiteDatabase``); rows are read when a page is drawn.
final class DatabaseSource: PageSource {
    let path: DocumentPath
    let summary: DatabaseSummary
    private let database: SQLiteDatabase
    private let name: String
    private let pango: quire_pangocairo_api
    /// Lines drawn, by page (read on first use).
    private var pageLines: [Int: [String]] = [:]

    /// 9 pt monospace: 92 columns (0.602 em each) in the A4 text width of 499 pt.
    static let fontSize = 9.0
    static let columns = 92
    /// Pages of tables after the overview, at most.
    static let maximumTablePages = 200

    var pageCount: Int { 1 + min(summary.tables.count, Self.maximumTablePages) }
    var isPaper: Bool { true }

    init(file: InputFile) throws(DocumentError) {
        path = file.path
        name = file.path.displayName
        pango = try LazyLibraries.pango(file.path)
        database = try SQLiteDatabase(file: file)
        summary = try DatabaseSummary.read(database, besides: file.path)
    }

    func pageSize(at index: Int) -> PageSize { TextSource.page }

    /// The overview as the terminal shows it: every table listed, the first 20 rows of the first.
    var overviewLines: [String] {
        DatabaseText.overview(summary, name: name, database: database, firstRows: 20)
    }

    /// Page `index`'s lines, cut to the page's lines and columns.
    func lines(page index: Int) -> [String] {
        if let lines = pageLines[index] { return lines }
        let perPage = TextSource.linesPerPage
        var lines: [String]
        if index == 0 {
            // The list takes at most half the page; the first table's rows fill the rest.
            let listed = max(1, min(summary.tables.count, perPage / 2 - 12))
            let list = DatabaseText.overview(summary, name: name, database: database, firstRows: 0, maximumListed: listed)
            // Below the list: a blank line, the heading, the box's top, header, rule and bottom.
            let rows = perPage - list.count - 6
            lines = rows < 1 ? list : DatabaseText.overview(summary, name: name, database: database, firstRows: rows,
                                                            maximumListed: listed)
        } else if summary.tables.indices.contains(index - 1) {
            lines = DatabaseText.table(summary.tables[index - 1], in: database, limit: perPage - 8)
        } else {
            lines = []
        }
        lines = lines.prefix(perPage).map { $0.count > Self.columns ? String($0.prefix(Self.columns - 1)) + "…" : $0 }
        pageLines[index] = lines
        return lines
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        let lines = lines(page: index)
        // In points whatever Pango's resolution.
        let monospace = try MonospaceLayout(on: cr, points: Self.fontSize, pango: pango, path: path)
        let layout = monospace.layout
        defer { withExtendedLifetime(monospace) {} }   // the layout is freed with it
        libcairo.cairo_save(cr)
        defer { libcairo.cairo_restore(cr) }
        for (row, line) in lines.enumerated() {
            // The first line (what the page shows) in the accent colour, the rest in black.
            if row == 0 { libcairo.cairo_set_source_rgb(cr, 0.10, 0.30, 0.60) } else { libcairo.cairo_set_source_rgb(cr, 0, 0, 0) }
            pango.pango_layout_set_text(layout, line, -1)
            libcairo.cairo_move_to(cr, TextSource.margin, TextSource.margin + Double(row) * TextSource.linePitch)
            pango.pango_cairo_show_layout(cr, layout)
        }
    }

    func text(page index: Int) throws(DocumentError) -> String? {
        lines(page: index).joined(separator: "\n")
    }

    /// The lines of table `name` opened from the list, nil when the database has no such table.
    func tableLines(named table: String) -> [String]? {
        guard let found = summary.tables.first(where: { $0.name == table }) else { return nil }
        return DatabaseText.table(found, in: database)
    }
}

extension DatabaseText {
    /// The text of table `table` in the database `file` (opened read-only and immutable), as a
    /// table opened from a viewer's list is shown: UTF-8 lines.
    public static func tableText(named table: String, in file: InputFile) throws(DocumentError) -> [UInt8] {
        let database = try SQLiteDatabase(file: file)
        let summary = try DatabaseSummary.read(database, besides: file.path)
        guard let found = summary.tables.first(where: { $0.name == table }) else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the database has no table named \(table)")
        }
        return Array((DatabaseText.table(found, in: database).joined(separator: "\n") + "\n").utf8)
    }
}

extension RenderEngine {
    /// SQLite databases: the overview and each table's first rows, read-only and immutable.
    static let database = RenderEngine(name: "database", families: [.database]) { (input) throws(DocumentError) in
        let source = try DatabaseSource(file: input.file)
        var opened = Opened(source: source)
        let summary = source.summary
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        opened.details = [CardRow("Tables", "\(counted(summary.tableCount, "table")), \(counted(summary.viewCount, "view"))"),
                          CardRow("Pages", "\(ArchiveListingText.grouped(summary.pageCount)) of \(summary.pageSize) bytes"),
                          CardRow("Encoding", summary.encoding)]
        if let note = summary.journalNote { opened.details.append(CardRow("Note", note)) }
        opened.entries = summary.tables.map { table in
            var entry = ArchiveEntryFact(path: table.name, size: nil, modified: nil)
            entry.summary = (table.isView ? "view · " : "table · ") + DatabaseSummary.rowsText(table)
            return entry
        }
        opened.viewText = source.overviewLines
        return opened
    }
}
