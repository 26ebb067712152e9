import Quire

/// The viewer behind `quire look`, for every front-end (the terminal viewer, the GTK window):
/// the list of files, the current file and page (or top line, for text), zoom and pan, the
/// file's card, its actions with reasons, the print sheet and resume state.
///
/// Front-ends map input to the commands below and draw what the model says; they never open
/// documents or talk to CUPS themselves. The model is not thread-safe: use it from one thread.
/// Rendering (``renderPage(fitting:)``) is synchronous on the caller's thread, which should be
/// a thread of the front-end's own (not Swift's cooperative pool: poppler cannot be cancelled
/// and may block for long).
///
/// ```swift
/// let model = ViewerModel(paths: [DocumentPath("report.pdf"), DocumentPath("notes.txt")])
/// model.nextPage()
/// let image = try model.renderPage(fitting: (width: 800, height: 1000))
/// print(model.positionText)   // "page 2 of 12"
/// model.close()               // remembers page and zoom for next time
/// ```
public final class ViewerModel {
    /// How the model reaches the rest of the system.
    public struct Configuration: Sendable {
        public var printSystem: PrintSystem
        public var conversion: PrintConversion
        /// Where positions are remembered; nil remembers nothing.
        public var resume: ResumeStore?
        /// Bytes of rendered pages kept for reuse.
        public var cacheByteLimit: Int
        public var maximumFileSize: Int64
        public var limits: RenderLimits
        /// Render pages in this worker program (argv; see ``PageRenderProcess``) instead of in
        /// the viewer's process, so a crash or hang in a renderer costs one page. nil: in-process.
        public var renderProcess: [String]?
        /// Seconds a page may take in the worker before it is killed.
        public var renderTimeout: Double = 30

        public init(printSystem: PrintSystem = PrintSystem(), conversion: PrintConversion = .standard,
                    resume: ResumeStore? = ResumeStore.standard(), cacheByteLimit: Int = 64 << 20,
                    maximumFileSize: Int64 = InputFile.defaultMaximumSize, limits: RenderLimits = .standard,
                    renderProcess: [String]? = nil, renderTimeout: Double = 30) {
            self.renderProcess = renderProcess
            self.renderTimeout = renderTimeout
            self.printSystem = printSystem
            self.conversion = conversion
            self.resume = resume
            self.cacheByteLimit = cacheByteLimit
            self.maximumFileSize = maximumFileSize
            self.limits = limits
        }
    }

    /// What the current file shows.
    public enum Content: Sendable, Hashable {
        /// Pages drawn as pictures (PDF, PostScript, images, SVG, containers' previews).
        case pages(count: Int)
        /// Lines of text (text, source, Markdown, CSV).
        case text(TextContent)
        /// Nothing can be shown; the problem says why (and whether a password helps).
        case problem(ViewerProblem)
    }

    /// Zoom steps (1 = the page fits the view).
    public static let zoomSteps: [Double] = [1, 1.25, 1.5, 2, 3, 4, 6, 8]

    private final class OpenFile {
        let path: DocumentPath
        var loaded = false
        var document: Document?
        var renderer: Renderer?
        /// Text laid out on paper, for the print preview (opened on first use).
        var printLayout: Renderer?
        var text: TextContent?
        var problem: ViewerProblem?
        var card: DocumentCard?
        var printAction: ViewerAction?
        var password: String?
        var position = 0
        var zoom: Double = 1
        var panX = 0.5, panY = 0.0
        var dirty = false

        init(path: DocumentPath) { self.path = path }
    }

    public let configuration: Configuration
    private let files: [OpenFile]
    public private(set) var fileIndex = 0
    private var cache: PageCache
    private let worker: PageRenderProcess?

    /// - Parameter paths: the files, in order; at least one.
    public init(paths: [DocumentPath], configuration: Configuration = Configuration()) {
        precondition(!paths.isEmpty, "a viewer needs at least one file")
        self.configuration = configuration
        files = paths.map(OpenFile.init(path:))
        cache = PageCache(byteLimit: configuration.cacheByteLimit)
        worker = configuration.renderProcess.map { PageRenderProcess(argv: $0, timeout: configuration.renderTimeout) }
    }

    // MARK: What to draw

    public var fileCount: Int { files.count }
    public var paths: [DocumentPath] { files.map(\.path) }
    private var current: OpenFile { load(fileIndex) }
    public var path: DocumentPath { files[fileIndex].path }
    /// The file name for display.
    public var fileName: String { path.displayName }

    public var content: Content {
        let file = current
        if let problem = file.problem { return .problem(problem) }
        if let text = file.text { return .text(text) }
        return .pages(count: file.renderer?.pageCount ?? 0)
    }

    /// The card (nil only when the file could not be opened at all).
    public var card: DocumentCard? { current.card }

