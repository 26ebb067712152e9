/// One XHTML chapter of an EPUB book made into ``MarkdownText`` lines — a reader's view, not a
/// browser: headings (`h1`…`h6`), paragraphs and block `div`s, list items with a bullet, block
/// quotes with a bar, preformatted text as code, emphasis, strong text and links as styles, and
/// images (`img`, SVG `image`) as pictures the book itself holds. Scripts, styles and the head
/// are skipped; nothing the chapter names outside the book is loaded; entities beyond XML's own
/// and numeric ones are shown as they are.
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

    static let blockTags: Set<String> = ["p", "div", "section", "article", "header", "footer", "aside", "nav", "figure",
                                         "figcaption", "table", "tr", "dl", "dt", "dd", "ul", "ol", "body", "main", "hr"]

    init(_ bytes: [UInt8], maximumLines: Int, pictures: PictureReader) {
        let text = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var i = 0
        func skip(past marker: String) {
            let m = Array(marker.unicodeScalars)
            while i < text.count {
                if text[i] == m[0], i + m.count <= text.count, Array(text[i..<(i + m.count)]) == m { i += m.count; return }
                i += 1
            }
        }
        var pending = String.UnicodeScalarView()
        func flushText() {
            guard !pending.isEmpty else { return }
            write(XMLScan.unescape(String(pending)).replacingNonBreakingSpaces())
            pending = String.UnicodeScalarView()
        }
        while i < text.count, lines.count < maximumLines {
            guard text[i] == "<" else {
                if skipping == 0 { pending.append(text[i]) }
                i += 1
                continue
            }
            let rest = text.count - i
            if rest >= 4, text[i + 1] == "!", text[i + 2] == "-", text[i + 3] == "-" { skip(past: "-->"); continue }
            if rest >= 9, text[i + 1] == "!", String(String.UnicodeScalarView(text[(i + 2)..<(i + 9)])) == "[CDATA[" {
                let start = i + 9
                skip(past: "]]>")
                if skipping == 0 { pending.append(contentsOf: text[start..<max(start, i - 3)]) }
                continue
            }
            if rest >= 2, text[i + 1] == "?" || text[i + 1] == "!" { skip(past: ">"); continue }
            // A tag: its name, whether it closes, its attributes (by XMLScan, on the tag's text).
            let start = i
            skip(past: ">")
            let tag = Array(text[start..<i])
            let closing = tag.count > 1 && tag[1] == "/"
            var nameScalars = String.UnicodeScalarView()
            var j = closing ? 2 : 1
            while j < tag.count, !(tag[j] == " " || tag[j] == ">" || tag[j] == "/" || tag[j] == "\n" || tag[j] == "\t" || tag[j] == "\r") {
                nameScalars.append(tag[j]); j += 1
            }
            let name = String(String(nameScalars).split(separator: ":").last ?? "").lowercased()
            let selfClosing = tag.count > 2 && tag[tag.count - 2] == "/"
            flushText()
            handle(name, closing: closing, selfClosing: selfClosing, tag: tag, pictures: pictures)
        }
        flushText()
        endBlock()
    }

    private mutating func handle(_ name: String, closing: Bool, selfClosing: Bool, tag: [Unicode.Scalar], pictures: PictureReader) {
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
            let attributes = XMLScan(Array(String(String.UnicodeScalarView(tag)).utf8)).elements.first?.attributes ?? [:]
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
