#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Runs a program directly (no shell) with raw byte arguments, captures its output and enforces
/// a timeout, so that a hang fails the test instead of blocking the suite.
public enum ProcessRunner {
    public struct Result: Sendable {
        public let status: Int32
        /// The signal that ended the process, if it died of one.
        public let signal: Int32?
        public let timedOut: Bool
        public let standardOutput: [UInt8]
        public let standardError: String
        public let elapsed: Double

        public var standardOutputText: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Lines written to standard error.
        public var errorLines: [String] {
            standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }

    public static func run(_ arguments: [String], environment: [String: String]? = nil,
                           timeout: Double = 30, workingDirectory: String? = nil) -> Result {
        run(bytes: arguments.map { Array($0.utf8) }, environment: environment, timeout: timeout,
            workingDirectory: workingDirectory)
    }

    /// - Parameters:
    ///   - bytes: argv as raw bytes; `bytes[0]` is the program path.
    ///   - workingDirectory: the child's working directory (default: the caller's).
    ///   - standardOutputFile: where the child's standard output goes instead of being captured
    ///     (e.g. `/dev/full`, to see how it handles a failing write).
    public static func run(bytes: [[UInt8]], environment: [String: String]? = nil,
                           timeout: Double = 30, workingDirectory: String? = nil,
                           standardOutputFile: String? = nil) -> Result {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("out").path
        let errPath = scratch.appendingPathComponent("err").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutputFile ?? outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let workingDirectory {
            // glibc ≥ 2.29; not exported by the Glibc module, so looked up at run time.
            typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
                return Result(status: 127, signal: nil, timedOut: false, standardOutput: [],
                              standardError: "posix_spawn_file_actions_addchdir_np is missing", elapsed: 0)
            }
            _ = unsafeBitCast(symbol, to: AddChdir.self)(&actions, workingDirectory)
        }

        var env = environment ?? ProcessInfo.processInfo.environment
        if environment == nil { env["NO_COLOR"] = "1" }
        let envStrings = env.map { "\($0.key)=\($0.value)" }

        func cStrings(_ list: [[UInt8]]) -> [UnsafeMutablePointer<CChar>?] {
            list.map { bytes in
                let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
                pointer[bytes.count] = 0
                return pointer
            } + [nil]
        }
        let argv = cStrings(bytes)
        let envp = cStrings(envStrings.map { Array($0.utf8) })
        defer {
            argv.forEach { $0?.deallocate() }
            envp.forEach { $0?.deallocate() }
        }

        ChildDescriptors.closeAboveStandard(&actions)
        let spawnAttributes = CleanSpawnAttributes()

        let start = Date()
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0]!, &actions, &spawnAttributes.attributes, argv, envp)
        guard spawned == 0 else {
            return Result(status: 127, signal: nil, timedOut: false, standardOutput: [],
                          standardError: "spawn failed: \(String(cString: strerror(spawned)))", elapsed: 0)
        }
        var status: Int32 = 0
        var timedOut = false
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if Date().timeIntervalSince(start) > timeout {
                timedOut = true
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            usleep(5_000)
        }
        let elapsed = Date().timeIntervalSince(start)
        let termSignal = status & 0x7F
        let exited = termSignal == 0
        let out = (try? Data(contentsOf: URL(fileURLWithPath: outPath))).map { [UInt8]($0) } ?? []
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Result(status: exited ? (status >> 8) & 0xFF : 128 + termSignal,
                      signal: exited ? nil : termSignal, timedOut: timedOut,
                      standardOutput: out, standardError: err, elapsed: elapsed)
    }
}
