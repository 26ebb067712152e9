#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes
import Synchronization
import QuireSystem
import QuireRenderService

/// A bounded set of long-lived worker processes (the render service's, ``WorkerProcess``) fed
/// from one shared queue of files.
///
/// Each slot is a thread that owns at most one worker process: it sends a file, waits for the
/// answer for at most the per-file timeout, and on a timeout or a crash kills the worker, reports
/// the file as failed and starts a fresh worker for the next file. Threads (not tasks) are used
/// because each slot blocks in `poll(2)` on its worker's pipe.
final class WorkerPool: Sendable {
    struct Configuration: Sendable {
        /// How one worker starts (before sandbox wrapping).
        var command: WorkerCommand
        var sandbox: WorkerSandbox
        /// Paths the workers may read inside the sandbox (the batch's inputs).
        var readable: [String] = []
        var workerCount: Int
        var timeout: Double
    }

    /// What became of one job.
    enum JobOutcome: Sendable {
        case response(ThumbnailReply)
        case failed(ThumbnailFailure)
        /// Not done because the batch was cancelled.
        case cancelled
    }

    struct Job: Sendable {
        var index: Int
        var request: ThumbnailRequest
    }

    let configuration: Configuration

    private struct State {
        var nextJob = 0
        var stopping = false
        /// The running worker of each slot.
        var live: [Int: pid_t] = [:]
        var startFailure: String?
        var workersStarted = 0
    }
    private let state = Mutex(State())

    /// Why workers could not be started, if they could not.
    var startFailure: String? { state.withLock { $0.startFailure } }
    /// Workers started in all (for the summary).
    var workersStarted: Int { state.withLock { $0.workersStarted } }

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Stops handing out files and kills the running workers; `run` then returns promptly.
    func cancel() {
        let pids = state.withLock { state in
            state.stopping = true
            return Array(state.live.values)
        }
        for pid in pids {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }

    var isCancelled: Bool { state.withLock { $0.stopping } }

    /// Processes `jobs` in order (the caller sorts them) with up to `workerCount` workers and
    /// calls `handle` for each from the slot threads (concurrently). Returns when all are done.
    func run(_ jobs: [Job], handle: @escaping @Sendable (Job, JobOutcome) -> Void) {
        let slots = max(1, min(configuration.workerCount, jobs.count))
        guard !jobs.isEmpty else { return }
        let threads = (0..<slots).map { slot in
            JoinableThread(stackSize: 1 << 20) { [self] in serve(slot: slot, jobs: jobs, handle: handle) }
        }
        threads.forEach { $0.join() }
    }

    private func take() -> Int? {
        state.withLock { state in
            guard !state.stopping else { return nil }
            defer { state.nextJob += 1 }
            return state.nextJob
        }
    }

    private func serve(slot: Int, jobs: [Job], handle: (Job, JobOutcome) -> Void) {
        // The worker's lifecycle (started when needed, a recycled worker's file sent again once,
        // killed on a timeout) is the render service's, ``WorkerSlot``.
        let worker = WorkerSlot { [self] pid in
            state.withLock { state in
                if let pid {
                    state.live[slot] = pid
                    state.workersStarted += 1
                } else {
                    _ = state.live.removeValue(forKey: slot)
                }
            }
        }
        let configuration = configuration
        let start = { () throws(WorkerStartError) -> WorkerProcess in
            try WorkerProcess.start(configuration.command, sandbox: configuration.sandbox, readable: configuration.readable,
                                    handshakeTimeout: 20)
        }
        while let index = take(), index < jobs.count {
            let job = jobs[index]
            let exchange: WorkerSlot.Exchange
            do throws(WorkerStartError) {
                exchange = try worker.ask(RenderRequest.thumbnail(job.request).frame, start: start) { process in
                    process.awaitReply(deadline: Deadline(seconds: configuration.timeout))
                }
            } catch {
                // Workers cannot start: stop the batch rather than fail every file.
                let executable = configuration.command.executable
                let problem = error.errno != nil
                    ? ThumbnailCacheError(path: executable, reason: "cannot start a worker (\(error.message))", errno: error.errno)
                    : ThumbnailCacheError(path: executable, reason: error.message)
                handle(job, .failed(ThumbnailFailure(.workerUnavailable, String(describing: problem))))
                state.withLock { state in
                    state.stopping = true
                    state.startFailure = String(describing: problem)
                }
                break
            }
            let result: JobOutcome
            switch exchange.outcome {
            case .reply(let payload):
                if let response = try? ThumbnailReply(payload: payload) {
                    result = .response(response)
                } else {
                    worker.discard()
                    result = .failed(ThumbnailFailure(.crash, "worker sent a malformed answer"))
                }
            case .timedOut:
                result = .failed(ThumbnailFailure(.timeout, "timed out after \(Self.seconds(configuration.timeout)), the per-file time limit; worker killed",
                                                  remedy: .raise(.time)))
            case .died(let how):
                // Past its memory limit (or killed by the kernel for memory): the setting says so.
                let memory = exchange.ranOutOfMemory || how.contains("out of memory")
                result = .failed(ThumbnailFailure(.crash, how, remedy: memory ? .raise(.memory) : nil))
            case .protocolError, .interrupted:
                result = .failed(ThumbnailFailure(.crash, "worker sent a malformed answer"))
            }
            if isCancelled && startFailure == nil, case .failed = result {
                handle(job, .cancelled)
            } else {
                handle(job, result)
            }
        }
        worker.retire()
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : DecimalText.fixed(value, 1) + " s"
    }
}
