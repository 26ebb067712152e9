#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import QuireTypes
import Synchronization

/// A delimited text file (CSV, TSV, `;`- or `|`-separated) read as a table: the file is mapped,
/// its encoding, separator and header detected and its columns typed from a sample of the first
/// rows — all from the first few hundred kilobytes, whatever the file's size. Rows are found on
/// demand (``TableRowIndex``): asking for the first screen never waits for the rest, and the
/// row count is an estimate ("about") until a count (``countRows(budget:)``,
/// ``startCounting()``) has passed the whole file.
///
/// Bounded on hostile input: a record longer than 1 MiB (a gigabyte line, a quote never closed)
/// ends the table before it (``stopReason``); a row's cells past 1024 and a cell's characters
/// past 4096 are dropped; a file whose first 64 KiB hold more than 1 % NUL bytes is not a table.
public final class DelimitedTable: Sendable {
    public let path: DocumentPath
    public let encoding: TableEncoding
    /// The separator: `,` `;` tab or `|`.
    public let delimiter: Unicode.Scalar
    /// Whether the first row names the columns (it is not counted among the rows).
    public let hasHeader: Bool
    public let columns: [TableColumn]
    let index: TableRowIndex
    private let counter = Mutex<JoinableThread?>(nil)

    /// Most columns a table has (cells past them are dropped).
    public static let maximumColumns = TableScanner.maximumCells

    /// Bytes the sample (encoding, separator, header, column kinds and widths) is read from.
    static let sampleBytes = 256 << 10
    /// Rows sampled for kinds and widths.
    static let sampleRows = 200

    /// The separators tried, in order of preference when they score alike.
    static let delimiters: [Unicode.Scalar] = [",", ";", "\t", "|"]

