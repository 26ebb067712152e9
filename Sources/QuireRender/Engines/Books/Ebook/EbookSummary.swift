import QuireTypes

/// What `info` and the card say of an EPUB book: its title and author (the package document's),
/// the chapters read of its reading order, its words, and its table of contents.
public struct EbookSummary: Sendable, Hashable, Codable {
    public var title: String?
    public var author: String?
    public var chapters: Int
    /// The text stopped before the book's end (at a limit): the rest is not shown.
    public var isCut: Bool
    public var words: Int
    public var contents: TableOfContents

    init(_ book: EpubBook) {
        title = book.text.title
        author = book.author
        chapters = book.chapters
        isCut = book.isCut
        words = book.text.wordCount
        contents = book.contents
    }

    /// - Throws: ``DocumentError`` as opening the book does (not an EPUB, DRM, limits).
    public static func read(_ file: InputFile, limits: RenderLimits = .standard) throws(DocumentError) -> EbookSummary {
        EbookSummary(try EpubBook(file: file, limits: limits))
    }

    /// Why the book in `file` cannot be shown or printed (DRM), nil when it can (or is no
    /// readable EPUB: opening it says why); read from the container, nothing laid out.
    public static func protection(of file: InputFile, limits: RenderLimits = .standard) -> String? {
        EpubBook.protection(of: file, limits: limits)
    }

    /// The card's facts: author, chapters, words, and how many entries the contents have.
    public var details: [CardRow] {
        var details: [CardRow] = []
        if let author { details.append(CardRow("Author", author)) }
        details.append(CardRow("Chapters", "\(chapters)" + (isCut ? " (the rest is not shown)" : "")))
        details.append(CardRow("Words", "\(words)"))
        if !contents.isEmpty {
            details.append(CardRow("Contents", contents.entries.count == 1 ? "1 entry" : "\(contents.entries.count) entries"
                                          + (contents.isFromHeadings ? " (the book's headings)" : "")))
        }
        return details
    }
}
