import Foundation
import QuireTestSupport
import Testing

/// `quire look --service`: Quire as the file manager's previewer (GNOME Sushi's D-Bus
/// interface), called as Nautilus 43 calls it, on a private bus under Xvfb.
@Suite("quire look --service (Sushi's D-Bus interface, Xvfb)")
final class PreviewerServiceTests {
    let directory = TemporaryDirectory("quire-previewer")
    static let name = "org.gnome.NautilusPreviewer"
    static let path = "/org/gnome/NautilusPreviewer"
    static let interface = "org.gnome.NautilusPreviewer2"
    /// GtkDirectionType values.
    static let left = 4, right = 5

    func environment(_ bed: WindowTestBed) -> [String: String] {
        var extra = ["XDG_STATE_HOME": directory.file("state"), "NO_COLOR": "1"]
        if ProcessInfo.processInfo.environment["CUPS_SERVER"] == nil { extra["CUPS_SERVER"] = "127.0.0.1:1" }
        return bed.environment(ProcessInfo.processInfo.environment, extra)
    }

    static func uri(_ path: String) -> String {
        "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }

    /// `gdbus call` on the previewer, the way Nautilus 43 sends it: ShowFile with (ssb).
    static func call(_ environment: [String: String], _ method: String, _ arguments: [String] = []) -> ProcessRunner.Result {
        ProcessRunner.run(["/usr/bin/gdbus", "call", "--session", "--dest", name, "--object-path", path,
                           "--method", method] + arguments, environment: environment, timeout: 30)
    }

    static func visible(_ environment: [String: String]) -> String {
        call(environment, "org.freedesktop.DBus.Properties.Get", [interface, "Visible"]).standardOutputText
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func hasOwner(_ environment: [String: String]) -> Bool {
        ProcessRunner.run(["/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path",
                           "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", name],
                          environment: environment, timeout: 20).standardOutputText.contains("true")
    }

    static func wait(timeout: Double = 20, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            usleep(100_000)
        }
        return true
    }

    /// Screenshots of window `window` (an X id) until `condition` holds.
    func screenshot(_ bed: WindowTestBed, _ name: String, window: String?, until condition: (Screenshot) -> Bool) throws -> Screenshot {
        try bed.waitForScreenshot(name, window: window, until: condition)
    }

    @Test func showFileCloseSelectionAndErrors() throws {
        let bed = try WindowTestBed()
        let env = environment(bed)
        let service = try BackgroundProcess([QuireBinary.path, "look", "--service", "--idle-timeout", "4"],
                                            environment: env, directory: directory.path)
        defer { service.stop() }
        #expect(Self.wait { Self.hasOwner(env) }, "the service owns \(Self.name): \(service.errorOutput)")
        let monitor = try BackgroundProcess(["/usr/bin/gdbus", "monitor", "--session", "--dest", Self.name,
                                             "--object-path", Self.path], environment: env, directory: directory.path)
        defer { monitor.stop() }
        // gdbus prints the owner once its signal subscription is in place (same connection,
        // in order): from then on no signal is missed.
        #expect(Self.wait { monitor.output.contains("is owned by") }, "the monitor listens: \(monitor.output)")

        // Nautilus 43: ShowFile(s uri, s windowHandle, b closeIfAlreadyShown).
        let pdf = Samples.path("document.pdf")
        let shown = Self.call(env, "\(Self.interface).ShowFile", [Self.uri(pdf), "", "false"])
        #expect(shown.status == 0, "ShowFile: \(shown.standardError)")
        let window = bed.waitForWindow(named: "^document\\.pdf$")
        #expect(window != nil, "the window shows the file: \(service.errorOutput)")
        let page = try screenshot(bed, "page1", window: window) { $0.redPixels > 2000 }
        #expect(page.redPixels > 2000, "page 1's red rectangle is painted")
        #expect(page.whitePixels > 100_000, "paper, not a blank window")
        #expect(Self.visible(env) == "(<true>,)")
        #expect(Self.wait { monitor.output.contains("PropertiesChanged ('org.gnome.NautilusPreviewer2', {'Visible': <true>") },
                "PropertiesChanged says Visible: \(monitor.output)")
        // Print and Open With are looked up after the page is on screen, and then they come:
        // the card says whether printing works (here no scheduler answers: it does not).
        let settled = bed.waitForAccessible { tree in tree.contains { $0.detail.hasPrefix("Cannot print:") || $0.detail.hasPrefix("Can print") } }
        #expect(settled.contains { $0.detail.hasPrefix("Cannot print:") || $0.detail.hasPrefix("Can print") },
                "the actions were looked up: \(settled.filter { !$0.detail.isEmpty })")

        // The arrow keys ask the file manager to move its selection.
        bed.key("Right")
        #expect(Self.wait { monitor.output.contains("SelectionEvent (uint32 \(Self.right),)") }, "Right: \(monitor.output)")
        bed.key("Left")
        #expect(Self.wait { monitor.output.contains("SelectionEvent (uint32 \(Self.left),)") }, "Left: \(monitor.output)")
        #expect(bed.hasWindow(named: "^document\\.pdf$"), "the arrows do not change the file by themselves")

