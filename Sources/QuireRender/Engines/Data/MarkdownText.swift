internal import CCmarkGFM
import QuireTypes
import Synchronization

/// A Markdown file (CommonMark with GitHub's tables, task lists, strikethrough, autolinks and
/// footnotes, read by cmark-gfm) as styled lines: one line a paragraph, heading, list item,
/// code line, table row or rule, each with runs of style (bold, italic, code, link…). The
/// terminal draws them as characters in colour, wrapping long lines; the pages lay out the same
/// lines with Pango (``MarkdownSource``).
///
/// Nothing is fetched or run: an image is a placeholder with its address (a remote one says it
/// was not fetched), raw HTML is shown as text.
public struct MarkdownText: Sendable, Hashable, Codable {
    public struct Line: Sendable, Hashable, Codable {
        public enum Kind: UInt8, Sendable, Codable {
            case body = 0, heading = 1, code = 2, rule = 3, table = 4, blank = 5, html = 6
            /// A picture (a notebook's image output): ``Line/image`` on pages, the text in a terminal.
            case image = 7
        }
        public var text: String
        public var kind: Kind
        /// For a heading: 1…6.
        public var level: Int
        public var runs: [Run]
        /// For ``Kind/image``: the encoded picture (PNG or JPEG), nil when it is not drawn.
        public var image: [UInt8]? = nil

        public init(text: String, kind: Kind, level: Int = 0, runs: [Run] = []) {
            self.text = text
            self.kind = kind
            self.level = level
            self.runs = runs
        }
    }

    /// Styles over a range of a line's Unicode scalars.
    public struct Run: Sendable, Hashable, Codable {
        public var start: Int
        public var length: Int
        public var style: Style
        /// A terminal colour the text was written in (a notebook's ANSI-coloured output): 1–8
        /// the standard colours (black, red, green, yellow, blue, magenta, cyan, white), 9–16
        /// their bright forms; 0 none.
        public var colour: UInt8

        public init(start: Int, length: Int, style: Style, colour: UInt8 = 0) {
            self.start = start
            self.length = length
            self.style = style
            self.colour = colour
        }

        /// The colours' RGB on paper (a white page): darker than a terminal's for the light ground.
        public static let paperColours = ["#000000", "#C01C28", "#26A269", "#A2734C", "#12488B", "#A347BA", "#2AA1B3", "#777777",
                                          "#5E5C64", "#F66151", "#33D17A", "#C88800", "#2A7BDE", "#C061CB", "#33C7DE", "#999999"]
    }

