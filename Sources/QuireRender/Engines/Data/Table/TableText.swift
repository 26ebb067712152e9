/// A table laid out as lines of characters, for viewers that show text as text (the terminal:
/// "text is text"): the header's names, a rule, then a line per row; each cell padded or cut to
/// its column's width, numbers right-aligned, columns separated by " │ ". Line ends inside a
/// cell are shown as "↵", other control characters as visible symbols (␀…␟), so nothing in a
/// cell can drive a terminal or break a line.
public enum TableText {
    public static let separator = " │ "

    /// The header line and the rule under it.
    public static func header(_ table: DelimitedTable) -> [String] { header(table.columns) }

    /// The header line and the rule under it, for `columns`.
    public static func header(_ columns: [TableColumn]) -> [String] {
        let names = columns.map { cell($0.name, width: $0.width, right: $0.kind.isNumeric) }.joined(separator: separator)
        let rule = columns.map { String(repeating: "─", count: $0.width) }.joined(separator: "─┼─")
        return [names, rule]
    }

    /// One line per row of `rows`.
    public static func lines(_ table: DelimitedTable, rows: Range<Int>) -> [String] {
        table.rows(rows).map { line($0, columns: table.columns) }
    }

    /// `columns` widened to the widest of `rows`' cells (at most ``TableColumn/maximumWidth``):
    /// a window of rows far into a file may hold wider values than the sample at its start.
    public static func widened(_ columns: [TableColumn], for rows: [[String]]) -> [TableColumn] {
        var widths = columns.map(\.width)
        for row in rows {
            for (index, cell) in zip(widths.indices, row) where widths[index] < TableColumn.maximumWidth {
                let count = cell.unicodeScalars.count
                if count > widths[index] { widths[index] = min(TableColumn.maximumWidth, count) }
            }
        }
        return zip(columns, widths).map { TableColumn(name: $0.name, kind: $0.kind, width: $1) }
    }

    /// One row's cells as a line.
    public static func line(_ cells: [String], columns: [TableColumn]) -> String {
        zip(cells, columns).map { cell($0, width: $1.width, right: $1.kind.isNumeric) }.joined(separator: separator)
    }

    /// `text` made safe and exactly `width` characters: padded (on the left for numbers), or
    /// cut with "…".
    public static func cell(_ text: String, width: Int, right: Bool) -> String {
        var shown = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            guard count <= width else { break }
            switch scalar.value {
            case 0x0A, 0x0D: shown.append("↵")
            case 0x09: shown.append(" ")
            case 0x00..<0x20: shown.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F, 0x80..<0xA0, 0x2028, 0x2029: shown.append("\u{FFFD}")
            default: shown.append(scalar)
            }
            count += 1
        }
        if count > width {
            shown = String.UnicodeScalarView(shown.prefix(max(0, width - 1)))
            shown.append("…")
            return String(shown)
        }
        let padding = String(repeating: " ", count: width - count)
        return right ? padding + String(shown) : String(shown) + padding
    }
}

extension TableText {
    /// Where each column starts in a line, in characters.
    public static func columnStarts(_ columns: [TableColumn]) -> [Int] {
        var starts: [Int] = []
        var start = 0
        for column in columns {
            starts.append(start)
            start += column.width + separator.count
        }
        return starts
    }

    /// `rows` ordered by `column`: numbers as numbers (a decimal comma read as a point where the
    /// separator is not a comma), anything else as written; empty cells last either way; rows
    /// that compare equal keep their order.
    public static func sorted(_ rows: [[String]], by column: Int, in table: DelimitedTable, descending: Bool) -> [[String]] {
        guard table.columns.indices.contains(column) else { return rows }
        let numeric = table.columns[column].kind.isNumeric
        let comma = table.delimiter != ","
        func number(_ cell: String) -> Double? {
            let text = cell.filter { $0 != " " }
            return Double(comma ? String(text.map { $0 == "," ? "." : $0 }) : text)
        }
        var keyed = rows.enumerated().map { (index: $0.offset, row: $0.element, number: numeric ? number($0.element[column]) : nil) }
        keyed.sort { a, b in
            let x = a.row[column], y = b.row[column]
            if x.isEmpty != y.isEmpty { return y.isEmpty }
            if numeric, let p = a.number, let q = b.number, p != q { return descending ? p > q : p < q }
            if !numeric || a.number == nil || b.number == nil, x != y { return descending ? x > y : x < y }
            return a.index < b.index
        }
        return keyed.map(\.row)
    }
}
