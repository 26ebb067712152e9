#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireRenderService
import QuireSystem

/// Moving through a viewer's files, pages, lines and table rows; zoom and pan.
extension ViewerModel {
    // MARK: Commands: pages and lines

    /// Sorts a table's rows by `column` (the worker sorts them and the table comes back from
    /// the top); the same column again reverses the order. A message when the file is no table.
    public func sortTable(column: Int) -> String? {
        let file = files[fileIndex]
        if case .opening = file.state { return "\(fileName) is still opening" }
        guard let table = file.facts?.text?.table else { return "only a table can be sorted" }
        guard table.columnNames.indices.contains(column) else { return "there is no column \(column + 1)" }
        let descending = file.tableSort?.column == column && file.tableSort?.descending == false
        file.tableSort = TableSort(column: column, descending: descending)
        file.pending = "sorting by \(table.columnNames[column])…"
        file.state = .unrequested
        // The whole file is sorted: it comes back from its first row in the new order.
        file.tableWindow = 0
        file.position = 0
        stopFind()
        requestCurrent()
        return nil
    }

    /// Next page (paged content) or next line (text). Returns whether anything moved.
    @discardableResult public func nextPage() -> Bool { move(to: position + 1) }
    @discardableResult public func previousPage() -> Bool { move(to: position - 1) }
    @discardableResult public func firstPage() -> Bool {
        if let table = tableLayout(of: current), table.firstRow > 0 { return moveTable(current, toRow: 0, window: 0) }
        return move(to: 0)
    }
    @discardableResult public func lastPage() -> Bool {
        if tableLayout(of: current) != nil, !tableWindowReachesEnd(current) {
            return moveTable(current, toRow: Int(Int32.max), window: DocumentRequest.lastWindow)
        }
        return move(to: lastPosition)
    }

    /// A table shown as text (its layout), if the file is one.
    func tableLayout(of file: OpenFile) -> TableLayout? {
        file.facts?.text?.table
    }

    /// Whether a table's window of lines holds its last row.
    func tableWindowReachesEnd(_ file: OpenFile) -> Bool {
        guard let text = file.facts?.text, let table = text.table else { return true }
        if let total = table.totalRows { return table.firstRow + text.lineCount >= total }
        return !text.isTruncated
    }

    /// Asks the worker for the window of a table's rows that holds `row` (a window starting a
    /// little above it, or `window`), and shows `row` at the top once it comes.
    func moveTable(_ file: OpenFile, toRow row: Int, window: Int? = nil) -> Bool {
        let start = window ?? max(0, row - 100)
        file.tableWindow = start
        file.position = window == DocumentRequest.lastWindow ? Int(Int32.max) : row - start
        file.pending = window == DocumentRequest.lastWindow ? "going to the last row…" : "going to row \(TableRowCount.grouped(row + 1))…"
        file.state = .unrequested
        file.dirty = true
        stopFind()
        requestCurrent()
        return true
    }

    /// Scrolls text by `lines` (negative: up); for paged content, moves by pages.
    @discardableResult public func scroll(by lines: Int) -> Bool { move(to: position + lines) }

    /// Goes to page (or line) `number`, counted from 1. Returns a message when out of range.
    public func goTo(_ number: Int) -> String? {
        switch content {
        case .opening:
            return "\(fileName) is still opening"
        case .pages(let count):
            guard (1...max(1, count)).contains(number) else {
                return "there is no page \(number): \(count) page\(count == 1 ? "" : "s")"
            }
        case .text(let text) where text.table != nil:
            let table = text.table!
            if let total = table.totalRows, !(1...max(1, total)).contains(number) {
                return "there is no row \(number): \(TableRowCount(rows: total, isExact: true).description)"
            }
            guard number >= 1 else { return "there is no row \(number)" }
            guard (table.firstRow..<(table.firstRow + text.lineCount)).contains(number - 1) else {
                return moveTable(current, toRow: number - 1) ? nil : "there is no row \(number)"
            }
            _ = move(to: number - 1 - table.firstRow)
            return nil
        case .text(let text):
            guard (1...max(1, text.lineCount)).contains(number) else {
                return "there is no line \(number): \(text.lineCount) line\(text.lineCount == 1 ? "" : "s")"
            }
        case .problem(let problem):
            return problem.message
        }
        _ = move(to: number - 1)
        return nil
    }

    var lastPosition: Int { self.lastPosition(of: current) }

    func move(to target: Int) -> Bool {
        let file = current
        // A table past its window of lines: the window that holds the row is asked for.
        if let table = tableLayout(of: file), let text = file.facts?.text,
           (target < 0 && table.firstRow > 0) || (target >= text.lineCount && !tableWindowReachesEnd(file)) {
            return moveTable(file, toRow: max(0, table.firstRow + target))
        }
        let clamped = max(0, min(lastPosition, target))
        guard clamped != file.position else { return false }
        file.position = clamped
        file.panY = 0
        file.dirty = true
        return true
    }

    // MARK: Commands: files

    @discardableResult public func nextFile() -> Bool { selectFile(fileIndex + 1) }
    @discardableResult public func previousFile() -> Bool { selectFile(fileIndex - 1) }

    /// Makes file `index` current (0-based); it is opened if it is not yet. Returns false when
    /// out of range.
    @discardableResult public func selectFile(_ index: Int) -> Bool {
        guard files.indices.contains(index), index != fileIndex else { return false }
        saveResume()
        fileIndex = index
        queue.want([], for: .view)
        stopFind()
        selection = nil
        // A file that went away since it was opened is not shown from what the worker read
        // before: it says it has gone.
        if case .opened = files[index].state, !Self.exists(files[index].path) {
            files[index].state = .failed(RenderProblem(.unreadable, "the file is no longer there"))
            files[index].vanished = "the file is no longer there"
        }
        requestCurrent()
        return true
    }

    // MARK: Commands: zoom and pan

    @discardableResult public func zoomIn() -> Bool {
        setZoom(Self.zoomSteps.first { $0 > zoom + 0.001 } ?? zoom)
    }

    @discardableResult public func zoomOut() -> Bool {
        setZoom(Self.zoomSteps.last { $0 < zoom - 0.001 } ?? 1)
    }

    @discardableResult public func zoomToFit() -> Bool { setZoom(1) }

    /// Any zoom from 1 (fit) to 8 (800 % of fit).
    @discardableResult public func setZoom(_ value: Double) -> Bool {
        let file = current
        guard pagedFacts(file) != nil else { return false }
        let clamped = max(1, min(Self.zoomSteps.last!, value))
        guard clamped != file.zoom else { return false }
        file.zoom = clamped
        file.dirty = true
        return true
    }

    /// A pinch: the zoom when the gesture began times the gesture's scale since then (clamped
    /// like any zoom, 1…8), so that spreading two fingers to twice their distance doubles it.
    @discardableResult public func setZoom(pinchScale scale: Double, from start: Double) -> Bool {
        guard scale.isFinite, scale > 0 else { return false }
        return setZoom(start * scale)
    }

    /// Moves the view over a zoomed page by a fraction of the hidden part (-1…1 per axis).
    @discardableResult public func pan(dx: Double, dy: Double) -> Bool {
        let file = current
        guard file.zoom > 1 else { return false }
        let x = max(0, min(1, file.panX + dx)), y = max(0, min(1, file.panY + dy))
        guard x != file.panX || y != file.panY else { return false }
        file.panX = x
        file.panY = y
        return true
    }
}
