/// Comma-separated values laid out for reading in a monospace view: each column padded to its
/// widest cell, so that values line up under their heading. The cells are kept as written
/// (quotes, separators), only spaces are added after a separator; a line that does not parse
/// (an unterminated quote, as in a value that spans lines) leaves the whole file as it was.
public enum CSVColumns {
    /// Cells wider than this do not widen their column further (the line runs on instead).
    public static let maximumColumnWidth = 40
    /// Larger files are shown as written (padding every line would cost more than it helps).
    public static let maximumLines = 20_000

    /// `lines` aligned, or nil when they are not a table worth aligning (one column, too many
    /// lines, or a line that does not parse).
    public static func aligned(_ lines: [String], separator: Character = ",") -> [String]? {
        guard lines.count <= maximumLines else { return nil }
        var rows: [[Substring]] = []
        rows.reserveCapacity(lines.count)
        var widths: [Int] = []
        for line in lines {
            guard let cells = split(line, separator: separator) else { return nil }
            rows.append(cells)
            // The last cell of a row is not padded, so it does not count towards a width.
            for (index, cell) in cells.dropLast().enumerated() {
                let width = min(maximumColumnWidth, cell.count)
                if index < widths.count { widths[index] = max(widths[index], width) } else { widths.append(width) }
            }
        }
        guard !widths.isEmpty else { return nil }
        return rows.map { cells in
            var line = ""
            for (index, cell) in cells.enumerated() {
                line += cell
                guard index + 1 < cells.count else { break }
                line.append(separator)
                line += String(repeating: " ", count: max(0, widths[index] - cell.count) + 1)
            }
            return line
        }
    }

    /// The cells of one line as written (RFC 4180 quoting: a quoted cell may hold separators
    /// and doubled quotes); nil when a quote is left open.
    static func split(_ line: String, separator: Character) -> [Substring]? {
        var cells: [Substring] = []
        var start = line.startIndex
        var index = line.startIndex
        var quoted = false
        while index < line.endIndex {
            let character = line[index]
            if character == "\"" {
                quoted.toggle()  // a doubled quote toggles twice
            } else if character == separator && !quoted {
                cells.append(line[start..<index])
                start = line.index(after: index)
            }
            index = line.index(after: index)
        }
        if quoted { return nil }
        cells.append(line[start..<line.endIndex])
        return cells
    }
}
