#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// What an SQLite database holds, read without changing a byte of it (``SQLiteDatabase``): its
/// tables and views with their columns and row counts, page size and count, text encoding.
///
/// Row counts are exact where counting is cheap — each table gets a slice of a fixed time
/// budget (``countBudget``), up to ``maximumCounted`` rows — and otherwise estimated: from `sqlite_stat1` (what `ANALYZE`
/// recorded), else from the largest rowid (one b-tree descent); an estimate is said as one
/// (``Table/rowsAreEstimated``: "about").
public struct DatabaseSummary: Sendable, Hashable, Codable {
    public struct Column: Sendable, Hashable, Codable {
        public let name: String
        /// The declared type ("INTEGER", "TEXT"), empty when none was declared.
        public let type: String
    }

    public struct Table: Sendable, Hashable, Codable {
        public let name: String
        public let isView: Bool
        public var columns: [Column]
        /// Rows: exact, estimated (``rowsAreEstimated``) or unknown (nil).
        public var rows: Int64?
        public var rowsAreEstimated: Bool
        /// Why the table could not be read (a damaged page), when it could not.
        public var problem: String?
    }

    public var pageSize: Int
    public var pageCount: Int64
    /// "UTF-8", "UTF-16le" or "UTF-16be".
    public var encoding: String
    /// The database's own version number (`PRAGMA user_version`), when not 0.
    public var userVersion: Int64?
    public var tables: [Table]
    /// Why the list stops early (more than ``maximumTables``).
    public var truncation: String?
    /// A rollback journal or write-ahead log beside the file ("-journal", "-wal"): another
    /// program may be writing it; what is shown is the file as it is on disk.
    public var journal: String?

    /// Most tables and views listed.
    public static let maximumTables = 1000
    /// Most columns read of one table (SQLite's own default limit is 2000).
    public static let maximumColumns = 2000
    /// Seconds of work (processor time, ``SQLiteDatabase/ProgressClock``) spent counting rows
    /// exactly, over all tables; each table gets at most ``countSlice`` of it, then its count is
    /// estimated.
    static let countBudget = 0.08
    static let countSlice = 0.03
    /// Most rows counted one by one; a larger table's count is estimated.
    static let maximumCounted: Int64 = 1_000_000

    /// Reads the summary of `file`.
    /// - Throws: ``DocumentError``: `damaged` for a file that is not a readable database
    ///   (encrypted, corrupt header or schema), `limitExceeded` when the schema itself takes too long.
    public static func read(_ file: InputFile) throws(DocumentError) -> DatabaseSummary {
        try read(SQLiteDatabase(file: file), besides: file.path)
    }

