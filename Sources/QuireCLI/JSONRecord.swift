import Quire

/// A JSON or JSON Lines document in `info --json`: its top-level kind ("object", "array",
/// "string"…, "JSON Lines"), keys/items/records, nesting depth — or, when it is not JSON, where
/// (1-based line and column) and why.
struct JSONRecord: Encodable {
    struct SyntaxErrorRecord: Encodable {
        var line: Int
        var column: Int
        var message: String
    }

    var topLevel: String?
    var count: Int?
    var depth: Int?
    var truncated: Bool
    var lines: Bool
    var syntaxError: SyntaxErrorRecord?

    init(_ summary: JSONSummary) {
        if let error = summary.error {
            syntaxError = SyntaxErrorRecord(line: error.line, column: error.column, message: error.message)
        } else {
            topLevel = summary.topLevel
            count = summary.count
            depth = summary.depth
        }
        truncated = summary.isTruncated
        lines = summary.isLines
    }
}
