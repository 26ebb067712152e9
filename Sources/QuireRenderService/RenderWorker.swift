#if canImport(Glibc)
import Glibc
#endif
import QuireRender
import QuireSystem
import QuireTypes

/// The render service's worker: the loop run inside every helper process that renders (`quire
/// __render-worker`). It writes its handshake, then reads one request frame at a time from
/// standard input and writes the reply to standard output, until standard input ends: batch
/// thumbnails, and the viewers' documents (open, page, text of a page), each request decoded
/// (``RenderRequest``) and answered by one ``DocumentSession`` that keeps the last document open
/// between requests.
///
/// Limits: `RLIMIT_AS` caps memory; the CPU limit is per request (the soft `RLIMIT_CPU` is moved
/// forward before each), so a runaway file gets `SIGXCPU` even if the parent's wall-clock
/// timeout were missed. The worker dies with its parent (`PR_SET_PDEATHSIG`).
public struct RenderWorker: Sendable {
    public let renderLimits: RenderLimits
    public let limits: WorkerLimits
    /// The `Software` its thumbnails' keys name.
    let software: String
    let hooks: WorkerTestHooks

    public init(renderLimits: RenderLimits, limits: WorkerLimits = .standard, software: String, environment: [String: String]) {
        self.renderLimits = renderLimits
        self.limits = limits
        self.software = software
        hooks = WorkerTestHooks(environment: environment)
    }

    /// Serves requests on `input` until it is closed; returns the exit status for the process.
    public func run(input: FileDescriptor = .standardInput, output requestedOutput: FileDescriptor = .standardOutput) -> Int32 {
        // The replies leave descriptor 1 for a copy of it, and descriptor 1 becomes standard
        // error: a library that prints (LibreOffice's threads do, at any time) cannot corrupt
        // the protocol.
        let output = Self.protocolDescriptor(requestedOutput)
        // Dies with its parent (bubblewrap's --die-with-parent does the same inside the sandbox,
        // where the parent is the namespace's init).
        try? ProcessControl.setParentDeathSignal(SIGKILL)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        // Page buffers (megabytes each) go back to the system when freed.
        MallocTuning.returnLargeBlocksToTheSystem()
        if limits.memoryBytes > 0 && !Self.isAddressSanitized {
            var limit = rlimit(rlim_cur: rlim_t(limits.memoryBytes), rlim_max: rlim_t(limits.memoryBytes))
            _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
            // A document that needs more ends the worker with its own status, which the client
            // reports as the memory limit (WorkerProcess.outOfMemoryStatus), not as a crash.
            MemoryLimit.report(exhausted: "quire render worker: out of memory (limit \(limits.memoryBytes >> 20) MiB)\n",
                               status: WorkerProcess.outOfMemoryStatus, crashed: nil, status: 0)
        }
        // Handshake: the parent waits for it before sending anything, so a worker that cannot
        // start (missing binary, broken sandbox) is not mistaken for a file that crashes it.
        if hooks.failStart { return 3 }
        guard WireIO.writeAll(output, WorkerHandshake.frame) else { return 1 }
        let session = DocumentSession(limits: renderLimits, hooks: hooks, software: software, servesManyFiles: true)
        while let payload = WireIO.readFrame(input) {
            var reader = WireReader(payload)
            guard let raw = try? reader.integer(), let kind = RenderRequestKind(rawValue: raw) else { return 2 }
            armCPULimit()
            guard let request = try? RenderRequest(kind, reading: &reader) else { return 2 }
            guard session.answer(request).send(to: output) else { return 1 }
            // A worker that has grown (an office holds hundreds of megabytes, more after each
            // large document) ends after its reply; its client starts a fresh one for the next.
            if recycling.reasonToEnd() != nil { return 0 }
        }
        return 0
    }

    /// When this worker ends itself: after a number of office documents, or past a resident
    /// size.
    var recycling: WorkerRecycling { WorkerRecycling(environment: hooks.environment) }


    /// A copy of `output` when it is standard output (descriptor 1 then points at standard error).
    static func protocolDescriptor(_ output: FileDescriptor) -> FileDescriptor {
        guard output.rawValue == STDOUT_FILENO else { return output }
        let copy = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { return output }
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return FileDescriptor(rawValue: copy)
    }

    /// Whether this process was built with AddressSanitizer (`make asan`): its shadow memory
    /// reserves terabytes of address space, so `RLIMIT_AS` would stop the worker from starting.
    /// The CPU limit and the parent's wall-clock timeout still apply.
    static let isAddressSanitized: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    /// Moves the soft CPU limit to "CPU used so far + the per-request allowance".
    private func armCPULimit() {
        guard limits.cpuSecondsPerRequest > 0 else { return }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let used = Int(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1
        let soft = rlim_t(used + limits.cpuSecondsPerRequest)
        var limit = rlimit(rlim_cur: soft, rlim_max: rlim_t.max)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }
}
