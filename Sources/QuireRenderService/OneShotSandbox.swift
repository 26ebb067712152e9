import QuireRender
import QuireTypes
import Synchronization

/// LibreOffice and GStreamer's discoverer inside bubblewrap for `quire`'s one-shot commands
/// (`preview`, `info`, `thumbnail FILE OUT`, `print`): they draw every other type in their own
/// process, but an office document is converted to PDF by a render worker in the sandbox the
/// batch and the viewers use (no network, the system and the document's directory read-only, a
/// private `/tmp`), and the command draws, describes or prints that PDF
/// (``RenderRequestKind/officePDF``); and `info`'s facts of a video or audio file — which
/// GStreamer decodes to learn — are read by that worker too (``RenderRequestKind/mediaInfo``).
/// The checks that refuse damaged files and zip bombs still run in the command, before the worker
/// is asked.
///
/// Where bubblewrap does not work — not installed, user namespaces disabled, or inside another
/// sandbox that forbids them, as GNOME's thumbnail factory's does — the conversion runs in the
/// command's own process, as it did before, with the office's profile settings (no macros, no
/// link updates, untrusted links blocked) as the only guard.
public final class OneShotSandbox: InterpreterHost {
    /// `executable()`: the `quire` the worker is started from (asked on the first document that
    /// needs it). `timeout`: seconds a conversion may take (the command's own per-file limit
    /// applies as well).
    public init(executable: @escaping @Sendable () -> String, timeout: Double = 3600) {
        self.executable = executable
        self.timeout = timeout
    }

    /// The memory limit of the command's worker, the command's own (`--memory-limit`).
    private let workerMemory = Mutex<UInt64>(WorkerLimits.standard.memoryBytes)

    /// Gives the command's sandboxed worker (started after this) a memory limit of `bytes`.
    public func setWorkerMemory(bytes: UInt64) {
        workerMemory.withLock { $0 = bytes }
    }

    let executable: @Sendable () -> String
    let timeout: Double
    /// The sandbox, detected on the first document that needs it (a `bwrap` start: not paid by
    /// commands that convert none).
    private let sandbox = Mutex<WorkerSandbox?>(nil)
    /// The worker, kept warm for the command's next office document (`info a.docx b.xlsx`
    /// starts LibreOffice once, as it did in-process); it dies with the command (bubblewrap's
    /// `--die-with-parent`), its private `/tmp` with it. One conversion at a time.
    private let client = Mutex<RenderClient?>(nil)

    public func officePDF(_ file: InputFile, password: String?, csvAsSpreadsheet: Bool) throws(DocumentError) -> [UInt8]? {
        try withWorker(file.path, tool: "LibreOffice", password: password) { (client) throws(RenderProblem) in
            try client.officePDF(DocumentRequest(path: file.path, password: password, maximumFileSize: max(file.size, 1),
                                                 csvAsSpreadsheet: csvAsSpreadsheet))
        }
    }

    /// A document opened by the worker's interpreter (`tool`: Ghostscript, GStreamer); its
    /// pages are drawn there too.
    public func pages(_ file: InputFile, tool: String, firstPageOnly: Bool) throws(DocumentError) -> InterpreterIsolation.Pages? {
        var request = DocumentRequest(path: file.path, maximumFileSize: max(file.size, 1), firstPageFirst: firstPageOnly)
        request.firstPageOnly = firstPageOnly
        let document = request
        guard let facts = try withWorker(file.path, tool: tool, password: nil, { (client) throws(RenderProblem) in
            try client.open(document)
        }) else { return nil }
        guard facts.pageCount > 0 else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "the document has no pages")
        }
        let path = file.path
        var pages = InterpreterIsolation.Pages(sizes: facts.pageSizes) { [self] (index, width, height) throws(DocumentError) -> RenderedImage in
            let image = try withWorker(path, tool: tool, password: nil) { (client) throws(RenderProblem) in
                try client.renderPage(PageRequest(document: document, page: index, width: width, height: height))
            }
            guard let image else {
                throw DocumentError(kind: .damaged, path: path, reason: "the sandboxed renderer is gone")
            }
            return image
        }
        pages.isRaster = facts.isRaster
        pages.details = facts.details
        pages.title = facts.title
        pages.author = facts.author
        pages.pageCountIsKnown = facts.pageCountIsKnown
        return pages
    }

    public func mediaInfo(_ file: InputFile) throws(DocumentError) -> MediaInfo? {
        try withWorker(file.path, tool: "GStreamer", password: nil) { (client) throws(RenderProblem) in
            try client.mediaInfo(DocumentRequest(path: file.path, maximumFileSize: max(file.size, 1)))
        }
    }

    /// `body` with the command's sandboxed worker (started on first use), or nil when there
    /// is no sandbox or the file cannot be named to another process.
    private func withWorker<T: Sendable>(_ path: DocumentPath, tool: String, password: String?,
                               _ body: (RenderClient) throws(RenderProblem) -> T) throws(DocumentError) -> T? {
        // A name that means something else in another process (/proc/self/fd/3, /dev/stdin):
        // the worker would open its own. Read here, from the very file opened.
        if path.bytes.starts(with: Array("/proc/".utf8)) || path.bytes.starts(with: Array("/dev/".utf8)) {
            return nil
        }
        let sandbox = self.sandbox.withLock { detected in
            if detected == nil { detected = WorkerSandbox.detect() }
            return detected!
        }
        guard sandbox.isActive else { return nil }
        return try client.withLock { (box) throws(DocumentError) -> T in
            if box == nil {
                // No CPU limit of its own: the command's per-file time limit (its watchdog)
                // bounds the conversion, as in-process; the worker's memory limit holds.
                let command = WorkerCommand(executable: executable(),
                                            limits: WorkerLimits(memoryBytes: workerMemory.withLock { $0 },
                                                                 cpuSecondsPerRequest: 0))
                box = RenderClient(command: command, timeout: timeout, sandbox: .given(sandbox))
            }
            do throws(RenderProblem) {
                return try body(box!)
            } catch {
                throw Self.documentError(error, path: path, password: password, tool: tool)
            }
        }
    }

    /// The worker's problem as the error the engine would have thrown in-process.
    static func documentError(_ problem: RenderProblem, path: DocumentPath, password: String?, tool: String) -> DocumentError {
        switch problem.kind {
        case .passwordRequired, .wrongPassword:
            return DocumentError(kind: .passwordRequired, path: path,
                                 reason: password == nil ? "the document is password-protected"
                                     : "the password is not correct for this document",
                                 remedy: password == nil ? .password : nil)
        case .damaged:
            let prefix = "damaged: "
            let reason = problem.message.hasPrefix(prefix) ? String(problem.message.dropFirst(prefix.count)) : problem.message
            return DocumentError(kind: .damaged, path: path, reason: reason)
        case .unsupported:
            return DocumentError(kind: .unsupported, path: path, reason: problem.message)
        case .limitExceeded:
            // The worker's memory limit is the command's (--memory-limit): said as such.
            let memory = problem.message.hasPrefix("the renderer needed more memory")
            return DocumentError(kind: .limitExceeded, path: path, reason: problem.message, remedy: memory ? .raise(.memory) : nil)
        case .unreadable:
            return DocumentError(kind: .input, path: path, reason: problem.message)
        case .workerFailed, .cancelled:
            // LibreOffice or GStreamer crashed or ran out of time on it: the document, as far
            // as anyone can tell (a crash in-process would have ended the command).
            return DocumentError(kind: .damaged, path: path, reason: "\(tool) could not read it (\(problem.message))")
        }
    }
}
