import FoundationEssentials
import QuireTypes

/// A Jupyter notebook (nbformat 4) as the lines ``MarkdownSource`` lays out and the terminal
/// shows: its cells in order — Markdown cells rendered (``MarkdownText``), code cells with their
/// execution counts (`In [3]:`), their text outputs, tracebacks without their ANSI colours,
/// `image/png` and `image/jpeg` outputs as pictures on the pages (a placeholder line in a
/// terminal). HTML outputs are shown as text, nothing is run or fetched.
public struct NotebookText: Sendable {
    /// What `info` says: kernel, language, cells by kind.
    public struct Summary: Sendable, Hashable, Codable {
        public var kernel: String?
        public var language: String?
        public var cells: [String: Int]
        public var images: Int
    }

    public var text: MarkdownText
    public var summary: Summary

    /// Most bytes of a notebook read.
    public static let maximumBytes = 64 << 20
    /// Most image outputs drawn (the rest are placeholders).
    static let maximumImages = 64

    private struct Notebook: Decodable {
        var cells: [Cell]
        var metadata: Metadata?
        var nbformat: Int?
    }

    private struct Metadata: Decodable {
        struct Kernel: Decodable { var name: String?; var display_name: String?; var language: String? }
        struct Language: Decodable { var name: String? }
        var kernelspec: Kernel?
        var language_info: Language?
    }