    public var problem: ViewerProblem? { current.problem }

    /// Pages, for paged content; 0 otherwise.
    public var pageCount: Int { current.renderer?.pageCount ?? 0 }

    /// 0-based page (paged content) or top line (text).
    public var position: Int { current.position }

    /// The current page, 0-based (0 for text).
    public var page: Int { current.renderer == nil ? 0 : current.position }

    /// 1 = fit the view.
    public var zoom: Double { current.zoom }

    /// Where the view sits on a zoomed page: 0…1 across the part that does not fit.
    public var pan: (x: Double, y: Double) { (current.panX, current.panY) }

    /// "page 3 of 120", "line 40 of 300", or "" when nothing is shown.
    public var positionText: String {
        switch content {
        case .pages(let count): return "page \(page + 1) of \(count)"
        case .text(let text): return "line \(min(position + 1, max(1, text.lineCount))) of \(text.lineCount)"
        case .problem: return ""
        }
    }

    /// "2 of 5" (the file among the files).
    public var fileText: String { "\(fileIndex + 1) of \(fileCount)" }

    /// "fit" or "150%".
    public var zoomText: String { zoom == 1 ? "fit" : "\(Int((zoom * 100).rounded()))%" }

    // MARK: Commands: pages and lines

    /// Next page (paged content) or next line (text). Returns whether anything moved.
    @discardableResult public func nextPage() -> Bool { move(to: position + 1) }
    @discardableResult public func previousPage() -> Bool { move(to: position - 1) }
    @discardableResult public func firstPage() -> Bool { move(to: 0) }
    @discardableResult public func lastPage() -> Bool { move(to: lastPosition) }

    /// Scrolls text by `lines` (negative: up); for paged content, moves by pages.
    @discardableResult public func scroll(by lines: Int) -> Bool { move(to: position + lines) }

