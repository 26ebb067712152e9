import QuireTypes

/// An SQLite database as lines of characters: the overview (the table list, then the first
/// rows of the first table) and a table's first rows, each a table drawn with box rules. The
/// same lines are drawn on the pages (``DatabaseSource``), shown in the terminal viewer (text is
/// text) and written for a table opened from the list.
public enum DatabaseText {
    /// Widest a cell is shown (longer values end with "…").
    static let maximumCellWidth = 32
    /// Rows read of a table opened from the list.
    public static let maximumRows = 500

    /// One value as a cell: text on one line (line breaks as ⏎, tabs as spaces), numbers as
    /// SQLite prints them, blobs by size, NULL as "NULL".
    static func cell(_ value: SQLiteDatabase.Value) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .blob(let count): return count == 1 ? "‹blob 1 byte›" : "‹blob \(ArchiveListingText.bytes(Int64(count)))›"
        case .text(let text): return visible(text)
        }
    }

    /// Text from the file on one line: line breaks as ⏎, tabs as spaces, other control
    /// characters as their visible symbols (␀…␟, ␡).
    static func visible(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" { out.append("⏎") }
            else if character == "\t" { out.append(" ") }
            else if let scalar = character.unicodeScalars.first, scalar.value < 0x20 || scalar.value == 0x7F {
                // Other control characters as their visible symbols (␀…␟, ␡).
                out.unicodeScalars.append(Unicode.Scalar(scalar.value == 0x7F ? 0x2421 : 0x2400 + scalar.value)!)
            } else { out.append(character) }
        }
        return out
    }

    static func isNumber(_ value: SQLiteDatabase.Value) -> Bool {
        switch value {
        case .integer, .real: true
        default: false
        }
    }

    /// `text` cut to `width` characters, "…" last when cut.
    static func clipped(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    /// A table with box rules: a header row, a rule, the rows; numbers right-aligned.
    /// How a column's cells stand in their width.
    enum CellAlignment { case left, right, centre }

    static func box(header: [String], rows: [[String]], rightAligned: [Bool]) -> [String] {
        box(header: header, rows: rows, alignments: rightAligned.map { $0 ? .right : .left }, alignHeader: false)
    }

    /// A boxed table whose columns stand as `alignments` says (missing ones: left), the header
    /// too when `alignHeader` (Markdown's delimiter row aligns a whole column).
    static func box(header: [String], rows: [[String]], alignments: [CellAlignment], alignHeader: Bool) -> [String] {
        let header = header.map { clipped(visible($0), maximumCellWidth) }
        let rows = rows.map { $0.map { clipped($0, maximumCellWidth) } }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func rule(_ left: String, _ middle: String, _ right: String) -> String {
            left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right
        }
        func line(_ cells: [String], aligned: Bool) -> String {
            var out = "│"
            for (index, width) in widths.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let space = width - cell.count
                switch aligned && index < alignments.count ? alignments[index] : .left {
                case .left: out += " " + cell + String(repeating: " ", count: space) + " │"
                case .right: out += " " + String(repeating: " ", count: space) + cell + " │"
                case .centre: out += " " + String(repeating: " ", count: space / 2) + cell + String(repeating: " ", count: space - space / 2) + " │"
                }
            }
            return out
        }
        guard !widths.isEmpty else { return [] }
        var lines = [rule("┌", "┬", "┐"), line(header, aligned: alignHeader), rule("├", "┼", "┤")]
        for row in rows { lines.append(line(row, aligned: true)) }
        lines.append(rule("└", "┴", "┘"))
        return lines
    }

    /// The first `limit` rows of `table` as a boxed table (its columns as the header), read
    /// within `seconds`. A table that cannot be read gives one line saying why.
    static func firstRows(of table: DatabaseSummary.Table, in database: SQLiteDatabase, limit: Int,
                          seconds: Double = 2) -> [String] {
        let select = "SELECT * FROM \(SQLiteDatabase.quoted(table.name)) LIMIT \(limit)"
        var header: [String]
        do throws(SQLiteDatabase.Stop) { header = try database.columnNames(select) } catch {
            return ["(cannot read \(visible(table.name)): \(DatabaseSummary.describe(error)))"]
        }
        var rows: [[String]] = []
        var numeric = Array(repeating: true, count: header.count)
        var seen = Array(repeating: false, count: header.count)
        var stopped: String?
        do throws(SQLiteDatabase.Stop) {
            try database.run(select, seconds: seconds, maximumRows: limit) { values in
                rows.append(values.map(cell))
                for (index, value) in values.enumerated() where index < numeric.count {
                    if case .null = value { continue }
                    seen[index] = true
                    if !isNumber(value) { numeric[index] = false }
                }
            }
        } catch {
            stopped = "(stopped after \(rows.count) rows: \(DatabaseSummary.describe(error)))"
        }
        if header.isEmpty { header = ["(no columns)"] }
        var lines = box(header: header, rows: rows, rightAligned: zip(numeric, seen).map { $0 && $1 })
        if rows.isEmpty { lines.append("(no rows)") }
        if let stopped { lines.append(stopped) }
        return lines
    }

    /// "users: table, 3 columns, 1,204 rows".
    static func heading(_ table: DatabaseSummary.Table) -> String {
        let columns = table.columns.count == 1 ? "1 column" : "\(table.columns.count) columns"
        return "\(visible(table.name)): \(table.isView ? "view" : "table"), \(columns), \(DatabaseSummary.rowsText(table))"
    }

    /// The overview: what the database is, its table list, the first rows of its first table.
    /// - Parameter firstRows: rows of the first table to show (0: the list only).
    static func overview(_ summary: DatabaseSummary, name: String, database: SQLiteDatabase, firstRows: Int,
                         maximumListed: Int = .max) -> [String] {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var lines = ["\(name): SQLite database, \(counted(summary.tableCount, "table")), \(counted(summary.viewCount, "view"))",
                     "page size \(summary.pageSize) bytes · \(ArchiveListingText.grouped(summary.pageCount)) pages · \(summary.encoding)"]
        if let note = summary.journalNote { lines.append("Note: " + note) }
        if let truncation = summary.truncation { lines.append("Note: " + truncation) }
        lines.append("")
        guard !summary.tables.isEmpty else { return lines + ["(no tables)"] }
        let listed = summary.tables.prefix(maximumListed)
        lines += box(header: ["name", "kind", "rows", "columns"],
                     rows: listed.map { table in
                         [visible(table.name), table.isView ? "view" : "table",
                          table.rows.map { (table.rowsAreEstimated ? "~" : "") + ArchiveListingText.grouped(Int($0)) } ?? (table.problem == nil ? "?" : "unreadable"),
                          visible(table.columns.map(\.name).joined(separator: ", "))]
                     },
                     rightAligned: [false, false, true, false])
        if summary.tables.count > listed.count { lines.append("… and \(summary.tables.count - listed.count) more") }
        if firstRows > 0, let first = summary.tables.first {
            lines += ["", "First rows of " + heading(first)]
            lines += Self.firstRows(of: first, in: database, limit: firstRows)
        }
        return lines
    }

    /// A table opened from the list: its heading, its columns with their types, its first rows.
    static func table(_ table: DatabaseSummary.Table, in database: SQLiteDatabase, limit: Int = maximumRows) -> [String] {
        var lines = [heading(table)]
        let types = table.columns.map { $0.type.isEmpty ? $0.name : "\($0.name) \($0.type)" }
        if !types.isEmpty { lines.append("columns: " + visible(types.joined(separator: ", "))) }
        if let problem = table.problem { lines.append("(cannot be read: \(problem))") }
        lines.append("")
        lines += firstRows(of: table, in: database, limit: limit)
        if let rows = table.rows, rows > Int64(limit) { lines.append("(the first \(limit) of \(DatabaseSummary.rowsText(table)))") }
        return lines
    }
}
