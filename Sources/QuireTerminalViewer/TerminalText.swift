import QuireTypes

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
}