    static func read(_ database: SQLiteDatabase, besides path: DocumentPath) throws(DocumentError) -> DatabaseSummary {
        var summary: DatabaseSummary
        do throws(SQLiteDatabase.Stop) {
            summary = DatabaseSummary(
                pageSize: Int(try database.integer("PRAGMA page_size", seconds: 1) ?? 0),
                pageCount: try database.integer("PRAGMA page_count", seconds: 1) ?? 0,
                encoding: try database.text("PRAGMA encoding", seconds: 1) ?? "UTF-8",
                userVersion: try database.integer("PRAGMA user_version", seconds: 1).flatMap { $0 == 0 ? nil : $0 },
                tables: [])
            var listed: [(String, Bool)] = []
            let complete = try database.run(
                "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type = 'view', name",
                seconds: 2, maximumRows: maximumTables) { row in
                if case .text(let name) = row[0], case .text(let type) = row[1] { listed.append((name, type == "view")) }
            }
            if !complete { summary.truncation = "only the first \(maximumTables) tables and views are listed" }
            summary.tables = listed.map { Table(name: $0.0, isView: $0.1, columns: [], rows: nil, rowsAreEstimated: false) }
        } catch {
            throw database.failure(error, "not a readable SQLite database")
        }
        let hasStatistics = (try? database.integer(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'", seconds: 0.5)) != nil
        let started = SQLiteDatabase.ProgressClock.now()
        for index in summary.tables.indices {
            let name = summary.tables[index].name
            do throws(SQLiteDatabase.Stop) {
                var columns: [Column] = []
                try database.run("PRAGMA table_info(\(SQLiteDatabase.quoted(name)))", seconds: 0.5,
                                 maximumRows: maximumColumns) { row in
                    guard row.count >= 3, case .text(let column) = row[1] else { return }
                    var type = ""
                    if case .text(let declared) = row[2] { type = declared }
                    columns.append(Column(name: column, type: type))
                }
                summary.tables[index].columns = columns
            } catch {
                summary.tables[index].problem = describe(error)
                continue
            }
            let left = countBudget - (SQLiteDatabase.ProgressClock.now() - started)
            if left > 0.001 {
                do throws(SQLiteDatabase.Stop) {
                    // Row by row, so the progress handler can stop it (a bare count(*) is one
                    // virtual-machine step however long the table), and at most maximumCounted.
                    let counted = try database.integer(
                        "SELECT count(*) FROM (SELECT 1 FROM \(SQLiteDatabase.quoted(name)) LIMIT \(maximumCounted + 1))",
                        seconds: min(countSlice, left))
                    if let counted, counted <= maximumCounted {
                        summary.tables[index].rows = counted
                        continue
                    }
                } catch {
                    if case .failed = error {
                        summary.tables[index].problem = describe(error)
                        continue
                    }
                }
            }
            guard !summary.tables[index].isView else { continue }
            summary.tables[index].rows = estimate(name, in: database, statistics: hasStatistics)
            summary.tables[index].rowsAreEstimated = summary.tables[index].rows != nil
        }
        summary.journal = journalBeside(path)
        return summary
    }

    /// A table's row count without counting: `sqlite_stat1`'s first number for it (rows when
    /// `ANALYZE` ran), else its largest rowid (exact for a table never deleted from).
    static func estimate(_ table: String, in database: SQLiteDatabase, statistics: Bool) -> Int64? {
        if statistics, let stat = try? database.text(
            "SELECT stat FROM sqlite_stat1 WHERE tbl = \(SQLiteDatabase.literal(table)) LIMIT 1", seconds: 0.01),
           let first = stat.split(separator: " ").first, let rows = Int64(first) {
            return rows
        }
        return try? database.integer("SELECT max(rowid) FROM \(SQLiteDatabase.quoted(table))", seconds: 0.01)
    }

    static func describe(_ stop: SQLiteDatabase.Stop) -> String {
        switch stop {
        case .timedOut: return "reading it took too long"
        case .failed(let message, _): return message
        }
    }

    /// "-journal" or "-wal" when such a file lies beside `path` (`lstat`, nothing opened).
    static func journalBeside(_ path: DocumentPath) -> String? {
        for suffix in ["-wal", "-journal"] {
            var status = stat()
            let name = path.bytes + Array(suffix.utf8) + [0]
            let found = name.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &status) == 0 }
            }
            if found { return suffix }
        }
        return nil
    }

    /// The journal note for people: "a -journal file lies beside it (another program may be
    /// writing it): shown as it is on disk".
    public var journalNote: String? {
        journal.map { "a \($0) file lies beside it (another program may be writing it): shown as it is on disk" }
    }

    public var tableCount: Int { tables.count { !$0.isView } }
    public var viewCount: Int { tables.count { $0.isView } }

    /// "1,234 rows", "about 1,234 rows", "rows unknown".
    public static func rowsText(_ table: Table) -> String {
        guard let rows = table.rows else { return table.problem == nil ? "rows unknown" : "unreadable" }
        return (table.rowsAreEstimated ? "about " : "") + ArchiveListingText.grouped(Int(rows)) + (rows == 1 ? " row" : " rows")
    }
}
