import Quire

/// A Markdown file in `info --json`: its title (the first heading), its headings with their
/// levels (the outline), and its word count.
struct MarkdownRecord: Encodable {
    struct Heading: Encodable {
        var level: Int
        var text: String
    }

    var title: String?
    var headings: [Heading]
    var words: Int

    init(_ markdown: MarkdownText) {
        title = markdown.title
        headings = markdown.headings.map { Heading(level: $0.level, text: $0.text) }
        words = markdown.wordCount
    }
}
