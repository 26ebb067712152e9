/// What a table column holds, guessed from a sample of its cells: numbers (right-aligned, sorted
/// as numbers), dates (sorted as written in ISO order when they are ISO), or text.
public enum ColumnKind: String, Sendable, Hashable, Codable, CaseIterable {
    case integer
    case decimal
    case date
    case text

    /// Whether the column's cells are right-aligned (numbers).
    public var isNumeric: Bool { self == .integer || self == .decimal }

    /// The narrowest kind `cell` fits, nil for an empty cell (which fits any kind).
    /// - Parameter decimalComma: a comma may be the decimal mark (the file is not comma-separated).
    static func of(_ cell: String, decimalComma: Bool) -> ColumnKind? {
        let scalars = Array(cell.unicodeScalars.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        guard !scalars.isEmpty else { return nil }
        if let number = number(scalars, decimalComma: decimalComma) { return number }
        if isDate(scalars) { return .date }
        return .text
    }

    /// The kind a column of cells of kinds `kinds` has: the narrowest that every non-empty cell
    /// fits (integer within decimal); text when none or when the kinds disagree.
    static func common(_ kinds: some Sequence<ColumnKind>) -> ColumnKind {
        var result: ColumnKind?
        for kind in kinds {
            switch (result, kind) {
            case (nil, _): result = kind
            case (.integer?, .decimal), (.decimal?, .integer): result = .decimal
            case (let current?, _) where current == kind: break
            default: return .text
            }
        }
        return result ?? .text
    }

    /// Integer: an optional sign and digits. Decimal: digits with one decimal mark, and/or an
    /// exponent.
    private static func number(_ scalars: [Unicode.Scalar], decimalComma: Bool) -> ColumnKind? {
        var index = 0
        if scalars[0] == "-" || scalars[0] == "+" { index = 1 }
        var digits = 0, marks = 0, exponent = false
        while index < scalars.count {
            let scalar = scalars[index]
            if ("0"..."9").contains(scalar) {
                digits += 1
            } else if scalar == "." || (decimalComma && scalar == ",") {
                guard marks == 0, !exponent else { return nil }
                marks += 1
            } else if (scalar == "e" || scalar == "E"), digits > 0, !exponent {
                exponent = true
                // The exponent needs digits of its own, after an optional sign.
                if index + 1 < scalars.count, scalars[index + 1] == "-" || scalars[index + 1] == "+" { index += 1 }
                guard index + 1 < scalars.count else { return nil }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        return marks == 0 && !exponent ? .integer : .decimal
    }

    /// `YYYY-MM-DD` (optionally followed by a time), `DD/MM/YYYY`, `MM/DD/YYYY`, `DD.MM.YYYY`.
    private static func isDate(_ scalars: [Unicode.Scalar]) -> Bool {
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for index in range {
                guard let digit = scalars[index].properties.numericType == .decimal ? Int(String(scalars[index])) : nil,
                      scalars[index].isASCII else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        if scalars.count >= 10, scalars[4] == "-", scalars[7] == "-",
           let _ = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
           (1...12).contains(month), (1...31).contains(day) {
            // A date alone, or followed by a time ("2024-03-01T12:30", "2024-03-01 12:30:00").
            guard scalars.count > 10 else { return true }
            return (scalars[10] == "T" || scalars[10] == " ") && scalars.count >= 16 && digits(11..<13) != nil
                && scalars[13] == ":" && digits(14..<16) != nil
        }
        if scalars.count == 10, scalars[2] == scalars[5], scalars[2] == "/" || scalars[2] == ".",
           let first = digits(0..<2), let second = digits(3..<5), let _ = digits(6..<10) {
            return (1...31).contains(first) && (1...31).contains(second) && (first <= 12 || second <= 12)
        }
        return false
    }
}
