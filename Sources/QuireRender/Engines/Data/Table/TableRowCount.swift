/// How many rows a table has, as far as it is counted: exact once the whole file is scanned,
/// else an estimate from the rows found in the bytes scanned so far ("about").
public struct TableRowCount: Sendable, Hashable {
    public let rows: Int
    public let isExact: Bool

    public init(rows: Int, isExact: Bool) {
        self.rows = rows
        self.isExact = isExact
    }

    /// "1,234 rows" or "about 10,000,000 rows" (estimates rounded to two significant digits).
    public var description: String {
        let noun = rows == 1 ? "row" : "rows"
        return isExact ? "\(Self.grouped(rows)) \(noun)" : "about \(Self.grouped(Self.rounded(rows))) \(noun)"
    }

    /// `value` to two significant digits (12,345 → 12,000).
    static func rounded(_ value: Int) -> Int {
        var unit = 1
        while value / unit >= 100 { unit *= 10 }
        return (value + unit / 2) / unit * unit
    }

    /// `value` with thousands separated by commas ("10,000,000").
    public static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
