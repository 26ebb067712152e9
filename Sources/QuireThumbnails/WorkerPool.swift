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
        var worker: WorkerProcess?
        jobs: while let index = take(), index < jobs.count {
            let job = jobs[index]
            // A worker that recycled itself after its last reply (an office worker past its
            // document count or memory ceiling, ``WorkerRecycling``) ends cleanly: the job goes
            // to a fresh worker, once.
            var outcome: WorkerProcess.Outcome
            var attempts = 0
            repeat {
            if worker == nil {
                do {
                    let command = configuration.command
                    let process: WorkerProcess
                    do {
                        process = try WorkerProcess.start(command, sandbox: configuration.sandbox, readable: configuration.readable,
                                                          handshakeTimeout: 20)
                    } catch where error.errno != nil {
                        throw ThumbnailCacheError(path: command.executable, reason: "cannot start a worker (\(error.message))",
                                                  errno: error.errno)
                    } catch {
                        throw ThumbnailCacheError(path: command.executable, reason: error.message)
                    }
                    state.withLock { state in
                        state.live[slot] = process.pid
                        state.workersStarted += 1
                    }
                    worker = process
                } catch {
                    // Workers cannot start: stop the batch rather than fail every file.
                    handle(job, .failed(ThumbnailFailure(.workerUnavailable, String(describing: error))))
                    state.withLock { state in
                        state.stopping = true
                        state.startFailure = String(describing: error)
                    }
                    break jobs
                }
            }
            outcome = worker!.process(RenderRequest.thumbnail(job.request).frame, timeout: configuration.timeout)
            attempts += 1
            guard case .died = outcome, worker!.endedCleanly, attempts == 1 else { break }
            worker = nil
            } while true
            let result: JobOutcome
            switch outcome {
            case .reply(let payload):
                if let response = try? ThumbnailReply(payload: payload) {
                    result = .response(response)
                } else {
                    worker!.terminate()
                    worker = nil
                    result = .failed(ThumbnailFailure(.crash, "worker sent a malformed answer"))
                }
            case .timedOut:
                worker!.terminate()
                worker = nil
                result = .failed(ThumbnailFailure(.timeout, "timed out after \(Self.seconds(configuration.timeout)), the per-file time limit; worker killed",
                                                  remedy: .raise(.time)))
            case .died(let how):
                // Past its memory limit (or killed by the kernel for memory): the setting says so.
                let memory = worker?.ranOutOfMemory == true || how.contains("out of memory")
                worker = nil
                result = .failed(ThumbnailFailure(.crash, how, remedy: memory ? .raise(.memory) : nil))
            case .protocolError, .interrupted:
                worker!.terminate()
                worker = nil
                result = .failed(ThumbnailFailure(.crash, "worker sent a malformed answer"))
            }
            if worker == nil { state.withLock { _ = $0.live.removeValue(forKey: slot) } }
            if isCancelled && startFailure == nil, case .failed = result {
                handle(job, .cancelled)
            } else {
                handle(job, result)
            }
        }
        worker?.finish()
        state.withLock { _ = $0.live.removeValue(forKey: slot) }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : DecimalText.fixed(value, 1) + " s"
    }
}
