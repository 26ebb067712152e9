#if canImport(Glibc)
import Glibc
#endif

/// One worker at a time for a caller that sends it one request after another — a
/// ``RenderClient``, one slot of the batch's pool: the worker lifecycle's policy, written once.
///
/// - A worker is started when a request needs one, by the caller's `start` (its command, its
///   sandbox, what it may read, its handshake).
/// - A worker that ended on its own while idle (killed from outside, or recycled) is forgotten
///   before the next request: nothing was asked of it, so nothing is lost.
/// - A worker that recycled itself after its last reply (``WorkerRecycling``: it ends with status
///   0) before reading or answering the next request gets that request again, once, on a fresh
///   worker.
/// - A worker whose answer cannot be had — the time ran out, the caller stopped waiting, what it
///   sent could not be read — is killed with its process group.
/// - A worker that died is forgotten; ``Exchange/ranOutOfMemory`` says whether its memory limit
///   ended it.
///
/// Callers say what the outcome means in their own words (a ``RenderProblem``, a
/// ``ThumbnailFailure``). Used by one thread at a time; `changed` tells others which process to
/// kill (``WorkerKillSwitch``, the pool's table).
package final class WorkerSlot {
    /// The running worker, if one was started and has not been forgotten.
    package private(set) var worker: WorkerProcess?
    /// Called with a new worker's process id, and with nil once it is gone.
    private let changed: (pid_t?) -> Void

    package init(changed: @escaping (pid_t?) -> Void = { _ in }) {
        self.changed = changed
    }

    deinit { worker?.terminate() }

    /// What came of one request.
    package struct Exchange {
        package var outcome: WorkerProcess.Outcome
        /// The worker that died had run out of its memory limit.
        package var ranOutOfMemory: Bool
    }

    /// The worker to send a request to: the running one unless it ended while idle, else one
    /// `start` starts.
    package func ready(start: () throws(WorkerStartError) -> WorkerProcess) throws(WorkerStartError) -> WorkerProcess {
        if let worker, worker.hasExited { forget() }
        if let worker { return worker }
        let started = try start()
        worker = started
        changed(started.pid)
        return started
    }

    /// Sends `frame` and lets `wait` wait for the answer (``WorkerProcess/awaitReply(deadline:interrupt:)``,
    /// in as many slices as the caller wants; ``WorkerProcess/Outcome/interrupted`` when the
    /// caller stopped waiting). The policy above applies; the worker stays running only after
    /// a reply.
    package func ask(_ frame: [UInt8], start: () throws(WorkerStartError) -> WorkerProcess,
                     wait: (WorkerProcess) -> WorkerProcess.Outcome) throws(WorkerStartError) -> Exchange {
        var retried = false
        while true {
            let worker = try ready(start: start)
            let outcome = worker.write(frame) ? wait(worker) : .died(worker.reap())
            switch outcome {
            case .reply:
                return Exchange(outcome: outcome, ranOutOfMemory: false)
            case .died:
                forget()
                if !retried && worker.endedCleanly {
                    retried = true
                    continue
                }
                return Exchange(outcome: outcome, ranOutOfMemory: worker.ranOutOfMemory)
            case .timedOut, .interrupted, .protocolError:
                discard()
                return Exchange(outcome: outcome, ranOutOfMemory: false)
            }
        }
    }

    /// Kills the worker with its process group (a request on it cannot be finished).
    package func discard() {
        worker?.terminate()
        forget()
    }

    /// Ends the worker gently: its request pipe closed, it finishes and is reaped.
    package func retire() {
        worker?.finish()
        forget()
    }

    private func forget() {
        guard worker != nil else { return }
        worker = nil
        changed(nil)
    }
}
