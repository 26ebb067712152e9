/// A book's table of contents as a reader lists it: each entry's title, its depth (1 for the
/// top level) and the line of the book's text it goes to — nil when that part is not shown
/// (the text stopped early at a limit). An EPUB book gives its own (``EpubContents``); a book
/// that names none gets its chapters' headings, and says so (``isFromHeadings``).
public struct TableOfContents: Sendable, Hashable, Codable {
    public struct Entry: Sendable, Hashable, Codable {
        public var level: Int
        public var title: String
        /// The line of the text shown (``MarkdownText/lines``) the entry goes to.
        public var line: Int?

        public init(level: Int, title: String, line: Int?) {
            self.level = level
            self.title = title
            self.line = line
        }
    }

    public var entries: [Entry] = []
    /// The book lists no contents of its own: the entries are its headings.
    public var isFromHeadings = false

    /// Most entries kept, deepest level, longest title (in characters): a hostile book's
    /// contents stay a list a person can read.
    public static let maximumEntries = 4096
    public static let maximumLevel = 16
    public static let maximumTitle = 200

    public init(entries: [Entry] = [], isFromHeadings: Bool = false) {
        self.entries = entries
        self.isFromHeadings = isFromHeadings
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The headings of `text` as contents (a book that lists none of its own).
    public static func headings(of text: MarkdownText) -> TableOfContents {
        var contents = TableOfContents(isFromHeadings: true)
        for (index, line) in text.lines.enumerated() where line.kind == .heading {
            guard contents.entries.count < maximumEntries else { break }
            contents.entries.append(Entry(level: max(1, min(maximumLevel, line.level)), title: clipped(line.text), line: index))
        }
        return contents
    }

    /// A title as the list shows it: white space collapsed, at most ``maximumTitle`` characters.
    static func clipped(_ title: String) -> String {
        let words = title.split { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }.joined(separator: " ")
        return words.count > maximumTitle ? String(words.prefix(maximumTitle - 1)) + "…" : words
    }

    /// The entry a reader at `line` is in: the one going to the nearest line at or before it
    /// (of two going to the same line, the later: the deeper one).
    public func entry(at line: Int) -> Int? {
        var found: (index: Int, line: Int)?
        for (index, entry) in entries.enumerated() {
            guard let target = entry.line, target <= line else { continue }
            if found.map({ target >= $0.line }) ?? true { found = (index, target) }
        }
        return found?.index
    }
}
