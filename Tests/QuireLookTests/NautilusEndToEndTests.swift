import Foundation
import QuireTestSupport
import Testing

/// The real client: Debian's Nautilus 43 under Xvfb, on a private session bus that activates
/// services only from the test's own directories (where `quire integrate --previewer` put
/// Quire's `.service` file), so an installed GNOME Sushi cannot answer. A file is selected,
/// Space is pressed with xdotool, and Quire's window must appear. `make desktop-test` runs it
/// (Nautilus is a large install kept out of `make test`); CI runs both.
@Suite("Nautilus 43 → Space → Quire's window (Xvfb, private bus)")
final class NautilusEndToEndTests {
    static let nautilus = "/usr/bin/nautilus"

    /// Nautilus in a home of its own: settings in memory (no dconf), local files only (no gvfs
    /// daemons), its own config, cache and runtime directories.
    static func nautilusEnvironment(_ bus: ActivationBus) throws -> [String: String] {
        var environment = bus.environment
        let runtime = bus.directory.file("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        environment["HOME"] = bus.directory.file("home")
        environment["XDG_CONFIG_HOME"] = bus.directory.file("config")
        environment["XDG_CACHE_HOME"] = bus.directory.file("cache")
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["GIO_USE_VFS"] = "local"
        environment["NO_AT_BRIDGE"] = "1"
        environment["GTK_A11Y"] = "none"
        return environment
    }

    @Test func spaceInNautilusOpensQuiresWindow() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.nautilus), "make desktop-test installs nautilus")
        let bed = try WindowTestBed()
        let bus = try ActivationBus(display: bed)
        let install = PreviewerIntegrationTests.integrate(bus, ["install", "--previewer"])
        try #require(install.status == 0, "\(install.standardError)")

        // The bus activates only from the test's directories: Quire's file, and nothing else
        // that provides the previewer name (the system's Sushi file is not seen).
        var statusEnvironment = bus.environment
        statusEnvironment["XDG_DATA_DIRS"] = bus.dataDirectory
        let status = QuireBinary.run(["integrate", "status", "--json"], environment: statusEnvironment)
        let record = try JSONSerialization.jsonObject(with: Data(status.standardOutputText.utf8)) as? [String: Any]
        let previewer = try #require(record?["previewer"] as? [String: Any], "\(status.standardOutputText)")
        let providers = try #require(previewer["providers"] as? [[String: Any]])
        #expect(providers.count == 1 && providers.first?["isQuire"] as? Bool == true, "only Quire's file: \(providers)")

        let folder = bus.directory.file("Reports")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/quarterly.pdf"
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: file)
        try FileManager.default.copyItem(atPath: Samples.path("hello.c"), toPath: folder + "/hello.c")

        // What Nautilus sends to the previewer, read off the bus.
        let monitor = try BackgroundProcess(
            ["/usr/bin/dbus-monitor", "--address", bus.address, "interface='org.gnome.NautilusPreviewer2'"],
            environment: bus.environment, directory: bus.directory.path)
        defer { monitor.stop() }
        let environment = try Self.nautilusEnvironment(bus)
        let nautilus = try BackgroundProcess([Self.nautilus, "--new-window", "--select", file],
                                             environment: environment, directory: bus.directory.path)
        defer { nautilus.stop() }
        let window = try #require(bed.waitForWindow(named: "^Reports$", timeout: 60), "Nautilus's window: \(nautilus.errorOutput)")
        bed.run(["/usr/bin/xdotool", "windowfocus", "--sync", window])

        // Space until Nautilus calls ShowFile: it does once the folder is loaded and the file
        // selected. A press before that does nothing, so pressing again cannot toggle a preview.
        var called = false
        let deadline = Date().addingTimeInterval(60)
        while !called && Date() < deadline {
            bed.key("space")
            let pressed = Date()
            while !called && Date().timeIntervalSince(pressed) < 3 {
                usleep(100_000)
                called = monitor.output.contains("member=ShowFile")
            }
        }
        #expect(called, "Nautilus called ShowFile: \(monitor.output.suffix(2000)) \(nautilus.errorOutput.suffix(2000))")
        let calls = monitor.output.components(separatedBy: "member=ShowFile").count - 1
        #expect(calls == 1, "one call: \(monitor.output)")
        // Nautilus 43's form: (ssb) — the file's URI, the window handle, closeIfAlreadyShown.
        #expect(monitor.output.contains("string \"file://\(file)\""), "\(monitor.output)")

        // Quire's window shows the file; the process behind it is Quire's previewer service.
        let shown = try #require(bed.waitForWindow(named: "^quarterly\\.pdf$", timeout: 30),
                                 "Quire's window: \(monitor.output.suffix(1500))")
        let process = try #require(PreviewerIntegrationTests.windowProcess(bed, shown))
        #expect(process.command.first?.hasSuffix("/quire-look") == true && process.command.dropFirst().first == "--service",
                "the window is Quire's previewer service: \(process.command)")
        let owner = QuireBinary.run(["integrate", "status", "--json"], environment: statusEnvironment).standardOutputText
        let ownerRecord = try JSONSerialization.jsonObject(with: Data(owner.utf8)) as? [String: Any]
        let ownerPID = ((ownerRecord?["previewer"] as? [String: Any])?["owner"] as? [String: Any])?["pid"] as? Int
        #expect(ownerPID.map(Int32.init) == process.pid, "the service that owns org.gnome.NautilusPreviewer answered: \(owner)")
        let shot = try Screenshot(path: bed.screenshot("nautilus-space"))
        var painted = shot
        let paintDeadline = Date().addingTimeInterval(20)
        while painted.redPixels < 2000 && Date() < paintDeadline {
            usleep(200_000)
            painted = try Screenshot(path: bed.screenshot("nautilus-space"))
        }
        #expect(painted.redPixels > 2000, "the PDF's first page is painted")
        try painted.keep(at: "QUIRE_NAUTILUS_SCREENSHOT")

        // Close over the bus as Nautilus does when its window goes; the service then quits idle.
        #expect(PreviewerServiceTests.call(bus.environment, "org.gnome.NautilusPreviewer2.Close").status == 0)
        #expect(PreviewerServiceTests.wait { !bed.hasWindow(named: "^quarterly\\.pdf$") }, "Close hides the window")
        kill(process.pid, SIGTERM)
    }
}
