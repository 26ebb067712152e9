/// What `quire info` says of a delimited table: its rows (exact, or "about" when counting them
/// all would take longer than the card may), its columns with their guessed kinds, separator,
/// header and encoding. Encoded as `table` in `info --json` (field names stable).
public struct TableInfo: Sendable, Hashable, Codable {
    public let rows: Int
    /// False when ``rows`` is an estimate from the part of the file counted.
    public let rowsExact: Bool
    public let columns: [TableColumn]
    /// `comma`, `semicolon`, `tab` or `pipe`.
    public let delimiter: String
    public let header: Bool
    /// `UTF-8`, `UTF-8 with BOM`, `UTF-16 LE`, `UTF-16 BE` or `Latin-1`.
    public let encoding: String
    /// Why the table ends before the file (a row longer than 1 MiB), when it does.
    public let cut: String?

    /// Seconds `info` spends counting rows before it says "about".
    public static let countingBudget = 0.15

    /// The table's facts, counting rows for up to `budget` seconds.
    public init(_ table: DelimitedTable, budget: Double = TableInfo.countingBudget) {
        let count = table.countRows(budget: budget)
        rows = count.rows
        rowsExact = count.isExact
        columns = table.columns
        delimiter = table.delimiterName
        header = table.hasHeader
        encoding = table.encoding.rawValue
        cut = table.stopReason
    }

    /// "1,234 rows" or "about 10,000,000 rows".
    public var rowsDescription: String { TableRowCount(rows: rows, isExact: rowsExact).description }
}
