/// One XHTML chapter of an EPUB book made into ``MarkdownText`` lines — a reader's view, not a
/// browser: headings (`h1`…`h6`), paragraphs and block `div`s, list items with a bullet, block
/// quotes with a bar, preformatted text as code, emphasis, strong text and links as styles, and
/// images (`img`, SVG `image`) as pictures the book itself holds. Scripts, styles and the head
/// are skipped; nothing the chapter names outside the book is loaded; entities beyond XML's own,
/// numeric ones and `&nbsp;` are shown as they are. Tokens come from ``XMLScan/tokens(_:_:)``.
struct XHTMLChapter {
    /// Reads the book's picture at `href` (relative to the chapter), nil when it has none.
    typealias PictureReader = (String) -> [UInt8]?

    private(set) var lines: [MarkdownText.Line] = []
    private var current = ""
    private var currentCount = 0
    private var runs: [MarkdownText.Run] = []
    private var styles: [MarkdownText.Style] = []
    private var kind: MarkdownText.Line.Kind = .body
    private var level = 0
    private var prefix = ""
    private var skipping = 0
    private var preformatted = 0
    private var quoteDepth = 0
    private(set) var headings: [(level: Int, text: String)] = []
    private(set) var words = 0
    /// The line each element's `id` is at (the first of each name): where a link to
    /// `chapter.xhtml#id`, a table of contents' entry, goes.
    private(set) var anchors: [String: Int] = [:]

    static let blockTags: Set<String> = ["p", "div", "section", "article", "header", "footer", "aside", "nav", "figure",
                                         "figcaption", "table", "tr", "dl", "dt", "dd", "ul", "ol", "body", "main", "hr"]

    init(_ bytes: [UInt8], maximumLines: Int, pictures: PictureReader) {
        var chapter = self
        XMLScan.tokens(bytes) { token in
            switch token {
            case .text(let text, let isCData):
                if chapter.skipping == 0 {
                    let raw = String(String.UnicodeScalarView(text))
                    chapter.write(isCData ? raw : XMLScan.unescape(raw).replacingNonBreakingSpaces())
                }
            case .tag(let name, let closing, let selfClosing, let attributes):
                chapter.handle(name.lowercased(), closing: closing, selfClosing: selfClosing, attributes: attributes, pictures: pictures)
                if !closing, chapter.skipping == 0, let id = attributes["id"], chapter.anchors[id] == nil,
                   chapter.anchors.count < TableOfContents.maximumEntries {
                    chapter.anchors[id] = chapter.lines.count
                }
            }
            return chapter.lines.count < maximumLines
        }
        chapter.endBlock()
        self = chapter
    }

    private mutating func handle(_ name: String, closing: Bool, selfClosing: Bool, attributes: [String: String], pictures: PictureReader) {
        switch name {
        case "script", "style", "head", "title":
            if closing { skipping = max(0, skipping - 1) } else if !selfClosing { skipping += 1 }
        case _ where skipping > 0:
            return
        case "h1", "h2", "h3", "h4", "h5", "h6":
            endBlock()
            if !closing { kind = .heading; level = Int(String(name.dropFirst())) ?? 1 }
        case "li":
            endBlock()
            if !closing { write("• ", .dim) }
        case "blockquote":
            endBlock()
            quoteDepth = max(0, quoteDepth + (closing ? -1 : 1))
        case "pre":
            endBlock()
            preformatted = max(0, preformatted + (closing ? -1 : 1))
        case "br":
            endBlock(keepKind: true)
        case "em", "i", "cite": style(.italic, closing: closing, selfClosing: selfClosing)
        case "strong", "b": style(.bold, closing: closing, selfClosing: selfClosing)
        case "code", "tt", "kbd": style(.code, closing: closing, selfClosing: selfClosing)
        case "a": style(.link, closing: closing, selfClosing: selfClosing)
        case "img", "image":
            guard !closing else { return }
            guard let href = attributes["src"] ?? attributes["href"] else { return }
            endBlock()
            let bytes = pictures(href)
            var line = MarkdownText.Line(text: "[picture: \(attributes["alt"].flatMap { $0.isEmpty ? nil : $0 } ?? href)"
                                             + (bytes == nil ? ", not shown]" : "]"), kind: .image)
            line.image = bytes
            lines.append(line)
            lines.append(MarkdownText.Line(text: "", kind: .blank))
        case _ where Self.blockTags.contains(name):
            endBlock()
        default:
            return
        }
    }

