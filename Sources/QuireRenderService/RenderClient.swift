#if canImport(Glibc)
import Glibc
#endif
import QuireRender
import QuireSystem
import QuireTypes

/// The way into the render service, one call per ``RenderRequest``. Two roads, one interface:
/// a worker process (started on first use, sandboxed, started again after a crash, a kill or
/// when a file outside what it may read is asked for), to which it sends each request as a
/// frame and whose reply it waits for against the per-request timeout — the viewers, `quire
/// form`, the batch's documents; or, for a one-shot command that reads one file under its own
/// memory and time limits, a ``DocumentSession`` in the command's own process
/// (``init(inProcess:interpreters:)``), which gets the same requests as values and whose
/// interpreters (LibreOffice, GStreamer, Ghostscript) still run in a sandboxed worker
/// (``OneShotSandbox``). Used by one thread at a time (a viewer's render thread); ``kill()``
/// may be called from any thread.
///
/// A wait can be interrupted: with an `interrupt` descriptor, a byte written there makes the
/// client ask `abandon` whether the request still matters; when it does not, the worker is
/// killed (poppler cannot be cancelled in-process) and the request ends with
/// ``RenderProblem/Kind/cancelled``.
public final class RenderClient {
    /// The worker's command line; nil on the in-process road.
    public let command: WorkerCommand?
    /// Seconds a request may take before its worker is killed (the in-process road is bounded
    /// by its command's own time limit).
    public let timeout: Double
    /// The in-process road's session; nil when requests go to a worker.
    private let session: DocumentSession?
    private let sandboxPolicy: SandboxPolicy
    private var sandbox: WorkerSandbox?
    /// The worker and its lifecycle (started, retried, killed as ``WorkerSlot`` says).
    private let slot: WorkerSlot
    /// Directories the running worker may read (its sandbox's binds).
    private var readable: [String] = []
    private let live: WorkerKillSwitch

    /// Whether workers run in bubblewrap.
    public enum SandboxPolicy: Sendable, Hashable {
        /// Bubblewrap when it is installed and works (``WorkerSandbox/detect(environment:)``).
        case automatic
        case disabled
        /// This sandbox, already detected (``OneShotSandbox`` asks first whether
        /// there is one at all).
        case given(WorkerSandbox)
    }

    public init(command: WorkerCommand, timeout: Double, sandbox: SandboxPolicy = .automatic) {
        self.command = command
        self.timeout = timeout
        sandboxPolicy = sandbox
        session = nil
        let live = WorkerKillSwitch()
        self.live = live
        slot = WorkerSlot { live.set($0) }
    }

    /// The render service in this process: requests are answered here, by the session a worker
    /// would run, with `limits` and `interpreters` (``OneShotSandbox`` for `quire`'s one-shot
    /// commands, which set their own memory and time limits first).
    /// `software`: the `Software` its thumbnails' keys name.
    public init(inProcess limits: RenderLimits, interpreters: Interpreters, software: String = "Quire") {
        command = nil
        timeout = .infinity
        sandboxPolicy = .disabled
        session = DocumentSession(limits: limits, hooks: WorkerTestHooks(environment: [:]), interpreters: interpreters,
                                  software: software, servesManyFiles: false)
        live = WorkerKillSwitch()
        slot = WorkerSlot()
    }

    /// On the in-process road, requests for `file`'s path read `file` — opened and checked by
    /// the caller, typed as `contentType` — instead of opening the path again; ignored by a
    /// worker's road (a worker opens what it is sent).
    public func lend(_ file: InputFile, contentType: ContentType) {
        session?.lend(file, contentType: contentType)
    }

    /// The running worker's process id (nil when none runs).
    public var workerPID: pid_t? { live.pid }

    /// Kills this client's worker from any thread (see ``kill()``).
    public var killSwitch: WorkerKillSwitch { live }

    /// Starts the worker now (before the first request), so that its start overlaps the
    /// caller's own; for `paths`, the files it will be asked about.
    public func start(for paths: [DocumentPath]) throws(RenderProblem) {
        guard session == nil else { return }
        _ = try connection(for: paths)
    }

