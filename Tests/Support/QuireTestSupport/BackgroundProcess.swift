#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A program started directly (no shell) that keeps running while a test talks to it; its
/// output goes to files. Stopped with SIGTERM (then SIGKILL) when released.
public final class BackgroundProcess: @unchecked Sendable {
    public let pid: pid_t
    public let outputPath: String
    public let errorPath: String
    private var reaped = false
    private var status: Int32 = 0
    /// ``stop()`` sent it a signal.
    private var stopped = false

    public init(_ arguments: [String], environment: [String: String], directory: String) throws {
        let name = URL(fileURLWithPath: arguments[0]).lastPathComponent + "-\(UUID().uuidString.prefix(8))"
        outputPath = directory + "/\(name).out"
        errorPath = directory + "/\(name).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        ChildDescriptors.closeAboveStandard(&actions)
        let spawnAttributes = CleanSpawnAttributes()
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, &spawnAttributes.attributes, argv, envp)
        guard result == 0 else {
            throw BackgroundProcessError(message: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    /// Whether the process is still running.
    public var isRunning: Bool {
        if reaped { return false }
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true; return false }
        return true
    }

    /// Waits up to `timeout` seconds for the process to exit by itself.
    public func waitForExit(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !isRunning { return true }
            usleep(20_000)
        }
        return !isRunning
    }

    /// The exit status once the process has exited by itself (nil while running or if killed
    /// by a signal).
    public var exitStatus: Int32? {
        guard !isRunning else { return nil }
        let signalled = (status & 0x7f) != 0
        return signalled ? nil : (status >> 8) & 0xff
    }

    /// The signal that ended the process, when it ended by one it was not sent by ``stop()``
    /// (a crash: SIGSEGV, SIGABRT, SIGTRAP…); nil while it runs or when it exited.
    public var crashSignal: Int32? {
        guard !isRunning, !stopped else { return nil }
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f ? signal : nil
    }

    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    public var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    public func stop() {
        guard isRunning else { return }
        stopped = true
        kill(pid, SIGTERM)
        if !waitForExit(timeout: 3) {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            reaped = true
        }
    }

    deinit { stop() }
}

public struct BackgroundProcessError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
