#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireRenderService
import QuireSystem
import Synchronization

/// The viewers' render thread: every file a viewer opens and every page it shows goes through
/// here to the render service's worker (``RenderClient``), off the front-end's thread, so a
/// window's main loop or a terminal's key loop never waits for a document.
///
/// The front-end says what it wants now — the files to open (the current one), the pages in
/// view then the neighbours ahead, a print sheet's preview pages — and each answer is put in an
/// inbox, after which `wake` is called (on the render thread): the front-end takes the answers
/// on its own thread (``take()``). Only the newest wish lists count: pages scrolled past before
/// their turn are never rendered. A request that nothing wants any more is dropped, and when it
/// is a file being opened (a slow or hanging file the user moved past) or a page that has run
/// for a while, its worker is killed and the next request starts a fresh one. ``stop()`` kills
/// the worker at once.
public final class RenderQueue: Sendable {
    private struct State: Sendable {
        var opens: [OpenJob] = []
        /// Files shown page 1 first, to be finished once the pages in view are drawn.
        var completions: [OpenJob] = []
        /// Per purpose (``PageRenderJob/Purpose``'s raw value), most wanted first.
        var pages: [[PageRenderJob]] = PageRenderJob.Purpose.allCases.map { _ in [] }
        /// The search wanted, and where it stands: the run being scanned, the next page in it,
        /// the matches found so far.
        var search: SearchJob?
        var searchRun = 0
        var searchNext = 0
        var searchFound = 0
        /// Pages whose text (with boxes) is wanted, most wanted first.
        var texts: [TextJob] = []
        var running: Running?
        var runningSince = 0.0
        var stopped = false
        var inbox: [RenderDelivery] = []
        /// Page 1 rendered before it was asked for (``OpenJob/pageOneAhead``), until it is taken;
        /// then, until the next take, the page just handed over unasked: the front-end's request
        /// for it, made while it takes the file's facts, is already answered.
        var ahead: PageRenderJob?
        var aheadTaken: PageRenderJob?
    }

    private enum Running: Sendable, Hashable {
        case open(OpenJob)
        case page(PageRenderJob)
        case search(SearchJob, run: Int, request: SearchRequest)
        case text(TextJob)
    }

    /// Milliseconds one search request may scan for: pages in view wait at most this long.
    static let searchSliceMilliseconds = 80

