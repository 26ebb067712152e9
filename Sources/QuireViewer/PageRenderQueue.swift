#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireSystem
import Synchronization

/// One page to render at an exact pixel size, as ``ViewerModel/pageJob(_:fitting:)`` describes
/// it; Sendable, so it can go to a render thread.
public struct PageRenderJob: Sendable, Hashable {
    /// Which opened file (the model's file index) and which unlock of it: a new password or
    /// another file makes older jobs' results stale.
    public let file: Int
    public let path: DocumentPath
    public let password: String?
    public let page: Int
    public let width: Int
    public let height: Int
    /// What the page is for: each purpose has a wish list of its own on a ``PageRenderQueue``.
    public let purpose: Purpose

    /// What a page is rendered for.
    public enum Purpose: Int, Sendable, Hashable, CaseIterable {
        /// The pages in view and their neighbours (rendered first).
        case view
        /// A print sheet's preview strip (rendered when no page of the view is waiting).
        case printPreview
    }

    public init(file: Int, path: DocumentPath, password: String?, page: Int, width: Int, height: Int, purpose: Purpose = .view) {
        self.file = file
        self.path = path
        self.password = password
        self.page = page
        self.width = width
        self.height = height
        self.purpose = purpose
    }
}

/// Renders pages on a thread of its own, so that a window's main loop never waits for a page:
/// the front-end says which pages it wants now (those in view first, then the neighbours ahead),
/// and each rendered page comes back through `deliver`, on the render thread, as ``PagePixels``
/// (cairo's pixel format, read from the worker straight into the page's own memory).
///
/// Only the newest wish list counts: pages scrolled past before their turn are never rendered,
/// so paging through 1000 pages with key repeat renders what was actually in view. Rendering
/// goes through a ``PageRenderProcess`` (isolation, as the model does) or, without one, through
/// a document opened on the render thread itself (poppler objects stay on one thread).
///
/// Sendable: the wish list is behind a mutex; the thread handle is joined once (``stop()``).
public final class PageRenderQueue: @unchecked Sendable {
    public typealias Delivery = @Sendable (PageRenderJob, Result<PagePixels, ViewerProblem>) -> Void

    private struct State: Sendable {
        /// Per purpose (``PageRenderJob/Purpose``'s raw value), most wanted first.
        var wanted: [[PageRenderJob]] = PageRenderJob.Purpose.allCases.map { _ in [] }
        /// The page being rendered now (asked for again meanwhile, it is not rendered twice).
        var running: PageRenderJob?
        var stopped = false
    }