    /// Goes to page (or line) `number`, counted from 1. Returns a message when out of range.
    public func goTo(_ number: Int) -> String? {
        switch content {
        case .pages(let count):
            guard (1...max(1, count)).contains(number) else {
                return "there is no page \(number): \(count) page\(count == 1 ? "" : "s")"
            }
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

    private var lastPosition: Int {
        switch content {
        case .pages(let count): return max(0, count - 1)
        case .text(let text): return max(0, text.lineCount - 1)
        case .problem: return 0
        }
    }

    private func move(to target: Int) -> Bool {
        let file = current
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

    /// Makes file `index` current (0-based). Returns false when out of range.
    @discardableResult public func selectFile(_ index: Int) -> Bool {
        guard files.indices.contains(index), index != fileIndex else { return false }
        saveResume()
        fileIndex = index
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
        guard file.renderer != nil else { return false }
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

    // MARK: Password

    /// Tries `password` on the current (encrypted) file. Returns the problem left, if any.
    @discardableResult public func unlock(password: String) -> ViewerProblem? {
        let file = files[fileIndex]
        file.password = password
        file.loaded = false
        file.problem = nil
        return load(fileIndex).problem
    }

    // MARK: Rendering

    /// The current page rendered to fit `box` (pixels) times the zoom: at zoom 1 the page fits
    /// the box; above, it is larger and ``pan`` says which part to show. Cached (bounded).
    ///
    /// - Throws: ``DocumentError`` when the page cannot be rendered (the file is damaged past
    ///   its first pages, or a limit is exceeded); ``ViewerProblem`` when nothing is paged.
    public func renderPage(fitting box: (width: Int, height: Int)) throws -> RenderedImage {
        try renderPage(current.position, fitting: box)
    }

    /// Page `index` (0-based) of the current file rendered to fit `box` times the zoom, for a
    /// front-end that shows several pages at once (a continuous scroll). Cached (bounded).
    public func renderPage(_ index: Int, fitting box: (width: Int, height: Int)) throws -> RenderedImage {
        let file = current
        guard let renderer = file.renderer else {
            throw file.problem ?? ViewerProblem(kind: .unsupported, message: "this file is shown as text")
        }
        return try cachedPage(file, renderer: renderer, page: index, size: Self.renderSize(box: box, zoom: file.zoom))
    }

    /// Page `index` (clamped) rendered at `size`, from the cache or rendered into it.
    private func cachedPage(_ file: OpenFile, renderer: Renderer, page index: Int, size: RenderSize) throws -> RenderedImage {
        let page = max(0, min(index, renderer.pageCount - 1))
        let pixels = renderer.pixelSize(page: page, size: size, allowUpscaling: false)
        let key = PageCache.Key(file: fileIndex, page: page, width: pixels.width, height: pixels.height)
        if let image = cache.image(for: key) { return image }
        let image = try render(file, renderer: renderer, page: page, pixels: pixels, size: size)
        cache.insert(image, for: key)
        return image
    }

    /// The pixel size page `index` of the current file has when rendered to fit `box` times the
    /// zoom, without rendering it (for laying out a continuous scroll); nil when not paged.
    public func pagePixelSize(_ index: Int, fitting box: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        let file = current
        guard let renderer = file.renderer, (0..<renderer.pageCount).contains(index) else { return nil }
        return renderer.pixelSize(page: index, size: Self.renderSize(box: box, zoom: file.zoom), allowUpscaling: false)
    }

    /// Page `index` of the current file at `box` times the zoom, described for a front-end that
    /// renders off its own thread (``PageRenderQueue``) instead of through ``renderPage(_:fitting:)``;
    /// nil when not paged or out of range.
    public func pageJob(_ index: Int, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        let file = current
        guard let pixels = pagePixelSize(index, fitting: box) else { return nil }
        return PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: index,
                             width: pixels.width, height: pixels.height)
    }

    /// Page `index`'s size in points (1/72 in), or in pixels for images; nil when not paged.
    public func pageSize(_ index: Int) -> PageSize? {
        let file = current
        guard let renderer = file.renderer, (0..<renderer.pageCount).contains(index) else { return nil }
        return renderer.pageSize(at: index)
    }

    private func render(_ file: OpenFile, renderer: Renderer, page: Int, pixels: (width: Int, height: Int),
                        size: RenderSize) throws -> RenderedImage {
        if let worker {
            return try worker.render(path: file.path, password: file.password, page: page,
                                     width: pixels.width, height: pixels.height)
        }
        return try renderer.render(page: page, size: size, allowUpscaling: false)
    }

    /// Renders the page after the current one into the cache (for a front-end with time to spare).
    public func prefetchNextPage(fitting box: (width: Int, height: Int)) {
        let file = current
        guard let renderer = file.renderer, file.position + 1 < renderer.pageCount else { return }
        let size = Self.renderSize(box: box, zoom: file.zoom)
        let next = file.position + 1
        let pixels = renderer.pixelSize(page: next, size: size, allowUpscaling: false)
        let key = PageCache.Key(file: fileIndex, page: next, width: pixels.width, height: pixels.height)
        guard !cache.contains(key), let image = try? render(file, renderer: renderer, page: next, pixels: pixels, size: size) else { return }
        cache.insert(image, for: key)
    }

    /// Page `number` (1-based) of the current file as it will print, fitted to `box` whatever
    /// the zoom: for a print sheet's preview strip. Paged documents through the same renderer
    /// (and render worker) as the view, cached; text as it is laid out on paper.
    public func renderPrintPreview(page number: Int, fitting box: (width: Int, height: Int)) throws -> RenderedImage {
        let file = current
        let size = RenderSize.fit(width: max(1, box.width), height: max(1, box.height))
        if let renderer = file.renderer { return try cachedPage(file, renderer: renderer, page: number - 1, size: size) }
        guard let document = file.document, file.problem == nil else {
            throw file.problem ?? ViewerProblem(kind: .unsupported, message: "nothing to print")
        }
        if file.printLayout == nil { file.printLayout = try document.renderer(password: file.password) }
        guard let layout = file.printLayout else { throw ViewerProblem(kind: .unsupported, message: "nothing to print") }
        return try layout.render(page: max(0, min(number - 1, layout.pageCount - 1)), size: size, allowUpscaling: false)
    }

    /// Page `number` (1-based) of the current file as it will print, fitted to `box` whatever
    /// the zoom, described for ``PageRenderQueue`` (a print sheet's preview strip rendered off
    /// the main thread, through the same worker as the view); the renderer lays text out on
    /// paper, as ``renderPrintPreview(page:fitting:)`` does. nil when the file cannot be shown.
    public func printPreviewJob(page number: Int, fitting box: (width: Int, height: Int)) -> PageRenderJob? {
        let file = current
        guard file.document != nil, file.problem == nil, number >= 1 else { return nil }
        return PageRenderJob(file: fileIndex, path: file.path, password: file.password, page: number - 1,
                             width: max(1, box.width), height: max(1, box.height), purpose: .printPreview)
    }

    /// Rendered pages held now (bytes).
    public var cachedBytes: Int { cache.byteCount }

    static func renderSize(box: (width: Int, height: Int), zoom: Double) -> RenderSize {
        .fit(width: max(1, Int(Double(box.width) * zoom)), height: max(1, Int(Double(box.height) * zoom)))
    }

    // MARK: Actions and printing

    /// The actions for the current file, each with its reason when unavailable.
    public var actions: [ViewerAction] { [printAction] }

    /// Print: available only when the content is printable and a printer accepts jobs.
    public var printAction: ViewerAction {
        let file = current
        if let known = file.printAction { return known }
        let action: ViewerAction
        if let document = file.document, file.problem == nil {
            let evaluated = DocumentInteraction(document: document, printSystem: configuration.printSystem,
                                                conversion: configuration.conversion).print
            action = ViewerAction(kind: .print, isAvailable: evaluated.isAvailable, reason: evaluated.reason,
                                  detail: evaluated.detail)
        } else {
            action = ViewerAction(kind: .print, isAvailable: false,
                                  reason: "the file cannot be printed: \(file.problem?.message ?? "it cannot be opened")",
                                  detail: nil)
        }
        file.printAction = action
        return action
    }

    /// Forgets the print action's answer so that it is asked again (printers come and go).
    public func refreshActions() { current.printAction = nil }

    /// A print sheet for the current file, or the reason printing cannot work.
    public func makePrintSheet() throws(PrintError) -> PrintSheet {
        let action = printAction
        guard action.isAvailable, let document = current.document else {
            throw PrintError(.unprintable, action.reason ?? "printing is not available")
        }
        // The pages as they will print: PDFs as they are, text as it is laid out on paper,
        // an image or SVG on one page; PostScript ranges are left to CUPS (count unknown).
        let pages: Int?
        switch document.contentType.family {
        case .pdf: pages = current.renderer?.pageCount
        case .text: pages = try? document.renderer().pageCount
        case .image, .svg: pages = 1
        default: pages = nil
        }
        return try PrintSheet(document: document, pageCount: pages, currentPage: pages == nil ? nil : page + 1,
                              system: configuration.printSystem, conversion: configuration.conversion)
    }

    // MARK: Closing and resume

    /// Remembers where each opened file was left (page or line, zoom).
    /// - Returns: why the state could not be saved, if it could not.
    @discardableResult public func saveResume() -> String? {
        guard let store = configuration.resume else { return nil }
        var updates: [String: ResumeStore.Entry] = [:]
        for file in files where file.loaded && file.dirty {
            guard let document = file.document, let key = ResumeStore.key(for: file.path) else { continue }
            updates[key] = ResumeStore.entry(for: document.file, position: file.position, zoom: file.zoom)
            file.dirty = false
        }
        return store.save(updates)
    }

    /// Saves resume state; call when the viewer closes.
    @discardableResult public func close() -> String? {
        worker?.stop()
        return saveResume()
    }

    // MARK: Loading

    @discardableResult
    private func load(_ index: Int) -> OpenFile {
        let file = files[index]
        guard !file.loaded else { return file }
        file.loaded = true
        file.renderer = nil
        file.text = nil
        file.printLayout = nil
        file.card = nil
        file.printAction = nil
        cache.removeAll(file: index)
        let document: Document
        if let opened = file.document {
            document = opened
        } else {
            do {
                document = try Document(path: file.path, maximumFileSize: configuration.maximumFileSize,
                                        limits: configuration.limits)
            } catch {
                file.problem = ViewerProblem(error)
                return file
            }
        }
        file.document = document
        if document.contentType.family == .text {
            let limit = configuration.limits.maximumTextBytes
            do {
                var bytes = try document.file.read(upTo: limit + 1)
                let truncated = bytes.count > limit
                if truncated {
                    bytes.removeLast(bytes.count - limit)
                    if let newline = bytes.lastIndex(of: 0x0A) { bytes.removeSubrange((newline + 1)...) }
                }
                var text = TextContent(bytes: bytes, isTruncated: truncated)
                // CSV: columns aligned for reading (the cells as written, spaces added).
                if document.contentType.mimeType == "text/csv", let aligned = CSVColumns.aligned(text.lines) {
                    text = TextContent(lines: aligned, isTruncated: truncated)
                }
                file.text = text
            } catch {
                file.problem = ViewerProblem(error)
            }
        } else {
            do {
                file.renderer = try document.renderer(password: file.password)
            } catch {
                file.problem = ViewerProblem(error, passwordGiven: file.password != nil)
            }
        }
        // The card's PDF facts come from the document the renderer has open (not a second
        // opening of the file through another poppler front-end).
        let info = try? document.info(password: file.password, renderer: file.renderer)
        file.card = DocumentCard(info: info, document: document, pages: file.renderer?.pageCount,
                                 lines: file.text?.lineCount)
        if let saved = configuration.resume?.position(for: document.file) {
            file.position = saved.position
            file.zoom = max(1, min(Self.zoomSteps.last!, saved.zoom))
        }
        file.position = max(0, min(file.position, lastPosition(of: file)))
        return file
    }

    private func lastPosition(of file: OpenFile) -> Int {
        if let renderer = file.renderer { return max(0, renderer.pageCount - 1) }
        if let text = file.text { return max(0, text.lineCount - 1) }
        return 0
    }
}

