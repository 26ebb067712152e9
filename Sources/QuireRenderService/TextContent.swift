

/// A text, source, Markdown or CSV file as lines of text, for viewers that show text as text
/// (not as pictures of pages). Decoded as UTF-8 (invalid bytes become U+FFFD), tabs expanded to
/// 8 columns, other control characters shown as visible symbols so they cannot drive a terminal.
public struct TextContent: Sendable, Hashable {
    public let lines: [String]
    /// Whether the file was cut at the text byte limit.
    public let isTruncated: Bool
    /// For a delimited table (CSV, TSV) shown as text: its header and columns; the lines are
    /// its rows.
    public var table: TableLayout?

    /// Lines already decoded and made safe to show.
    public init(lines: [String], isTruncated: Bool = false, table: TableLayout? = nil) {
        self.lines = lines
        self.isTruncated = isTruncated
        self.table = table
    }

    public init(bytes: [UInt8], isTruncated: Bool = false) {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var lines: [String] = []
        var current = ""
        var column = 0
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if previousWasCR && scalar != "\n" {
                lines.append(current); current = ""; column = 0
            }
            previousWasCR = false
            switch scalar.value {
            case 0x0A:
                lines.append(current); current = ""; column = 0
            case 0x0D:
                previousWasCR = true
            case 0x09:
                let spaces = 8 - column % 8
                current += String(repeating: " ", count: spaces)
                column += spaces
            case 0x00..<0x20:
                current.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)  // ␀…␟
                column += 1
            case 0x7F, 0x80..<0xA0:
                current.unicodeScalars.append("\u{FFFD}")
                column += 1
            default:
                current.unicodeScalars.append(scalar)
                column += 1
            }
        }
        if previousWasCR || !current.isEmpty { lines.append(current) }
        self.lines = lines
        self.isTruncated = isTruncated
    }

    public var lineCount: Int { lines.count }
}
