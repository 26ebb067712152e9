#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes

/// A bounded set of long-lived worker processes fed from one shared queue of files.
///
/// Each slot is a thread that owns at most one worker process: it sends a file, waits for the
/// answer for at most the per-file timeout, and on a timeout or a crash kills the worker, reports
/// the file as failed and starts a fresh worker for the next file. Threads (not tasks) are used
/// because each slot blocks in `poll(2)` on its worker's pipe.
final class WorkerPool: @unchecked Sendable {
    struct Configuration: Sendable {
        /// The program and arguments that start one worker (before sandbox wrapping).
        var executable: String
        var arguments: [String]
        var environment: [String: String]
        var sandbox: WorkerSandbox
        /// Paths the workers may read inside the sandbox (the batch's inputs).
        var readable: [String] = []
        var workerCount: Int
        var timeout: Double
        var quietStandardError: Bool
    }

    /// What became of one job.
    enum JobOutcome: Sendable {
        case response(WorkerResponse)
        case failed(kind: String, reason: String)
        /// Not done because the batch was cancelled.
        case cancelled
    }

    struct Job: Sendable {
        var index: Int
        var request: WorkerRequest
    }

    let configuration: Configuration
    private let lock = Lock()
    private var nextJob = 0
    private var stopping = false
    private var live: [Int: pid_t] = [:]
    /// Why workers could not be started, if they could not.
    private var startFailureStorage: String?
    var startFailure: String? {
        lock.lock()
        defer { lock.unlock() }
        return startFailureStorage
    }
    /// Workers started in all (for the summary).
    private(set) var workersStarted = 0

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Stops handing out files and kills the running workers; `run` then returns promptly.
    func cancel() {
        lock.lock()
        stopping = true
        let pids = Array(live.values)
        lock.unlock()
        for pid in pids {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }

    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

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
        lock.lock()
        defer { lock.unlock() }
        guard !stopping else { return nil }
        let index = nextJob
        nextJob += 1
        return index
    }

    private func serve(slot: Int, jobs: [Job], handle: (Job, JobOutcome) -> Void) {
        var worker: WorkerProcess?
        while let index = take(), index < jobs.count {
            let job = jobs[index]
            if worker == nil {
                do {
                    let argv = configuration.sandbox.command(executable: configuration.executable, arguments: configuration.arguments,
                                                                readable: configuration.readable)
                    let process = try WorkerProcess(argv: argv, environment: configuration.environment,
                                                    quietStandardError: configuration.quietStandardError)
                    if let problem = process.awaitHandshake(timeout: 20) {
                        throw ThumbnailCacheError(path: configuration.executable, reason: problem)
                    }
                    lock.lock()
                    live[slot] = process.pid
                    workersStarted += 1
                    lock.unlock()
                    worker = process
                } catch {
                    // Workers cannot start: stop the batch rather than fail every file.
                    handle(job, .failed(kind: "worker", reason: String(describing: error)))
                    lock.lock()
                    stopping = true
                    startFailureStorage = String(describing: error)
                    lock.unlock()
                    break
                }
            }
            let outcome = worker!.process(job.request, timeout: configuration.timeout)
            let result: JobOutcome
            switch outcome {
            case .response(let response):
                result = .response(response)
            case .timedOut:
                worker!.terminate()
                worker = nil
                result = .failed(kind: "timeout", reason: "timed out after \(Self.seconds(configuration.timeout)), the per-file time limit (--timeout); worker killed")
            case .died(let how):
                worker = nil
                result = .failed(kind: "crash", reason: how)
            case .protocolError:
                worker!.terminate()
                worker = nil
                result = .failed(kind: "crash", reason: "worker sent a malformed answer")
            }
            if worker == nil {
                lock.lock()
                live[slot] = nil
                lock.unlock()
            }
            if isCancelled && startFailure == nil, case .failed = result {
                handle(job, .cancelled)
            } else {
                handle(job, result)
            }
        }
        worker?.finish()
        lock.lock()
        live[slot] = nil
        lock.unlock()
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : DecimalText.fixed(value, 1) + " s"
    }
}
