import Foundation
import QuireTestSupport
import Testing

/// What the window tests share: a private directory (state, config with the PDF default set to
/// a document viewer), `quire look` started in a test bed, screenshots of one window, the
/// clipboard and the accessibility tree's focus.
final class LookHarness {
    let directory: TemporaryDirectory
    let bed: WindowTestBed

    init(_ name: String) throws {
        directory = TemporaryDirectory(name)
        bed = try WindowTestBed()
        try WindowTestBed.preferDocumentViewer(configHome: directory.file("config"))
    }

    func environment(_ base: [String: String] = ProcessInfo.processInfo.environment, _ extra: [String: String] = [:]) -> [String: String] {
        var values = ["XDG_STATE_HOME": directory.file("state"), "XDG_CONFIG_HOME": directory.file("config"), "NO_COLOR": "1"]
        if base["CUPS_SERVER"] == nil { values["CUPS_SERVER"] = "127.0.0.1:1" }
        return bed.environment(base, values.merging(extra) { _, new in new })
    }

    func look(_ files: [String], _ base: [String: String] = ProcessInfo.processInfo.environment,
              _ extra: [String: String] = [:]) throws -> BackgroundProcess {
        try BackgroundProcess([QuireBinary.path, "look", "--no-resume"] + files, environment: environment(base, extra),
                              directory: directory.path)
    }

    /// Screenshots of window `window` until `condition` holds.
    func screenshot(_ name: String, window: String?, timeout: Double = 20,
                    until condition: (Screenshot) -> Bool = { _ in true }) throws -> Screenshot {
        try bed.waitForScreenshot(name, window: window, timeout: timeout, until: condition)
    }

    /// The CLIPBOARD selection's text (xclip), "" when empty.
    func clipboard() -> String {
        bed.run(["/usr/bin/xclip", "-o", "-selection", "clipboard"], timeout: 10).standardOutputText
    }

    /// Presses Tab `count` times and lists what has the focus after each press (AT-SPI).
    func tabCycle(_ count: Int) -> [WindowTestBed.Accessible] {
        var seen: [WindowTestBed.Accessible] = []
        for _ in 0..<count {
            bed.key("Tab")
            usleep(150_000)
            seen += bed.accessibilityTree().filter { $0.states.contains("focused") && $0.role != "frame" }
        }
        return seen
    }
}
