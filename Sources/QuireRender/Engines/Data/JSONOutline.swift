/// A JSON document (or JSON Lines: one value a line) pretty-printed, two spaces an indent, with
/// what each line is in the tree: its depth, its label in a path (`.name`, `["odd key"]`,
/// `[3]`) and, for a line that opens an object or array, the line that closes it — what a viewer
/// needs to fold nodes and copy a node's path (``path(of:)``: `.items[3].name`) without parsing.
///
/// Bounded: at most ``maximumBytes`` are read (a larger file is shown up to there, its open
/// objects and arrays closed, and said truncated), at most ``maximumLines`` lines are made, and
/// nesting deeper than ``maximumDepth`` is an error (the parser recurses once per level).
public struct JSONOutline: Sendable, Hashable {
    public struct Line: Sendable, Hashable {
        /// Nesting depth (0: the top-level value, or a JSON Lines record).
        public let depth: Int
        /// The line's part of a path: `.name`, `["a key"]`, `[3]`; empty for the top-level value
        /// and for closing lines.
        public let label: String
        /// For a line that opens a non-empty object or array: the index of its closing line.
        public let end: Int?
        /// For an opening line: how many keys (object) or items (array) it holds.
        public let count: Int
        /// Whether it opens an object (`{`) rather than an array.
        public let isObject: Bool

        public init(depth: Int, label: String, end: Int?, count: Int = 0, isObject: Bool = false) {
            self.depth = depth
            self.label = label
            self.end = end
            self.count = count
            self.isObject = isObject
        }
    }

    /// Why the bytes are not JSON: where (1-based line and column) and what was expected.
    public struct SyntaxError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    public var text: [String] = []
    public var lines: [Line] = []
    /// "object", "array", "string", "number", "true", "false", "null"; "JSON Lines" for records.
    public var topLevel = ""
    /// Keys of the top-level object, items of the top-level array, or JSON Lines records.
    public var topLevelCount = 0
    /// The deepest nesting (a scalar at the top: 0; `{"a": [1]}`: 2).
    public var depth = 0
    /// Whether the file was longer than what was read or shown.
    public var isTruncated = false
    public var isLines = false

    public init() {}

    public static let maximumBytes = 16 << 20
    public static let maximumLines = 500_000
    public static let maximumDepth = 512
    /// Longest string or number shown whole on its line.
    static let maximumTokenBytes = 4096

    /// The path of line `index`'s node: `.items[3].name`; `.` for the top-level value.
    public func path(of index: Int) -> String {
        guard lines.indices.contains(index) else { return "." }
        var index = index
        // A closing line is its opener's node.
        if lines[index].label.isEmpty, lines[index].depth > 0 || isLines,
           let opener = (0..<index).last(where: { lines[$0].end == index }) {
            index = opener
        }
        var parts = [lines[index].label]
        var depth = lines[index].depth
        var line = index
        while depth > 0 && line > 0 {
            line -= 1
            if lines[line].depth == depth - 1, let end = lines[line].end, end > index {
                parts.append(lines[line].label)
                depth -= 1
            }
        }
        let path = parts.reversed().joined()
        return path.hasPrefix("[") || path.hasPrefix(".") ? path : "." + path
    }

    /// `key` as a path part: `.key` when it is an identifier, else `["key"]` (JSON-quoted).
    static func label(forKey key: String) -> String {
        let scalars = key.unicodeScalars
        let isIdentifier = !scalars.isEmpty && scalars.allSatisfy { $0 == "_" || $0 == "$" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
            && !("0"..."9").contains(scalars.first!)
        if isIdentifier { return "." + key }
        var quoted = "[\""
        for scalar in scalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\"]"
    }

    /// Parses `bytes` (the first bytes of the file; `truncated`: there are more) as JSON, or as
    /// JSON Lines when `lines` is set.
    public static func parse(_ bytes: [UInt8], truncated: Bool = false, lines: Bool = false) throws(SyntaxError) -> JSONOutline {
        var parser = JSONOutlineParser(bytes: bytes, truncated: truncated)
        do throws(JSONOutlineParser.Stop) {
            try parser.document(lines: lines)
        } catch {
            switch error {
            case .syntax(let syntax): throw syntax
            case .cut: parser.closeOpen()
            }
        }
        var outline = parser.outline
        outline.isLines = lines
        return outline
    }
}

/// The recursive-descent parser behind ``JSONOutline/parse(_:truncated:lines:)``.
struct JSONOutlineParser {
    enum Stop: Error {
        case syntax(JSONOutline.SyntaxError)
        /// The bytes (or the line budget) ran out in a file that goes on: close what is open.
        case cut
    }

