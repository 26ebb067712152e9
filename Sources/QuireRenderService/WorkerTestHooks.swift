#if canImport(Glibc)
import Glibc
#endif
import QuireTypes

/// Test hooks of a worker, from its environment: `QUIRE_TEST_WORKER_CRASH_ON=NAME` aborts and
/// `QUIRE_TEST_WORKER_HANG_ON=NAME` hangs on a file whose last path component is NAME;
/// `QUIRE_TEST_WORKER_FAIL_START` makes the worker exit before its handshake;
/// `QUIRE_TEST_WORKER_SORT_ANSWER_SECONDS` is how long a viewer's table sort is awaited before
/// the worker answers with how far it is (a quarter of a second otherwise: a fast machine sorts a
/// test's table within it, and its progress would never be seen). They let the suites show what
/// a crashing or hanging renderer costs, and what a viewer says while it waits, with real processes.
public struct WorkerTestHooks: Sendable {
    let crashOn: [UInt8]?
    let hangOn: [UInt8]?
    let failStart: Bool
    /// Seconds a viewer's sort is awaited before answering with its progress (0.25 s).
    let sortAnswerSeconds: Double
    public let environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
        crashOn = environment["QUIRE_TEST_WORKER_CRASH_ON"].map { Array($0.utf8) }
        hangOn = environment["QUIRE_TEST_WORKER_HANG_ON"].map { Array($0.utf8) }
        failStart = environment["QUIRE_TEST_WORKER_FAIL_START"] != nil
        sortAnswerSeconds = environment["QUIRE_TEST_WORKER_SORT_ANSWER_SECONDS"].flatMap(Double.init).map { max(0, $0) } ?? 0.25
    }

    /// Crashes or hangs here when `path` is the file named by a hook.
    public func beforeHandling(_ path: DocumentPath) {
        let name = path.lastComponentBytes
        if let crashOn, name == crashOn { abort() }
        if let hangOn, name == hangOn { while true { sleep(60) } }
    }
}
