import QuireRender
import QuireTerminal

/// A book's table of contents in the terminal viewer (`C`): its entries indented by level, the
/// one the reader is in chosen first; arrows and Page Up/Down move, Enter goes to the chosen
/// entry's line (``ViewerModel/goTo(contentsEntry:)``), Esc or `C` goes back.
struct TerminalContentsList {
    enum Action {
        case none, close
        case go(Int)
    }

    let contents: TableOfContents
    private(set) var selected: Int
    /// Rows shown at once (set by the drawing).
    var visibleRows = 20

    /// The list of `contents`, the entry the reader at `line` is in chosen.
    init(contents: TableOfContents, line: Int) {
        self.contents = contents
        selected = contents.entry(at: line) ?? 0
    }

    mutating func handle(_ key: TerminalKey) -> Action {
        let count = contents.entries.count
        let page = max(1, visibleRows - 1)
        switch key {
        case .escape, .character("C"): return .close
        case .up, .character("k"): selected = max(0, selected - 1)
        case .down, .character("j"): selected = min(count - 1, selected + 1)
        case .pageUp: selected = max(0, selected - page)
        case .pageDown: selected = min(count - 1, selected + page)
        case .home, .character("g"): selected = 0
        case .end, .character("G"): selected = max(0, count - 1)
        case .enter: if contents.entries.indices.contains(selected) { return .go(selected) }
        default: break
        }
        return .none
    }

    /// The rows to show, `rows` of them at most: a heading line, then the entries indented by
    /// level, the chosen one marked (reverse video when styled, else ▸), scrolled to keep it in
    /// view; an entry whose part is not shown is dimmed and says so.
    func lines(width: Int, rows: Int, styled: Bool) -> [String] {
        let heading = contents.isFromHeadings ? "Contents (the book's headings)" : "Contents"
        var out = [styled ? "\u{1B}[1m" + heading + "\u{1B}[0m" : heading]
        let rows = max(1, rows - 1)
        let entries = contents.entries
        let first = min(max(0, selected - rows / 2), max(0, entries.count - rows))
        for index in first..<min(entries.count, first + rows) {
            let entry = entries[index]
            let indent = String(repeating: "  ", count: min(8, max(0, entry.level - 1)))
            let text = TerminalText.clip(indent + TerminalText.shown(entry.title) + (entry.line == nil ? "  (not shown)" : ""), width: width - 2)
            if index == selected {
                out.append(styled ? "\u{1B}[7m " + text + " \u{1B}[0m" : "▸" + text)
            } else {
                out.append(entry.line == nil && styled ? " \u{1B}[2m" + text + "\u{1B}[0m" : " " + text)
            }
        }
        return out
    }

    /// The status line's part: position and keys.
    var status: String {
        "\(selected + 1) of \(contents.entries.count) in the contents · Enter go · Esc back"
    }
}
