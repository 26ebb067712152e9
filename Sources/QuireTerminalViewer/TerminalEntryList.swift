import QuireRender
import QuireTerminal
import QuireViewer

/// An archive's files as a list in the terminal viewer (`o`): sorted by name, size or date
/// (`s` changes it), arrows and Page Up/Down move, Enter opens the chosen file as a file of its
/// own (``ViewerModel/openArchiveEntry(_:)``), Esc goes back.
struct TerminalEntryList {
    enum SortKey: String, CaseIterable {
        case name, size, date
    }

    enum Action {
        case none, close
        case open(ArchiveEntryFact)
    }

    private(set) var entries: [ArchiveEntryFact]
    private(set) var selected = 0
    private(set) var sortKey: SortKey = .name
    /// Rows shown at once (set by the drawing).
    var visibleRows = 20

    init(entries: [ArchiveEntryFact]) {
        self.entries = entries
        sort()
        selected = 0   // the first in the list's order (a database lists its tables unsorted)
    }

    private mutating func sort() {
        let chosen = entries.indices.contains(selected) ? entries[selected] : nil
        switch sortKey {
        case .name: entries.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        case .size: entries.sort { ($0.size ?? -1, $1.path) > ($1.size ?? -1, $0.path) }
        case .date: entries.sort { ($0.modified ?? .min, $1.path) > ($1.modified ?? .min, $0.path) }
        }
        selected = chosen.flatMap { entries.firstIndex(of: $0) } ?? 0
    }

    mutating func handle(_ key: TerminalKey) -> Action {
        let page = max(1, visibleRows - 1)
        switch key {
        case .escape, .character("o"): return .close
        case .up, .character("k"): selected = max(0, selected - 1)
        case .down, .character("j"): selected = min(entries.count - 1, selected + 1)
        case .pageUp: selected = max(0, selected - page)
        case .pageDown: selected = min(entries.count - 1, selected + page)
        case .home: selected = 0
        case .end: selected = max(0, entries.count - 1)
        case .character("s"):
            let keys = SortKey.allCases
            sortKey = keys[((keys.firstIndex(of: sortKey) ?? 0) + 1) % keys.count]
            sort()
        case .enter:
            if entries.indices.contains(selected) { return .open(entries[selected]) }
        default: break
        }
        return .none
    }

    /// The rows to show, `rows` of them at most, the selected one marked (reverse video when
    /// styled, else ▸), scrolled to keep it in view.
    func lines(width: Int, rows: Int, styled: Bool) -> [String] {
        guard !entries.isEmpty else { return ["(no files in this archive can be opened)"] }
        let first = min(max(0, selected - rows / 2), max(0, entries.count - rows))
        return entries[first..<min(entries.count, first + rows)].enumerated().map { offset, entry in
            let size = entry.size.map { ArchiveEntryFact.sizeText($0) } ?? "—"
            var row = String(repeating: " ", count: max(0, 9 - size.count)) + size + "  " + (entry.modifiedText ?? String(repeating: " ", count: 16))
                + "  " + TerminalText.shown(entry.path)
            // A database's table: its name, then what it is ("table · 1,204 rows").
            if let summary = entry.summary { row = TerminalText.shown(entry.path) + "  ·  " + summary }
            let clipped = TerminalText.clip(row, width: width - 2)
            let isSelected = first + offset == selected
            if isSelected { return styled ? "\u{1B}[7m " + clipped + " \u{1B}[0m" : "▸" + clipped }
            return " " + clipped
        }
    }

    /// The status line's part: position, sort and keys.
    var status: String {
        let noun = entries.first?.summary == nil ? "files" : "tables"
        return "\(entries.isEmpty ? 0 : selected + 1) of \(entries.count) \(noun) · sorted by \(sortKey.rawValue) (s) · Enter open · Esc back"
    }
}
