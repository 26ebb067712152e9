import QuireRender
import QuireRenderService

/// A JSON document in the terminal viewer as a tree of characters: its pretty-printed lines
/// (from the worker, with their ``JSONOutline``), a cursor on one line, and folded nodes drawn
/// as one line (`"items": [ … ] 5 items`). Tab folds or unfolds the node under the cursor, z
/// folds everything below the top level, Z unfolds all, c copies the node's path
/// (`.items[3].name`); the cursor moves with less's keys. Esc shows the plain text again.
struct TerminalJSONTree {
    let text: [String]
    let outline: JSONOutline
    /// Opening lines folded.
    private(set) var folded: Set<Int> = []
    /// The lines shown (indices into ``text``), folded nodes' insides left out.
    private(set) var visible: [Int] = []
    /// The cursor, as an index into ``visible``.
    private(set) var cursor = 0
    /// The first row shown, as an index into ``visible``.
    private(set) var top = 0
    /// Rows shown at once (set by the drawing).
    var visibleRows = 20

    init(text: [String], outline: JSONOutline) {
        self.text = text
        self.outline = outline
        relayout()
    }

    /// The line under the cursor (an index into ``text``).
    var line: Int { visible.indices.contains(cursor) ? visible[cursor] : 0 }

    /// The path of the node under the cursor.
    var path: String { outline.path(of: line) }

    private mutating func relayout() {
        let keep = line
        visible = []
        visible.reserveCapacity(text.count)
        var index = 0
        while index < min(text.count, outline.lines.count) {
            visible.append(index)
            if folded.contains(index), let end = outline.lines[index].end { index = end + 1 } else { index += 1 }
        }
        // The cursor stays on its line, or on the folded node that now hides it.
        cursor = visible.lastIndex(where: { $0 <= keep }) ?? 0
        scrollToCursor()
    }

    private mutating func scrollToCursor() {
        if cursor < top { top = cursor }
        if cursor >= top + visibleRows { top = cursor - visibleRows + 1 }
        top = max(0, min(top, max(0, visible.count - visibleRows)))
    }

    mutating func move(by rows: Int) {
        cursor = max(0, min(visible.count - 1, cursor + rows))
        scrollToCursor()
    }

    mutating func moveToStart() { cursor = 0; scrollToCursor() }
    mutating func moveToEnd() { cursor = max(0, visible.count - 1); scrollToCursor() }

    /// Folds or unfolds the node under the cursor (on a closing line: its opener; on a value
    /// inside an object or array: the object or array). False when there is nothing to fold.
    @discardableResult mutating func toggle() -> Bool {
        var opener = line
        if outline.lines[opener].end == nil {
            // A closing line or a value: the nearest enclosing node that is open.
            guard let enclosing = (0..<opener).last(where: { (outline.lines[$0].end ?? -1) >= opener }) else { return false }
            opener = enclosing
        }
        if folded.contains(opener) { folded.remove(opener) } else { folded.insert(opener) }
        // The cursor goes to the node's first line, so what it folded stays in view.
        relayout()
        cursor = visible.firstIndex(of: opener) ?? cursor
        scrollToCursor()
        return true
    }

    /// Folds every node below the top level (`z`), or none (`Z`).
    mutating func foldAll(_ fold: Bool) {
        folded = fold ? Set(outline.lines.indices.filter { outline.lines[$0].end != nil && outline.lines[$0].depth >= (outline.isLines ? 0 : 1) }) : []
        relayout()
    }

    /// A folded node's line: its opening text, then the closing character and what it holds.
    func shown(_ index: Int) -> String {
        guard folded.contains(index), let end = outline.lines[index].end else { return text[index] }
        let node = outline.lines[index]
        let noun = node.isObject ? (node.count == 1 ? "key" : "keys") : (node.count == 1 ? "item" : "items")
        let closing = text.indices.contains(end) ? text[end].drop(while: { $0 == " " }) : (node.isObject ? "}" : "]")
        return text[index] + " … " + closing + "  \(node.count) \(noun)"
    }

    /// The rows to draw, `rows` of them at most: a fold marker (▾ open, ▸ folded), the line,
    /// the cursor's row in reverse video (or marked ▶ without styles).
    func lines(width: Int, rows: Int, styled: Bool) -> [String] {
        guard !visible.isEmpty else { return ["(empty)"] }
        return visible[top..<min(visible.count, top + rows)].enumerated().map { offset, index in
            let marker = outline.lines[index].end == nil ? "  " : folded.contains(index) ? "▸ " : "▾ "
            let row = TerminalText.clip(marker + TerminalText.shown(shown(index)), width: max(1, width - 1))
            if top + offset == cursor {
                return styled ? "\u{1B}[7m " + row + String(repeating: " ", count: max(0, width - 1 - TerminalText.width(row))) + "\u{1B}[0m"
                    : "▶" + row
            }
            return " " + row
        }
    }

    /// The status line's part: the node's path and the tree's keys.
    var status: String {
        "\(path) · Tab fold · z/Z fold/unfold all · c copy path · Esc text"
    }
}
