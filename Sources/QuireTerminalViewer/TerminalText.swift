import QuireTypes
import QuireRender

/// Widths and wrapping of text for the terminal (one column per character, escape sequences
/// take none).
enum TerminalText {
    /// Text from a file (a name, title, tag, archive entry, message quoting one) made safe to
    /// write: ``TerminalEscaping``, the one escaping function, with backslashes kept as they are
    /// (names arrive escaped already). Every string the viewer draws that it did not write
    /// itself passes through here.
    static func shown(_ text: String) -> String {
        TerminalEscaping.escaped(text, backslashes: false)
    }

    static func width(_ text: String) -> Int {
        var count = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; continue }
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            count += 1
        }
        return count
    }

    /// `text` cut to `width` columns (escape sequences kept, ending with a reset when cut).
    static func clip(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        guard Self.width(text) > width else { return text }
        var out = ""
        var count = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                out.unicodeScalars.append(scalar)
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; out.unicodeScalars.append(scalar); continue }
            if count >= width - 1 { break }
            out.unicodeScalars.append(scalar)
            count += 1
        }
        return out + "…\u{1B}[0m"
    }

    /// Plain text (no escapes) cut into pieces of `width` characters, at spaces when possible.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var pieces: [String] = []
        var rest = Substring(text)
        while rest.count > width {
            var cut = rest.index(rest.startIndex, offsetBy: width)
            if let space = rest[..<cut].lastIndex(of: " "), rest.distance(from: rest.startIndex, to: space) > width / 2 {
                cut = rest.index(after: space)
            }
            pieces.append(String(rest[..<cut]))
            rest = rest[cut...]
        }
        pieces.append(String(rest))
        return pieces
    }

    /// `piece` (a run of a line starting at scalar `offset`) with the characters `marks` cover
    /// shown marked: reverse video, bold for the current match. Each character is escaped as
    /// ``shown(_:)`` escapes it (one by one, so the marks' character offsets still hold).
    static func mark(_ piece: String, from offset: Int, marks: [(Range<Int>, Bool)]) -> String {
        guard !marks.isEmpty else { return shown(piece) }
        var out = ""
        var marking: Bool?
        for (index, scalar) in piece.unicodeScalars.enumerated() {
            let position = offset + index
            let mark = marks.first { $0.0.contains(position) }.map(\.1)
            if mark != marking {
                out += mark == nil ? "\u{1B}[0m" : (mark == true ? "\u{1B}[0;1;7m" : "\u{1B}[0;7m")
                marking = mark
            }
            if TerminalEscaping.needsEscaping(scalar) {
                out += TerminalEscaping.escaped(scalar, backslashes: false)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if marking != nil { out += "\u{1B}[0m" }
        return out
    }

    /// A piece of a Markdown line (its scalars `offset…`) in colour: a heading bold in its
    /// level's colour, and the line's runs: bold, italic, code (yellow, or coloured by its
    /// language), struck, links
    /// (underlined blue), marks (dim). The text is escaped as ``shown(_:)`` escapes it.
    static func styled(_ piece: String, from offset: Int, line: MarkdownText.Line) -> String {
        var base = ""
        if line.kind == .heading { base = ["", "1;4;35", "1;36", "1;32", "1", "1", "1"][min(6, max(1, line.level))] }
        func sgr(_ style: MarkdownText.Style, _ colour: UInt8 = 0) -> String {
            var codes = base.isEmpty ? [] : [base]
            // A notebook's output in the colour it was written in (ANSI: 30–37, bright 90–97).
            if (1...8).contains(colour) { codes.append("3\(colour - 1)") }
            if (9...16).contains(colour) { codes.append("9\(colour - 9)") }
            if style.contains(.bold) { codes.append("1") }
            if style.contains(.italic) { codes.append("3") }
            // Inline code in yellow; code coloured by its language in its own colours.
            if style.contains(.code) && !style.contains(.syntax) { codes.append("33") }
            if style.contains(.strike) { codes.append("9") }
            if style.contains(.link) { codes.append("4;34") }
            if style.contains(.dim) { codes.append("2") }
            return "\u{1B}[0" + codes.map { ";" + $0 }.joined() + "m"
        }
        var out = base.isEmpty ? "" : sgr([])
        var current: (MarkdownText.Style, UInt8) = ([], 0)
        for (index, scalar) in piece.unicodeScalars.enumerated() {
            let position = offset + index
            var style: MarkdownText.Style = []
            var colour: UInt8 = 0
            for run in line.runs where run.start <= position && position < run.start + run.length {
                style.formUnion(run.style)
                if run.colour != 0 { colour = run.colour }
            }
            if style != current.0 || colour != current.1 {
                out += sgr(style, colour)
                current = (style, colour)
            }
            if TerminalEscaping.needsEscaping(scalar) {
                out += TerminalEscaping.escaped(scalar, backslashes: false)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\u{1B}[0m"
    }
}