    public struct Style: OptionSet, Sendable, Hashable, Codable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Style(rawValue: 1)
        public static let italic = Style(rawValue: 2)
        public static let code = Style(rawValue: 4)
        public static let strike = Style(rawValue: 8)
        public static let link = Style(rawValue: 16)
        /// Marks the reader does not read as text: list bullets, quote bars, addresses.
        public static let dim = Style(rawValue: 32)
        /// Code coloured by its language (``SyntaxHighlighting``): drawn in its run's colour, or
        /// the ordinary one, never in inline code's own colour.
        public static let syntax = Style(rawValue: 64)
    }

    public var lines: [Line] = []
    /// The first heading's text.
    public var title: String?
    /// Every heading: its level and text.
    public var headings: [(level: Int, text: String)] = []
    public var wordCount = 0

    public static func == (a: MarkdownText, b: MarkdownText) -> Bool { a.lines == b.lines }
    public func hash(into hasher: inout Hasher) { hasher.combine(lines) }

    // Coded with each heading as a level and its text (a tuple is not Codable).
    private enum CodingKeys: String, CodingKey { case lines, title, headingLevels, headingTexts, wordCount }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lines = try container.decode([Line].self, forKey: .lines)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        let levels = try container.decode([Int].self, forKey: .headingLevels)
        let texts = try container.decode([String].self, forKey: .headingTexts)
        guard levels.count == texts.count else {
            throw DecodingError.dataCorruptedError(forKey: .headingTexts, in: container, debugDescription: "headings")
        }
        headings = Array(zip(levels, texts)).map { (level: $0.0, text: $0.1) }
        wordCount = try container.decode(Int.self, forKey: .wordCount)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lines, forKey: .lines)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encode(headings.map(\.level), forKey: .headingLevels)
        try container.encode(headings.map(\.text), forKey: .headingTexts)
        try container.encode(wordCount, forKey: .wordCount)
    }

    /// Most bytes of a file read (a larger one is cut).
    public static let maximumBytes = 4 << 20
    /// Most lines made (a billion laughs of nested lists stops here).
    public static let maximumLines = 200_000
    /// Deepest nesting of lists and quotes drawn with its own indent.
    static let maximumIndent = 16
    /// Deepest nesting of blocks walked.
    public static let maximumDepth = 64

    public init() {}

    /// Reads `file` (at most ``maximumBytes``).
    public static func read(_ file: InputFile, limit: Int = maximumBytes) throws(DocumentError) -> MarkdownText {
        let bytes: [UInt8]
        do throws(InputError) { bytes = try file.read(upTo: min(limit, maximumBytes)) } catch { throw DocumentError(error) }
        return try parse(bytes, path: file.path)
    }

    private static let api: quire_cmark_api? = {
        guard let api = quire_cmark_api_load()?.pointee else { return nil }
        api.cmark_gfm_core_extensions_ensure_registered()
        return api
    }()

    /// Held from a parser's creation to its end. cmark-gfm keeps the inline parser's special
    /// characters in one table for the whole process: attaching the strikethrough extension adds
    /// `~` to it, and freeing a parser that had it takes `~` out again, under any other parser
    /// still reading. Two files read at once (the test process, a batch) then lost their
    /// strikethrough now and then.
    private static let parsing = Mutex(())

    public static func parse(_ bytes: [UInt8], path: DocumentPath? = nil) throws(DocumentError) -> MarkdownText {
        try parse(bytes, path: path, lineBudget: nil).text
    }

    /// As ``parse(_:path:)``, with the pictures of `path`'s folder that the file shows
    /// (``MarkdownPictures``) read for its pages.
    static func parseShowingPictures(_ bytes: [UInt8], path: DocumentPath, lineBudget: Int?) throws(DocumentError) -> (text: MarkdownText, isComplete: Bool) {
        try parse(bytes, path: path, lineBudget: lineBudget, pictures: MarkdownPictures(beside: path))
    }

    /// Parses `bytes` whole (cmark-gfm: links and footnotes resolve as in the whole file), but
    /// makes lines only of the top-level blocks that start before `lineBudget` lines are made
    /// (page 1 needs a few dozen); `isComplete` says whether that was every block. The lines
    /// made are the first lines of the whole text, in the same order.
    static func parse(_ bytes: [UInt8], path: DocumentPath?, lineBudget: Int?,
                      pictures: MarkdownPictures? = nil) throws(DocumentError) -> (text: MarkdownText, isComplete: Bool) {
        guard let api else {
            throw DocumentError(kind: .unsupported, path: path,
                                reason: "Markdown needs cmark-gfm (libcmark-gfm0.29.0.gfm.6, libcmark-gfm-extensions0.29.0.gfm.6), which is not installed")
        }
        let options = CMARK_OPT_FOOTNOTES | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE
        // The tree outlives its parser: it is walked after the lock is given back.
        let parsed: OpaquePointer?? = parsing.withLock { _ in
            guard let parser = api.cmark_parser_new(options) else { return .none }
            defer { api.cmark_parser_free(parser) }
            for name in ["table", "strikethrough", "autolink", "tasklist"] {
                if let extensionPointer = api.cmark_find_syntax_extension(name) {
                    _ = api.cmark_parser_attach_syntax_extension(parser, extensionPointer)
                }
            }
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { api.cmark_parser_feed(parser, $0.baseAddress, buffer.count) }
            }
            return .some(api.cmark_parser_finish(parser))
        }
        guard let finished = parsed else {
            throw DocumentError(kind: .unsupported, path: path, reason: "cmark-gfm could not start")
        }
        guard let document = finished else {
            throw DocumentError(kind: .damaged, path: path, reason: "cmark-gfm could not read the Markdown")
        }
        defer { api.cmark_node_free(document) }
        var builder = MarkdownLineBuilder(api: api)
        builder.lineBudget = lineBudget ?? Int.max
        builder.pictures = pictures
        builder.blocks(of: document, prefix: [])
        var text = builder.text
        guard !builder.stoppedEarly else { return (text, false) }
        if text.lines.last?.kind == .blank { text.lines.removeLast() }
        return (text, true)
    }
}

