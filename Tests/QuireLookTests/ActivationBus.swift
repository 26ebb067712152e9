import Foundation
import QuireTestSupport

/// A session bus of its own configuration for D-Bus activation tests: it looks for `.service`
/// files only in `$XDG_DATA_HOME/dbus-1/services` of a private XDG_DATA_HOME and in a stand-in
/// for the system's directory (so no installed previewer, such as Sushi, answers), and gets the display the way a
/// desktop session does, with `dbus-update-activation-environment`.
final class ActivationBus: @unchecked Sendable {
    let directory: TemporaryDirectory
    let address: String
    /// `$XDG_DATA_HOME` of the session: `quire integrate` installs here.
    let dataHome: String
    /// Stands in for /usr/share: its dbus-1/services is searched too (empty unless a test fills it).
    let dataDirectory: String
    private let daemon: BackgroundProcess
    let environment: [String: String]

    init(display bed: WindowTestBed, extra: [String: String] = [:]) throws {
        directory = TemporaryDirectory("quire-activation-bus")
        let socket = directory.file("bus")
        address = "unix:path=\(socket)"
        dataHome = directory.file("data")
        dataDirectory = directory.file("system-data")
        try FileManager.default.createDirectory(atPath: dataHome + "/dbus-1/services", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dataDirectory + "/dbus-1/services", withIntermediateDirectories: true)
        let config = directory.file("session.conf")
        try PrivateSessionBus.configuration(address: address, serviceDirectories: [dataHome + "/dbus-1/services",
                                                                                 dataDirectory + "/dbus-1/services"])
            .write(toFile: config, atomically: true, encoding: .utf8)
        // The daemon starts without a display, as a login session's bus does.
        var daemonEnvironment = [
            "PATH": "/usr/bin:/bin", "HOME": directory.path,
            "XDG_DATA_HOME": dataHome,
            "XDG_STATE_HOME": directory.file("state"), "NO_COLOR": "1",
            "CUPS_SERVER": ProcessInfo.processInfo.environment["CUPS_SERVER"] ?? "127.0.0.1:1",
        ]
        for (key, value) in extra { daemonEnvironment[key] = value }
        daemon = try BackgroundProcess(["/usr/bin/dbus-daemon", "--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
                                       environment: daemonEnvironment, directory: directory.path)
        let deadline = Date().addingTimeInterval(10)
        // The socket file exists from bind(); the address is printed once the daemon listens.
        while !daemon.output.contains("unix:path=") && daemon.isRunning && Date() < deadline { usleep(20_000) }
        guard daemon.output.contains("unix:path=") else {
            throw ActivationBusError( "dbus-daemon did not start: \(daemon.errorOutput)")
        }
        environment = bed.environment(ProcessInfo.processInfo.environment, daemonEnvironment.merging(
            ["DBUS_SESSION_BUS_ADDRESS": address]) { _, new in new })
        // The socket exists once bound, a moment before the daemon listens: on a loaded machine
        // the first connection can be refused, so the update is tried again for a while.
        var update = ProcessRunner.run(["/usr/bin/dbus-update-activation-environment", "DISPLAY", "GDK_BACKEND", "GSK_RENDERER"],
                                       environment: environment, timeout: 20)
        for _ in 0..<50 where update.status != 0 && update.standardError.contains("Connection refused") {
            usleep(100_000)
            update = ProcessRunner.run(["/usr/bin/dbus-update-activation-environment", "DISPLAY", "GDK_BACKEND", "GSK_RENDERER"],
                                       environment: environment, timeout: 20)
        }
        guard update.status == 0 else {
            throw ActivationBusError( "dbus-update-activation-environment: \(update.standardError)")
        }
    }

    deinit { daemon.stop() }
}

struct ActivationBusError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