    let bytes: [UInt8]
    let truncated: Bool
    var position = 0
    var outline = JSONOutline()
    /// Opening lines not closed yet (their indices), innermost last, with their item counts.
    private var open: [(line: Int, count: Int)] = []

    init(bytes: [UInt8], truncated: Bool) {
        self.bytes = bytes
        self.truncated = truncated
        // A byte-order mark is not JSON but is common.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    mutating func document(lines: Bool) throws(Stop) {
        if lines {
            outline.topLevel = "JSON Lines"
            var record = 0
            while true {
                skipBlankLines()
                guard position < bytes.count else { break }
                try value(depth: 0, label: "[\(record)]", suffix: "")
                record += 1
                outline.topLevelCount = record
                skipSpaces()
                if position < bytes.count, bytes[position] != 0x0A && bytes[position] != 0x0D {
                    throw fail("expected the end of the line after a record")
                }
            }
            return
        }
        skipWhitespace()
        guard position < bytes.count else { throw fail("the file holds no JSON value") }
        try value(depth: 0, label: "", suffix: "")
        skipWhitespace()
        if position < bytes.count { throw fail("unexpected text after the JSON value") }
    }

    /// The 1-based line and column of `position`.
    func location(_ at: Int) -> (Int, Int) {
        var line = 1, column = 1
        for byte in bytes[0..<min(at, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    func fail(_ message: String) -> Stop {
        if position >= bytes.count && truncated { return .cut }
        let (line, column) = location(position)
        let found = position < bytes.count ? message : message + " (the file ends here)"
        return .syntax(JSONOutline.SyntaxError(line: line, column: column, message: found))
    }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
    }

    mutating func skipBlankLines() {
        skipWhitespace()
    }

    private mutating func append(_ text: String, _ line: JSONOutline.Line) throws(Stop) {
        guard outline.text.count < JSONOutline.maximumLines else {
            outline.isTruncated = true
            throw .cut
        }
        outline.text.append(text)
        outline.lines.append(line)
    }

    /// Closes every object and array still open (the input was cut), marking where.
    mutating func closeOpen() {
        outline.isTruncated = true
        if outline.text.count < JSONOutline.maximumLines + 64 {
            outline.text.append(String(repeating: "  ", count: open.count) + "… (the rest is not shown)")
            outline.lines.append(JSONOutline.Line(depth: open.count, label: "", end: nil))
        }
        while let (line, count) = open.popLast() {
            let opener = outline.lines[line]
            outline.text.append(String(repeating: "  ", count: opener.depth) + (opener.isObject ? "}" : "]"))
            outline.lines.append(JSONOutline.Line(depth: opener.depth, label: "", end: nil))
            outline.lines[line] = JSONOutline.Line(depth: opener.depth, label: opener.label, end: outline.lines.count - 1,
                                                   count: count, isObject: opener.isObject)
        }
    }

    /// One value at `depth`, written on the lines after `prefix` (a key: `"name": `).
    private mutating func value(depth: Int, label: String, prefix: String = "", suffix: String) throws(Stop) {
        guard depth <= JSONOutline.maximumDepth else { throw fail("nested deeper than \(JSONOutline.maximumDepth) levels") }
        outline.depth = max(outline.depth, depth)
        skipWhitespace()
        guard position < bytes.count else { throw fail("expected a value") }
        let indent = String(repeating: "  ", count: depth)
        let byte = bytes[position]
        if depth == 0 && outline.topLevel.isEmpty {
            outline.topLevel = byte == UInt8(ascii: "{") ? "object" : byte == UInt8(ascii: "[") ? "array"
                : byte == UInt8(ascii: "\"") ? "string" : byte == UInt8(ascii: "t") ? "true"
                : byte == UInt8(ascii: "f") ? "false" : byte == UInt8(ascii: "n") ? "null" : "number"
        }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = byte == UInt8(ascii: "{")
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == close {
                position += 1
                try append(indent + prefix + (isObject ? "{}" : "[]") + suffix, JSONOutline.Line(depth: depth, label: label, end: nil))
                return
            }
            let opener = outline.lines.count
            try append(indent + prefix + (isObject ? "{" : "["), JSONOutline.Line(depth: depth, label: label, end: nil, isObject: isObject))
            open.append((opener, 0))
            var index = 0
            while true {
                skipWhitespace()
                var childPrefix = ""
                var childLabel = "[\(index)]"
                if isObject {
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                        throw fail(index == 0 ? "expected a key in quotes" : "expected a key in quotes after ','")
                    }
                    let (raw, key) = try string()
                    childLabel = JSONOutline.label(forKey: key)
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':' after the key") }
                    position += 1
                    childPrefix = raw + ": "
                }
                // The comma goes on the child's last line: look ahead past the value.
                let childLine = outline.lines.count
                try value(depth: depth + 1, label: childLabel, prefix: childPrefix, suffix: "")
                index += 1
                open[open.count - 1].count = index
                if depth == 0 { outline.topLevelCount = index }
                skipWhitespace()
                guard position < bytes.count else { throw fail(isObject ? "expected ',' or '}'" : "expected ',' or ']'") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    outline.text[outline.text.count - 1] += ","
                    _ = childLine
                    continue
                }
                guard bytes[position] == close else { throw fail(isObject ? "expected ',' or '}'" : "expected ',' or ']'") }
                position += 1
                break
            }
            open.removeLast()
            try append(indent + (isObject ? "}" : "]") + suffix, JSONOutline.Line(depth: depth, label: "", end: nil))
            outline.lines[opener] = JSONOutline.Line(depth: depth, label: label, end: outline.lines.count - 1,
                                                     count: index, isObject: isObject)
        case UInt8(ascii: "\""):
            let (raw, _) = try string()
            try append(indent + prefix + raw + suffix, JSONOutline.Line(depth: depth, label: label, end: nil))
        default:
            let start = position
            while position < bytes.count, !([0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(bytes[position])) {
                position += 1
            }
            if position >= bytes.count && truncated { throw .cut }
            let token = String(decoding: bytes[start..<position], as: UTF8.self)
            guard ["true", "false", "null"].contains(token) || Self.isNumber(token) else {
                position = start
                throw fail(token.isEmpty ? "expected a value" : "not a JSON value: \(token.prefix(20))")
            }
            try append(indent + prefix + Self.cut(token) + suffix, JSONOutline.Line(depth: depth, label: label, end: nil))
        }
    }

    static func cut(_ token: String) -> String {
        token.utf8.count <= JSONOutline.maximumTokenBytes ? token : String(token.prefix(JSONOutline.maximumTokenBytes)) + "…"
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumber(_ token: String) -> Bool {
        var scalars = Array(token.utf8)[...]
        func digits() -> Int {
            var count = 0
            while let first = scalars.first, (0x30...0x39).contains(first) { scalars.removeFirst(); count += 1 }
            return count
        }
        if scalars.first == UInt8(ascii: "-") { scalars.removeFirst() }
        if scalars.first == UInt8(ascii: "0") { scalars.removeFirst() } else if digits() == 0 { return false }
        if scalars.first == UInt8(ascii: ".") { scalars.removeFirst(); if digits() == 0 { return false } }
        if scalars.first == UInt8(ascii: "e") || scalars.first == UInt8(ascii: "E") {
            scalars.removeFirst()
            if scalars.first == UInt8(ascii: "+") || scalars.first == UInt8(ascii: "-") { scalars.removeFirst() }
            if digits() == 0 { return false }
        }
        return scalars.isEmpty
    }

    /// A string at `position`: as written (cut when long) and decoded.
    private mutating func string() throws(Stop) -> (raw: String, decoded: String) {
        let start = position
        position += 1
        var decoded: [UInt8] = []
        while true {
            guard position < bytes.count else { throw fail("the string is not closed") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { position += 1; break }
            if byte < 0x20 { throw fail("a control character in a string (write it as \\u00\(byte < 16 ? "0" : "")\(String(byte, radix: 16)))") }
            if byte == UInt8(ascii: "\\") {
                guard position + 1 < bytes.count else { throw fail("the string is not closed") }
                let escaped = bytes[position + 1]
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard position + 5 < bytes.count,
                          let code = UInt32(String(decoding: bytes[(position + 2)...(position + 5)], as: UTF8.self), radix: 16) else {
                        throw fail("\\u needs four hexadecimal digits")
                    }
                    position += 4
                    // Surrogates stand for U+FFFD here (the decoded key is only a path label).
                    decoded += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                default:
                    throw fail("unknown escape \\\(Character(Unicode.Scalar(escaped)))")
                }
                position += 2
                continue
            }
            decoded.append(byte)
            position += 1
        }
        let raw = String(decoding: bytes[start..<position], as: UTF8.self)
        return (Self.cut(raw), String(decoding: decoded, as: UTF8.self))
    }
}
