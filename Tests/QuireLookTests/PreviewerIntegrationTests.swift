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

    /// The command line of an installed action: Nemo's `Exec=` (or `Conditions=exec …;`), or a
    /// Dolphin service menu's action `Exec=`, split as the file manager splits it.
    static func actionCommand(_ file: String, group: String, key: String = "Exec", files: [String]) throws -> [String] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var value = try #require(DesktopExec.value(key, in: text, group: group), "\(key) in [\(group)] of \(file)")
        if key == "Conditions" {
            #expect(value.hasPrefix("exec ") && value.hasSuffix(";"), "\(value)")
            value = String(value.dropFirst("exec ".count).dropLast())
        }
        return DesktopExec.arguments(value, files: files)
    }

    /// The command line of the process that shows window `id` (its _NET_WM_PID).
    static func windowProcess(_ bed: WindowTestBed, _ id: String) -> (pid: Int32, command: [String])? {
        let result = bed.run(["/usr/bin/xdotool", "getwindowpid", id])
        guard result.status == 0, let pid = Int32(result.standardOutputText.trimmingCharacters(in: .whitespacesAndNewlines)),
              let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        return (pid, data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    @Test(arguments: ["nemo", "dolphin"])
    func quickLookActionOpensTheWindow(_ manager: String) throws {
        let bed = try WindowTestBed()
        let bus = try ActivationBus(display: bed)
        #expect(Self.integrate(bus, ["install"]).status == 0)
        let pdf = Samples.path("document.pdf")
        let arguments = manager == "nemo"
            ? try Self.actionCommand(bus.dataHome + "/nemo/actions/quire-quicklook.nemo_action", group: "Nemo Action", files: [pdf])
            : try Self.actionCommand(bus.dataHome + "/kio/servicemenus/quire.desktop", group: "Desktop Action quireQuickLook", files: [pdf])
        #expect(arguments == [QuireBinary.path, "look", "--", pdf], "\(arguments)")
        let viewer = try BackgroundProcess(arguments, environment: bus.environment, directory: bus.directory.path)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^document\\.pdf$")
        #expect(window != nil, "the \(manager) Quick Look action opens Quire's window: \(viewer.errorOutput)")
        // The window is Quire's: its process is the one the action started, now quire-look.
        let id = try #require(window)
        let owner = try #require(Self.windowProcess(bed, id))
        #expect(owner.pid == viewer.pid && owner.command.first?.hasSuffix("/quire-look") == true, "\(owner)")
    }

    /// The environment for the print actions: the window test bed's display and bus, a private
    /// data directory for `quire integrate`, the CUPS test bed's scheduler.
    static func printEnvironment(_ bed: WindowTestBed, _ cups: CUPSTestBed, _ directory: TemporaryDirectory) -> [String: String] {
        bed.environment(cups.environment(), ["XDG_DATA_HOME": directory.file("data"), "XDG_STATE_HOME": directory.file("state")])
    }

    @Test func nemoPrintActionOpensThePrintSheetOnTheTestPrinter() throws {
        let cups = try CUPSTestBed(.full)
        let bed = try WindowTestBed()
        let directory = TemporaryDirectory("quire-print-action")
        let environment = Self.printEnvironment(bed, cups, directory)
        let install = QuireBinary.run(["integrate", "install", "--no-thumbnailer"], environment: environment)
        try #require(install.status == 0, "\(install.standardError)")
        let document = directory.file("look-print.pdf")
        try TestPDF.write(pages: 3, to: document)
        let action = directory.file("data/nemo/actions/quire-print.nemo_action")

        // Nemo shows the action: its condition says printing can work.
        let condition = try Self.actionCommand(action, group: "Nemo Action", key: "Conditions", files: [document])
        #expect(condition == [QuireBinary.path, "can-print", "--", document])
        #expect(ProcessRunner.run(condition, environment: environment, timeout: 30).status == 0)

        let arguments = try Self.actionCommand(action, group: "Nemo Action", files: [document])
        #expect(arguments == [QuireBinary.path, "look", "--print", "--", document], "\(arguments)")
        let viewer = try BackgroundProcess(arguments, environment: environment, directory: directory.path)
        defer { viewer.stop() }
        let sheet = bed.waitForWindow(named: "^Print look-print\\.pdf$")
        #expect(sheet != nil, "the sheet opens with the window: \(viewer.errorOutput)")
        #expect(bed.hasWindow(named: "^look-print\\.pdf$"), "over the Quick Look window")
        let tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("quire-office (default)") } }
        #expect(tree.contains { $0.name.hasPrefix("quire-office (default) — idle") && $0.states.contains("selected") },
                "the test bed's default printer is chosen: \(tree.filter { $0.role == "list item" })")
        for control in ["Printers", "Copies", "Page Range"] {
            #expect(tree.contains { $0.name == control }, "the sheet's \(control) control")
        }
        #expect(tree.contains { $0.role == "push button" && $0.name == "Print" && $0.states.contains("sensitive") })

        // Printing from it reaches the printer; closing the sheet closes the window.
        bed.key("Return")
        bed.type("2")
        bed.key("Return")
        let received = try #require(cups.waitForDocument(titled: "look-print.pdf"), "\(bed.accessibilityTree().filter { $0.role == "label" })")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 1, "page 2 only")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20), "the window closes with its print sheet")
        #expect(viewer.exitStatus == 0, "\(viewer.errorOutput)")
    }

    @Test func dolphinPrintActionOpensOneSheetAfterAnother() throws {
        let cups = try CUPSTestBed(.full)
        let bed = try WindowTestBed()
        let directory = TemporaryDirectory("quire-print-action")
        let environment = Self.printEnvironment(bed, cups, directory)
        try #require(QuireBinary.run(["integrate", "install", "--no-thumbnailer"], environment: environment).status == 0)
        let first = directory.file("first.pdf"), second = directory.file("second 'copy'; $(x).pdf")
        try TestPDF.write(pages: 1, to: first)
        try TestPDF.write(pages: 2, to: second)
        let arguments = try Self.actionCommand(directory.file("data/kio/servicemenus/quire-print.desktop"),
                                               group: "Desktop Action quirePrint", files: [first, second])
        #expect(arguments == [QuireBinary.path, "look", "--print", "--", first, second], "\(arguments)")
        let viewer = try BackgroundProcess(arguments, environment: environment, directory: directory.path)
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^Print first\\.pdf$") != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("quire-office (default)") } }
        bed.key("Escape")
        #expect(bed.waitForWindow(named: "^Print second 'copy'; \\$\\(x\\)\\.pdf$") != nil, "the next file's sheet")
        let tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "2 of 2" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "2 of 2" }, "the window moved to the second file")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20), "after the last sheet the window closes")
        #expect(viewer.exitStatus == 0, "\(viewer.errorOutput)")
    }

    @Test func printActionSaysWhyWhenPrintingCannotWork() throws {
        let cups = try CUPSTestBed(.empty)
        let bed = try WindowTestBed()
        let directory = TemporaryDirectory("quire-print-action")
        let environment = Self.printEnvironment(bed, cups, directory)
        try #require(QuireBinary.run(["integrate", "install", "--no-thumbnailer"], environment: environment).status == 0)
        let action = directory.file("data/kio/servicemenus/quire-print.desktop")
        // No printers: one line, the reason `quire actions` gives, EX_UNAVAILABLE, no window.
        let document = Samples.path("document.pdf")
        let reason = QuireBinary.run(["actions", document], environment: environment).standardOutputText
            .split(separator: "\n").first { $0.hasPrefix("Print") }.map { String($0.split(separator: ":", maxSplits: 1)[1].dropFirst()) }
        #expect(reason == "no printers are set up")
        let refused = ProcessRunner.run(try Self.actionCommand(action, group: "Desktop Action quirePrint", files: [document]),
                                        environment: environment, timeout: 30)
        #expect(refused.status == 69)
        #expect(refused.standardError == "quire: \(document): cannot print: no printers are set up\n", "\(refused.standardError)")
        #expect(!bed.hasWindow(named: "document\\.pdf"), "nothing opens")
        // Nautilus runs its script with the selection as arguments: the same answer.
        let script = ProcessRunner.run([directory.file("data/nautilus/scripts/Print with Quire"), document],
                                       environment: environment, timeout: 30)
        #expect(script.status == 69 && script.standardError == refused.standardError, "\(script.standardError)")
        let nemo = try Self.actionCommand(directory.file("data/nemo/actions/quire-print.nemo_action"), group: "Nemo Action",
                                          key: "Conditions", files: [document])
        #expect(ProcessRunner.run(nemo, environment: environment, timeout: 30).status == 1, "Nemo hides the action")

        // A type Quire cannot print: EX_DATAERR with the content's reason.
        let book = Samples.path("archives/project.zip")
        let unprintable = ProcessRunner.run([QuireBinary.path, "look", "--print", "--", book], environment: environment, timeout: 30)
        #expect(unprintable.status == 65)
        #expect(unprintable.standardError.hasPrefix("quire: \(book): cannot print: Quire does not print archives"), "\(unprintable.standardError)")
        // One of a selection cannot print: nothing opens, and Nemo's condition fails for the selection.
        let both = ProcessRunner.run([QuireBinary.path, "can-print", "--", document, book], environment: environment, timeout: 30)
        #expect(both.status == 1)
    }

    @Test func statusNamesThePreviewerFileAndWhoOwnsTheName() throws {
        let bed = try WindowTestBed()
        let bus = try ActivationBus(display: bed)
        let sushiFile = bus.dataDirectory + "/dbus-1/services/org.gnome.NautilusPreviewer.service"
        try Self.sushi.write(toFile: sushiFile, atomically: true, encoding: .utf8)
        var environment = bus.environment
        environment["XDG_DATA_DIRS"] = bus.dataDirectory
        func status() throws -> [String: Any] {
            let result = QuireBinary.run(["integrate", "status", "--json"], environment: environment)
            let object = try JSONSerialization.jsonObject(with: Data(result.standardOutputText.utf8)) as? [String: Any]
            return try #require(object?["previewer"] as? [String: Any], "\(result.standardOutputText) \(result.standardError)")
        }

        // Not installed: Sushi's file is what activation starts.
        var previewer = try status()
        #expect(previewer["state"] as? String == "missing")
        #expect(previewer["path"] as? String == ownFile(bus))
        var activated = previewer["activatedFrom"] as? [String: Any]
        #expect(activated?["path"] as? String == sushiFile && activated?["isQuire"] as? Bool == false, "\(previewer)")
        #expect(activated?["exec"] as? String == "/usr/libexec/org.gnome.NautilusPreviewer", "\(previewer)")
        #expect(previewer["busReachable"] as? Bool == true && previewer["owner"] is NSNull, "\(previewer)")
        let human = QuireBinary.run(["integrate", "status"], environment: environment).standardOutputText
        #expect(human.contains("missing  \(ownFile(bus))"), "\(human)")
        #expect(human.contains("previewer: org.gnome.NautilusPreviewer is started from \(sushiFile) (not Quire: /usr/libexec/org.gnome.NautilusPreviewer)"), "\(human)")

        // Installed with --previewer: Quire's file comes first; while the window shows, Quire owns the name.
        #expect(Self.integrate(bus, ["install", "--previewer"]).status == 0)
        previewer = try status()
        #expect(previewer["state"] as? String == "installed")
        activated = previewer["activatedFrom"] as? [String: Any]
        #expect(activated?["path"] as? String == ownFile(bus) && activated?["isQuire"] as? Bool == true, "\(previewer)")
        #expect((previewer["providers"] as? [Any])?.count == 2, "Sushi's file is listed after it")
        let shown = PreviewerServiceTests.call(bus.environment, "org.gnome.NautilusPreviewer2.ShowFile",
                                               [PreviewerServiceTests.uri(Samples.path("document.pdf")), "", "false"])
        #expect(shown.status == 0, "\(shown.standardError)")
        let window = try #require(bed.waitForWindow(named: "^document\\.pdf$"))
        let process = try #require(Self.windowProcess(bed, window))
        previewer = try status()
        let owner = previewer["owner"] as? [String: Any]
        #expect((owner?["pid"] as? Int).map(Int32.init) == process.pid, "the name's owner shows the window: \(previewer)")
        #expect((owner?["command"] as? String)?.contains("quire-look --service") == true, "\(previewer)")
        let running = QuireBinary.run(["integrate", "status"], environment: environment).standardOutputText
        #expect(running.contains("previewer: org.gnome.NautilusPreviewer is owned now by "), "\(running)")
        #expect(running.contains("pid \(process.pid): \(process.command[0]) --service …\n"), "\(running)")
        #expect(PreviewerServiceTests.call(bus.environment, "org.gnome.NautilusPreviewer2.Close").status == 0)
        kill(process.pid, SIGTERM)
    }
}