    /// Opens `file` as a table.
    /// - Parameter tabSeparated: the content type says tab-separated (tab wins a tie).
    /// - Throws: ``DocumentError``: `damaged` for binary data (NUL bytes), `limitExceeded` when
    ///   the first row is longer than 1 MiB.
    public init(file: InputFile, tabSeparated: Bool = false) throws(DocumentError) {
        path = file.path
        let mapped = try MappedFile(file)
        let bytes = mapped.bytes
        let sample = UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.sampleBytes))
        let encoding = TableEncoding.detect(UnsafeRawBufferPointer(rebasing: sample.prefix(64 << 10)))
        self.encoding = encoding
        if encoding.unitWidth == 1 {
            let nuls = sample.prefix(64 << 10).count { $0 == 0 }
            if nuls > 16 && nuls * 100 > min(sample.count, 64 << 10) {
                throw DocumentError(kind: .damaged, path: file.path,
                                    reason: "not delimited text: \(nuls) NUL bytes in its first \(min(sample.count, 64 << 10)) bytes (binary data)")
            }
        }
        let preferred = tabSeparated ? ["\t"] + Self.delimiters.filter { $0 != "\t" } : Self.delimiters
        let delimiter = Self.detectDelimiter(in: sample, encoding: encoding, candidates: preferred)
        self.delimiter = delimiter
        // The sample's rows: the records that start within the sample (read whole, as long as
        // they are: a record is at most 1 MiB).
        let scanner = TableScanner(bytes: bytes, encoding: encoding, delimiter: UInt16(delimiter.value))
        var rows: [[String]] = []
        var offset = scanner.start
        while rows.count < Self.sampleRows + 1, offset < Self.sampleBytes, let record = scanner.record(from: offset) {
            guard case .row(let range, let next) = record else {
                guard rows.isEmpty else { break }
                throw DocumentError(kind: .limitExceeded, path: file.path,
                                    reason: "its first line is longer than \(TableScanner.maximumRecordBytes >> 20) MiB: not a table to show")
            }
            offset = next
            if !range.isEmpty { rows.append(scanner.cells(range)) }
        }
        let decimalComma = delimiter != ","
        hasHeader = Self.detectHeader(rows, decimalComma: decimalComma)
        columns = Self.columns(of: rows, hasHeader: hasHeader, decimalComma: decimalComma)
        index = TableRowIndex(file: mapped, encoding: encoding, delimiter: UInt16(delimiter.value))
    }

    deinit {
        index.cancel()
        counter.withLock { $0 }?.join()
    }

    /// Whether a file of `type` named `path` is read as a table: CSV and TSV (and their
    /// subtypes), and plain text named `.psv` or `.tab` (shared-mime-info knows neither name).
    public static func applies(to type: ContentType, path: DocumentPath) -> Bool {
        if type.conforms(to: "text/csv") || type.conforms(to: "text/tab-separated-values") { return true }
        guard type.mimeType == "text/plain" else { return false }
        let name = path.bytes.split(separator: UInt8(ascii: "/")).last.map { String(decoding: $0, as: UTF8.self).lowercased() } ?? ""
        return name.hasSuffix(".psv") || name.hasSuffix(".tab")
    }

    /// The facts a card shows: rows, columns with their kinds, separator, encoding.
    public func details(rows: TableRowCount) -> [CardRow] {
        var details = [CardRow("Rows", rows.description),
                       CardRow("Columns", "\(columns.count): " + columns.prefix(12).map { "\($0.name) (\($0.kind.rawValue))" }.joined(separator: ", ")
                                        + (columns.count > 12 ? ", …" : "")),
                       CardRow("Separator", delimiterName + (hasHeader ? ", header row" : ", no header row")),
                       CardRow("Encoding", encoding.rawValue)]
        if let stopReason { details.append(CardRow("Cut", stopReason)) }
        return details
    }

    /// The separator's name ("comma", "semicolon", "tab", "pipe").
    public var delimiterName: String {
        switch delimiter {
        case ";": "semicolon"
        case "\t": "tab"
        case "|": "pipe"
        default: "comma"
        }
    }

    /// Rows `range` (0 is the first row under the header), each with one cell per column
    /// (missing cells empty, extra cells dropped). Fewer rows at the end of the table.
    public func rows(_ range: Range<Int>) -> [[String]] {
        let scanner = self.scanner
        return records(range).map { fitted(scanner.cells($0)) }
    }

    /// The byte ranges of rows `range`'s records (fewer at the end of the table).
    func records(_ range: Range<Int>) -> [Range<Int>] {
        let first = hasHeader ? 1 : 0
        return index.records((range.lowerBound + first)..<(range.upperBound + first))
    }

    /// Gives the file's pages in `range` back to the kernel (never the first chunk, which is
    /// what a viewer shows first): a pass over a gigabyte does not keep it resident.
    /// Pass the range read since the last call: the kernel walks every page of the range given.
    func releasePages(_ range: Range<Int>) {
        let kept = max(range.lowerBound, TableRowIndex.chunkBytes)
        guard range.upperBound > kept else { return }
        index.file.release(kept..<range.upperBound)
    }

    /// Gives every page of the file past the first chunk back to the kernel.
    public func releasePages() { releasePages(0..<index.file.count) }

    /// A reader of this file's records and cells.
    var scanner: TableScanner { TableScanner(bytes: index.file.bytes, encoding: encoding, delimiter: UInt16(delimiter.value)) }

    /// A row's cells, one per column: missing cells empty, extra cells dropped.
    func fitted(_ row: [String]) -> [String] {
        var cells = row
        if cells.count > columns.count { cells.removeLast(cells.count - columns.count) }
        while cells.count < columns.count { cells.append("") }
        return cells
    }

    /// How many rows (under the header) start within the first `bytes` of the file, and
    /// whether that is every row: what is shown when only so much of a file is laid out.
    public func rowCount(within bytes: Int) -> (rows: Int, isAll: Bool) {
        let within = index.rowCount(within: bytes)
        return (max(0, within.rows - (hasHeader ? 1 : 0)), within.isAll)
    }

    /// The rows from `first` (0: the first under the header) that fit in `byteLimit` bytes of
    /// the file (one at least, unless the table ends before `first`): a window of a large table.
    public func rowRange(from first: Int, byteLimit: Int) -> Range<Int> {
        let offset = hasHeader ? 1 : 0
        var end = first
        var bytes = 0
        while true {
            let records = index.records((end + offset)..<(end + offset + 1024))
            for record in records {
                bytes += record.count + 1
                if bytes > byteLimit && end > first { return first..<end }
                end += 1
            }
            if records.count < 1024 { return first..<end }
        }
    }

    /// Counts every row here (the end of a table is wanted): exact.
    public func countAllRows() -> TableRowCount {
        while index.advance() {}
        return rowCount
    }

    /// The rows counted so far: exact when the whole file is scanned, else estimated from the
    /// share of the file scanned.
    public var rowCount: TableRowCount {
        let progress = index.progress
        let records = max(0, progress.rows - (hasHeader ? 1 : 0))
        if progress.isComplete { return TableRowCount(rows: records, isExact: true) }
        let start = encoding.markLength
        let scanned = max(1, progress.scanned - start), total = max(1, index.file.count - start)
        return TableRowCount(rows: Int(Double(records) * Double(total) / Double(scanned)), isExact: false)
    }

    /// Why the table ends before the file does (a record over 1 MiB), nil when it does not (or
    /// it is not known yet).
    public var stopReason: String? {
        guard let stopped = index.progress.stopped else { return nil }
        return "the table stops at byte \(stopped): a row longer than \(TableScanner.maximumRecordBytes >> 20) MiB follows (a line without end, or a quote never closed)"
    }

    /// Counts rows here for up to `budget` seconds (`info`): the count is exact if the file was
    /// passed in that time.
    public func countRows(budget: Double) -> TableRowCount {
        let started = Self.now()
        while index.advance() {
            if Self.now() - started >= budget { break }
        }
        return rowCount
    }

    /// Counts every row on a thread of its own, at a lower priority (the viewers: "about"
    /// becomes exact while the first screen is already shown, without taking the processor
    /// from the window drawing it). Stops when the table is closed.
    public func startCounting() {
        counter.withLock { counter in
            guard counter == nil else { return }
            let index = self.index
            counter = JoinableThread(stackSize: 256 << 10) {
                JoinableThread.lowerCurrentPriority()
                while !index.isCancelled && index.advance() {}
            }
        }
    }

    /// A monotonic clock in seconds.
    public static func now() -> Double { MonotonicClock.seconds() }

    /// The separator that splits the sample's first records into the same number of cells most
    /// consistently (then into the most cells); the first candidate when none splits them.
    static func detectDelimiter(in sample: UnsafeRawBufferPointer, encoding: TableEncoding,
                                candidates: [Unicode.Scalar]) -> Unicode.Scalar {
        var best: (candidate: Unicode.Scalar, consistency: Int, cells: Int)?
        for candidate in candidates {
            let scanner = TableScanner(bytes: sample, encoding: encoding, delimiter: UInt16(candidate.value))
            var counts: [Int] = []
            var offset = scanner.start
            while counts.count < 50, offset < min(scanner.end, scanner.start + (64 << 10)),
                  let record = scanner.record(from: offset), case .row(let range, let next) = record {
                offset = next
                if !range.isEmpty { counts.append(scanner.cellCount(range)) }
            }
            var frequency: [Int: Int] = [:]
            for count in counts { frequency[count, default: 0] += 1 }
            guard let (cells, times) = frequency.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }),
                  cells > 1 else { continue }
            // Consistency in tenths: a few odd rows do not lose to a separator found in prose.
            let consistency = times * 10 / counts.count
            if best == nil || consistency > best!.consistency || (consistency == best!.consistency && cells > best!.cells) {
                best = (candidate, consistency, cells)
            }
        }
        return best?.candidate ?? candidates[0]
    }

    /// Whether the first row is a header: no empty cell, none a number or date, and a column
    /// below it holds numbers or dates — or, all text, its names are distinct and none recurs
    /// in its column below.
    static func detectHeader(_ rows: [[String]], decimalComma: Bool) -> Bool {
        guard let first = rows.first else { return false }
        let kinds = first.map { ColumnKind.of($0, decimalComma: decimalComma) }
        guard !kinds.contains(where: { $0 == nil || $0 != .text }) else { return false }
        let body = rows.dropFirst()
        guard !body.isEmpty else { return false }
        for column in first.indices {
            let below = ColumnKind.common(body.compactMap { $0.indices.contains(column) ? ColumnKind.of($0[column], decimalComma: decimalComma) : nil })
            if below != .text && !body.allSatisfy({ !$0.indices.contains(column) || $0[column].isEmpty }) { return true }
        }
        guard Set(first).count == first.count else { return false }
        for (column, name) in first.enumerated() where body.contains(where: { $0.indices.contains(column) && $0[column] == name }) {
            return false
        }
        return true
    }

    /// Columns named, typed and sized from the sampled rows.
    static func columns(of rows: [[String]], hasHeader: Bool, decimalComma: Bool) -> [TableColumn] {
        let count = max(1, rows.map(\.count).max() ?? 1)
        let body = hasHeader ? Array(rows.dropFirst()) : rows
        return (0..<count).map { column in
            let name = hasHeader && column < rows[0].count ? rows[0][column] : "Column \(column + 1)"
            let cells = body.map { column < $0.count ? $0[column] : "" }
            let kind = ColumnKind.common(cells.compactMap { ColumnKind.of($0, decimalComma: decimalComma) })
            let widest = cells.reduce(hasHeader ? name.count : 1) { max($0, $1.count) }
            return TableColumn(name: name, kind: kind, width: min(TableColumn.maximumWidth, max(1, widest)))
        }
    }
}