/// Walks cmark-gfm's tree into ``MarkdownText`` lines.
struct MarkdownLineBuilder {
    let api: quire_cmark_api
    var text = MarkdownText()
    /// The line being written (a paragraph, a heading, a table cell).
    private var current = ""
    private var currentCount = 0
    private var runs: [MarkdownText.Run] = []
    /// Footnote definitions so far (cmark-gfm numbers them in the order they are referred to,
    /// and puts them last in that order).
    private var footnotes = 0
    /// Whether nesting deeper than ``MarkdownText/maximumDepth`` was met (said once).
    private var nestingCut = false
    /// Top-level blocks after this many lines are not walked (``stoppedEarly``).
    var lineBudget = Int.max
    /// Bytes of code coloured so far: past ``maximumColouredBytes`` the rest stays plain.
    private var colouredBytes = 0
    /// Most bytes of code coloured in one file.
    static let maximumColouredBytes = 256 << 10
    private(set) var stoppedEarly = false
    /// The file's own pictures, when its pages show them (nil: every image is its placeholder).
    var pictures: MarkdownPictures?

    init(api: quire_cmark_api) { self.api = api }

    private func children(_ node: OpaquePointer) -> [OpaquePointer] {
        var out: [OpaquePointer] = []
        var child = api.cmark_node_first_child(node)
        while let node = child {
            out.append(node)
            child = api.cmark_node_next(node)
        }
        return out
    }

    private func typeName(_ node: OpaquePointer) -> String {
        api.cmark_node_get_type_string(node).map { String(cString: $0) } ?? ""
    }

