/// A request the open document cannot meet (a page past its last): a usage error, exit 64,
/// reported on one line with the file as every other error about a file is. The parser's own
/// usage errors come before any document is open and are printed with the usage text.
struct DocumentUsageError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "\(path): \(reason)" }

    /// "there is no page 9 (the document has 3 pages)".
    static func noPage(_ page: Int, of pageCount: Int, path: String) -> DocumentUsageError {
        DocumentUsageError(path: path, reason: "there is no page \(page) (the document has \(pageCount) page\(pageCount == 1 ? "" : "s"))")
    }
}
