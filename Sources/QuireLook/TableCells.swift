import QuireRenderService

/// A table the render worker gave as lines of characters, cut back into cells for the window's
/// column view: a delimited table's rows (``TableLayout``: cells padded to their column and
/// separated by " │ ", numbers right-aligned) or a database table opened from its list (box
/// rules: `┌─┬─┐`, `│ a │ b │`, `├─┼─┤`, …, `└─┴─┘`). Cells come back trimmed; a cell the
/// worker cut to its column's width keeps its "…".
struct TableCells: Sendable, Equatable {
    var names: [String]
    /// Whether each column holds numbers (drawn right-aligned, sorted as numbers).
    var numeric: [Bool]
    /// Rows already cut into cells (a database table's first rows).
    var rows: [[String]]
    /// Rows as the worker's lines, cut into cells only when a cell is drawn or copied (a
    /// delimited table's window: tens of thousands of rows, a few dozen in view).
    var lines: [String] = []
    var starts: [Int] = []
    /// Lines around the table (a database table's heading and columns, "(no rows)"…).
    var notes: [String] = []

    /// A delimited table's window of rows: `lines` cut at `starts` when needed.
    init(names: [String], numeric: [Bool], lines: [String], starts: [Int]) {
        self.names = names
        self.numeric = numeric
        rows = []
        self.lines = lines
        self.starts = starts
    }

    init(names: [String], numeric: [Bool], rows: [[String]], notes: [String] = []) {
        self.names = names
        self.numeric = numeric
        self.rows = rows
        self.notes = notes
    }

    var rowCount: Int { lines.isEmpty ? rows.count : lines.count }

    /// Row `index`'s cells.
    func row(_ index: Int) -> [String] {
        lines.isEmpty ? rows[index] : Self.cells(of: lines[index], starts: starts)
    }

    /// One cell ("" past the row's end).
    func cell(_ index: Int, _ column: Int) -> String {
        guard lines.isEmpty else { return Self.cell(of: lines[index], starts: starts, column: column) }
        let row = rows[index]
        return column < row.count ? row[column] : ""
    }

    /// Column `column`'s cell of a delimited table's line.
    static func cell(of line: String, starts: [Int], column: Int) -> String {
        guard starts.indices.contains(column) else { return "" }
        let scalars = line.unicodeScalars
        let start = starts[column]
        let end = column + 1 < starts.count ? max(start, starts[column + 1] - 3) : Int.max
        guard let from = scalars.index(scalars.startIndex, offsetBy: start, limitedBy: scalars.endIndex) else { return "" }
        let to = end == Int.max ? scalars.endIndex : (scalars.index(from, offsetBy: end - start, limitedBy: scalars.endIndex) ?? scalars.endIndex)
        return trimmed(String(scalars[from..<to]))
    }

    /// The cells of a delimited table's line (one of ``TextContent/lines``), by the layout's
    /// column starts (in Unicode scalars, as ``TableText`` pads them).
    static func cells(of line: String, starts: [Int]) -> [String] {
        let scalars = Array(line.unicodeScalars)
        var cells: [String] = []
        cells.reserveCapacity(starts.count)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? max(start, starts[index + 1] - 3) : scalars.count
            guard start < scalars.count else { cells.append(""); continue }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[start..<min(end, scalars.count)])
            cells.append(trimmed(String(view)))
        }
        return cells
    }

    /// Which columns of a delimited table hold numbers: ``TableText`` pads a numeric column's
    /// cells (and its name) on the left, text on the right.
    static func numericColumns(header: String?, lines: [String], starts: [Int]) -> [Bool] {
        var votes = [(left: Int, right: Int)](repeating: (0, 0), count: starts.count)
        for line in ([header].compactMap { $0 } + lines.prefix(200)) {
            let scalars = Array(line.unicodeScalars)
            for (index, start) in starts.enumerated() {
                let end = index + 1 < starts.count ? starts[index + 1] - 3 : scalars.count
                guard start < end, end <= scalars.count else { continue }
                let first = scalars[start] == " ", last = scalars[end - 1] == " "
                if first && !last { votes[index].left += 1 } else if last && !first { votes[index].right += 1 }
            }
        }
        return votes.map { $0.left > 0 && $0.left >= $0.right }
    }

    /// A database table as ``DatabaseText`` writes it (its heading and columns, then a table in
    /// box rules, then notes such as "(no rows)"); nil when the lines hold no boxed table.
    static func database(lines: [String]) -> TableCells? {
        guard let top = lines.firstIndex(where: { $0.hasPrefix("┌") }),
              let bottom = lines[top...].firstIndex(where: { $0.hasPrefix("└") }), bottom >= top + 3 else { return nil }
        // The column boundaries: where the top rule has ┬ (in Characters, as the box was padded).
        let rule = Array(lines[top])
        var bounds = [0]
        for (index, character) in rule.enumerated() where character == "┬" || character == "┐" { bounds.append(index) }
        func split(_ line: String) -> [String] {
            let characters = Array(line)
            return (0..<(bounds.count - 1)).map { column in
                let from = bounds[column] + 1, to = min(bounds[column + 1], characters.count)
                return from < to ? trimmed(String(characters[from..<to])) : ""
            }
        }
        let names = split(lines[top + 1])
        var rows: [[String]] = []
        // Right-aligned (numbers): padded on the left of the cell's margins, never on its right.
        var leftPadded = [Int](repeating: 0, count: names.count), rightPadded = leftPadded
        for line in lines[(top + 3)..<bottom] {
            rows.append(split(line))
            let characters = Array(line)
            for column in 0..<(bounds.count - 1) {
                let from = bounds[column] + 2, to = min(bounds[column + 1] - 1, characters.count)
                guard from < to else { continue }
                let cell = characters[from..<to]
                guard cell.contains(where: { $0 != " " }) else { continue }
                if cell.first == " " { leftPadded[column] += 1 }
                if cell.last == " " { rightPadded[column] += 1 }
            }
        }
        let numeric = zip(leftPadded, rightPadded).map { $0 > 0 && $1 == 0 }
        let notes = Array(lines[..<top]) + Array(lines[(bottom + 1)...])
        return TableCells(names: names, numeric: numeric, rows: rows, notes: notes.filter { !$0.isEmpty })
    }

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
