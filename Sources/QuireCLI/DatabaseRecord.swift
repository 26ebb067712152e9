import Quire

/// An SQLite database in `info --json`: its tables and views with their columns and row
/// counts (`rowsEstimated`: the count is an estimate, "about"), page size and count, encoding.
struct DatabaseRecord: Encodable {
    struct Column: Encodable {
        var name: String
        var type: String
    }

    struct Table: Encodable {
        var name: String
        var kind: String
        var columns: [Column]
        var rows: Int64?
        var rowsEstimated: Bool
        var problem: String?
    }

    var tables: [Table]
    var tableCount: Int
    var viewCount: Int
    var pageSize: Int
    var pageCount: Int64
    var encoding: String
    var userVersion: Int64?
    /// "-journal" or "-wal" when such a file lies beside the database.
    var journal: String?
    /// Why the list stopped early, when it did.
    var truncation: String?

    init(_ summary: DatabaseSummary) {
        tables = summary.tables.map { table in
            Table(name: table.name, kind: table.isView ? "view" : "table",
                  columns: table.columns.map { Column(name: $0.name, type: $0.type) },
                  rows: table.rows, rowsEstimated: table.rowsAreEstimated, problem: table.problem)
        }
        tableCount = summary.tableCount
        viewCount = summary.viewCount
        pageSize = summary.pageSize
        pageCount = summary.pageCount
        encoding = summary.encoding
        userVersion = summary.userVersion
        journal = summary.journal
        truncation = summary.truncation
    }
}
