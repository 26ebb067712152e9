#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The process id of a client's running worker, shared with other threads so that they can
/// kill it (a viewer quitting while a page renders) without waiting for the thread that owns it.
public final class WorkerKillSwitch: Sendable {
    private let value = Mutex<pid_t?>(nil)

    /// The running worker's process id.
    public var pid: pid_t? { value.withLock { $0 } }

    func set(_ pid: pid_t?) { value.withLock { $0 = pid } }

    /// SIGKILL to the worker's process group and to the worker; its owner reaps it.
    public func kill() {
        guard let pid = value.withLock({ $0 }) else { return }
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
    }
}