    private func literal(_ node: OpaquePointer) -> String {
        api.cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    /// Text from the file made safe for a line: tabs as spaces, other control characters as
    /// their visible symbols (␀…␟, ␡), line breaks as spaces.
    static func safe(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: out += "    "
            case 0x0A, 0x0D: out += " "
            case 0x00..<0x20: out.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.unicodeScalars.append("\u{2421}")
            case 0x80..<0xA0, 0x2028, 0x2029: out.unicodeScalars.append("\u{FFFD}")
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private mutating func write(_ piece: String, _ style: MarkdownText.Style = []) {
        let safe = Self.safe(piece)
        let count = safe.unicodeScalars.count
        guard count > 0 else { return }
        if !style.isEmpty { runs.append(MarkdownText.Run(start: currentCount, length: count, style: style)) }
        current += safe
        currentCount += count
    }

    private mutating func emit(_ kind: MarkdownText.Line.Kind, level: Int = 0) {
        guard text.lines.count < MarkdownText.maximumLines else { current = ""; currentCount = 0; runs = []; return }
        text.lines.append(MarkdownText.Line(text: current, kind: kind, level: level, runs: runs))
        current = ""
        currentCount = 0
        runs = []
    }

    private mutating func blank() {
        if let last = text.lines.last, last.kind != .blank { emit(.blank) }
    }

    /// Words in `text` (runs of letters and digits), for the word count.
    private mutating func count(_ words: String) {
        var inWord = false
        for scalar in words.unicodeScalars {
            let letter = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if letter && !inWord { text.wordCount += 1 }
            inWord = letter
        }
    }

    /// Inline content of `node` onto the current line.
    private mutating func inlines(of node: OpaquePointer, _ style: MarkdownText.Style = []) {
        for child in children(node) {
            switch api.cmark_node_get_type(child) {
            case CMARK_NODE_TEXT:
                let value = literal(child)
                count(value)
                write(value, style)
            case CMARK_NODE_SOFTBREAK: write(" ", style)
            case CMARK_NODE_LINEBREAK: write(" ⏎ ", style.union(.dim))
            case CMARK_NODE_CODE:
                write(literal(child), style.union(.code))
            case CMARK_NODE_HTML_INLINE:
                // Raw HTML is shown as the text it is, never interpreted.
                write(literal(child), style.union(.code))
            case CMARK_NODE_EMPH: inlines(of: child, style.union(.italic))
            case CMARK_NODE_STRONG: inlines(of: child, style.union(.bold))
            case CMARK_NODE_LINK:
                let url = api.cmark_node_get_url(child).map { String(cString: $0) } ?? ""
                let before = current
                inlines(of: child, style.union(.link))
                // The address after the text, unless the text is the address (an autolink).
                let shown = String(current.dropFirst(before.count))
                if !url.isEmpty && shown != url && "mailto:" + shown != url { write(" <\(url)>", style.union(.dim)) }
            case CMARK_NODE_IMAGE:
                write(placeholder(child), style.union(.dim))
            case CMARK_NODE_FOOTNOTE_REFERENCE:
                write("[" + literal(child) + "]", style.union(.dim))
            default:
                if typeName(child) == "strikethrough" {
                    inlines(of: child, style.union(.strike))
                } else {
                    inlines(of: child, style)
                }
            }
        }
    }

    /// What an image is in text: its description and address (a remote one "not fetched").
    private func placeholder(_ image: OpaquePointer) -> String {
        let url = api.cmark_node_get_url(image).map { String(cString: $0) } ?? ""
        var alt = MarkdownLineBuilder(api: api)
        alt.inlines(of: image)
        let remote = url.contains("://") || url.hasPrefix("//") || url.hasPrefix("data:")
        return "[image: " + (alt.current.isEmpty ? "" : alt.current + " — ") + url + (remote ? " (not fetched)]" : "]")
    }

    /// The images of a paragraph that holds nothing else (each may be a link, as a badge or a
    /// screenshot linked to its full size is); nil when it holds text.
    private func pictureNodes(_ paragraph: OpaquePointer) -> [OpaquePointer]? {
        var images: [OpaquePointer] = []
        func walk(_ node: OpaquePointer) -> Bool {
            for child in children(node) {
                switch api.cmark_node_get_type(child) {
                case CMARK_NODE_IMAGE: images.append(child)
                case CMARK_NODE_LINK: if !walk(child) { return false }
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: continue
                case CMARK_NODE_TEXT: if literal(child).unicodeScalars.contains(where: { !$0.properties.isWhitespace }) { return false }
                default: return false
                }
            }
            return true
        }
        return walk(paragraph) && !images.isEmpty ? images : nil
    }

    /// A paragraph of pictures drawn as pictures, each on its line (its placeholder the line's
    /// text: the terminal shows that); false when none of them could be read (the paragraph is
    /// then written as text).
    private mutating func showPictures(_ paragraph: OpaquePointer, prefix: [String]) -> Bool {
        guard pictures != nil, let images = pictureNodes(paragraph) else { return false }
        let read = images.map { image in
            pictures?.bytes(api.cmark_node_get_url(image).map { String(cString: $0) } ?? "")
        }
        guard read.contains(where: { $0 != nil }) else { return false }
        for (image, bytes) in zip(images, read) {
            start(prefix)
            write(placeholder(image), .dim)
            if let bytes {
                emit(.image)
                if text.lines.last?.kind == .image { text.lines[text.lines.count - 1].image = bytes }
            } else {
                emit(.body)
            }
        }
        return true
    }

    /// The block children of `node`, each line after `prefix` (quote bars, list indents).
    mutating func blocks(of node: OpaquePointer, prefix: [String], depth: Int = 0) {
        var child = api.cmark_node_first_child(node)
        while let current = child {
            block(current, prefix: prefix, depth: depth)
            if text.lines.count >= MarkdownText.maximumLines { return }
            child = api.cmark_node_next(current)
            if depth == 0, child != nil, text.lines.count >= lineBudget {
                stoppedEarly = true
                return
            }
        }
    }

    private mutating func start(_ prefix: [String]) {
        let joined = prefix.suffix(MarkdownText.maximumIndent).joined()
        if !joined.isEmpty { write(joined, .dim) }
    }

    private mutating func block(_ node: OpaquePointer, prefix: [String], depth: Int) {
        // Lists and quotes nested deeper than this are not walked (each level is a call).
        guard depth <= MarkdownText.maximumDepth else {
            if !nestingCut {
                nestingCut = true
                start(prefix)
                write("(nested deeper than \(MarkdownText.maximumDepth) levels: not shown)", .dim)
                emit(.body)
            }
            return
        }
        // Continuation lines of a list item are indented, not bulleted again.
        let continuation = prefix.map { $0.hasSuffix("│ ") ? $0 : String(repeating: " ", count: $0.count) }
        switch api.cmark_node_get_type(node) {
        case CMARK_NODE_HEADING:
            let level = Int(api.cmark_node_get_heading_level(node))
            start(prefix)
            let before = currentCount
            inlines(of: node, .bold)
            let heading = String(current.unicodeScalars.dropFirst(before).map(Character.init))
            if text.title == nil { text.title = heading }
            text.headings.append((level, heading))
            emit(.heading, level: level)
            blank()
        case CMARK_NODE_PARAGRAPH:
            if !showPictures(node, prefix: prefix) {
                start(prefix)
                inlines(of: node)
                emit(.body)
            }
            if depth == 0 { blank() }
        case CMARK_NODE_BLOCK_QUOTE:
            blocks(of: node, prefix: continuation + ["│ "], depth: depth + 1)
            if depth == 0 { blank() }
        case CMARK_NODE_LIST:
            let ordered = api.cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
            var number = Int(api.cmark_node_get_list_start(node))
            for item in children(node) {
                var marker = ordered ? "\(number). " : "• "
                if isTask(item) {
                    marker = api.cmark_gfm_extensions_get_tasklist_item_checked(item) ? "☑ " : "☐ "
                }
                number += 1
                // The first block of the item gets the marker; the rest are indented under it.
                let blocks = children(item)
                for (index, child) in blocks.enumerated() {
                    block(child, prefix: (index == 0 ? prefix : continuation) + [index == 0 ? marker : String(repeating: " ", count: marker.count)],
                          depth: depth + 1)
                }
                if blocks.isEmpty { start(prefix + [marker]); emit(.body) }
                if text.lines.count >= MarkdownText.maximumLines { return }
            }
            if depth == 0 { blank() }
        case CMARK_NODE_CODE_BLOCK:
            let info = api.cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            if !info.isEmpty {
                start(continuation)
                write(info, .dim)
                emit(.code)
            }
            var code = literal(node)
            if code.hasSuffix("\n") { code.removeLast() }
            let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map { Self.safe(String($0)) }
            let coloured = colourRuns(lines, language: info)
            for (index, line) in lines.enumerated() {
                start(continuation)
                let base = currentCount
                write(line, coloured == nil ? .code : [.code, .syntax])
                for run in coloured?[index] ?? [] { runs.append(MarkdownText.Run(start: base + run.start, length: run.length, style: run.style, colour: run.colour)) }
                emit(.code)
            }
            if depth == 0 { blank() }
        case CMARK_NODE_HTML_BLOCK:
            var html = literal(node)
            if html.hasSuffix("\n") { html.removeLast() }
            for line in html.split(separator: "\n", omittingEmptySubsequences: false) {
                start(continuation)
                write(String(line), .code)
                emit(.html)
            }
            if depth == 0 { blank() }
        case CMARK_NODE_THEMATIC_BREAK:
            start(continuation)
            write(String(repeating: "─", count: 40), .dim)
            emit(.rule)
            if depth == 0 { blank() }
        case CMARK_NODE_FOOTNOTE_DEFINITION:
            footnotes += 1
            start(prefix + ["[\(footnotes)]: "])
            var inner = MarkdownLineBuilder(api: api)
            inner.blocks(of: node, prefix: [], depth: depth + 1)
            write(inner.text.lines.map(\.text).filter { !$0.isEmpty }.joined(separator: " "))
            text.wordCount += inner.text.wordCount
            emit(.body)
        default:
            if typeName(node) == "table" {
                table(node, prefix: continuation)
                if depth == 0 { blank() }
            } else {
                blocks(of: node, prefix: prefix, depth: depth)
            }
        }
    }

    /// The colours of a code block's `lines` in the fence's language (nil: shown plain).
    private mutating func colourRuns(_ lines: [String], language: String) -> [[MarkdownText.Run]]? {
        guard !language.isEmpty else { return nil }
        let bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        guard colouredBytes + bytes <= Self.maximumColouredBytes else { return nil }
        colouredBytes += bytes
        return SyntaxHighlighting.runs(lines, language: language)
    }

    private func isTask(_ item: OpaquePointer) -> Bool {
        // cmark-gfm gives task items the type string "tasklist".
        typeName(item) == "tasklist"
    }

    /// A table with box rules: the header row bold, a rule under it.
    private mutating func table(_ node: OpaquePointer, prefix: [String]) {
        var rows: [[String]] = []
        var header: [String] = []
        for row in children(node) {
            var cells: [String] = []
            for cell in children(row) {
                var inner = MarkdownLineBuilder(api: api)
                inner.inlines(of: cell)
                text.wordCount += inner.text.wordCount
                cells.append(inner.current)
            }
            if api.cmark_gfm_extensions_get_table_row_is_header(row) != 0 && header.isEmpty { header = cells } else { rows.append(cells) }
        }
        // The delimiter row's colons: "---:" right, ":---:" centre, else left.
        let columns = Int(api.cmark_gfm_extensions_get_table_columns(node))
        let alignments: [DatabaseText.CellAlignment] = api.cmark_gfm_extensions_get_table_alignments(node).map { marks in
            (0..<columns).map { marks[$0] == UInt8(ascii: "r") ? .right : marks[$0] == UInt8(ascii: "c") ? .centre : .left }
        } ?? []
        for (index, line) in DatabaseText.box(header: header, rows: rows, alignments: alignments, alignHeader: true).enumerated() {
            start(prefix)
            // The header row (the box's second line) bold, the rules dim.
            write(line, index == 1 ? .bold : line.hasPrefix("│") ? [] : .dim)
            emit(.table)
        }
    }
}
