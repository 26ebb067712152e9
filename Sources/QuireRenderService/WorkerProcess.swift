#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireSystem

/// One long-lived worker process and its two pipes: the client end of the render service's
/// protocol, used by one thread at a time (a batch slot, a viewer's render thread). It is
/// started through ``ChildProcess`` (its own process group), waits for the
/// worker's handshake, sends request frames and waits for replies against a deadline; a worker
/// that dies, hangs past the deadline or answers garbage is killed and reaped here.
package final class WorkerProcess {
    package let pid: pid_t
    private let requestFD: FileDescriptor
    private let responseFD: FileDescriptor
    private var reaped = false
    /// Whether the worker ended by itself with status 0: a worker that recycles itself (see
    /// ``WorkerRecycling``) after a reply; a request it did not read goes to a fresh worker.
    package private(set) var endedCleanly = false
    private var requestClosed = false

    /// What happened to one request.
    package enum Outcome {
        /// The reply frame's payload.
        case reply([UInt8])
        /// The worker died (its exit status or signal described).
        case died(String)
        case timedOut
        /// The interrupt descriptor became readable before the reply (the caller decides).
        case interrupted
        case protocolError
    }

    /// Starts `argv` (program first) with pipes on its standard input and output, in its own
    /// process group so that the terminal's Ctrl-C reaches only the parent. The Swift runtime's
    /// crash backtracer is turned off in it: a worker that faults dies at once (and takes no
    /// second process along to print a backtrace).
    package init(argv: [String], environment: [String: String], quietStandardError: Bool) throws(WorkerStartError) {
        var entries = environment.filter { $0.key != "SWIFT_BACKTRACE" }.map { "\($0.key)=\($0.value)" }
        entries.append("SWIFT_BACKTRACE=enable=no")
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(argv, ChildProcess.Options(
                environment: entries, standardInput: .pipe, standardOutput: .pipe,
                standardError: quietStandardError ? .null : .inherit, ownProcessGroup: true,
                defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS,
                                 SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGWINCH]))
        } catch {
            switch error.step {
            case .pipe: throw WorkerStartError("cannot create a pipe (\(error.errno))", errno: error.errno)
            case .spawn: throw WorkerStartError("cannot start \(argv[0]) (\(error.errno))", errno: error.errno)
            }
        }
        pid = child.pid
        requestFD = child.input!
        responseFD = child.output!
    }

    deinit {
        if !requestClosed { try? requestFD.close() }
        try? responseFD.close()
        if !reaped {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// A worker from `command`, in `sandbox` reading `readable`, started and ready: its
    /// handshake arrived within `handshakeTimeout` seconds. The batch's slots and the viewers'
    /// client both start theirs here.
    package static func start(_ command: WorkerCommand, sandbox: WorkerSandbox, readable: [String],
                              handshakeTimeout: Double) throws(WorkerStartError) -> WorkerProcess {
        let process = try WorkerProcess(argv: command.argv(sandbox: sandbox, readable: readable), environment: command.environment,
                                        quietStandardError: command.quietStandardError)
        if let problem = process.awaitHandshake(timeout: handshakeTimeout) { throw WorkerStartError(problem) }
        return process
    }

    /// Waits at most `timeout` seconds for the worker's handshake; nil when it arrived, else
    /// why the worker is unusable (it is killed).
    package func awaitHandshake(timeout: Double) -> String? {
        switch wait(until: Deadline(seconds: timeout), interrupt: nil) {
        case .timedOut:
            terminate()
            return "the worker did not start within \(Int(timeout)) s"
        case .reply, .interrupted, .died, .protocolError:
            break
        }
        guard let payload = WireIO.readFrame(responseFD) else { return "the worker could not start (\(reap()))" }
        guard WorkerHandshake.isValid(payload) else {
            terminate()
            return "the worker does not speak this protocol version"
        }
        return nil
    }

    /// Writes a request frame; false when the worker is gone. A write to a worker that died
    /// raises no SIGPIPE in the caller's process (it is blocked on this thread for the write and
    /// a pending one is taken back), so a library user need not ignore SIGPIPE.
    package func write(_ frame: [UInt8]) -> Bool {
        var pipeSignal = sigset_t(), saved = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        let written = WireIO.writeAll(requestFD, frame)
        if !written {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
        }
        return written
    }

    /// Sends a request frame and waits for the reply until `deadline`. With `interrupt`, a
    /// byte on that descriptor ends the wait with ``Outcome/interrupted`` (the request is still
    /// running in the worker: the caller kills it or waits again).
    package func send(_ frame: [UInt8], deadline: Deadline, interrupt: FileDescriptor? = nil) -> Outcome {
        guard write(frame) else { return .died(reap()) }
        return awaitReply(deadline: deadline, interrupt: interrupt)
    }

    /// Waits for the reply of the request in progress (after ``Outcome/interrupted``).
    package func awaitReply(deadline: Deadline, interrupt: FileDescriptor? = nil) -> Outcome {
        switch wait(until: deadline, interrupt: interrupt) {
        case .reply: break
        case let other: return other
        }
        // The answer has begun: a worker writes a frame in one go, so read it whole.
        guard let payload = WireIO.readFrame(responseFD) else { return .died(reap()) }
        return .reply(payload)
    }

    /// Sends `request` and waits at most `timeout` seconds for the answer.
    package func process(_ frame: [UInt8], timeout: Double) -> Outcome {
        send(frame, deadline: Deadline(seconds: timeout))
    }

    /// Reads `count` raw bytes that follow a reply frame (a page's pixels) into `destination`,
    /// until `deadline`; false when the worker died or the time ran out (it is then killed).
    package func readRaw(into destination: UnsafeMutableRawPointer, count: Int, deadline: Deadline) -> Bool {
        var filled = 0
        while filled < count {
            switch wait(until: deadline, interrupt: nil) {
            case .reply: break
            default:
                terminate()
                return false
            }
            let got = read(responseFD.rawValue, destination + filled, count - filled)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                terminate()
                return false
            }
            filled += got
        }
        return true
    }

    /// Polls the reply pipe (and `interrupt`) until one is readable or `deadline` passes:
    /// `.reply` means the reply pipe is readable (or closed).
    private func wait(until deadline: Deadline, interrupt: FileDescriptor?) -> Outcome {
        var fds = [pollfd(fd: responseFD.rawValue, events: Int16(POLLIN), revents: 0)]
        if let interrupt { fds.append(pollfd(fd: interrupt.rawValue, events: Int16(POLLIN), revents: 0)) }
        while true {
            let remaining = deadline.remainingMilliseconds()
            if remaining <= 0 { return .timedOut }
            for index in fds.indices { fds[index].revents = 0 }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1_000_000)))
            if ready < 0 {
                if errno == EINTR { continue }
                return .protocolError
            }
            if ready == 0 { continue }
            if fds[0].revents != 0 { return .reply([]) }
            if fds.count > 1, fds[1].revents != 0 { return .interrupted }
        }
    }

    /// Whether the worker has ended on its own (or was killed from outside) since its last
    /// answer: it is then reaped, and a client starts another instead of sending it a request.
    package var hasExited: Bool {
        if reaped { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        reaped = true
        endedCleanly = status == 0
        return true
    }

    /// Kills the worker (SIGKILL to its process group), reaps it, and waits (at most
    /// `groupWait` seconds) until nothing of its process group is left: what the group's other
    /// processes leave behind can be cleaned up only once they have ended.
    package func terminate(groupWait: Double = 2) {
        guard !reaped else { return }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        _ = reap()
        ProcessControl.awaitGroupEnd(pid, seconds: groupWait)
    }

    /// Closes the request pipe so that the worker finishes, then reaps it.
    package func finish() {
        guard !reaped else { return }
        if !requestClosed { try? requestFD.close() }
        requestClosed = true
        _ = reap()
    }

    /// The status a worker exits with when a document needed more memory than its limit
    /// (``MemoryLimit``).
    package static let outOfMemoryStatus: Int32 = 86

    /// Whether the worker ended because a document needed more memory than its limit (known
    /// once reaped).
    package private(set) var ranOutOfMemory = false

    /// Waits for the worker to end and describes how it ended.
    package func reap() -> String {
        if reaped { return "worker ended" }
        var status: Int32 = 0
        let waited = retryingOnInterrupt { waitpid(pid, &status, 0) }
        reaped = true
        guard waited == pid else { return "worker could not be waited for (\(Errno.current.description))" }
        endedCleanly = status == 0
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
        if exitStatus == Self.outOfMemoryStatus {
            ranOutOfMemory = true
            return "worker needed more memory than its limit"
        }
        return "worker exited unexpectedly (status \(exitStatus))"
    }
}