    private mutating func style(_ style: MarkdownText.Style, closing: Bool, selfClosing: Bool) {
        guard !selfClosing else { return }
        if closing { if let index = styles.lastIndex(of: style) { styles.remove(at: index) } } else { styles.append(style) }
    }

    private mutating func write(_ piece: String, _ extra: MarkdownText.Style = []) {
        if preformatted > 0 {
            // Preformatted text keeps its lines: each is a code line.
            let parts = piece.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index > 0 { endBlock(keepKind: true) }
                append(MarkdownLineBuilder.safe(String(part)), extra.union(.code))
            }
            return
        }
        var piece = MarkdownLineBuilder.safe(piece.collapsingWhitespace())
        if currentCount == 0 { piece = String(piece.drop { $0 == " " }) }
        append(piece, extra)
    }

    private mutating func append(_ piece: String, _ extra: MarkdownText.Style) {
        let count = piece.unicodeScalars.count
        guard count > 0 else { return }
        if currentCount == 0, quoteDepth > 0 {
            let bar = String(repeating: "│ ", count: quoteDepth)
            runs.append(MarkdownText.Run(start: 0, length: bar.unicodeScalars.count, style: .dim))
            current = bar
            currentCount = bar.unicodeScalars.count
        }
        let style = styles.reduce(extra) { $0.union($1) }
        if !style.isEmpty { runs.append(MarkdownText.Run(start: currentCount, length: count, style: style)) }
        current += piece
        currentCount += count
        if !style.contains(.dim) {
            var inWord = false
            for scalar in piece.unicodeScalars {
                let letter = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                if letter && !inWord { words += 1 }
                inWord = letter
            }
        }
    }

    /// Ends the line being built (a paragraph, a heading, a list item), with a blank line after
    /// a block; `keepKind`: a line break inside it.
    private mutating func endBlock(keepKind: Bool = false) {
        let trimmed = current.reversed().drop { $0 == " " }.reversed()
        if !trimmed.isEmpty && String(trimmed) != String(repeating: "│ ", count: quoteDepth).trimmingSuffixSpaces() {
            let lineKind: MarkdownText.Line.Kind = preformatted > 0 ? .code : kind
            lines.append(MarkdownText.Line(text: String(trimmed), kind: lineKind, level: lineKind == .heading ? level : 0, runs: runs))
            if lineKind == .heading { headings.append((level, String(trimmed))) }
            if !keepKind, preformatted == 0 { lines.append(MarkdownText.Line(text: "", kind: .blank)) }
        }
        current = ""
        currentCount = 0
        runs = []
        if !keepKind { kind = .body; level = 0 }
    }
}

private extension String {
    func collapsingWhitespace() -> String {
        var out = ""
        var space = false
        for character in self {
            // XML's white space only: a no-break space stays.
            if character == " " || character == "\n" || character == "\t" || character == "\r" || character == "\r\n" { if !space { out.append(" ") }; space = true } else { out.append(character); space = false }
        }
        return out
    }

    func replacingNonBreakingSpaces() -> String {
        var out = self
        for entity in ["&nbsp;", "&#160;"] where out.contains(entity) {
            out = out.split(separator: entity, omittingEmptySubsequences: false).joined(separator: "\u{00A0}")
        }
        return out
    }

    func trimmingSuffixSpaces() -> String { String(reversed().drop { $0 == " " }.reversed()) }
}
