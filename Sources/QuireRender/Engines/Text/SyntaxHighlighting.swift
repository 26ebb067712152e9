internal import CGtkSourceViewLazy

/// Code coloured by its language, as GtkSourceView's language definitions colour it (the ones
/// the window's text view and GNOME's editors use): code blocks in Markdown (the fence's info
/// string, ```` ```python ````) and a notebook's code cells (its kernel's language).
///
/// The colours are the terminal's eight (``MarkdownText/Run/colour`` 1–8), picked nearest to
/// the "classic" scheme's: a terminal shows them in its own palette, the pages and the window
/// in theirs. Keywords and types keep the scheme's bold. GtkSourceView is loaded on first use
/// (``CGtkSourceViewLazy``); without it, or for a language it does not know, code stays plain.
enum SyntaxHighlighting {
    /// Most bytes of one block coloured (a longer block is shown plain).
    static let maximumBytes = 64 << 10
    /// In a process whose GLib main loop runs on another thread (a GTK program using the
    /// library, a D-Bus service), the highlighting is handed to that thread
    /// (``quire_highlight``); a block it has not taken within this time stays plain.
    static let ownerWaitMilliseconds: Int32 = 2000

    /// The colour runs of `lines` (code lines as shown, ``MarkdownLineBuilder/safe(_:)`` already
    /// applied), each line's runs starting at its first scalar; nil when the language is not
    /// known, the block is too long or GtkSourceView is not installed.
    static func runs(_ lines: [String], language: String) -> [[MarkdownText.Run]]? {
        let name = Self.languageName(language)
        guard !name.isEmpty, !lines.isEmpty else { return nil }
        let joined = lines.joined(separator: "\n")
        guard joined.utf8.count <= maximumBytes, !joined.utf8.contains(0) else { return nil }
        let scalars = joined.unicodeScalars.count
        var spans = [quire_highlight_span](repeating: quire_highlight_span(), count: max(1, scalars))
        let identifier = aliases[name] ?? name
        let count = spans.withUnsafeMutableBufferPointer { buffer in
            quire_highlight(joined, identifier, "code." + name, "classic", buffer.baseAddress!, Int32(buffer.count),
                            Self.ownerWaitMilliseconds)
        }
        guard count > 0 else { return nil }
        // Spans over the joined text, cut at the line breaks.
        var runs = [[MarkdownText.Run]](repeating: [], count: lines.count)
        var starts: [Int] = []
        var offset = 0
        for line in lines {
            starts.append(offset)
            offset += line.unicodeScalars.count + 1
        }
        var line = 0
        for span in spans.prefix(Int(count)) {
            let colour = nearestColour(span.rgb)
            var style: MarkdownText.Style = [.code, .syntax]
            if span.bold != 0 { style.insert(.bold) }
            var from = Int(span.start)
            let end = from + Int(span.length)
            while line + 1 < lines.count && starts[line + 1] <= from { line += 1 }
            var at = line
            while from < end && at < lines.count {
                let lineEnd = starts[at] + lines[at].unicodeScalars.count
                let to = min(end, lineEnd)
                if to > from, colour != 0 || span.bold != 0 {
                    runs[at].append(MarkdownText.Run(start: from - starts[at], length: to - from, style: style, colour: colour))
                }
                at += 1
                from = max(from, lineEnd + 1)
            }
        }
        return runs
    }

    /// The language as GtkSourceView names it: the info string's first word, lower-cased.
    static func languageName(_ info: String) -> String {
        let word = info.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" || $0 == "," }).first.map(String.init) ?? ""
        let lowered = word.lowercased()
        // A word of letters, digits and + - _ . # only (it also names a file: "code.<word>").
        guard lowered.count <= 32, lowered.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-_.#".unicodeScalars.contains($0)
        }) else { return "" }
        return lowered
    }

    /// Names people write for languages GtkSourceView calls otherwise. Anything else is tried
    /// as GtkSourceView's id, then as a file's extension ("py", "rs", "ts", "yml").
    static let aliases = ["python": "python3", "ipython": "python3", "ipython3": "python3", "py3": "python3",
                          "javascript": "js", "node": "js", "bash": "sh", "shell": "sh", "zsh": "sh", "console": "sh",
                          "c++": "cpp", "golang": "go", "objective-c": "objc", "objectivec": "objc", "jsonc": "json",
                          "html5": "html", "dockerfile": "dockerfile", "make": "makefile", "docker": "dockerfile"]

    /// The terminal colour (1–8: black, red, green, yellow, blue, magenta, cyan, white) nearest
    /// to `rgb` (0xRRGGBB); 0 for black, which is the ordinary text colour.
    static func nearestColour(_ rgb: UInt32) -> UInt8 {
        let red = Int(rgb >> 16 & 0xFF), green = Int(rgb >> 8 & 0xFF), blue = Int(rgb & 0xFF)
        // The standard colours as xterm draws them.
        let palette = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229)]
        var best = 0, bestDistance = Int.max
        for (index, colour) in palette.enumerated() {
            let distance = (red - colour.0) * (red - colour.0) + (green - colour.1) * (green - colour.1) + (blue - colour.2) * (blue - colour.2)
            if distance < bestDistance { best = index; bestDistance = distance }
        }
        return best == 0 ? 0 : UInt8(best + 1)
    }
}
