#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireRenderService
import QuireSystem

/// Finding words in the current file, and a page's text: selection and copy.
extension ViewerModel {
    // MARK: Find

    /// Searches the current file for `query` (literal text: regex characters are text; case
    /// and, where the document's text allows, accents ignored), from the current page (or top
    /// line) to the end, then from the start. Runs on the render thread in short requests: the
    /// answers come through ``update()`` as ``Update/found(moved:)``, the first match becomes
    /// current and the view moves to it. An empty query ends the search. Returns why it cannot
    /// search, if it cannot.
    @discardableResult public func find(_ query: String) -> String? {
        let query = String(query.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }.map(Character.init))
        guard !query.isEmpty else {
            stopFind()
            return nil
        }
        guard query.utf8.count <= SearchRequest.maximumQueryBytes else { return "the search is too long" }
        let file = files[fileIndex]
        guard let facts = file.facts else {
            return isOpening ? "\(fileName) is still opening" : "\(fileName) cannot be searched"
        }
        let total = facts.text?.lineCount ?? facts.pageCount
        if query == find.query, find.file == fileIndex, find.total == total { return nil }  // already on it
        searchGeneration += 1
        tableFindNote = nil
        let start = min(max(0, file.position), max(0, total - 1))
        var document = documentRequest(file)
        // A table's lines as shown: the same window of rows in the same order (a match's line
        // is a line of what the viewer shows, not of the file's first rows unsorted).
        document.tableSort = file.tableSort
        document.tableWindow = file.tableWindow
        let job = SearchJob(generation: searchGeneration, file: fileIndex, document: document, query: query,
                            runs: [start..<total, 0..<start], maximumMatches: FindResults.maximumMatches)
        find = FindResults(job: job, total: total, isText: facts.text != nil)
        queue.wantSearch(job)
        return nil
    }

    /// Goes to the next match (round the document); false when there is none yet.
    @discardableResult public func findNext() -> Bool { findStep(backward: false) }

    /// Goes to the previous match (round the document); false when there is none yet.
    @discardableResult public func findPrevious() -> Bool { findStep(backward: true) }

    /// One step through the matches. A table shown a window at a time: past the window's last
    /// match (before its first, going back), the find goes on in the rows after the window
    /// (before it, going up), then round from the other end, in the worker.
    private func findStep(backward: Bool) -> Bool {
        if find.isActive, find.file == fileIndex, let table = tableLayout(of: current), let text = current.facts?.text,
           !find.isSearching, !(table.firstRow == 0 && tableWindowReachesEnd(current)) {
            let pages = find.matches.map(\.page)
            let edge = backward ? pages.min() : pages.max()
            let edgeMatch = backward ? find.matches.first(where: { $0.page == edge }) : find.matches.last(where: { $0.page == edge })
            if find.currentMatch == nil || find.currentMatch?.page == edge && edgeMatch == find.currentMatch {
                return findPastWindow(table: table, lines: text.lineCount, backward: backward)
            }
        }
        guard find.step(backward ? -1 : 1) else { return false }
        showCurrentMatch()
        return true
    }

    /// Looks for the find's word in a table's rows after the window in view, then in those
    /// before it (`backward`: in those before it going up, then from the last row up to the
    /// window); the window of the row found comes next (``update()``).
    func findPastWindow(table: TableLayout, lines: Int, backward: Bool = false) -> Bool {
        let query = find.query
        let end = table.firstRow + lines
        searchGeneration += 1
        var document = documentRequest(current)
        document.tableSort = current.tableSort
        document.tableWindow = current.tableWindow
        let after = end..<(Int(Int32.max) - 1), before = 0..<table.firstRow
        var job = SearchJob(generation: searchGeneration, file: fileIndex, document: document, query: query,
                            runs: backward ? [before, after] : [after, before], maximumMatches: 1)
        job.tableRows = true
        job.backward = backward
        tableFind = (query, fileIndex, nil)
        tableFindNote = backward ? "looking before row \(TableRowCount.grouped(table.firstRow + 1))…" : "looking past row \(TableRowCount.grouped(end))…"
        queue.wantSearch(job)
        return true
    }

    /// Ends the search (its highlights go; a request in progress is not waited for).
    public func stopFind() {
        tableFind = nil
        tableFindNote = nil
        queue.wantSearch(nil)
        searchGeneration += 1
        find = FindResults()
        find.generation = searchGeneration
    }

    /// The search's line for the status bar, with what is known of the page in view: "3 of
    /// 17", "No matches", "… — no text on this page — it is an image".
    public var findText: String {
        guard find.isActive else { return "" }
        var text = find.statusText
        if let tableFindNote, find.file == fileIndex { text += " — " + tableFindNote }
        if find.file == fileIndex, !find.isText, find.isTextless(page: page) {
            text += " — no text on this page — it is an image"
        }
        return text
    }

    /// Moves to the current match's page (or brings its line into view).
    func showCurrentMatch() {
        guard let match = find.currentMatch, find.file == fileIndex else { return }
        if find.isText {
            // The match's line a few lines below the top, unless it is in view already.
            let file = current
            if match.page < file.position || match.page >= file.position + Self.textLinesAssumedInView {
                _ = move(to: max(0, match.page - 2))
            }
        } else {
            _ = move(to: match.page)
        }
    }

    /// Lines of a text file taken to be in view when deciding whether a match needs a move.
    static let textLinesAssumedInView = 20

    // MARK: Page text (selection and copy)

    /// Page `page`'s text with its character boxes, when the worker has given it; nil until
    /// then (ask with ``wantText(pages:)``).
    public func pageText(_ page: Int) -> Result<PageText, RenderProblem>? {
        texts.last { $0.job.file == fileIndex && $0.job.page == page && $0.job.document.password == files[fileIndex].password }?.result
    }

    /// Asks the worker for these pages' text with boxes (the answers come as
    /// ``Update/pageText(file:page:)``); pages already here are not asked again.
    public func wantText(pages: [Int]) {
        let file = files[fileIndex]
        guard let facts = pagedFacts(file) else { return }
        let jobs = pages.filter { facts.pageSizes.indices.contains($0) && pageText($0) == nil }.map {
            TextJob(file: fileIndex, page: $0, document: documentRequest(file))
        }
        queue.wantText(jobs)
    }

    /// Selects characters `range` of page `page` (of its ``pageText(_:)`` layout); an empty
    /// range clears the selection.
    public func select(page: Int, range: Range<Int>) {
        selection = range.isEmpty ? nil : TextSelection(file: fileIndex, page: page, range: range)
    }

    /// Selects all the text of page `page` (Ctrl+A); false until the page's text is here.
    @discardableResult public func selectAll(page: Int) -> Bool {
        guard case .success(let text)? = pageText(page) else {
            wantText(pages: [page])
            return false
        }
        select(page: page, range: 0..<text.layout.characters.count)
        return true
    }

    public func clearSelection() { selection = nil }

    /// The selected text, for the clipboard; or why it cannot be copied (nothing selected, the
    /// page's text not here yet, or the document forbids copying its text).
    public var selectedText: Result<String, RenderProblem> {
        guard let selection, selection.file == fileIndex else {
            return .failure(RenderProblem(.unsupported, "no text is selected"))
        }
        return copyableText(page: selection.page).map { _ in
            guard case .success(let text)? = pageText(selection.page) else { return "" }
            return text.layout.text(selection.range)
        }
    }

    /// The whole text of page `page` as it may be copied (the terminal's `y`), or why not: the
    /// document forbids it, the page has no text (an image), or its text is not here yet.
    public func copyableText(page: Int) -> Result<String, RenderProblem> {
        guard let known = pageText(page) else {
            return .failure(RenderProblem(.unsupported, "the text of page \(page + 1) is still being read"))
        }
        switch known {
        case .failure(let problem): return .failure(problem)
        case .success(let text):
            guard text.copyAllowed else {
                return .failure(RenderProblem(.unsupported, "the document's permissions do not allow copying its text"))
            }
            let string = text.layout.text(0..<text.layout.characters.count)
            guard string.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
                return .failure(RenderProblem(.unsupported, "no text on this page — it is an image"))
            }
            return .success(string)
        }
    }

    /// Page `page`'s text, waiting for the worker (tools and tests; front-ends use
    /// ``wantText(pages:)``).
    public func waitForText(page: Int) -> Result<PageText, RenderProblem> {
        waitUntilOpened()
        wantText(pages: [page])
        let deadline = Deadline(seconds: configuration.renderTimeout + 10)
        while !deadline.hasPassed {
            if let known = pageText(page) { return known }
            for delivery in queue.take() {
                if let update = apply(delivery) { held.append(update) }
            }
            if let known = pageText(page) { return known }
            usleep(2_000)
        }
        return .failure(RenderProblem(.workerFailed, "the text of page \(page + 1) did not come back from the renderer"))
    }

    /// Page `index` (0-based) of the current file as a thumbnail fitting `box` whatever the
    /// zoom, for the window's page sidebar (``want(_:for:)`` with `.sidebar`); nil when not paged.
    public func thumbnailJob(_ index: Int, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        let file = current
        guard let facts = pagedFacts(file), facts.pageSizes.indices.contains(index) else { return nil }
        let pixels = facts.pixelSize(page: index, size: .fit(width: max(1, box.width), height: max(1, box.height)),
                                     allowUpscaling: false, limits: configuration.limits)
        return PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: index,
                             width: pixels.width, height: pixels.height, purpose: .sidebar,
                             maximumFileSize: configuration.maximumFileSize, csvAsSpreadsheet: configuration.csvAsSpreadsheet,
                             developRaw: file.developRaw)
    }
}