    /// What the front-end and the render thread share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let wakeUp = Semaphore()
    }

    private let shared = Shared()
    private let thread: JoinableThread

    /// Starts the render thread.
    /// - Parameters:
    ///   - configuration: the model's (worker argv and timeout, limits, maximum file size).
    ///   - warmUp: a page rendered at once and not delivered (e.g. the first page at 1×1), so
    ///     that starting the worker and opening the document overlap the window's own start.
    ///   - deliver: called on the render thread with each page or its problem.
    public init(configuration: ViewerModel.Configuration, warmUp: PageRenderJob? = nil, deliver: @escaping Delivery) {
        let shared = self.shared
        let settings = RenderSettings(configuration)
        thread = JoinableThread(stackSize: 8 << 20) {
            Self.run(shared: shared, settings: settings, warmUp: warmUp, deliver: deliver)
        }
    }

    /// Replaces the pages waiting to be rendered for `purpose` with `jobs` (most wanted first;
    /// each job's own purpose is set to `purpose`). A page being rendered now finishes and is
    /// delivered. The view's pages go before a print preview's.
    public func want(_ jobs: [PageRenderJob], for purpose: PageRenderJob.Purpose = .view) {
        let changed = shared.state.withLock { state -> Bool in
            let waiting = jobs.map { $0.purpose == purpose ? $0 : PageRenderJob(
                file: $0.file, path: $0.path, password: $0.password, page: $0.page, width: $0.width, height: $0.height, purpose: purpose)
            }.filter { $0 != state.running }
            guard state.wanted[purpose.rawValue] != waiting else { return false }
            state.wanted[purpose.rawValue] = waiting
            return !waiting.isEmpty
        }
        if changed { shared.wakeUp.post() }
    }

    /// Pages waiting (not counting the one being rendered).
    public var pending: Int { shared.state.withLock { $0.wanted.reduce(0) { $0 + $1.count } } }

    /// Stops the thread (after the page in progress) and its worker process; waits for it.
    public func stop() {
        let first = shared.state.withLock { state -> Bool in
            defer { state.stopped = true }
            state.wanted = state.wanted.map { _ in [] }
            return !state.stopped
        }
        guard first else { return }
        shared.wakeUp.post()
        thread.join()
    }

    deinit { stop() }

    /// What the thread needs of the configuration (Sendable parts only).
    private struct RenderSettings: Sendable {
        let worker: [String]?
        let timeout: Double
        let maximumFileSize: Int64
        let limits: RenderLimits

        init(_ configuration: ViewerModel.Configuration) {
            worker = configuration.renderProcess
            timeout = configuration.renderTimeout
            maximumFileSize = configuration.maximumFileSize
            limits = configuration.limits
        }
    }

    private static func run(shared: Shared, settings: RenderSettings, warmUp: PageRenderJob?, deliver: Delivery) {
        let worker = settings.worker.map { PageRenderProcess(argv: $0, timeout: settings.timeout) }
        defer { worker?.stop() }
        // In-process: the document last used, opened on this thread.
        var open: (path: DocumentPath, password: String?, renderer: Renderer)?
        var warming = warmUp
        while true {
            enum Next { case job(PageRenderJob), wait, stop }
            let next = shared.state.withLock { state -> Next in
                if state.stopped { return .stop }
                if let job = warming { return .job(job) }
                if let lane = state.wanted.firstIndex(where: { !$0.isEmpty }) {
                    state.running = state.wanted[lane].removeFirst()
                } else {
                    state.running = nil
                }
                return state.running.map(Next.job) ?? .wait
            }
            let job: PageRenderJob
            switch next {
            case .stop: return
            case .wait:
                shared.wakeUp.wait()
                continue
            case .job(let wanted): job = wanted
            }
            let result: Result<PagePixels, ViewerProblem>
            if let worker {
                result = Result { () throws(ViewerProblem) in
                    try worker.renderPixels(path: job.path, password: job.password, page: job.page, width: job.width, height: job.height)
                }
            } else {
                do throws(DocumentError) {
                    if open == nil || open!.path != job.path || open!.password != job.password {
                        open = nil
                        let document: Document
                        do {
                            document = try Document(path: job.path, maximumFileSize: settings.maximumFileSize, limits: settings.limits)
                        } catch {
                            throw DocumentError(error)
                        }
                        open = (job.path, job.password, try document.renderer(password: job.password))
                    }
                    let image = try open!.renderer.render(page: job.page, size: .fit(width: job.width, height: job.height),
                                                          allowUpscaling: true)
                    if let pixels = PagePixels(image) {
                        result = .success(pixels)
                    } else {
                        result = .failure(ViewerProblem(kind: .damaged, message: "no memory for page \(job.page + 1) at \(image.width)×\(image.height)"))
                    }
                } catch {
                    result = .failure(ViewerProblem(error, passwordGiven: job.password != nil))
                }
            }
            if warming != nil {
                warming = nil  // rendered for its side effects only
            } else {
                deliver(job, result)
            }
        }
    }
}

/// A POSIX counting semaphore (the render thread sleeps on it while nothing is wanted).
private final class Semaphore: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() { sem_init(semaphore, 0, 0) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func post() { sem_post(semaphore) }

    func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }
}
