import QuireRender

/// A delimited table shown as text (``TextContent/table``): the lines that stay on top while
/// the rows scroll (the header's names and a rule), where each column starts in a line (in
/// characters, for scrolling by column), what the rows are sorted by, and how many rows the
/// file holds as far as the worker had counted them (the lines may be only the first of them).
public struct TableLayout: Sendable, Hashable {
    public let header: [String]
    public let columnStarts: [Int]
    public let columnNames: [String]
    public let sort: TableSort?
    /// "about 10,000,000 rows" or "500 rows".
    public let fileRows: String
    /// The table's row (0-based, under the header) the first line is: a large table is shown a
    /// window of rows at a time (``DocumentRequest/tableWindow``).
    public let firstRow: Int
    /// The file's rows, when they are counted (else the lines may be only the first of them).
    public let totalRows: Int?
    /// The whole file is being sorted (``sort``) in the worker: the percentage done. No rows
    /// come with it; the viewer asks again until they do.
    public var sortProgress: Int? = nil

    public init(header: [String], columnStarts: [Int], columnNames: [String], sort: TableSort?, fileRows: String,
                firstRow: Int = 0, totalRows: Int? = nil) {
        self.header = header
        self.columnStarts = columnStarts
        self.columnNames = columnNames
        self.sort = sort
        self.fileRows = fileRows
        self.firstRow = firstRow
        self.totalRows = totalRows
    }

    static let maximumColumns = DelimitedTable.maximumColumns

    func write(to writer: inout WireWriter) {
        writer.integer(Int64(header.count))
        for line in header { writer.string(line) }
        writer.integer(Int64(columnStarts.count))
        for (start, name) in zip(columnStarts, columnNames) {
            writer.integer(Int64(start))
            writer.string(name)
        }
        writer.integer(Int64(sort?.column ?? -1))
        writer.integer(sort?.descending == true ? 1 : 0)
        writer.string(fileRows)
        writer.integer(Int64(firstRow))
        writer.integer(Int64(totalRows ?? -1))
        writer.integer(Int64(sortProgress ?? -1))
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let lines = try reader.count(atMost: 16)
        var header: [String] = []
        for _ in 0..<lines { header.append(try reader.string()) }
        self.header = header
        let columns = try reader.count(atMost: Self.maximumColumns)
        var starts: [Int] = [], names: [String] = []
        for _ in 0..<columns {
            let start = try reader.integer()
            guard start >= 0 else { throw WireReader.Malformed() }
            starts.append(Int(start))
            names.append(try reader.string())
        }
        columnStarts = starts
        columnNames = names
        let column = try reader.integer(), descending = try reader.integer() == 1
        sort = column >= 0 ? TableSort(column: Int(column), descending: descending) : nil
        fileRows = try reader.string()
        let first = try reader.integer(), total = try reader.integer()
        guard first >= 0, total >= -1 else { throw WireReader.Malformed() }
        firstRow = Int(first)
        totalRows = total >= 0 ? Int(total) : nil
        let progress = try reader.integer()
        guard progress >= -1, progress <= 100 else { throw WireReader.Malformed() }
        sortProgress = progress >= 0 ? Int(progress) : nil
    }
}

/// The order a table's rows are shown in: by one column, ascending or descending (numbers as
/// numbers, dates and text as written).
public struct TableSort: Sendable, Hashable {
    public let column: Int
    public let descending: Bool

    public init(column: Int, descending: Bool) {
        self.column = column
        self.descending = descending
    }
}