    /// A string or a list of strings (nbformat writes both), joined.
    private struct Lines: Decodable {
        var value: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) { value = string } else {
                value = (try? container.decode([String].self))?.joined() ?? ""
            }
        }
    }

    private struct Cell: Decodable {
        var cell_type: String
        var source: Lines?
        var execution_count: Int?
        var outputs: [Output]?
    }

    private struct Output: Decodable {
        var output_type: String
        var name: String?
        var text: Lines?
        var data: [String: Lines]?
        var ename: String?
        var evalue: String?
        var traceback: [String]?
    }

    /// Reads `file` (at most ``maximumBytes``).
    public static func read(_ file: InputFile) throws(DocumentError) -> NotebookText {
        guard file.size <= Int64(maximumBytes) else {
            throw DocumentError(kind: .limitExceeded, path: file.path,
                                reason: "the notebook is larger than \(maximumBytes >> 20) MiB", remedy: .raise(.fileSize))
        }
        let bytes: [UInt8]
        do throws(InputError) { bytes = try file.read(upTo: maximumBytes) } catch { throw DocumentError(error) }
        let notebook: Notebook
        do {
            notebook = try JSONDecoder().decode(Notebook.self, from: Data(bytes))
        } catch {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable notebook (\(Self.reason(error)))")
        }
        return try make(notebook, path: file.path)
    }

    private static func reason(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _)?: return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what nbformat 4 says"
        case .dataCorrupted?: return "not JSON"
        default: return "not JSON"
        }
    }

    private static func make(_ notebook: Notebook, path: DocumentPath) throws(DocumentError) -> NotebookText {
        var text = MarkdownText()
        var counts: [String: Int] = [:]
        var images = 0
        let language = notebook.metadata?.language_info?.name ?? notebook.metadata?.kernelspec?.language ?? ""
        var colouredBytes = 0
        func add(_ line: String, _ kind: MarkdownText.Line.Kind, _ style: MarkdownText.Style = []) {
            let safe = MarkdownLineBuilder.safe(line)
            let runs = style.isEmpty || safe.isEmpty ? [] : [MarkdownText.Run(start: 0, length: safe.unicodeScalars.count, style: style)]
            text.lines.append(MarkdownText.Line(text: safe, kind: kind, runs: runs))
        }
        func addLines(_ block: String, _ kind: MarkdownText.Line.Kind, _ style: MarkdownText.Style = []) {
            var block = block
            if block.hasSuffix("\n") { block.removeLast() }
            // Output written with ANSI colours (a traceback, a coloured log): kept as runs.
            if block.unicodeScalars.contains("\u{1B}") {
                text.lines += Self.colouredLines(block, kind: kind, style: style)
                return
            }
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) { add(String(line), kind, style) }
        }
        // A picture output's line; past the first `maximumImages` the picture is only named, and
        // `picture` (for most, decoding base64) is not even called.
        func addPicture(_ kind: String, _ picture: () -> [UInt8]?) {
            let bytes = images < maximumImages ? picture() : nil
            images += 1
            var line = MarkdownText.Line(text: "[\(kind) output" + (bytes == nil ? ", not shown]" : "]"), kind: .image)
            line.runs = [MarkdownText.Run(start: 0, length: line.text.unicodeScalars.count, style: .dim)]
            line.image = bytes
            text.lines.append(line)
        }
        for cell in notebook.cells {
            guard text.lines.count < MarkdownText.maximumLines else { break }
            counts[cell.cell_type, default: 0] += 1
            let source = cell.source?.value ?? ""
            switch cell.cell_type {
            case "markdown":
                let rendered = try MarkdownText.parse(Array(source.utf8), path: path)
                text.lines += rendered.lines
                if text.title == nil { text.title = rendered.title }
                text.headings += rendered.headings
                text.wordCount += rendered.wordCount
            case "code":
                add("In [\(cell.execution_count.map(String.init) ?? " ")]:", .body, .dim)
                var code = source
                if code.hasSuffix("\n") { code.removeLast() }
                let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map { MarkdownLineBuilder.safe(String($0)) }
                // In the kernel's language, while the file's budget for colouring lasts.
                let bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
                let coloured = colouredBytes + bytes <= MarkdownLineBuilder.maximumColouredBytes
                    ? SyntaxHighlighting.runs(lines, language: language) : nil
                if coloured != nil { colouredBytes += bytes }
                for (index, line) in lines.enumerated() {
                    let whole = MarkdownText.Run(start: 0, length: line.unicodeScalars.count, style: coloured == nil ? .code : [.code, .syntax])
                    text.lines.append(MarkdownText.Line(text: line, kind: .code, runs: (line.isEmpty ? [] : [whole]) + (coloured?[index] ?? [])))
                }
                for output in cell.outputs ?? [] {
                    switch output.output_type {
                    case "stream":
                        addLines(output.text?.value ?? "", .code, output.name == "stderr" ? [.code, .dim] : [])
                    case "error":
                        add("\(output.ename ?? "Error"): \(output.evalue ?? "")", .code, .bold)
                        for line in output.traceback ?? [] { addLines(line, .code) }
                    default:
                        let data = output.data ?? [:]
                        if let png = data["image/png"] ?? data["image/jpeg"] {
                            addPicture(data["image/png"] != nil ? "image/png" : "image/jpeg") {
                                Data(base64Encoded: png.value, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
                            }
                        } else if let svg = data["image/svg+xml"] {
                            // Drawn by librsvg (``SVGSource``) from the document alone: nothing it
                            // refers to is fetched or read.
                            addPicture("image/svg+xml") { Array(svg.value.utf8) }
                        } else if let plain = data["text/plain"] {
                            addLines(plain.value, .code)
                        } else if let html = data["text/html"] {
                            // HTML is shown as the text it is, never rendered or run.
                            addLines(html.value, .html, .code)
                        }
                    }
                }
            default:
                addLines(source, .code)
            }
            text.lines.append(MarkdownText.Line(text: "", kind: .blank))
        }
        if text.lines.last?.kind == .blank { text.lines.removeLast() }
        let kernel = notebook.metadata?.kernelspec
        let summary = Summary(kernel: kernel?.display_name ?? kernel?.name,
                              language: notebook.metadata?.language_info?.name ?? kernel?.language,
                              cells: counts, images: images)
        return NotebookText(text: text, summary: summary)
    }

    /// `block`'s lines with their ANSI colours and bold (SGR: 30–37, 90–97, 38;5;0–15, 1, 22,
    /// 39, 0) as runs over the text without its escapes; other escape sequences (cursor moves,
    /// backgrounds, OSC titles) are dropped. A colour set on one line goes on to the next.
    static func colouredLines(_ block: String, kind: MarkdownText.Line.Kind, style: MarkdownText.Style = []) -> [MarkdownText.Line] {
        var lines: [MarkdownText.Line] = []
        var bold = false, colour: UInt8 = 0
        for raw in block.split(separator: "\n", omittingEmptySubsequences: false) {
            var text = "", count = 0
            var runs: [MarkdownText.Run] = []
            var segment = ""
            func flush() {
                let safe = MarkdownLineBuilder.safe(segment)
                segment = ""
                let length = safe.unicodeScalars.count
                guard length > 0 else { return }
                let segmentStyle = bold ? style.union(.bold) : style
                if !segmentStyle.isEmpty || colour != 0 {
                    runs.append(MarkdownText.Run(start: count, length: length, style: segmentStyle, colour: colour))
                }
                text += safe
                count += length
            }
            var scalars = Array(raw.unicodeScalars)[...]
            while let scalar = scalars.popFirst() {
                guard scalar == "\u{1B}" else {
                    segment.unicodeScalars.append(scalar)
                    continue
                }
                guard let kind = scalars.popFirst() else { break }
                if kind == "]" {
                    // OSC: to BEL or ST.
                    while let next = scalars.popFirst(), next != "\u{07}", next != "\u{1B}" {}
                    if scalars.first == "\\" { scalars.removeFirst() }
                    continue
                }
                guard kind == "[" else { continue }
                var parameters = ""
                var final: Unicode.Scalar?
                while let next = scalars.popFirst() {
                    if (0x40...0x7E).contains(next.value) { final = next; break }
                    parameters.unicodeScalars.append(next)
                }
                guard final == "m" else { continue }
                flush()
                var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                while let code = codes.popFirst() {
                    switch code {
                    case 0: bold = false; colour = 0
                    case 1: bold = true
                    case 22: bold = false
                    case 30...37: colour = UInt8(code - 29)
                    case 90...97: colour = UInt8(code - 81)
                    case 39: colour = 0
                    case 38, 48:
                        // 38;5;n (n < 16: a standard colour) or 38;2;r;g;b; backgrounds ignored.
                        let mode = codes.popFirst()
                        if mode == 5, let n = codes.popFirst(), code == 38 { colour = (0..<16).contains(n) ? UInt8(n + 1) : 0 }
                        if mode == 2 { codes = codes.dropFirst(3) }
                    default: break
                    }
                }
            }
            flush()
            lines.append(MarkdownText.Line(text: text, kind: kind, runs: runs))
        }
        return lines
    }

    /// `text` without ANSI escape sequences (tracebacks are coloured with them).
    static func withoutANSI(_ text: String) -> String {
        var out = ""
        var inEscape = false, inCSI = false
        for scalar in text.unicodeScalars {
            if inCSI {
                if (0x40...0x7E).contains(scalar.value) { inCSI = false; inEscape = false }
                continue
            }
            if inEscape {
                if scalar == "[" { inCSI = true } else { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// The card's facts.
    public var details: [CardRow] {
        var details: [CardRow] = []
        if let kernel = summary.kernel { details.append(CardRow("Kernel", kernel)) }
        if let language = summary.language { details.append(CardRow("Language", language)) }
        details.append(CardRow("Cells", summary.cellsText))
        return details
    }
}

extension NotebookText.Summary {
    /// "3 code, 2 markdown".
    public var cellsText: String {
        cells.isEmpty ? "none" : cells.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }
}

extension RenderEngine {
    /// Jupyter notebooks: the cells laid out as Markdown pages with their outputs' pictures.
    static let notebook = RenderEngine(name: "notebook", families: [.notebook]) { (input) throws(DocumentError) in
        let notebook = try NotebookText.read(input.file)
        var opened = Opened(source: try MarkdownSource(path: input.file.path, markdown: notebook.text,
                                                       maximumPages: input.limits.maximumPages, limits: input.limits))
        opened.title = notebook.text.title
        opened.details = notebook.details
        opened.viewText = notebook.text.lines.map(\.text)
        opened.markdown = notebook.text
        return opened
    }
}
