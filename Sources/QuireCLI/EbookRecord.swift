import Quire

/// An EPUB book in `info --json`: `title` and `author` (its package document's), `chapters`
/// (read of its reading order), `cut` (the text stops before the book's end, at a limit),
/// `words`, and `contents`: the book's own table of contents in order, each `{level, title,
/// line}` (`level` 1 for the top; `line` counted from 1 in the text `preview` and `look` show,
/// absent when that part is not shown); `contentsFromHeadings` when the book lists none and
/// its headings stand in.
struct EbookRecord: Encodable {
    struct Entry: Encodable {
        var level: Int
        var title: String
        var line: Int?
    }

    var title: String?
    var author: String?
    var chapters: Int
    var cut: Bool
    var words: Int
    var contents: [Entry]
    var contentsFromHeadings: Bool

    init(_ book: EbookSummary) {
        title = book.title
        author = book.author
        chapters = book.chapters
        cut = book.isCut
        words = book.words
        contents = book.contents.entries.map { Entry(level: $0.level, title: $0.title, line: $0.line.map { $0 + 1 }) }
        contentsFromHeadings = book.contents.isFromHeadings
    }
}
