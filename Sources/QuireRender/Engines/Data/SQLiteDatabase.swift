#if canImport(Glibc)
import Glibc
#endif
internal import CSQLite
import QuireSystem
import QuireTypes

/// An SQLite database opened **read-only and immutable**: the URI `file:…?mode=ro&immutable=1`
/// with `SQLITE_OPEN_READONLY | SQLITE_OPEN_URI`, so SQLite takes no lock, reads no journal or
/// WAL (a hot journal beside the file is not rolled back) and writes nothing — not the file, not
/// a `-journal`, `-wal` or `-shm` beside it, not a temporary file (`temp_store` is memory). A
/// database another program is writing is read as it is on disk.
///
/// Every statement runs against a deadline (``run(_:seconds:maximumRows:_:)``): SQLite's
/// progress handler interrupts it when its time is spent, so a hostile view (an endless
/// recursive query) or a huge table costs a bounded time. The time is the thread's processor
/// time, the work done: what is cheap (a small table counted row by row) stays cheap on a busy
/// machine, and the answer does not depend on the load (the worker's wall-clock limit still
/// bounds the whole request). The handle is closed in `deinit`.
/// Not `Sendable`: used on the thread that opened it.
final class SQLiteDatabase {
    /// One value of a row, as SQLite typed it.
    enum Value: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        /// A blob: only its length is kept.
        case blob(Int)
    }

    /// Why a statement ended without finishing.
    enum Stop: Error {
        /// Its time was spent (``SQLiteDatabase/run(_:seconds:maximumRows:_:)``'s deadline).
        case timedOut
        /// SQLite reported an error: its message and extended result code.
        case failed(String, Int32)
    }

    private static let api: quire_sqlite_api? = quire_sqlite_api_load()?.pointee

    let path: DocumentPath
    private let api: quire_sqlite_api
    private let handle: OpaquePointer
    /// The deadline the progress handler compares against (the thread's processor seconds).
    private let clock: ProgressClock

    /// Checked by SQLite's progress handler every ``ProgressClock/steps`` virtual-machine steps.
    final class ProgressClock {
        static let steps: Int32 = 1000
        var deadline = Double.infinity
        var interrupted = false
        /// The calling thread's processor time (SQLite runs a statement on the thread that
        /// steps it, where its progress handler is called too).
        static func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }

    /// The URI SQLite is given for `path` (bytes of an absolute or relative file name): `file:`,
    /// the path percent-encoded (everything but unreserved characters and `/`, so `?`, `#`, `%`
    /// and spaces in a name cannot end the path or start a parameter), then
    /// `?mode=ro&immutable=1`. An absolute path gets an empty authority (`file:///…`).
    static func readOnlyURI(path: some Sequence<UInt8>) -> String {
        let bytes = Array(path)
        // fileURL writes "file://" + the encoded path: right for an absolute path (an empty
        // authority); a relative one must not follow "//", where it would be read as a host.
        var uri = PercentEncoding.fileURL(bytes)
        if bytes.first != UInt8(ascii: "/") { uri = "file:" + uri.dropFirst("file://".count) }
        return uri + "?mode=ro&immutable=1"
    }

    /// Opens `file` read-only and immutable, through `/proc/self/fd` (the very file that was
    /// checked and opened), and reads its header: a file that is not a database, or one that is
    /// encrypted, fails here.
    init(file: InputFile) throws(DocumentError) {
        path = file.path
        guard let api = Self.api else {
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: "SQLite databases need libsqlite3 (libsqlite3-0), which is not installed")
        }
        self.api = api
        var opened: OpaquePointer?
        let uri = Self.readOnlyURI(path: file.procPath.utf8)
        let status = api.sqlite3_open_v2(uri, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened else {
            let text = opened.flatMap { api.sqlite3_errmsg($0) } ?? api.sqlite3_errstr(status)
            let message = text.map { String(cString: $0) } ?? "error \(status)"
            if let opened { _ = api.sqlite3_close_v2(opened) }
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable SQLite database (\(message))")
        }
        handle = opened
        clock = ProgressClock()
        let context = Unmanaged.passUnretained(clock).toOpaque()
        api.sqlite3_progress_handler(handle, ProgressClock.steps, { context in
            guard let context else { return 0 }
            let clock = Unmanaged<ProgressClock>.fromOpaque(context).takeUnretainedValue()
            guard ProgressClock.now() > clock.deadline else { return 0 }
            clock.interrupted = true
            return 1
        }, context)
        do {
            // Sorting and grouping in memory: SQLite writes no temporary file anywhere.
            try run("PRAGMA temp_store = MEMORY", seconds: 1) { _ in }
            try run("PRAGMA query_only = 1", seconds: 1) { _ in }
            // Reads page 1 and the schema: "file is not a database" for an encrypted one.
            try run("SELECT count(*) FROM sqlite_schema", seconds: 2) { _ in }
        } catch {
            throw failure(error, "not a readable SQLite database")
        }
    }

    deinit {
        _ = api.sqlite3_close_v2(handle)
    }

    /// A one-line error for `stop`: "not a readable SQLite database (file is not a database)".
    func failure(_ stop: Stop, _ what: String) -> DocumentError {
        switch stop {
        case .timedOut:
            return DocumentError(kind: .limitExceeded, path: path, reason: "\(what): reading it took too long")
        case .failed(let message, let code):
            // SQLITE_NOTADB (26): an encrypted database (SQLCipher, SEE) reads as this too.
            let hint = code & 0xFF == SQLITE_NOTADB ? "encrypted, or not an SQLite database: " : ""
            return DocumentError(kind: .damaged, path: path, reason: "\(what) (\(hint)\(message))")
        }
    }

    /// Runs `sql`, handing each row to `body`, for at most `seconds` and `maximumRows` rows.
    /// - Returns: whether every row was read (false when `maximumRows` stopped it).
    @discardableResult
    func run(_ sql: String, seconds: Double, maximumRows: Int = .max,
             _ body: ([Value]) -> Void) throws(Stop) -> Bool {
        var statement: OpaquePointer?
        clock.interrupted = false
        clock.deadline = ProgressClock.now() + seconds
        defer { clock.deadline = .infinity }
        let prepared = api.sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            if let statement { _ = api.sqlite3_finalize(statement) }
            throw stop(prepared)
        }
        defer { _ = api.sqlite3_finalize(statement) }
        let columns = Int(api.sqlite3_column_count(statement))
        var rows = 0
        while true {
            if rows >= maximumRows { return false }
            let status = api.sqlite3_step(statement)
            if status == SQLITE_DONE { return true }
            guard status == SQLITE_ROW else { throw stop(status) }
            rows += 1
            var values: [Value] = []
            values.reserveCapacity(columns)
            for column in 0..<Int32(columns) {
                values.append(value(statement, column))
            }
            body(values)
        }
    }

    /// The column names of a statement's result, without running it.
    func columnNames(_ sql: String) throws(Stop) -> [String] {
        var statement: OpaquePointer?
        let prepared = api.sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            if let statement { _ = api.sqlite3_finalize(statement) }
            throw stop(prepared)
        }
        defer { _ = api.sqlite3_finalize(statement) }
        return (0..<api.sqlite3_column_count(statement)).map { column in
            api.sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
        }
    }

    /// The first integer of a one-row query, nil when it has no row or the value is not an integer.
    func integer(_ sql: String, seconds: Double) throws(Stop) -> Int64? {
        var result: Int64?
        try run(sql, seconds: seconds, maximumRows: 1) { row in
            if case .integer(let value)? = row.first { result = value }
        }
        return result
    }

    /// The first text of a one-row query.
    func text(_ sql: String, seconds: Double) throws(Stop) -> String? {
        var result: String?
        try run(sql, seconds: seconds, maximumRows: 1) { row in
            if case .text(let value)? = row.first { result = value }
        }
        return result
    }

    /// Longest text kept of one value (a megabyte-long text cell is cut, not copied whole).
    static let maximumTextBytes = 4096

    private func value(_ statement: OpaquePointer, _ column: Int32) -> Value {
        switch api.sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(api.sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(api.sqlite3_column_double(statement, column))
        case SQLITE_BLOB: return .blob(Int(api.sqlite3_column_bytes(statement, column)))
        case SQLITE_TEXT:
            guard let text = api.sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(api.sqlite3_column_bytes(statement, column))
            let kept = UnsafeBufferPointer(start: text, count: min(count, Self.maximumTextBytes))
            return .text(String(decoding: kept, as: UTF8.self))
        default: return .null
        }
    }

    private func stop(_ status: Int32) -> Stop {
        if status & 0xFF == SQLITE_INTERRUPT && clock.interrupted { return .timedOut }
        let message = api.sqlite3_errmsg(handle).map { String(cString: $0) } ?? "error \(status)"
        return .failed(message, api.sqlite3_extended_errcode(handle))
    }

    /// `name` as an SQL identifier: in double quotes, inner quotes doubled.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    /// `text` as an SQL string literal: in single quotes, inner quotes doubled.
    static func literal(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }
}
