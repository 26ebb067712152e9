#if canImport(Glibc)
import Glibc
#endif
import Quire
import QuireTerminalViewer
import QuireViewer
import QuireRenderService

/// The cell box of `quire preview --cells COLSxROWS`: what a file manager's preview pane offers
/// (ranger, lf and yazi pass its width and height in cells to their previewer commands).
struct PreviewCells {
    let columns: Int
    let rows: Int

    init?(_ text: String) {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (1...2000).contains(parts[0]), (1...1000).contains(parts[1]) else { return nil }
        columns = parts[0]
        rows = parts[1]
    }

    /// The pixel box for `method`: two pixels per cell row for half blocks; else the cell size
    /// the terminal reports (8×16 when it reports none).
    func box(for method: TerminalGraphics.Method) -> (width: Int, height: Int) {
        switch method {
        case .blocks:
            return (columns, max(2, rows * 2))
        default:
            let window = TerminalGraphics.windowSize()
            let cellWidth = window.pixelWidth > 0 ? max(1, window.pixelWidth / window.columns) : 8
            let cellHeight = window.pixelHeight > 0 && window.rows > 0 ? max(1, window.pixelHeight / window.rows) : 16
            return (min(columns * cellWidth, 4096), min(rows * cellHeight, 4096))
        }
    }

    /// The first `rows` lines of a text file, each cut to `columns`, as the viewer shows text.
    func showText(of document: Document) throws {
        // A table (CSV, TSV): its header and first rows as characters, columns lined up.
        if DelimitedTable.applies(to: document.contentType, path: document.path), !document.isSpreadsheetText {
            let table = try DelimitedTable(file: document.file, tabSeparated: document.contentType.conforms(to: "text/tab-separated-values"))
            let lines = TableText.header(table) + TableText.lines(table, rows: 0..<max(0, rows - 2))
            try Terminal.outputData(Array(lines.prefix(rows).map { String($0.prefix(columns)) + "\n" }.joined().utf8))
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try document.file.read(upTo: min(document.limits.maximumTextBytes, columns * rows * 4 + 4096))
        } catch {
            throw DocumentError(error)
        }
        try showSafe(TextContent(bytes: bytes).lines)
    }

    /// An engine's text form (a database's overview, pretty JSON, Markdown's lines), made safe
    /// to show and cut to the grid.
    func showLines(_ lines: [String]) throws {
        try showSafe(TextContent(bytes: Array(lines.prefix(rows).joined(separator: "\n").utf8)).lines)
    }

    private func showSafe(_ lines: [String]) throws {
        var out = ""
        for line in lines.prefix(rows) {
            out += String(line.prefix(columns)) + "\n"
        }
        try Terminal.outputData(Array(out.utf8))
    }
}
