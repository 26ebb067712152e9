/// A whole table's rows in the order of one column: an index of every row's place in the file
/// (8 bytes a row: 80 MB for 10 million rows), sorted by the column's typed key — numbers as
/// numbers (a decimal comma read as a point where the separator is not a comma), anything else
/// by its characters (UTF-8 order, as written) — empty cells last either way, rows that compare
/// equal in file order. Windows of the sorted table (``rows(_:)``) are read through it.
///
/// Built in one pass over the file (``init(table:column:descending:progress:)``) and one sort:
/// each row is kept as a 128-bit key (the number, or the cell's first fifteen bytes and whether
/// more follow) beside where the row is (24 bytes a row while sorting), so only rows whose
/// first fifteen bytes agree read their cells again to compare. A UTF-8 row without quotes is
/// not decoded: its cell's bytes are read from the mapping (``TableScanner/plainCell(_:column:)``).
public final class TableSortOrder: Sendable {
    public let column: Int
    public let descending: Bool
    /// Each row's record in sorted order: its offset in the file (high 42 bits) and length
    /// (low 20 bits: a record is at most 1 MiB).
    private let records: [UInt64]
    private let table: DelimitedTable

    /// The rows sorted (under the header).
    public var count: Int { records.count }

    static let lengthBits: UInt64 = 20
    static let lengthMask: UInt64 = (1 << 20) - 1
    static let offsetMask: UInt64 = (1 << 62) - 1

    /// One row while sorting: its key (a number; or text's first fifteen bytes, then whether
    /// more follow), and its class (number, other text, empty: 2 high bits) over where it is.
    private struct Entry {
        var key: UInt64
        var key2: UInt64
        var place: UInt64
        var rank: UInt64 { place >> 62 }
    }

