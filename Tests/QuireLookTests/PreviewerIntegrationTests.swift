import Foundation
import QuireTestSupport
import Testing

/// `quire integrate` and the previewer: the D-Bus activation file is installed when no other
/// previewer provides the name (or with --previewer), never over a file Quire did not write, and
/// the file managers' Quick Look action opens Quire's window.
@Suite("quire integrate: previewer and Quick Look actions (Xvfb)")
final class PreviewerIntegrationTests {
    static let sushi = """
        [D-BUS Service]
        Name=org.gnome.NautilusPreviewer
        Exec=/usr/libexec/org.gnome.NautilusPreviewer

        """

    static func integrate(_ bus: ActivationBus, _ arguments: [String]) -> ProcessRunner.Result {
        var environment = bus.environment
        environment["XDG_DATA_DIRS"] = bus.dataDirectory
        // The test binary lives outside /usr, where GNOME's thumbnail sandbox cannot run it:
        // install everything but the thumbnailer (IntegrationTests covers that refusal).
        let install = arguments.first == "install" ? ["--no-thumbnailer"] : []
        return QuireBinary.run(["integrate"] + arguments + install, environment: environment)
    }

    var ownFile: (ActivationBus) -> String { { $0.dataHome + "/dbus-1/services/org.gnome.NautilusPreviewer.service" } }

    @Test func installedWhenUnclaimedAndActivatedByShowFile() throws {
        let bed = try WindowTestBed()
        let bus = try ActivationBus(display: bed)
        let install = Self.integrate(bus, ["install"])
        #expect(install.status == 0, "\(install.standardError)")
        #expect(install.standardOutputText.contains("previewer: org.gnome.NautilusPreviewer is Quire's window"), "\(install.standardOutputText)")
        let text = try String(contentsOfFile: ownFile(bus), encoding: .utf8)
        #expect(text.contains("Exec=\(QuireBinary.path) look --service"))

        // Nothing runs; Nautilus 43's call starts Quire from the installed file.
        let shown = PreviewerServiceTests.call(bus.environment, "org.gnome.NautilusPreviewer2.ShowFile",
                                               [PreviewerServiceTests.uri(Samples.path("document.pdf")), "", "false"])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(bed.waitForWindow(named: "^document\\.pdf$") != nil, "the installed service shows the window")
        #expect(PreviewerServiceTests.call(bus.environment, "org.gnome.NautilusPreviewer2.Close").status == 0)

        let uninstall = Self.integrate(bus, ["uninstall"])
        #expect(uninstall.status == 0)
        #expect(!FileManager.default.fileExists(atPath: ownFile(bus)), "uninstall removes it")
    }

    @Test func anotherPreviewerIsKeptAndNamed() throws {
        let bed = try WindowTestBed()
        let bus = try ActivationBus(display: bed)
        let sushiFile = bus.dataDirectory + "/dbus-1/services/org.gnome.NautilusPreviewer.service"
        try Self.sushi.write(toFile: sushiFile, atomically: true, encoding: .utf8)

        // Sushi provides the name: not installed, and the owner is named.
        let plain = Self.integrate(bus, ["install"])
        #expect(plain.status == 0)
        #expect(plain.standardOutputText.contains("provided by \(sushiFile)"), "\(plain.standardOutputText)")
        #expect(!FileManager.default.fileExists(atPath: ownFile(bus)))

        // --previewer: Quire's file in the user's directory (which the bus searches first).
        let chosen = Self.integrate(bus, ["install", "--previewer"])
        #expect(chosen.status == 0)
        #expect(chosen.standardOutputText.contains("is Quire's window (instead of \(sushiFile))"), "\(chosen.standardOutputText)")
        #expect(FileManager.default.fileExists(atPath: ownFile(bus)))
        #expect(try String(contentsOfFile: sushiFile, encoding: .utf8) == Self.sushi, "Sushi's file untouched")

        // Uninstall gives the name back to Sushi.
        #expect(Self.integrate(bus, ["uninstall"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: ownFile(bus)))
        #expect(try String(contentsOfFile: sushiFile, encoding: .utf8) == Self.sushi)

        // A system install never replaces a system Sushi file, even with --previewer.
        let prefix = bus.directory.file("prefix")
        let systemSushi = prefix + "/share/dbus-1/services/org.gnome.NautilusPreviewer.service"
        try FileManager.default.createDirectory(atPath: prefix + "/share/dbus-1/services", withIntermediateDirectories: true)
        try Self.sushi.write(toFile: systemSushi, atomically: true, encoding: .utf8)
        let system = Self.integrate(bus, ["install", "--system", "--prefix", prefix, "--previewer"])
        #expect(system.status == 0, "\(system.standardError)")
        #expect(system.standardOutputText.contains("kept (not Quire's, left alone): \(systemSushi)"), "\(system.standardOutputText)")
        #expect(try String(contentsOfFile: systemSushi, encoding: .utf8) == Self.sushi, "system Sushi file untouched")
        #expect(Self.integrate(bus, ["uninstall", "--system", "--prefix", prefix]).status == 0)
        #expect(try String(contentsOfFile: systemSushi, encoding: .utf8) == Self.sushi, "and still there after uninstall")
    }

    @Test func quickLookActionOpensTheWindow() throws {
        let bed = try WindowTestBed()
        let bus = try ActivationBus(display: bed)
        #expect(Self.integrate(bus, ["install"]).status == 0)
        let action = try String(contentsOfFile: bus.dataHome + "/nemo/actions/quire-quicklook.nemo_action", encoding: .utf8)
        let exec = try #require(action.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        // Nemo's %F: the selected files, each its own argument.
        let pdf = Samples.path("document.pdf")
        let arguments = exec.dropFirst("Exec=".count).split(separator: " ").flatMap { $0 == "%F" ? [pdf] : [String($0)] }
        #expect(arguments.first == QuireBinary.path && arguments.dropFirst().first == "look", "\(arguments)")
        let viewer = try BackgroundProcess(arguments, environment: bus.environment, directory: bus.directory.path)
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^document\\.pdf$") != nil, "the Quick Look action opens Quire's window: \(viewer.errorOutput)")
    }
}
