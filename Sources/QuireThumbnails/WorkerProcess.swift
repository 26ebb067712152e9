#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireSystem

/// One long-lived worker process and its two pipes. Used by one pool thread at a time.
final class WorkerProcess {
    let pid: pid_t
    private let requestFD: FileDescriptor
    private let responseFD: FileDescriptor
    private var reaped = false
    private var requestClosed = false

    /// What happened to one request.
    enum Outcome {
        case response(WorkerResponse)
        /// The worker died (its exit status or signal described).
        case died(String)
        case timedOut
        case protocolError
    }

    /// Starts `argv` (program first) with pipes on its standard input and output, in its own
    /// process group so that the terminal's Ctrl-C reaches only the parent.
    init(argv: [String], environment: [String: String], quietStandardError: Bool) throws {
        let child: PipedChild
        do {
            child = try PipedChild.spawn(argv: argv, environment: environment.map { "\($0.key)=\($0.value)" },
                                         discardStandardError: quietStandardError,
                                         defaultSignals: [SIGPIPE, SIGINT, SIGTERM])
        } catch {
            switch error.step {
            case .pipe: throw ThumbnailCacheError(path: "pipe", reason: "cannot create a pipe", errno: error.errno)
            case .spawn: throw ThumbnailCacheError(path: argv[0], reason: "cannot start a worker (\(error.errno))", errno: error.errno)
            }
        }
        pid = child.pid
        requestFD = child.input
        responseFD = child.output
    }

    deinit {
        if !requestClosed { try? requestFD.close() }
        try? responseFD.close()
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Waits at most `timeout` seconds for the worker's handshake; nil when it arrived, else
    /// why the worker is unusable (it is killed).
    func awaitHandshake(timeout: Double) -> String? {
        var pollSet = pollfd(fd: responseFD.rawValue, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                terminate()
                return "the worker did not start within \(Int(timeout)) s"
            }
            pollSet.revents = 0
            let ready = poll(&pollSet, 1, Int32(remaining * 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            break
        }
        guard let payload = WireIO.readFrame(responseFD) else { return "the worker could not start (\(reap()))" }
        guard WorkerHandshake.isValid(payload) else {
            terminate()
            return "the worker does not speak this protocol version"
        }
        return nil
    }

    /// Sends `request` and waits at most `timeout` seconds for the answer.
    func process(_ request: WorkerRequest, timeout: Double) -> Outcome {
        guard WireIO.writeAll(requestFD, request.frame) else { return .died(reap()) }
        let deadline = Date().addingTimeInterval(timeout)
        var pollSet = pollfd(fd: responseFD.rawValue, events: Int16(POLLIN), revents: 0)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return .timedOut }
            pollSet.revents = 0
            let ready = poll(&pollSet, 1, Int32(min(remaining * 1000 + 1, 1_000_000)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .protocolError
            }
            if ready > 0 { break }
        }
        // The answer has begun: a worker writes a frame in one go, so read it whole.
        guard let payload = WireIO.readFrame(responseFD) else { return .died(reap()) }
        guard let response = try? WorkerResponse(payload: payload) else { return .protocolError }
        return .response(response)
    }

    /// Kills the worker (SIGKILL to its process group) and reaps it.
    func terminate() {
        guard !reaped else { return }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        _ = reap()
    }

    /// Closes the request pipe so that the worker finishes, then reaps it.
    func finish() {
        guard !reaped else { return }
        if !requestClosed { try? requestFD.close() }
        requestClosed = true
        _ = reap()
    }

    /// Waits for the worker to end and describes how it ended.
    private func reap() -> String {
        if reaped { return "worker ended" }
        var status: Int32 = 0
        let waited = retryingOnInterrupt { waitpid(pid, &status, 0) }
        reaped = true
        guard waited == pid else { return "worker could not be waited for (\(Errno.current.description))" }
        var signal = status & 0x7F
        let exitStatus = (status >> 8) & 0xFF
        // bubblewrap reports a child killed by signal N as exit status 128 + N.
        if signal == 0 && exitStatus > 128 && exitStatus < 128 + 32 { signal = exitStatus - 128 }
        if signal != 0 {
            switch signal {
            case SIGXCPU: return "worker exceeded the CPU time limit"
            case SIGSEGV: return "worker crashed (segmentation fault)"
            case SIGABRT: return "worker crashed (aborted)"
            case SIGKILL: return "worker was killed (out of memory?)"
            default: return "worker crashed (signal \(signal))"
            }
        }
        return "worker exited unexpectedly (status \(exitStatus))"
    }
}