    /// Sorts `table` by `column`. `progress` is called now and then with the share done (0…1);
    /// returning false stops the sort (nil is returned then).
    public init?(table: DelimitedTable, column: Int, descending: Bool, progress: (Double) -> Bool = { _ in true }) {
        self.table = table
        self.column = column
        self.descending = descending
        let numeric = table.columns.indices.contains(column) && table.columns[column].kind.isNumeric
        let comma = table.delimiter != ","
        let scanner = table.scanner
        let total = table.countAllRows().rows
        var entries: [Entry] = []
        entries.reserveCapacity(total)
        var row = 0
        var released = 0
        let batch = 4096
        while row < total {
            guard progress(0.8 * Double(row) / Double(max(1, total))) else { return nil }
            let records = table.records(row..<min(total, row + batch))
            guard !records.isEmpty else { break }
            for record in records {
                let place = UInt64(record.lowerBound) << Self.lengthBits | UInt64(min(record.count, Int(Self.lengthMask)))
                // UTF-8 without quotes: the cell's bytes from the mapping; else the decoded cell.
                if let bytes = scanner.plainCell(record, column: column) {
                    entries.append(Self.entry(bytes, place: place, numeric: numeric, comma: comma, descending: descending))
                } else {
                    let cells = scanner.cells(record)
                    var cell = column < cells.count ? cells[column] : ""
                    let entry = cell.withUTF8 { Self.entry(UnsafeRawBufferPointer($0), place: place, numeric: numeric, comma: comma, descending: descending) }
                    entries.append(entry)
                }
            }
            row += records.count
            // The pages passed are not needed again (a gigabyte is not kept resident).
            table.releasePages(released..<records[0].lowerBound)
            released = max(released, records[0].lowerBound)
        }
        guard progress(0.8) else { return nil }
        // Ties of keys: the cells' whole text decides (only text longer than fifteen bytes ties).
        func text(_ place: UInt64) -> [UInt8] {
            let offset = Int((place & Self.offsetMask) >> Self.lengthBits), length = Int(place & Self.lengthMask)
            if let bytes = scanner.plainCell(offset..<(offset + length), column: column) { return Array(bytes) }
            let cells = scanner.cells(offset..<(offset + length))
            return column < cells.count ? Array(cells[column].utf8) : []
        }
        entries.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if a.key != b.key { return a.key < b.key }
            if a.key2 != b.key2 { return a.key2 < b.key2 }
            if a.rank < 2, (descending ? ~a.key2 : a.key2) & 1 == 1, !(numeric && a.rank == 0) {
                let x = text(a.place), y = text(b.place)
                if x != y { return descending ? y.lexicographicallyPrecedes(x) : x.lexicographicallyPrecedes(y) }
            }
            return a.place & Self.offsetMask < b.place & Self.offsetMask
        }
        records = entries.map { $0.place & Self.offsetMask }
        _ = progress(1)
    }

    /// A row's key: a number's bits in an order-preserving form, or text's first fifteen UTF-8
    /// bytes and a last bit saying whether more follow; inverted for a descending order.
    private static func entry(_ cell: UnsafeRawBufferPointer, place: UInt64, numeric: Bool, comma: Bool, descending: Bool) -> Entry {
        if cell.isEmpty { return Entry(key: 0, key2: 0, place: 2 << 62 | place) }
        if numeric, let number = number(String(decoding: cell.prefix(64), as: UTF8.self), comma: comma) {
            let bits = number.bitPattern
            let ordered = bits >> 63 == 1 ? ~bits : bits | 1 << 63
            return Entry(key: descending ? ~ordered : ordered, key2: 0, place: place)
        }
        var key: UInt64 = 0, key2: UInt64 = 0
        for (index, byte) in cell.prefix(15).enumerated() {
            if index < 8 { key |= UInt64(byte) << (56 - 8 * UInt64(index)) } else { key2 |= UInt64(byte) << (56 - 8 * UInt64(index - 8)) }
        }
        if cell.count > 15 { key2 |= 1 }
        return Entry(key: descending ? ~key : key, key2: descending ? ~key2 : key2, place: (numeric ? 1 << 62 : 0) | place)
    }

    /// A number as ``TableText/sorted(_:by:in:descending:)`` reads it (spaces dropped).
    static func number(_ cell: String, comma: Bool) -> Double? {
        let text = cell.filter { $0 != " " }
        guard let number = Double(comma ? String(text.map { $0 == "," ? "." : $0 }) : text), !number.isNaN else { return nil }
        return number
    }

    /// Where the row at `position` of the sorted order starts in the file.
    func recordStart(_ position: Int) -> Int { Int(records[position] >> Self.lengthBits) }

    /// The records of rows `range` of the sorted order (fewer at its end).
    func records(_ range: Range<Int>) -> [Range<Int>] {
        records[range.clamped(to: 0..<records.count)].map { place in
            let offset = Int(place >> Self.lengthBits)
            return offset..<(offset + Int(place & Self.lengthMask))
        }
    }

    /// Rows `range` of the sorted order (fewer at its end), each with one cell per column.
    public func rows(_ range: Range<Int>) -> [[String]] {
        let wanted = range.clamped(to: 0..<records.count)
        let scanner = table.scanner
        return records[wanted].map { place in
            let offset = Int(place >> Self.lengthBits), length = Int(place & Self.lengthMask)
            return table.fitted(scanner.cells(offset..<(offset + length)))
        }
    }

    /// The rows from `first` whose records fit in `byteLimit` bytes (one at least, unless the
    /// order ends before `first`): a window of the sorted table.
    public func rowRange(from first: Int, byteLimit: Int) -> Range<Int> {
        var end = max(0, first), bytes = 0
        while end < records.count {
            bytes += Int(records[end] & Self.lengthMask) + 1
            if bytes > byteLimit && end > first { break }
            end += 1
        }
        return min(first, records.count)..<end
    }

    /// Where the window that ends with the last row starts (its records fit in `byteLimit`).
    public func lastWindowStart(byteLimit: Int) -> Int {
        var first = records.count, bytes = 0
        while first > 0 {
            bytes += Int(records[first - 1] & Self.lengthMask) + 1
            if bytes > byteLimit && first < records.count { break }
            first -= 1
        }
        return first
    }
}
