import Foundation

/// A private D-Bus session bus (`dbus-daemon --session`) on a socket in a temporary directory,
/// stopped when released.
public final class PrivateSessionBus: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let address: String
    private let daemon: BackgroundProcess

    public init() throws {
        directory = TemporaryDirectory("quire-bus")
        let socket = directory.file("bus")
        address = "unix:path=\(socket)"
        daemon = try BackgroundProcess(
            ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"],
            environment: ["PATH": "/usr/bin:/bin"], directory: directory.path)
        let deadline = Date().addingTimeInterval(10)
        // The socket file exists from bind(); the address is printed once the daemon listens.
        while !daemon.output.contains("unix:path=") && daemon.isRunning && Date() < deadline { usleep(20_000) }
        guard daemon.output.contains("unix:path=") else {
            throw BackgroundProcessError(message: "dbus-daemon did not start: \(daemon.errorOutput)")
        }
    }

    /// Environment for processes that should use this bus.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        env["NO_COLOR"] = "1"
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// `gdbus call` on this bus; returns the result.
    public func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String],
                     timeout: Double = 20) -> ProcessRunner.Result {
        ProcessRunner.run(["/usr/bin/gdbus", "call", "--session", "--dest", destination, "--object-path", path,
                           "--method", method] + arguments, environment: environment(), timeout: timeout)
    }

    deinit { daemon.stop() }
}
