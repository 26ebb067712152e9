#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireRenderService
import QuireSystem

/// The viewer behind `quire look`, for both front-ends (the GTK window and the terminal viewer):
/// the list of files, the current file and page (or top line, for text), zoom and pan, the
/// file's card, its actions with reasons, the print sheet and resume state.
///
/// The model never opens a document itself: files are opened, and pages rendered, by the render
/// service's worker process, through one ``RenderQueue`` on a thread of its own. A file the user
/// turns to is ``Content/opening`` until the worker's answer arrives; the front-end is told by
/// the `wake` callback (on the render thread) and calls ``update()`` on its own thread, which
/// applies the answers and returns the pages that came back. Front-ends map input to the
/// commands below and draw what the model says; they never open documents or talk to CUPS.
/// The model is not thread-safe: use it from one thread.
///
/// ```swift
/// let model = ViewerModel(paths: [DocumentPath("report.pdf"), DocumentPath("notes.txt")]) { ring() }
/// // …when rung, on the front-end's thread:
/// for update in model.update() { draw(update) }
/// print(model.positionText)   // "page 1 of 12"
/// model.close()               // stops the worker, remembers page and zoom for next time
/// ```
public final class ViewerModel {
    /// How the model reaches the rest of the system.
    public struct Configuration: Sendable {
        public var printSystem: PrintSystem
        public var conversion: PrintConversion
        /// Where positions are remembered; nil remembers nothing.
        public var resume: ResumeStore?
        /// Bytes of pages kept by ``renderPage(fitting:)`` for reuse.
        public var cacheByteLimit: Int
        public var maximumFileSize: Int64
        public var limits: RenderLimits
        /// How the render worker is started (the `quire` executable, its limits).
        public var worker: WorkerCommand
        /// Seconds a file or page may take in the worker before it is killed.
        public var renderTimeout: Double
        /// Whether the worker runs in bubblewrap (when available).
        public var sandbox: RenderClient.SandboxPolicy
        /// For callers without a main loop (tools, tests): reading the current file's content,
        /// card or position waits for the worker's answer instead of saying ``Content/opening``.
        /// Front-ends leave it off and draw "opening" until ``update()`` brings the answer.
        public var waitsForFiles = false
        /// CSV and TSV files laid out by LibreOffice Calc as spreadsheets (`--csv-as-spreadsheet`)
        /// instead of shown as text.
        public var csvAsSpreadsheet = false
        /// The smallest page box (device pixels) the front-end's view will have for the first
        /// file, when known before it is on screen. A first page whose size does not depend on
        /// the box from this size up (an image smaller than it: images are never enlarged) is
        /// rendered as soon as the worker has opened the file, while the front-end is still
        /// starting; the front-end's own request for that page then finds it rendered. nil:
        /// pages are rendered only when asked for.
        public var pageOneAheadBox: (width: Int, height: Int)?

        public init(printSystem: PrintSystem = PrintSystem(), conversion: PrintConversion = .standard,
                    resume: ResumeStore? = ResumeStore.standard(), cacheByteLimit: Int = 64 << 20,
                    maximumFileSize: Int64 = InputFile.defaultMaximumSize, limits: RenderLimits = .standard,
                    worker: WorkerCommand? = nil, renderTimeout: Double = 30, sandbox: RenderClient.SandboxPolicy = .automatic) {
            self.printSystem = printSystem
            self.conversion = conversion
            self.resume = resume
            self.cacheByteLimit = cacheByteLimit
            self.maximumFileSize = maximumFileSize
            self.limits = limits
            self.worker = worker ?? WorkerCommand(executable: Self.installedWorker(), renderLimits: limits)
            self.renderTimeout = renderTimeout
            self.sandbox = sandbox
        }

