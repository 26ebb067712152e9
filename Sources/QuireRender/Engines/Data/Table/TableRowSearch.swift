#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireGIO

/// Rows of a table that hold a word (any cell; case and accents folded as ``TextFolding``
/// folds them): a viewer's find going on past the window of rows it shows. A UTF-8 row of
/// ASCII only without quotes — most rows of most files — is searched in its bytes, without
/// being decoded; any other row is decoded and its cells folded.
public struct TableRowSearch {
    let table: DelimitedTable
    let order: TableSortOrder?
    let needle: [Unicode.Scalar]
    /// The folded word's bytes, when it is ASCII and holds neither the separator nor a quote.
    let asciiNeedle: [UInt8]?

    /// A search of `table`'s rows in `order` (the file's order when nil) for `query`.
    public init(table: DelimitedTable, order: TableSortOrder?, query: String) {
        self.table = table
        self.order = order
        needle = TextFolding(query.unicodeScalars).scalars
        let separator = UInt8(truncatingIfNeeded: table.delimiter.value)
        asciiNeedle = needle.allSatisfy(\.isASCII) && !needle.isEmpty
            && !needle.contains { $0.value == UInt32(separator) || $0 == "\"" } ? needle.map { UInt8($0.value) } : nil
    }

    /// The rows among `range` (in the order) that hold the word, at most `limit`, stopping at
    /// `deadline` (a monotonic time, ``DelimitedTable/now()``); and the row to go on from
    /// (`range.upperBound`, or further, when the table ends before it).
    public func rows(in range: Range<Int>, limit: Int, deadline: Double) -> (matches: [Int], next: Int) {
        let scanner = table.scanner
        var matches: [Int] = []
        var row = range.lowerBound
        while row < range.upperBound {
            let batch = row..<min(range.upperBound, row + 512)
            let records = order?.records(batch) ?? table.records(batch)
            for record in records {
                if holds(record, scanner) {
                    matches.append(row)
                    if matches.count >= limit { return (matches, row + 1) }
                }
                row += 1
            }
            if records.count < batch.count { return (matches, range.upperBound) }  // the table ends
            if DelimitedTable.now() >= deadline { break }
        }
        return (matches, row)
    }

    /// Where the rows that hold the word start in the file, found in file order from row
    /// `from` until `deadline` (pages given back as it goes), into `starts`: a sorted order's
    /// rows are then matched by where they are, not read all over the file. Returns the row to
    /// go on from, nil when the file is done. Stops (returns nil) when `starts` passes `limit`:
    /// so many rows are close together in any order, reading rows in the order finds one soon.
    public func matchingRecords(from: Int, into starts: inout Set<Int>, limit: Int, deadline: Double) -> (next: Int?, overflow: Bool) {
        let scanner = table.scanner
        var row = from
        var released = 0
        while true {
            let records = table.records(row..<(row + 4096))
            for record in records where holds(record, scanner) {
                starts.insert(record.lowerBound)
                if starts.count > limit { return (nil, true) }
            }
            guard let first = records.first else { return (nil, false) }
            if released == 0 { released = first.lowerBound }
            table.releasePages(released..<first.lowerBound)
            released = max(released, first.lowerBound)
            row += records.count
            if records.count < 4096 { return (nil, false) }
            if DelimitedTable.now() >= deadline { return (row, false) }
        }
    }

    /// Every row that holds the word (``matchingRecords(from:into:limit:deadline:)`` at once).
    public func matchingRecords(limit: Int) -> Set<Int>? {
        var starts = Set<Int>()
        let (_, overflow) = matchingRecords(from: 0, into: &starts, limit: limit, deadline: .infinity)
        return overflow ? nil : starts
    }

    /// The positions among `range` of the order whose rows start at one of `starts`
    /// (``matchingRecords(limit:)``), at most `limit`; and the position to go on from.
    public func rows(in range: Range<Int>, among starts: Set<Int>, limit: Int) -> (matches: [Int], next: Int) {
        guard let order else { return ([], range.upperBound) }
        var matches: [Int] = []
        let end = min(range.upperBound, order.count)
        var position = range.lowerBound
        while position < end {
            if starts.contains(order.recordStart(position)) {
                matches.append(position)
                if matches.count >= limit { return (matches, position + 1) }
            }
            position += 1
        }
        return (matches, range.upperBound)
    }

    private func holds(_ record: Range<Int>, _ scanner: TableScanner) -> Bool {
        if let ascii = asciiNeedle, let bytes = scanner.plainASCII(record) {
            return Self.contains(bytes, ascii)
        }
        // One folding of the whole row, its cells apart (U+001F is in no word looked for).
        let cells = scanner.cells(record)
        return !TextFolding(cells.joined(separator: "\u{1F}").unicodeScalars).ranges(of: needle).isEmpty
    }

    /// Whether `haystack`, with A–Z read as a–z, holds `needle` (lower case).
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return false }
        let last = haystack.count - needle.count
        var index = 0
        while index <= last {
            var byte = haystack[index]
            if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
            if byte == first {
                var matched = 1
                while matched < needle.count {
                    var next = haystack[index + matched]
                    if next >= 0x41 && next <= 0x5A { next += 0x20 }
                    guard next == needle[matched] else { break }
                    matched += 1
                }
                if matched == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}