    /// Opens the document `request` names in the worker: its facts.
    public func open(_ request: DocumentRequest, interrupt: FileDescriptor? = nil,
                     abandon: () -> Bool = { false }) throws(RenderProblem) -> OpenedDocument {
        switch try ask(.open(request), context: "opening the file", interrupt: interrupt, abandon: abandon) {
        case .opened(let facts): return facts
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// Renders a page; its pixels are read straight into the memory `allocate(width, height)`
    /// gives (`width × height × 4` bytes of straight-alpha RGBA), which is returned.
    public func renderPage<Pixels>(_ request: PageRequest, interrupt: FileDescriptor? = nil, abandon: () -> Bool = { false },
                                   allocate: (Int, Int) -> (Pixels, UnsafeMutableRawPointer)?) throws(RenderProblem) -> Pixels {
        try pixels(request.sheet == nil ? .page(request) : .composedSide(request), what: "page \(request.page + 1)",
                   interrupt: interrupt, abandon: abandon, allocate: allocate).pixels
    }

    /// Renders frame `request.page` (0-based) of an animated image fitted to the request's
    /// size; its pixels are read into `allocate`'s memory as a page's are. Returns them with
    /// how long the frame shows (milliseconds).
    public func renderFrame<Pixels>(_ request: PageRequest, interrupt: FileDescriptor? = nil, abandon: () -> Bool = { false },
                                    allocate: (Int, Int) -> (Pixels, UnsafeMutableRawPointer)?) throws(RenderProblem) -> (pixels: Pixels, delay: Int) {
        let answer = try pixels(.frame(request), what: "frame \(request.page + 1)", interrupt: interrupt, abandon: abandon,
                                allocate: allocate)
        return (answer.pixels, answer.delay ?? 0)
    }

    /// A frame as a ``RenderedImage`` (straight-alpha RGBA) and its delay in milliseconds.
    public func renderFrame(_ request: PageRequest) throws(RenderProblem) -> (image: RenderedImage, delay: Int) {
        let answer = try renderFrame(request) { width, height -> (RGBABuffer, UnsafeMutableRawPointer)? in
            let buffer = RGBABuffer(width: width, height: height)
            return (buffer, buffer.base)
        }
        return (answer.pixels.image, answer.delay)
    }

    /// The chosen pages (0-based) on one index sheet, each in a cell of `cellSize` pixels.
    public func renderContactSheet(_ request: DocumentRequest, pages: [Int], cellSize: Int) throws(RenderProblem) -> RenderedImage {
        try pixels(.contactSheet(request, pages: pages, cellSize: cellSize), what: "the index sheet", interrupt: nil,
                   abandon: { false }) { width, height -> (RGBABuffer, UnsafeMutableRawPointer)? in
            let buffer = RGBABuffer(width: width, height: height)
            return (buffer, buffer.base)
        }.pixels.image
    }

    /// A request whose answer is pixels following the reply frame (a page, a side, a frame, a
    /// sheet); `name` says what for people ("page 3").
    private func pixels<Pixels>(_ service: RenderRequest, what name: String, interrupt: FileDescriptor?,
                                abandon: () -> Bool,
                                allocate: (Int, Int) -> (Pixels, UnsafeMutableRawPointer)?) throws(RenderProblem) -> (pixels: Pixels, delay: Int?) {
        let deadline = Deadline(seconds: timeout)
        let kind: RenderRequestKind = if case .frame = service { .frame } else { .page }
        let size: (width: Int, height: Int), delay: Int?
        switch try ask(service, context: "on \(name)", deadline: deadline, interrupt: interrupt, abandon: abandon) {
        case .rendered(let image, let milliseconds):
            // In this process: the session's pixels, copied into the caller's memory.
            guard let (pixels, base) = allocate(image.width, image.height) else {
                throw RenderProblem(.limitExceeded, "no memory for \(name) at \(image.width)×\(image.height)")
            }
            image.pixels.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return (pixels, milliseconds)
        case .page(let width, let height) where kind == .page: (size, delay) = ((width, height), nil)
        case .frame(let width, let height, let milliseconds) where kind == .frame: (size, delay) = ((width, height), milliseconds)
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
        guard let worker = slot.worker else { throw died("the renderer stopped") }
        guard let (pixels, base) = allocate(size.width, size.height) else {
            kill()
            throw RenderProblem(.limitExceeded, "no memory for \(name) at \(size.width)×\(size.height)")
        }
        guard worker.readRaw(into: base, count: size.width * size.height * 4, deadline: deadline) else {
            slot.discard()
            throw died(deadline.hasPassed ? "the renderer took longer than \(Self.seconds(timeout)) on \(name)"
                                          : "the renderer stopped while sending \(name)")
        }
        return (pixels, delay)
    }

    /// A page as a ``RenderedImage`` (straight-alpha RGBA).
    public func renderPage(_ request: PageRequest) throws(RenderProblem) -> RenderedImage {
        let buffer = try renderPage(request) { width, height -> (RGBABuffer, UnsafeMutableRawPointer)? in
            let buffer = RGBABuffer(width: width, height: height)
            return (buffer, buffer.base)
        }
        return buffer.image
    }

    /// The document as it prints (page count, and the PDF a conversion makes of it).
    public func printable(_ request: DocumentRequest, interrupt: FileDescriptor? = nil,
                          abandon: () -> Bool = { false }) throws(RenderProblem) -> PrintableDocument {
        switch try ask(.printable(request), context: "preparing it for print", interrupt: interrupt,
                            abandon: abandon) {
        case .printable(let document): return document
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// An office document converted to PDF by the worker's LibreOffice: the PDF's bytes.
    public func officePDF(_ request: DocumentRequest) throws(RenderProblem) -> [UInt8] {
        switch try ask(.officePDF(request), context: "converting it with LibreOffice",
                            interrupt: nil, abandon: { false }) {
        case .printable(let document):
            guard let pdf = document.convertedPDF else { throw died("the renderer answered something unexpected") }
            return pdf
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// A file's thumbnails with their freedesktop keys, or why there are none.
    package func thumbnail(_ request: ThumbnailRequest) throws(RenderProblem) -> ThumbnailReply {
        switch try ask(.thumbnail(request), context: "making its thumbnail", interrupt: nil, abandon: { false }) {
        case .thumbnails(let reply): return reply
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// The document as PDF: `pages` (0-based), or every page.
    public func exportPDF(_ request: DocumentRequest, pages: [Int]? = nil) throws(RenderProblem) -> [UInt8] {
        try export(.export(request, format: .pdf, pages: pages), context: "making its PDF")
    }

    /// Page `page` (0-based) as an SVG document.
    public func exportSVG(_ request: DocumentRequest, page: Int) throws(RenderProblem) -> [UInt8] {
        try export(.export(request, format: .svg, pages: [page]), context: "making page \(page + 1)'s SVG")
    }

    private func export(_ request: RenderRequest, context: String) throws(RenderProblem) -> [UInt8] {
        switch try ask(request, context: context, interrupt: nil, abandon: { false }) {
        case .exported(let bytes): return bytes
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// A video or audio file's facts, read by the worker's GStreamer.
    public func mediaInfo(_ request: DocumentRequest) throws(RenderProblem) -> MediaInfo {
        switch try ask(.mediaInfo(request), context: "reading it with GStreamer",
                            interrupt: nil, abandon: { false }) {
        case .media(let info): return info
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// What the info card says of the document's content (``DocumentInfo/Content``), read
    /// without drawing; `showLocation`: a photo's GPS position too. A document locked by a
    /// password is not a failure: the content carries the problem.
    public func info(_ request: DocumentRequest, showLocation: Bool = false) throws(RenderProblem) -> DocumentInfo.Content {
        switch try ask(.info(request, showLocation: showLocation), context: "reading it", interrupt: nil, abandon: { false }) {
        case .info(var content):
            // A worker's problem comes without its path (the worker's is absolute): the caller's.
            if let problem = content.problem, problem.path == nil {
                content.problem = DocumentError(kind: problem.kind, path: request.path, reason: problem.reason,
                                                remedy: problem.remedy)
            }
            return content
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// The print job Quire composes for the document: the pages placed on sheets as `sheet`
    /// says, as PDF (``PrintableDocument/convertedPDF``) with its sides as the page count.
    public func composedJob(_ request: DocumentRequest, sheet: SheetRequest, interrupt: FileDescriptor? = nil,
                            abandon: () -> Bool = { false }) throws(RenderProblem) -> PrintableDocument {
        switch try ask(.composedJob(request, sheet), context: "composing the print job", interrupt: interrupt,
                            abandon: abandon) {
        case .printable(let document): return document
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// A PDF's form: its fields and whether it can be filled.
    public func formFields(_ request: DocumentRequest) throws(RenderProblem) -> FormFacts {
        switch try ask(.formFields(request), context: "reading its form", interrupt: nil,
                            abandon: { false }) {
        case .form(let facts): return facts
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// The document with `changes` made, as the worker saved it (an incremental update, or a
    /// rewritten file); nothing is written here — ``DocumentUpdateWriter`` puts it in place.
    public func saveChanges(_ request: DocumentRequest, _ changes: DocumentChanges) throws(RenderProblem) -> PDFUpdate {
        switch try ask(.saveChanges(request, changes), context: "saving the changes", interrupt: nil,
                            abandon: { false }) {
        case .saved(let update): return update
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// The bytes of archive entry `path` (read in the worker; nothing is unpacked to disk there).
    public func extractEntry(_ request: DocumentRequest, path: String, interrupt: FileDescriptor? = nil,
                             abandon: () -> Bool = { false }) throws(RenderProblem) -> [UInt8] {
        switch try ask(.extractEntry(request, entry: path), context: "reading \(path) from the archive",
                            interrupt: interrupt, abandon: abandon) {
        case .entry(let bytes): return bytes
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// The text of a page, in reading order.
    public func text(_ request: PageRequest) throws(RenderProblem) -> String {
        switch try ask(.text(request), context: "reading page \(request.page + 1)'s text",
                            interrupt: nil, abandon: { false }) {
        case .text(let text): return text
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// Searches a run of pages (``SearchRequest``): what the worker found before it stopped.
    public func search(_ request: SearchRequest, interrupt: FileDescriptor? = nil,
                       abandon: () -> Bool = { false }) throws(RenderProblem) -> SearchChunk {
        switch try ask(.search(request), context: "searching page \(request.from + 1)",
                            interrupt: interrupt, abandon: abandon) {
        case .found(let chunk): return chunk
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// A page's text with a box per character, and whether it may be copied.
    public func pageText(_ request: PageRequest, interrupt: FileDescriptor? = nil,
                         abandon: () -> Bool = { false }) throws(RenderProblem) -> PageText {
        switch try ask(.textLayout(request), context: "reading page \(request.page + 1)'s text",
                            interrupt: interrupt, abandon: abandon) {
        case .pageText(let text): return text
        case .failed(let problem): throw problem
        default: throw died("the renderer answered something unexpected")
        }
    }

    /// Kills the worker now (from any thread): a request waiting on it ends as failed. The next
    /// request starts a new one.
    public func kill() {
        live.kill()
    }

    /// Ends the worker (closes its pipe, reaps it).
    public func stop() {
        slot.discard()
    }

    // MARK: The exchange

    /// Sends `request` by this client's road: answered here by the session, or by the worker.
    private func ask(_ request: RenderRequest, context: String, deadline: Deadline? = nil, interrupt: FileDescriptor?,
                     abandon: () -> Bool) throws(RenderProblem) -> DocumentReply {
        if let session { return session.answer(request) }
        let request = request.absolute
        return try exchange(request.frame, for: request.document.path, context: context, deadline: deadline,
                            interrupt: interrupt, abandon: abandon)
    }

    /// Sends `frame` to the worker (``WorkerSlot``: started if needed, once more if it had
    /// recycled itself) and waits for its reply until `deadline`, in slices between which the
    /// caller is asked whether the request still matters.
    private func exchange(_ frame: [UInt8], for path: DocumentPath, context: String, deadline: Deadline? = nil,
                          interrupt: FileDescriptor?, abandon: () -> Bool) throws(RenderProblem) -> DocumentReply {
        let deadline = deadline ?? Deadline(seconds: timeout)
        let exchange: WorkerSlot.Exchange
        let start = try starter(for: [path])
        do throws(WorkerStartError) {
            exchange = try slot.ask(frame, start: start) { worker in
                while true {
                    let slice = Deadline(seconds: min(Self.slice, Double(deadline.remainingMilliseconds()) / 1000))
                    switch worker.awaitReply(deadline: slice, interrupt: interrupt) {
                    case .timedOut:
                        if deadline.hasPassed { return .timedOut }
                        if abandon() { return .interrupted }
                    case .interrupted:
                        if let interrupt { Self.drain(interrupt) }
                        if abandon() { return .interrupted }
                    case let answer:
                        return answer
                    }
                }
            }
        } catch {
            throw RenderProblem(.workerFailed, "cannot start the renderer: \(error.message)")
        }
        switch exchange.outcome {
        case .reply(let payload):
            guard let reply = try? DocumentReply(payload: payload) else {
                slot.discard()
                throw died("the renderer answered something unexpected")
            }
            return reply
        case .timedOut:
            throw died("the renderer took longer than \(Self.seconds(timeout)) \(context)")
        case .interrupted:
            throw RenderProblem(.cancelled, "not rendered: no longer wanted")
        case .died(let how):
            if exchange.ranOutOfMemory {
                throw RenderProblem(.limitExceeded, "the renderer needed more memory than its limit of \((command?.limits.memoryBytes ?? 0) >> 20) MiB \(context)")
            }
            throw died(Self.renderer(how) + " " + context)
        case .protocolError:
            throw died("the renderer could not be read")
        }
    }

    /// How often a long request asks whether it is still wanted (seconds).
    static let slice = 0.25

    /// How to start a worker that may read `paths`; the running one is first ended when it
    /// may not (its sandbox binds what it was started for).
    private func starter(for paths: [DocumentPath]) throws(RenderProblem) -> () throws(WorkerStartError) -> WorkerProcess {
        let sandbox = resolvedSandbox()
        let needed = sandbox.isActive ? Self.directories(of: paths) : []
        let missing = needed.filter { directory in
            !readable.contains { directory == $0 || directory.hasPrefix($0 == "/" ? "/" : $0 + "/") }
        }
        if !missing.isEmpty { slot.retire() }
        guard let command else { throw died("no worker on the in-process road") }
        let roots = slot.worker == nil ? WorkerSandbox.minimalRoots(readable + missing) : readable
        let timeout = timeout
        return { [weak self] () throws(WorkerStartError) -> WorkerProcess in
            let process = try WorkerProcess.start(command, sandbox: sandbox, readable: roots, handshakeTimeout: max(timeout, 20))
            self?.readable = roots
            return process
        }
    }

    /// The running worker, started now if there is none (or it may not read `paths`).
    private func connection(for paths: [DocumentPath]) throws(RenderProblem) -> WorkerProcess {
        let start = try starter(for: paths)
        do throws(WorkerStartError) { return try slot.ready(start: start) } catch {
            throw RenderProblem(.workerFailed, "cannot start the renderer: \(error.message)")
        }
    }

    private func resolvedSandbox() -> WorkerSandbox {
        if let sandbox { return sandbox }
        let resolved: WorkerSandbox
        switch sandboxPolicy {
        case .automatic: resolved = WorkerSandbox.detect(environment: command?.environment ?? [:])
        case .disabled: resolved = .disabled("turned off")
        case .given(let sandbox): resolved = sandbox
        }
        sandbox = resolved
        return resolved
    }

    private func died(_ message: String) -> RenderProblem { RenderProblem(.workerFailed, message) }

    /// "worker crashed (…)" as people read it: "the renderer crashed (…)".
    static func renderer(_ how: String) -> String {
        how.hasPrefix("worker ") ? "the renderer " + how.dropFirst("worker ".count) : "the renderer stopped: " + how
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Reads whatever is waiting on the interrupt descriptor.
    private static func drain(_ descriptor: FileDescriptor) {
        var bytes = [UInt8](repeating: 0, count: 64)
        _ = bytes.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, $0.count) }
    }


    /// The directories holding `paths` (and, for links, their targets'), as strings for the
    /// sandbox's binds.
    static func directories(of paths: [DocumentPath]) -> [String] {
        var directories: [String] = []
        for path in paths {
            let absolute = path.absolute()
            directories.append(absolute.parentDirectory.string)
            if let real = absolute.resolvedRealPath() { directories.append(real.parentDirectory.string) }
        }
        return directories
    }
}