        /// The `quire` executable that serves as the render worker: `$QUIRE_WORKER`, else the
        /// one beside the running program (or in `../../bin`, from libexec/quire), else
        /// `/usr/bin/quire`.
        public static func installedWorker(environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } })
            -> String {
            if let given = environment("QUIRE_WORKER"), !given.isEmpty { return given }
            let directory = DirectoryPath.parent(of: ProcessControl.ownExecutable)
            for candidate in [directory + "/quire", directory + "/../../bin/quire"] where access(candidate, X_OK) == 0 {
                return candidate
            }
            return "/usr/bin/quire"
        }
    }

    /// What the current file shows.
    public enum Content: Sendable, Hashable {
        /// The worker is opening the file.
        case opening
        /// Pages drawn as pictures (PDF, PostScript, images, SVG, containers' previews).
        case pages(count: Int)
        /// Lines of text (text, source, Markdown, CSV).
        case text(TextContent)
        /// Nothing can be shown; the problem says why (and whether a password helps).
        case problem(RenderProblem)
    }

    /// What ``update()`` hands to the front-end.
    public enum Update: Sendable {
        /// File `index` opened (or failed to): its content, card and position are known.
        case opened(file: Int)
        /// A page came back (or its problem).
        case page(PageRenderJob, Result<PagePixels, RenderProblem>)
        /// An animation's frame came back (or its problem): ``frameJob(_:fitting:)``.
        case frame(PageRenderJob, Result<AnimationFrame, RenderProblem>)
        /// The search moved on (``find``): more scanned, matches found, or it ended. `moved`:
        /// the current match changed (the view goes to it).
        case found(moved: Bool)
        /// A page's text with its boxes came back (``pageText(_:)``), or why there is none.
        case pageText(file: Int, page: Int)
        /// File `index`, shown page 1 first (``isLayingOut``), is laid out: the same pages (any
        /// drawn stay), its card now complete (title, author).
        case finished(file: Int)
    }

    /// Zoom steps (1 = the page fits the view).
    public static let zoomSteps: [Double] = [1, 1.25, 1.5, 2, 3, 4, 6, 8]

    final class OpenFile {
        enum State {
            case unrequested
            case opening(OpenJob)
            case opened(OpenedDocument)
            /// Shown from provisional facts (page 1 first) while the worker finishes the
            /// document (`job`, the same request without firstPageFirst).
            case completing(OpenedDocument, OpenJob)
            case failed(RenderProblem)
        }
        let path: DocumentPath
        var state: State = .unrequested
        /// The file as the viewer holds it (opened read-only once the worker has read it; for
        /// its size, resume state and printing — never parsed here).
        var file: InputFile?
        var contentType: ContentType?
        var card: DocumentCard?
        var printAction: ViewerAction?
        var password: String?
        var position = 0
        var zoom: Double = 1
        var panX = 0.5, panY = 0.0
        var dirty = false
        /// Whether the saved position was applied (once, when the file first opened).
        var resumed = false
        /// Set when the file was found gone (an index sheet looks): why it cannot be shown.
        var vanished: String?
        /// A table's rows sorted by a column (the worker sorts them; ``sortTable(column:)``), the
        /// row its window of lines starts at, and what the status says while the worker is at it.
        var tableSort: TableSort?
        var tableWindow = 0
        var pending: String?
        /// A camera RAW file shown developed from its sensor data (``toggleDevelop()``), not
        /// from the camera's preview.
        var developRaw = false
        /// A PDF's form, once the card asked for it (``formFacts()``).
        var form: Result<FormFacts, RenderProblem>?

        init(path: DocumentPath) { self.path = path }

        var facts: OpenedDocument? {
            switch state {
            case .opened(let facts), .completing(let facts, _): return facts
            case .unrequested, .opening, .failed: return nil
            }
        }
    }

    public let configuration: Configuration
    /// The files shown, in order; an archive's entry opened from it is added at the end.
    var files: [OpenFile]
    public internal(set) var fileIndex = 0
    var cache: PageCache
    let queue: RenderQueue
    /// Whether ``close()`` stops the queue (false when it is shared).
    let ownsQueue: Bool
    /// Updates taken by a blocking call (``renderPage(fitting:)``) and not yet handed out.
    var held: [Update] = []
    /// The search of the current file (``find(_:)``).
    public internal(set) var find = FindResults()
    var searchGeneration = 0
    /// A table's find going on past the window in view: the word, and — once the worker found
    /// the next row that holds it — that row, whose window is on its way (``findNext()``).
    var tableFind: (query: String, file: Int, row: Int?)?
    /// What the table's find says when no row past the window holds the word.
    var tableFindNote: String?
    /// Pages' text with boxes, as the worker gave them (the few most recent; for selection).
    var texts: [(job: TextJob, result: Result<PageText, RenderProblem>)] = []
    static let textsKept = 8
    /// The text selected on a page of the current file (``select(page:range:)``), if any.
    public internal(set) var selection: TextSelection?
    /// The private folder entries are written into, made on first use.
    var entryDirectory: String?

    /// - Parameters:
    ///   - paths: the files, in order; at least one.
    ///   - wake: called on the render thread when answers are waiting for ``update()``.
    public init(paths: [DocumentPath], configuration: Configuration = Configuration(),
                unacceptedLimit: Int? = nil, wake: @escaping @Sendable () -> Void = {}) {
        precondition(!paths.isEmpty, "a viewer needs at least one file")
        self.configuration = configuration
        files = paths.map(OpenFile.init(path:))
        cache = PageCache(byteLimit: configuration.cacheByteLimit)
        queue = RenderQueue(command: configuration.worker, timeout: configuration.renderTimeout, sandbox: configuration.sandbox,
                            paths: paths, unacceptedLimit: unacceptedLimit, wake: wake)
        ownsQueue = true
        requestCurrent()
    }

    /// A model on a render thread (and worker) that outlives it: a previewer that shows file
    /// after file keeps one warm worker instead of starting one per file. ``close()`` leaves
    /// the queue running; its owner stops it.
    public init(paths: [DocumentPath], configuration: Configuration, sharing queue: RenderQueue) {
        precondition(!paths.isEmpty, "a viewer needs at least one file")
        self.configuration = configuration
        files = paths.map(OpenFile.init(path:))
        cache = PageCache(byteLimit: configuration.cacheByteLimit)
        self.queue = queue
        ownsQueue = false
        requestCurrent()
    }

    // MARK: What to draw

    public var fileCount: Int { files.count }
    public var paths: [DocumentPath] { files.map(\.path) }
    var current: OpenFile {
        if configuration.waitsForFiles { waitUntilOpened() }
        return files[fileIndex]
    }
    public var path: DocumentPath { files[fileIndex].path }
    /// The file name for display.
    public var fileName: String { path.displayName }

    public var content: Content {
        switch current.state {
        case .unrequested, .opening: return .opening
        case .failed(let problem): return .problem(problem)
        case .opened(let facts), .completing(let facts, _):
            if let text = facts.text { return .text(text) }
            return .pages(count: facts.pageCount)
        }
    }

    /// Whether the current file is still being opened.
    public var isOpening: Bool {
        if case .opening = content { return true }
        return false
    }

    /// Whether the current file shows page 1 while the worker lays out the rest (an office
    /// document opened page 1 first): the page count is LibreOffice's layout's, pages after the
    /// first come once it is done.
    public var isLayingOut: Bool { current.facts?.isProvisional ?? false }

    /// The card (nil until the file is opened, and when it could not be opened at all).
    public var card: DocumentCard? { current.card }

    public var problem: RenderProblem? {
        if case .failed(let problem) = current.state { return problem }
        return nil
    }

    /// Pages, for paged content; 0 otherwise.
    public var pageCount: Int { pagedFacts(current)?.pageCount ?? 0 }

    /// 0-based page (paged content) or top line (text).
    public var position: Int { current.position }

    /// The current page, 0-based (0 for text).
    public var page: Int { pagedFacts(current) == nil ? 0 : current.position }

    /// 1 = fit the view.
    public var zoom: Double { current.zoom }

    /// Where the view sits on a zoomed page: 0…1 across the part that does not fit.
    public var pan: (x: Double, y: Double) { (current.panX, current.panY) }

    /// "page 3 of 120", "line 40 of 300", "opening…", or "" when nothing is shown.
    public var positionText: String {
        switch content {
        case .opening: return files[fileIndex].pending ?? "opening…"
        case .pages(let count): return "page \(page + 1) of \(count)" + (isLayingOut ? ", laying out…" : "")
        case .text(let text) where text.table != nil:
            let table = text.table!
            let sorted = table.sort.map { sort in
                ", sorted by \(table.columnNames.indices.contains(sort.column) ? table.columnNames[sort.column] : "?")" + (sort.descending ? " ↓" : " ↑")
            } ?? ""
            let row = table.firstRow + min(position + 1, max(1, text.lineCount))
            let of = table.totalRows.map { TableRowCount(rows: $0, isExact: true).description } ?? table.fileRows
            return "row \(TableRowCount.grouped(row)) of \(of)" + sorted
        case .text(let text): return "line \(min(position + 1, max(1, text.lineCount))) of \(text.lineCount)"
        case .problem: return ""
        }
    }

    /// "2 of 5" (the file among the files).
    public var fileText: String { "\(fileIndex + 1) of \(fileCount)" }

    /// "fit" or "150%".
    public var zoomText: String { zoom == 1 ? "fit" : "\(Int((zoom * 100).rounded()))%" }

    func pagedFacts(_ file: OpenFile) -> OpenedDocument? {
        guard let facts = file.facts, facts.text == nil else { return nil }
        return facts
    }

    // MARK: The render thread's answers

    /// Applies what the render thread delivered (files opened, pages rendered); returns it for
    /// the front-end to draw. Call on the model's thread after `wake`.
    public func update() -> [Update] {
        var updates = held
        held = []
        for delivery in queue.take() {
            if let update = apply(delivery) { updates.append(update) }
        }
        // A table's find went on to another window: searched again once the window is here.
        if let pending = tableFind, pending.row != nil, pending.file == fileIndex, let facts = current.facts,
           !facts.isProvisional, current.pending == nil, facts.text?.table != nil {
            tableFind = nil
            find(pending.query)
            updates.append(.found(moved: true))
        }
        return updates
    }

    func apply(_ delivery: RenderDelivery) -> Update? {
        switch delivery {
        case .found(let job, _, let result, let finished) where job.tableRows:
            guard let pending = tableFind, pending.file == job.file, pending.query == job.query, pending.row == nil,
                  job.generation == searchGeneration else { return nil }
            switch result {
            case .success(let chunk) where !chunk.matches.isEmpty:
                // The next row that holds the word: its window is asked for, the find follows.
                let row = chunk.matches[0].page
                queue.wantSearch(nil)
                _ = moveTable(current, toRow: row)
                tableFind = (pending.query, pending.file, row)
                return .found(moved: true)
            case .success:
                if finished {
                    tableFind = nil
                    tableFindNote = "no row outside this window holds it"
                }
                return .found(moved: false)
            case .failure(let problem):
                tableFind = nil
                tableFindNote = problem.message
                return .found(moved: false)
            }
        case .found(let job, let run, let result, let finished):
            guard job.generation == find.generation, find.isActive else { return nil }  // an older search
            let first = find.receive(run: run, result, finished: finished)
            if first { showCurrentMatch() }
            // A table's window without the word: the find goes on in the rows past it.
            if finished, find.matches.isEmpty, find.problem == nil, job.file == fileIndex, let table = tableLayout(of: current),
               let text = current.facts?.text, !(table.firstRow == 0 && tableWindowReachesEnd(current)) {
                return .found(moved: findPastWindow(table: table, lines: text.lineCount))
            }
            return .found(moved: first)
        case .pageText(let job, let result):
            texts.removeAll { $0.job == job }
            texts.append((job, result))
            if texts.count > Self.textsKept { texts.removeFirst(texts.count - Self.textsKept) }
            return .pageText(file: job.file, page: job.page)
        case .page(let job, let result):
            completeIfProvisional(job.file)
            return .page(job, result)
        case .frame(let job, let result):
            return .frame(job, result)
        case .printable, .entry, .form:
            return nil  // asked for and waited on by makePrintSheet() and openArchiveEntry(_:)
        case .opened(let job, let result):
            let file = files[job.file]
            if case .completing(let provisional, let waiting) = file.state, waiting == job {
                return completed(file, index: job.file, provisional: provisional, result)
            }
            guard case .opening(let waiting) = file.state, waiting == job else { return nil }  // stale
            file.pending = nil
            switch result {
            case .success(let facts) where facts.text?.table?.sortProgress != nil:
                // The whole file is being sorted in the worker: how far it is, then ask again
                // (the worker answers within a quarter of a second).
                let table = facts.text!.table!
                let name = table.sort.flatMap { table.columnNames.indices.contains($0.column) ? table.columnNames[$0.column] : nil } ?? "a column"
                file.pending = "sorting by \(name)… \(table.sortProgress ?? 0) %"
                file.state = .unrequested
                if job.file == fileIndex { requestCurrent() }
                return .finished(file: job.file)
            case .success(let facts):
                file.state = .opened(facts)
                file.contentType = ContentType(mimeType: facts.mimeType)
                // A table's first rows: its whole window is asked for at once (no page to wait for).
                if facts.text != nil && facts.isProvisional {
                    opened(file)
                    completeIfProvisional(job.file)
                    return .opened(file: job.file)
                }
            case .failure(let problem) where problem.kind == .cancelled:
                // Dropped while the user moved on: opened again when it is shown again.
                file.state = .unrequested
                if job.file == fileIndex { requestCurrent() }
                return nil
            case .failure(let problem):
                file.state = .failed(problem)
                file.contentType = problem.mimeType.map { ContentType(mimeType: $0) }
            }
            opened(file)
            return .opened(file: job.file)
        }
    }

    /// A file shown from provisional facts (page 1 first) whose page has come: the worker is
    /// asked to finish it (the rest of the pages as they print), when it is the current file.
    func completeIfProvisional(_ index: Int) {
        guard index == fileIndex, files.indices.contains(index), case .opened(let facts) = files[index].state,
              facts.isProvisional else { return }
        let file = files[index]
        var request = documentRequest(file)
        request.tableSort = file.tableSort
        request.tableWindow = file.tableWindow
        let job = OpenJob(file: index, request: request)
        file.state = .completing(facts, job)
        queue.wantCompletion([job])
    }

    /// The finished document's facts (or why it could not be finished) replace the provisional
    /// ones. Pages already drawn stay when their sizes did not change.
    func completed(_ file: OpenFile, index: Int, provisional: OpenedDocument,
                           _ result: Result<OpenedDocument, RenderProblem>) -> Update? {
        switch result {
        case .success(let facts):
            file.state = .opened(facts)
            if let before = provisional.text?.table, let after = facts.text?.table {
                // A table's whole window: the same row stays in view (the windows may start apart).
                file.position = max(0, before.firstRow + file.position - after.firstRow)
            }
            if facts.text == nil, facts.pageCount == provisional.pageCount,
               zip(facts.pageSizes, provisional.pageSizes).allSatisfy({ abs($0.width - $1.width) < 0.5 && abs($0.height - $1.height) < 0.5 }) {
                // The layout LibreOffice showed is the one it exported: only the card changes.
                opened(file)
                if index == fileIndex { queue.wantCompletion([]) }
                return .finished(file: index)
            }
            cache.removeAll(file: index)
        case .failure(let problem) where problem.kind == .cancelled:
            // Dropped while the user moved on: finished when its page is shown again.
            file.state = .opened(provisional)
            return nil
        case .failure(let problem):
            file.state = .failed(problem)
            cache.removeAll(file: index)
        }
        opened(file)
        if index == fileIndex { queue.wantCompletion([]) }
        return .opened(file: index)
    }

    /// A file's answer has come: the card, the file as the viewer holds it, where it was left.
    func opened(_ file: OpenFile) {
        file.printAction = nil
        if file.file == nil { file.file = try? InputFile(path: file.path, maximumSize: configuration.maximumFileSize) }
        if let type = file.contentType {
            file.card = DocumentCard(path: file.path, contentType: type, size: file.file?.size ?? 0, facts: file.facts)
        } else {
            file.card = nil
        }
        if !file.resumed, let handle = file.file, let saved = configuration.resume?.position(for: handle) {
            file.resumed = true
            file.position = saved.position
            file.zoom = max(1, min(Self.zoomSteps.last!, saved.zoom))
        }
        file.position = max(0, min(file.position, lastPosition(of: file)))
    }

    /// Asks the worker to open the current file, unless it is open or being opened; a file
    /// being opened that is no longer current is dropped.
    func requestCurrent() {
        let file = files[fileIndex]
        switch file.state {
        case .unrequested:
            var request = documentRequest(file, firstPageFirst: true)
            request.tableSort = file.tableSort
            request.tableWindow = file.tableWindow
            var job = OpenJob(file: fileIndex, request: request)
            if let box = configuration.pageOneAheadBox, !file.resumed, file.zoom == 1 {
                job.pageOneAhead = PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: 0,
                                                 width: box.width, height: box.height, maximumFileSize: configuration.maximumFileSize,
                                                 csvAsSpreadsheet: configuration.csvAsSpreadsheet, developRaw: file.developRaw)
                job.pageOneAheadLimits = configuration.limits
            }
            file.state = .opening(job)
            queue.wantOpen([job])
        case .opening(let job):
            queue.wantOpen([job])
            queue.wantCompletion([])
        case .completing(_, let job):
            queue.wantOpen([])
            queue.wantCompletion([job])
        case .opened, .failed:
            queue.wantOpen([])
            queue.wantCompletion([])
        }
    }

    /// Waits (blocking) until the current file is opened or failed, at most `timeout` seconds;
    /// the problem, if it cannot be shown. For callers without a main loop (tests, tools);
    /// front-ends use `wake` and ``update()`` instead.
    @discardableResult
    public func waitUntilOpened(timeout: Double? = nil) -> RenderProblem? {
        let deadline = Deadline(seconds: timeout ?? configuration.renderTimeout + 10)
        func opening() -> Bool {
            switch files[fileIndex].state {
            case .unrequested, .opening: return true
            case .opened, .completing, .failed: return false
            }
        }
        while opening() && !deadline.hasPassed {
            held += queue.take().compactMap(apply)
            if opening() { usleep(2_000) }
        }
        if case .failed(let problem) = files[fileIndex].state { return problem }
        return nil
    }

    // MARK: Password

    /// Tries `password` on the current (encrypted) file: it is opened again with it; the answer
    /// comes as an ``Update/opened(file:)``.
    public func unlock(password: String) {
        files[fileIndex].password = password
        openCurrentAgain()
    }

    /// Forgets what the worker said of the current file (its state, card, print answer, pages
    /// and text, the selection and a search) and asks it to open the file again.
    func openCurrentAgain() {
        let file = files[fileIndex]
        file.state = .unrequested
        file.card = nil
        file.printAction = nil
        cache.removeAll(file: fileIndex)
        texts.removeAll { $0.job.file == fileIndex }
        selection = nil
        stopFind()
        requestCurrent()
    }

    // MARK: Markup

    /// Whether the current file is a PDF shown as pages that may be marked up, or a still image
    /// that may be turned and cropped, or why not (the worker read its permissions, its
    /// format); nil for anything else, or while it opens.
    public var markupPermission: OpenedDocument.MarkupPermission? {
        guard case .opened(let facts) = current.state, !facts.pageSizes.isEmpty else { return nil }
        return facts.markup
    }

    /// Markup on the current file turns and crops an image (not a PDF's tools).
    public var marksUpImage: Bool { current.contentType?.family == .image }

    /// The current file as the viewer opened it (read-only, once the worker had read it): what
    /// a save in place checks the file on disk against (``DocumentUpdateWriter``).
    public var openedFile: InputFile? { current.file }

    /// The request that names the current file to a worker that saves changes to it (its path,
    /// and the password it was opened with).
    public var saveRequest: DocumentRequest {
        DocumentRequest(path: current.path, password: current.password, maximumFileSize: configuration.maximumFileSize)
    }

    /// How `file` is named to the worker: its path and password, the size limit, and how it is
    /// to be opened (CSV as a spreadsheet, a RAW developed); the one place a request is made.
    func documentRequest(_ file: OpenFile, layout: DocumentRequest.Layout = .view, firstPageFirst: Bool = false) -> DocumentRequest {
        var request = DocumentRequest(path: file.path, password: file.password, maximumFileSize: configuration.maximumFileSize,
                                      layout: layout, firstPageFirst: firstPageFirst, csvAsSpreadsheet: configuration.csvAsSpreadsheet)
        request.developRaw = file.developRaw
        return request
    }

    /// Whether the current file is a camera RAW photo, whose sensor data can be developed.
    public var canDevelop: Bool { current.contentType.map(PhotoDetails.isCameraRaw) ?? false }

    /// Whether the current file is shown developed from its sensor data.
    public var isDeveloped: Bool { current.developRaw }

    /// A camera RAW photo: shows its sensor data developed at full size (slower, every pixel
    /// demosaiced), or — again — the preview the camera embedded; the worker opens it afresh.
    /// False (nothing done) for any other file.
    @discardableResult
    public func toggleDevelop() -> Bool {
        guard canDevelop else { return false }
        files[fileIndex].developRaw.toggle()
        reopen()
        return true
    }

    /// Reads the current file again (it was saved or reverted in place): the worker opens it
    /// afresh and its pages, text and card come again through ``update()`` as
    /// ``Update/opened(file:)``; the page and zoom stay.
    public func reopen() {
        files[fileIndex].file = nil
        // Its text is read again too: what it carries of the page (its annotations) changed.
        texts.removeAll { $0.job.file == fileIndex }
        queue.want([], for: .view)
        openCurrentAgain()
    }

    // MARK: Pages

    /// Page `index` (0-based) of the current file at `box` times the zoom, for a front-end to
    /// ask for (``want(_:for:)``); nil when not paged or out of range.
    public func pageJob(_ index: Int, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        let file = current
        guard let pixels = pagePixelSize(index, fitting: box) else { return nil }
        return PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: index,
                             width: pixels.width, height: pixels.height, maximumFileSize: configuration.maximumFileSize, csvAsSpreadsheet: configuration.csvAsSpreadsheet,
                             developRaw: file.developRaw)
    }

    /// Frame `number` (0-based) of the current file, an animated image, at the size its page
    /// has fitting `box` times the zoom (``pageJob(_:fitting:)`` of page 1), for a front-end that
    /// plays it (``want(_:for:)`` with `.animation`); nil when the file is no animation that plays.
    public func frameJob(_ number: Int, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        let file = current
        guard let animation = playableAnimation, number >= 0, number < animation.frames,
              let pixels = pagePixelSize(0, fitting: box) else { return nil }
        return PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: 0, width: pixels.width,
                             height: pixels.height, purpose: .animation, frame: number, maximumFileSize: configuration.maximumFileSize)
    }

    /// The current file's animation (frames, one play's length, loops), when it is an animated
    /// image; shown whether or not it plays.
    public var animation: AnimationInfo? { pagedFacts(current)?.animation }

    /// The current file's animation when the window can play it (nil for a still image, or
    /// one refused: ``animationRefusal``).
    public var playableAnimation: AnimationInfo? {
        guard let facts = pagedFacts(current), facts.animationRefusal == nil else { return nil }
        return facts.animation
    }

    /// Why the current file's animation is not played ("too many frames to play …"), nil when
    /// it plays or is no animation.
    public var animationRefusal: String? { pagedFacts(current)?.animationRefusal }

    /// "animated, 48 frames, 3.2 s" for an animated image (what the viewers say of it), nil
    /// for anything else.
    public var animationSummary: String? {
        guard let animation else { return nil }
        let seconds = DecimalText.fixed(animation.duration, 1)
        return "animated, \(animation.frames)\(animation.isCut ? "+" : "") frames, \(seconds) s"
    }

    /// The pixel size page `index` of the current file has when rendered to fit `box` times the
    /// zoom, without rendering it (for laying out a continuous scroll); nil when not paged.
    public func pagePixelSize(_ index: Int, fitting box: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        let file = current
        guard let facts = pagedFacts(file), facts.pageSizes.indices.contains(index) else { return nil }
        return facts.pixelSize(page: index, size: Self.renderSize(box: box, zoom: file.zoom), allowUpscaling: false,
                               limits: configuration.limits)
    }

    /// Page `index`'s size in points (1/72 in), or in pixels for images; nil when not paged.
    public func pageSize(_ index: Int) -> PageSize? {
        guard let facts = pagedFacts(current), facts.pageSizes.indices.contains(index) else { return nil }
        return facts.pageSizes[index]
    }

    /// Replaces the pages wanted for `purpose` (most wanted first): they come back through
    /// ``update()``.
    public func want(_ jobs: [PageRenderJob], for purpose: PageRenderJob.Purpose = .view) {
        queue.want(jobs, for: purpose)
    }

    /// Page `number` (1-based) of the current file as it will print, fitted to `box` whatever
    /// the zoom, for a print sheet's preview strip (``want(_:for:)`` with `.printPreview`):
    /// text is laid out on paper. nil when the file cannot be shown.
    public func printPreviewJob(page number: Int, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        let file = current
        guard let facts = file.facts, number >= 1 else { return nil }
        return PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: number - 1,
                             width: max(1, box.width), height: max(1, box.height), purpose: .printPreview,
                             layout: facts.text == nil ? .view : .paper, maximumFileSize: configuration.maximumFileSize, csvAsSpreadsheet: configuration.csvAsSpreadsheet,
                             developRaw: file.developRaw)
    }

    /// Side `index` (0-based) of the print job composed as `sheet` says, fitted to `box`: a
    /// print sheet's preview (``want(_:for:)`` with `.printPreview`), drawn in the worker by the
    /// composer that draws the job itself.
    public func printPreviewSideJob(side index: Int, sheet: SheetRequest, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        let file = current
        guard file.facts != nil, index >= 0 else { return nil }
        return PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: index,
                             width: max(1, box.width), height: max(1, box.height), purpose: .printPreview,
                             layout: .paper, sheet: sheet, maximumFileSize: configuration.maximumFileSize, csvAsSpreadsheet: configuration.csvAsSpreadsheet,
                             developRaw: file.developRaw)
    }

    /// Side `index` of the composed job, fitted to `box`, waiting for it (tests, tools).
    public func renderPrintPreviewSide(_ index: Int, sheet: SheetRequest, fitting box: (width: Int, height: Int)) throws(RenderProblem) -> RenderedImage {
        if let problem = waitUntilOpened() { throw problem }
        guard let job = printPreviewSideJob(side: index, sheet: sheet, fitting: box) else {
            throw RenderProblem(.unsupported, "nothing to print")
        }
        return try waitFor(job)
    }

    /// The current file's print job composed as `sheet` says, from the worker (waited for):
    /// the PDF a print sheet sends or saves, its sides as the page count.
    func composedJob(_ sheet: SheetRequest) -> Result<PrintableDocument, RenderProblem> {
        let file = files[fileIndex]
        let job = OpenJob(file: fileIndex, request: documentRequest(file, layout: .paper),
                          want: .composed(sheet))
        guard case .printable(_, let result)? = answer(to: job) else {
            return .failure(RenderProblem(.workerFailed, "the renderer did not compose the print job in time"))
        }
        return result
    }

    /// Asks the worker for `job` and waits for its answer (at most the render timeout), keeping
    /// every other answer that comes meanwhile for ``update()``; the job is withdrawn after.
    func answer(to job: OpenJob) -> RenderDelivery? {
        queue.wantOpen([job])
        defer { queue.wantOpen([]) }
        let deadline = Deadline(seconds: configuration.renderTimeout + 10)
        while !deadline.hasPassed {
            for delivery in queue.take() {
                switch delivery {
                case .printable(let done, _) where done == job, .entry(let done, _) where done == job,
                     .form(let done, _) where done == job: return delivery
                default: if let update = apply(delivery) { held.append(update) }
                }
            }
            usleep(2_000)
        }
        return nil
    }

    // MARK: Index sheet (all the files at once)

    /// Every file as an index sheet shows it (name, kind, size, problem), in order.
    public var indexEntries: [IndexEntry] {
        files.enumerated().map { index, file in
            var problem: String?
            var opening = false
            var paged = false
            var lines: [String] = []
            switch file.state {
            case .unrequested, .opening: opening = true
            case .failed(let failure): problem = failure.message
            case .opened(let facts), .completing(let facts, _):
                paged = facts.text == nil && facts.pageCount > 0
                lines = Array((facts.text?.lines ?? []).prefix(12))
            }
            if let gone = file.vanished { problem = gone }
            var entry = IndexEntry(file: index, name: file.path.displayName, card: file.card, problem: problem,
                                   isOpening: opening && problem == nil, hasPages: paged && problem == nil)
            if problem == nil { entry.firstLines = lines }
            return entry
        }
    }

    /// Asks the worker to open every file not yet opened (the current one first), for an index
    /// sheet; each answer comes as ``Update/opened(file:)``. Files that vanished since they were
    /// opened are marked so (nothing is read: the file is only looked up).
    public func openAllForIndex() {
        var jobs: [OpenJob] = []
        for index in [fileIndex] + files.indices.filter({ $0 != fileIndex }) {
            let file = files[index]
            switch file.state {
            case .unrequested:
                let job = OpenJob(file: index, request: documentRequest(file, firstPageFirst: true))
                file.state = .opening(job)
                jobs.append(job)
            case .opening(let job):
                jobs.append(job)
            case .opened, .completing, .failed:
                break
            }
            file.vanished = Self.exists(file.path) ? nil : "the file is no longer there"
        }
        queue.wantOpen(jobs)
    }

    /// Whether `path` still names something (looked up, not opened).
    static func exists(_ path: DocumentPath) -> Bool {
        var status = stat()
        return path.withCString { stat($0, &status) } == 0
    }

    /// The first page of file `index`, fitting `box`, for its tile (``want(_:for:)`` with
    /// `.indexSheet`); nil until the file is opened, or when it has no pages.
    public func indexTileJob(file index: Int, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        guard files.indices.contains(index), let facts = pagedFacts(files[index]), facts.pageCount > 0,
              files[index].vanished == nil else { return nil }
        let file = files[index]
        let pixels = facts.pixelSize(page: 0, size: .fit(width: max(1, box.width), height: max(1, box.height)),
                                     allowUpscaling: false, limits: configuration.limits)
        return PageRenderJob(file: index, path: file.path, password: file.password, page: 0, width: pixels.width,
                             height: pixels.height, purpose: .indexSheet, maximumFileSize: configuration.maximumFileSize, csvAsSpreadsheet: configuration.csvAsSpreadsheet,
                             developRaw: file.developRaw)
    }

    /// Marks file `index` as gone (its tile could not be drawn because it vanished).
    public func noteVanished(file index: Int) {
        guard files.indices.contains(index), !Self.exists(files[index].path) else { return }
        files[index].vanished = "the file is no longer there"
    }

    /// The render worker's process id, while one runs (tests: the process to kill).
    public var workerPID: pid_t? { queue.workerPID }

    // MARK: Blocking conveniences (tests, tools)

    /// The current page rendered to fit `box` (pixels) times the zoom, waiting for it: at zoom
    /// 1 the page fits the box; above, it is larger and ``pan`` says which part to show. Cached
    /// (bounded). Front-ends with a main loop use ``want(_:for:)`` and ``update()`` instead.
    ///
    /// - Throws: ``RenderProblem`` when the file cannot be shown or the page rendered.
    public func renderPage(fitting box: (width: Int, height: Int)) throws(RenderProblem) -> RenderedImage {
        waitUntilOpened()
        return try renderPage(current.position, fitting: box)
    }

    /// Page `index` (0-based) of the current file rendered to fit `box` times the zoom, waiting
    /// for it. Cached (bounded).
    public func renderPage(_ index: Int, fitting box: (width: Int, height: Int)) throws(RenderProblem) -> RenderedImage {
        if let problem = waitUntilOpened() { throw problem }
        guard pagedFacts(current) != nil else { throw RenderProblem(.unsupported, "this file is shown as text") }
        guard let job = pageJob(max(0, min(index, pageCount - 1)), fitting: box) else {
            throw RenderProblem(.unsupported, "no such page")
        }
        return try waitFor(job)
    }

    /// Page `number` (1-based) as it will print, fitted to `box`, waiting for it.
    public func renderPrintPreview(page number: Int, fitting box: (width: Int, height: Int)) throws(RenderProblem) -> RenderedImage {
        if let problem = waitUntilOpened() { throw problem }
        guard let job = printPreviewJob(page: number, fitting: box) else {
            throw RenderProblem(.unsupported, "nothing to print")
        }
        return try waitFor(job)
    }

    func waitFor(_ job: PageRenderJob) throws(RenderProblem) -> RenderedImage {
        let key = PageCache.Key(file: job.file, page: job.page, width: job.width, height: job.height, purpose: job.purpose.rawValue,
                                sheet: job.sheet)
        if let image = cache.image(for: key) { return image }
        queue.want([job], for: job.purpose)
        let deadline = Deadline(seconds: configuration.renderTimeout + 10)
        while !deadline.hasPassed {
            for delivery in queue.take() {
                if case .page(let done, let result) = delivery, done == job {
                    queue.want([], for: job.purpose)
                    completeIfProvisional(job.file)
                    let image = try result.get().image
                    cache.insert(image, for: key)
                    return image
                }
                if let update = apply(delivery) { held.append(update) }
            }
            usleep(2_000)
        }
        throw RenderProblem(.workerFailed, "page \(job.page + 1) did not come back from the renderer")
    }

    /// Rendered pages held by the blocking calls now (bytes).
    public var cachedBytes: Int { cache.byteCount }

    static func renderSize(box: (width: Int, height: Int), zoom: Double) -> RenderSize {
        .fit(width: max(1, Int(Double(box.width) * zoom)), height: max(1, Int(Double(box.height) * zoom)))
    }

    // MARK: Closing and resume

    /// Remembers where each opened file was left (page or line, zoom).
    /// - Returns: why the state could not be saved, if it could not.
    @discardableResult public func saveResume() -> String? {
        guard let store = configuration.resume else { return nil }
        var updates: [String: ResumeStore.Entry] = [:]
        for file in files where file.dirty {
            guard let handle = file.file, let key = ResumeStore.key(for: file.path) else { continue }
            updates[key] = ResumeStore.entry(for: handle, position: file.position, zoom: file.zoom)
            file.dirty = false
        }
        return store.save(updates)
    }

    /// Stops the render worker at once (unless the queue is shared: its owner stops it) and
    /// saves resume state; call when the viewer closes.
    @discardableResult public func close() -> String? {
        if ownsQueue { queue.stop() }
        let problem = saveResume()
        removeEntryDirectory()
        return problem
    }

}
