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
        let toChild: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let fromChild: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do { toChild = try FileDescriptor.pipe() } catch {
            throw ThumbnailCacheError(path: "pipe", reason: "cannot create a pipe", errno: error)
        }
        do { fromChild = try FileDescriptor.pipe() } catch {
            try? toChild.readEnd.close(); try? toChild.writeEnd.close()
            throw ThumbnailCacheError(path: "pipe", reason: "cannot create a pipe", errno: error)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild.readEnd.rawValue, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild.writeEnd.rawValue, 1)
        if quietStandardError { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var child: pid_t = 0
        let status = posix_spawn(&child, argv[0], &actions, &attributes, cArgs, cEnv)
        try? toChild.readEnd.close()
        try? fromChild.writeEnd.close()
        guard status == 0 else {
            try? toChild.writeEnd.close(); try? fromChild.readEnd.close()
            let error = Errno(rawValue: status)
            throw ThumbnailCacheError(path: argv[0], reason: "cannot start a worker (\(error))", errno: error)
        }
        pid = child
        requestFD = toChild.writeEnd
        responseFD = fromChild.readEnd
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
        var waited: pid_t
        waited = retryingOnInterrupt { waitpid(pid, &status, 0) }
        reaped = true
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