        // A second ShowFile replaces the file in the same window, through the same warm worker.
        let worker = TmuxSession.renderWorkers(of: service.pid, executable: QuireBinary.path)
        #expect(worker.count == 1, "one render worker: \(worker)")
        let source = Samples.path("hello.c")
        #expect(Self.call(env, "\(Self.interface).ShowFile", [Self.uri(source), "x11:0", "false"]).status == 0)
        let replaced = bed.waitForWindow(named: "^hello\\.c$")
        #expect(replaced != nil && replaced == window, "same window \(window ?? "-"), now hello.c: \(replaced ?? "none")")
        _ = bed.waitForAccessible { $0.contains { $0.detail.hasPrefix("Highlighted as C") } }
        #expect(TmuxSession.renderWorkers(of: service.pid, executable: QuireBinary.path) == worker,
                "the same worker opened the second file")
        #expect(Self.call(env, "org.freedesktop.DBus.Properties.Get", [Self.interface, "ParentHandle"])
                    .standardOutputText.contains("'x11:0'"))

        // The newer four-argument form, with an activation token.
        let four = Self.call(env, "\(Self.interface).ShowFile", [Self.uri(pdf), "", "false", "quire-test-token"])
        #expect(four.status == 0, "ShowFile (ssbs): \(four.standardError)")
        #expect(bed.waitForWindow(named: "^document\\.pdf$") == window, "the four-argument form shows the file")

        // Bad URIs: a D-Bus error with a clear message; the service goes on.
        let cases: [(String, String)] = [
            ("http://example.com/a.pdf", "is not a local file"),
            (Self.uri(directory.file("missing.pdf")), "No such file or directory"),
            (Self.uri(directory.path), "is a folder, not a file"),
        ]
        for (uri, message) in cases {
            let bad = Self.call(env, "\(Self.interface).ShowFile", [uri, "", "false"])
            #expect(bad.status != 0, "\(uri) is refused")
            #expect(bad.standardError.contains("org.gnome.NautilusPreviewer.Error") && bad.standardError.contains(message),
                    "\(uri): \(bad.standardError)")
        }
        #expect(service.isRunning && Self.visible(env) == "(<true>,)", "still serving, still showing the file")

        // closeIfAlreadyShown on the shown file closes it (Space in Nautilus toggles).
        #expect(Self.call(env, "\(Self.interface).ShowFile", [Self.uri(pdf), "", "true"]).status == 0)
        #expect(Self.wait { !bed.hasWindow(named: "^document\\.pdf$") }, "toggled closed")
        #expect(Self.visible(env) == "(<false>,)")

        // Close() closes it; then, with no window, the service quits after its idle time.
        #expect(Self.call(env, "\(Self.interface).ShowFile", [Self.uri(pdf), "", "true"]).status == 0)
        #expect(bed.waitForWindow(named: "^document\\.pdf$") != nil, "shown again")
        #expect(Self.visible(env) == "(<true>,)")
        #expect(Self.call(env, "\(Self.interface).Close").status == 0)
        #expect(Self.visible(env) == "(<false>,)")
        #expect(Self.wait { !bed.hasWindow(named: "^document\\.pdf$") }, "Close closes the window")
        #expect(Self.wait { monitor.output.contains("{'Visible': <false>") }, "PropertiesChanged: \(monitor.output)")
        #expect(service.waitForExit(timeout: 20), "idle: the service quits")
        #expect(service.exitStatus == 0, "\(service.errorOutput)")
    }

    @Test func activationStartsQuireAndShowsTheWindow() throws {
        let bed = try WindowTestBed()
        let bus = try ActivationBus(display: bed)
        try """
            [D-BUS Service]
            Name=org.gnome.NautilusPreviewer
            Exec=\(QuireBinary.path) look --service --idle-timeout 3

            """.write(toFile: bus.dataHome + "/dbus-1/services/org.gnome.NautilusPreviewer.service", atomically: true, encoding: .utf8)
        #expect(!Self.hasOwner(bus.environment), "nothing runs before the call")

        let shown = Self.call(bus.environment, "\(Self.interface).ShowFile", [Self.uri(Samples.path("document.pdf")), "", "false"])
        #expect(shown.status == 0, "ShowFile starts Quire by D-Bus activation: \(shown.standardError)")
        let window = bed.waitForWindow(named: "^document\\.pdf$")
        #expect(window != nil, "the activated service shows the window")
        let page = try screenshot(bed, "activated", window: window) { $0.redPixels > 2000 }
        #expect(page.redPixels > 2000, "page 1 is painted")
        #expect(Self.visible(bus.environment) == "(<true>,)")

        #expect(Self.call(bus.environment, "\(Self.interface).Close").status == 0)
        #expect(Self.wait(timeout: 20) { !Self.hasOwner(bus.environment) }, "the service quits when idle")
    }
}