    /// What the front-end and the render thread share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let doorbell = WakePipe()
        /// The running worker's kill switch (``stop()`` kills it from the front-end's thread).
        let killSwitch: Mutex<WorkerKillSwitch?> = Mutex(nil)
    }

    private let shared = Shared()

    private let thread: JoinableThread

    /// Pages running longer than this are dropped (their worker killed) once nothing wants them.
    static let abandonPagesAfter = 0.5

    /// Starts the render thread and its worker (for `paths`, the files the viewer has).
    /// - Parameters:
    ///   - unacceptedLimit: when set, the thread renders no further page while this many pages
    ///     wait in the inbox. A front-end that hands pages to a main loop sets it: while the
    ///     loop is behind (a flood of keys is dispatched before idle callbacks), pages would
    ///     otherwise pile up, each holding its memory, beyond any cache's bound.
    ///   - wake: called on the render thread after each answer is put in the inbox.
    public init(command: WorkerCommand, timeout: Double, sandbox: RenderClient.SandboxPolicy = .automatic,
                paths: [DocumentPath], unacceptedLimit: Int? = nil, wake: @escaping @Sendable () -> Void) {
        let shared = self.shared
        thread = JoinableThread(stackSize: 1 << 20) {
            Self.run(shared: shared, command: command, timeout: timeout, sandbox: sandbox, paths: paths,
                     limit: unacceptedLimit, wake: wake)
        }
    }

    /// Replaces the files waiting to be opened (most wanted first). A file being opened that is
    /// no longer wanted is dropped: its answer is ``RenderProblem/Kind/cancelled``.
    public func wantOpen(_ jobs: [OpenJob]) {
        replace(\.opens, with: jobs)
    }

    /// Replaces the files to finish (opened page 1 first: the same request without
    /// `firstPageFirst`), run after the pages in view and before anything else; a file being
    /// finished that is no longer wanted is dropped like a file being opened.
    public func wantCompletion(_ jobs: [OpenJob]) {
        replace(\.completions, with: jobs)
    }

    /// Replaces the pages waiting to be rendered for `purpose` with `jobs` (most wanted first).
    /// The view's pages go before a print preview's; files to open go first of all.
    public func want(_ jobs: [PageRenderJob], for purpose: PageRenderJob.Purpose = .view) {
        update { state in
            var waiting = jobs.map { $0.purpose == purpose ? $0 : $0.with(purpose: purpose) }
            // A page already rendered and waiting in the inbox is not rendered again: the
            // front-end drew its frame before taking it.
            let delivered = state.inbox.compactMap { delivery -> PageRenderJob? in
                switch delivery {
                case .page(let job, _), .frame(let job, _): job
                default: nil
                }
            }
            if !delivered.isEmpty { waiting.removeAll { delivered.contains($0) } }
            if let ahead = state.aheadTaken { waiting.removeAll { $0 == ahead } }
            guard state.pages[purpose.rawValue] != waiting else { return false }
            state.pages[purpose.rawValue] = waiting
            return true
        }
    }

    /// Runs `job` (replacing any search; nil stops searching). A search already running stops
    /// after its current request, which takes at most ``searchSliceMilliseconds``.
    public func wantSearch(_ job: SearchJob?) {
        update { state in
            guard state.search != job else { return false }
            state.search = job
            state.searchRun = 0
            state.searchNext = (job?.backward == true ? job?.runs.first?.upperBound : job?.runs.first?.lowerBound) ?? 0
            state.searchFound = 0
            return true
        }
    }

    /// Replaces the pages whose text is wanted (most wanted first).
    public func wantText(_ jobs: [TextJob]) {
        replace(\.texts, with: jobs)
    }

    /// Changes what is wanted under the lock; when `body` says it changed anything, the render
    /// thread is woken to look again.
    private func update(_ body: (inout State) -> Bool) {
        if shared.state.withLock({ body(&$0) }) { shared.doorbell.ring() }
    }

    /// Replaces one list of wanted jobs, waking the render thread only when it is a new list.
    private func replace<Jobs: Equatable>(_ list: WritableKeyPath<State, Jobs>, with jobs: Jobs) {
        update { state in
            guard state[keyPath: list] != jobs else { return false }
            state[keyPath: list] = jobs
            return true
        }
    }

    /// The answers delivered since the last call (front-end's thread), oldest first.
    public func take() -> [RenderDelivery] {
        let taken = shared.state.withLock { state in
            defer { state.inbox = [] }
            state.aheadTaken = nil
            if let ahead = state.ahead, state.inbox.contains(where: { if case .page(ahead, _) = $0 { true } else { false } }) {
                state.ahead = nil
                state.aheadTaken = ahead
            }
            return state.inbox
        }
        if !taken.isEmpty { shared.doorbell.ring() }  // room again under the unaccepted limit
        return taken
    }

    /// Pages and files waiting (not counting the one in progress).
    public var pending: Int { shared.state.withLock { $0.opens.count + $0.completions.count + $0.pages.reduce(0) { $0 + $1.count } } }

    /// The worker's process id, while one runs (tests).
    public var workerPID: pid_t? { shared.killSwitch.withLock { $0?.pid } }

    /// Stops the thread: the worker is killed at once (a page in progress is not waited for).
    public func stop() {
        let first = shared.state.withLock { state -> Bool in
            defer { state.stopped = true }
            state.opens = []
            state.completions = []
            state.pages = state.pages.map { _ in [] }
            state.search = nil
            state.texts = []
            return !state.stopped
        }
        guard first else { return }
        shared.killSwitch.withLock { $0?.kill() }
        shared.doorbell.ring()
        thread.join()
    }

    deinit { stop() }

    private static func run(shared: Shared, command: WorkerCommand, timeout: Double, sandbox: RenderClient.SandboxPolicy,
                            paths: [DocumentPath], limit: Int?, wake: @Sendable () -> Void) {
        let client = RenderClient(command: command, timeout: timeout, sandbox: sandbox)
        shared.killSwitch.withLock { $0 = client.killSwitch }
        defer { client.stop() }
        // The worker starts (and, sandboxed, may read the viewer's files) before anything is asked.
        try? client.start(for: paths)
        while true {
            enum Next { case run(Running), wait, stop }
            let next = shared.state.withLock { state -> Next in
                state.running = nil
                if state.stopped { return .stop }
                // The wish lists stay as the front-end gave them while a job runs (so that it can
                // tell whether the job is still wanted); a job done is taken off them.
                var next: Running?
                let pagesHeld = limit.map { limit in state.inbox.count { switch $0 { case .page, .frame: true; default: false } } >= limit } == true
                if let open = state.opens.first {
                    next = .open(open)
                } else if !pagesHeld, !state.pages[PageRenderJob.Purpose.view.rawValue].isEmpty {
                    next = .page(state.pages[PageRenderJob.Purpose.view.rawValue][0])
                } else if let completion = state.completions.first, state.pages[PageRenderJob.Purpose.view.rawValue].isEmpty {
                    next = .open(completion)
                } else if let text = state.texts.first {
                    next = .text(text)
                } else if let search = state.search, state.searchRun < search.runs.count {
                    // Between the pages in view: one short request of the search.
                    let run = search.runs[state.searchRun]
                    // Forward: from where the last request stopped to the run's end; backward: from
                    // the run's start up to where the last request stopped going down.
                    var request = SearchRequest(document: search.document, query: search.query,
                                                from: search.backward ? run.lowerBound : state.searchNext,
                                                to: search.backward ? state.searchNext : run.upperBound,
                                                budgetMilliseconds: Self.searchSliceMilliseconds,
                                                maximumMatches: max(1, search.maximumMatches - state.searchFound))
                    request.tableRows = search.tableRows
                    request.backward = search.backward
                    next = .search(search, run: state.searchRun, request: request)
                } else if !pagesHeld, let lane = state.pages.firstIndex(where: { !$0.isEmpty }) {
                    next = .page(state.pages[lane][0])
                } else if pagesHeld {
                    return .wait
                }
                guard let next else { return .wait }
                state.running = next
                state.runningSince = Deadline.now()
                return .run(next)
            }
            let running: Running
            switch next {
            case .stop: return
            case .wait:
                shared.doorbell.wait()
                continue
            case .run(let job): running = job
            }
            // Whether the request in progress may be dropped: nothing wants it any more (a
            // file is dropped at once, a page once it has run for a while).
            let abandon: () -> Bool = {
                shared.state.withLock { state in
                    if state.stopped { return true }
                    switch running {
                    case .open(let job): return !state.opens.contains(job) && !state.completions.contains(job)
                    case .page(let job):
                        return !state.pages.contains { $0.contains(job) }
                            && Deadline.now() - state.runningSince > Self.abandonPagesAfter
                    case .search(let job, _, _):
                        // A slice ends by itself within its budget; only one stuck on a page is killed.
                        return state.search != job && Deadline.now() - state.runningSince > Self.abandonPagesAfter
                    case .text(let job):
                        return !state.texts.contains(job) && Deadline.now() - state.runningSince > Self.abandonPagesAfter
                    }
                }
            }
            let delivery: RenderDelivery?
            switch running {
            case .open(let job):
                switch job.want {
                case .facts:
                    let result = Result { () throws(RenderProblem) in
                        try client.open(job.request, interrupt: shared.doorbell.readEnd, abandon: abandon)
                    }
                    delivery = .opened(job, result)
                    // Page 1 whose size every view gives it: rendered next, while the front-end
                    // takes the facts (its own request for it finds it running or delivered).
                    if case .success(let facts) = result, let ahead = job.pageOneAhead(for: facts) {
                        shared.state.withLock { state in
                            if state.pages[PageRenderJob.Purpose.view.rawValue].isEmpty {
                                state.pages[PageRenderJob.Purpose.view.rawValue] = [ahead]
                                state.ahead = ahead
                            }
                        }
                    }
                case .printable:
                    let result = Result { () throws(RenderProblem) in
                        try client.printable(job.request, interrupt: shared.doorbell.readEnd, abandon: abandon)
                    }
                    delivery = .printable(job, result)
                case .composed(let sheet):
                    let result = Result { () throws(RenderProblem) in
                        try client.composedJob(job.request, sheet: sheet, interrupt: shared.doorbell.readEnd, abandon: abandon)
                    }
                    delivery = .printable(job, result)
                case .entry(let path):
                    let result = Result { () throws(RenderProblem) in
                        try client.extractEntry(job.request, path: path, interrupt: shared.doorbell.readEnd, abandon: abandon)
                    }
                    delivery = .entry(job, result)
                case .form:
                    let result = Result { () throws(RenderProblem) in try client.formFields(job.request) }
                    delivery = .form(job, result)
                }
                shared.state.withLock { state in
                    state.opens.removeAll { $0 == job }
                    state.completions.removeAll { $0 == job }
                }
            case .page(let job) where job.frame != nil:
                let result = Result { () throws(RenderProblem) -> (pixels: PagePixels, delay: Int) in
                    try client.renderFrame(job.request, interrupt: shared.doorbell.readEnd, abandon: abandon) { width, height in
                        PagePixels(width: width, height: height).map { ($0, $0.base) }
                    }
                }
                shared.state.withLock { state in state.pages[job.purpose.rawValue].removeAll { $0 == job } }
                switch result {
                case .success(let frame):
                    PagePixels.premultiplyInPlace(frame.pixels.base, count: frame.pixels.width * frame.pixels.height)
                    delivery = .frame(job, .success(AnimationFrame(pixels: frame.pixels, delay: frame.delay)))
                case .failure(let problem) where problem.kind == .cancelled:
                    delivery = nil
                case .failure(let problem):
                    delivery = .frame(job, .failure(problem))
                }
            case .page(let job):
                let result = Result { () throws(RenderProblem) -> PagePixels in
                    try client.renderPage(job.request, interrupt: shared.doorbell.readEnd, abandon: abandon) { width, height in
                        PagePixels(width: width, height: height).map { ($0, $0.base) }
                    }
                }
                shared.state.withLock { state in state.pages[job.purpose.rawValue].removeAll { $0 == job } }
                switch result {
                case .success(let pixels):
                    PagePixels.premultiplyInPlace(pixels.base, count: pixels.width * pixels.height)
                    delivery = .page(job, .success(pixels))
                case .failure(let problem) where problem.kind == .cancelled:
                    delivery = nil  // nothing wants it; a view that does asks again
                case .failure(let problem):
                    delivery = .page(job, .failure(problem))
                }
            case .search(let job, let run, let request):
                let result = Result { () throws(RenderProblem) in
                    try client.search(request, interrupt: shared.doorbell.readEnd, abandon: abandon)
                }
                delivery = shared.state.withLock { state -> RenderDelivery? in
                    guard state.search == job else { return nil }  // replaced meanwhile: its answer is stale
                    switch result {
                    case .success(let chunk):
                        state.searchFound += chunk.matches.count
                        if job.backward {
                            state.searchNext = min(chunk.next, request.to)
                            if state.searchNext <= job.runs[run].lowerBound {
                                state.searchRun += 1
                                if state.searchRun < job.runs.count { state.searchNext = job.runs[state.searchRun].upperBound }
                            }
                        } else {
                            state.searchNext = max(chunk.next, request.from + 1)
                            if state.searchNext >= job.runs[run].upperBound {
                                state.searchRun += 1
                                if state.searchRun < job.runs.count { state.searchNext = job.runs[state.searchRun].lowerBound }
                            }
                        }
                        let finished = state.searchRun >= job.runs.count || state.searchFound >= job.maximumMatches
                        if finished { state.search = nil }
                        return .found(job, run: run, .success(chunk), finished: finished)
                    case .failure(let problem):
                        state.search = nil
                        if problem.kind == .cancelled { return nil }
                        return .found(job, run: run, .failure(problem), finished: true)
                    }
                }
            case .text(let job):
                let result = Result { () throws(RenderProblem) in
                    try client.pageText(job.request, interrupt: shared.doorbell.readEnd, abandon: abandon)
                }
                shared.state.withLock { state in state.texts.removeAll { $0 == job } }
                switch result {
                case .failure(let problem) where problem.kind == .cancelled: delivery = nil
                case .failure(let problem): delivery = .pageText(job, .failure(problem))
                case .success(let text): delivery = .pageText(job, .success(text))
                }
            }
            let stopped = shared.state.withLock { state -> Bool in
                if let delivery, !state.stopped { state.inbox.append(delivery) }
                return state.stopped
            }
            if stopped { return }
            if delivery != nil { wake() }
        }
    }
}
