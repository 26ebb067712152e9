#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// Test hooks of a worker, from its environment: `QUIRE_TEST_WORKER_CRASH_ON=NAME` aborts and
/// `QUIRE_TEST_WORKER_HANG_ON=NAME` hangs on a file whose last path component is NAME;
/// `QUIRE_TEST_WORKER_FAIL_START` makes the worker exit before its handshake. They let the
/// suites show what a crashing or hanging renderer costs, with real processes.
public struct WorkerTestHooks: Sendable {
    let crashOn: [UInt8]?
    let hangOn: [UInt8]?
    let failStart: Bool
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
        crashOn = environment["QUIRE_TEST_WORKER_CRASH_ON"].map { Array($0.utf8) }
        hangOn = environment["QUIRE_TEST_WORKER_HANG_ON"].map { Array($0.utf8) }
        failStart = environment["QUIRE_TEST_WORKER_FAIL_START"] != nil
    }

    /// Crashes or hangs here when `path` is the file named by a hook.
    public func beforeHandling(_ path: DocumentPath) {
        let name = path.lastComponentBytes
        if let crashOn, name == crashOn { abort() }
        if let hangOn, name == hangOn { while true { sleep(60) } }
    }
}
