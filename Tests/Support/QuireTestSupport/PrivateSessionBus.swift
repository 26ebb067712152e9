import Foundation

/// A private D-Bus session bus on a socket in a temporary directory, stopped when released.
/// Its configuration names no service directory: nothing is started by D-Bus activation, so a
/// name is owned only by what the test starts — never by a service installed on the machine
/// (a `quire` under /usr/local from `make install`, tumbler, Sushi), which the standard session
/// configuration would activate when the test's first call races its own service's start.
public final class PrivateSessionBus: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let address: String
    private let daemon: BackgroundProcess

    public init() throws {
        directory = TemporaryDirectory("quire-bus")
        let socket = directory.file("bus")
        address = "unix:path=\(socket)"
        let config = directory.file("session.conf")
        try Self.configuration(address: address).write(toFile: config, atomically: true, encoding: .utf8)
        daemon = try BackgroundProcess(
            ["/usr/bin/dbus-daemon", "--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
            environment: ["PATH": "/usr/bin:/bin"], directory: directory.path)
        let deadline = Date().addingTimeInterval(10)
        // The socket file exists from bind(); the address is printed once the daemon listens.
        while !daemon.output.contains("unix:path=") && daemon.isRunning && Date() < deadline { usleep(20_000) }
        guard daemon.output.contains("unix:path=") else {
            throw BackgroundProcessError(message: "dbus-daemon did not start: \(daemon.errorOutput)")
        }
    }

    /// A session bus configuration listening on `address` that starts services only from
    /// `serviceDirectories` (none: nothing is activated) and lets every client own and see any
    /// name (the tests' monitors eavesdrop).
    public static func configuration(address: String, serviceDirectories: [String] = []) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(address)</listen>
        \(serviceDirectories.map { "  <servicedir>\($0)</servicedir>\n" }.joined())  <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
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
