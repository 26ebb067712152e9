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

    /// Stops `viewer` (a test's `defer`); a viewer that crashed during the test (ended by a
    /// signal no one sent) is a failure of its own, with what it wrote on standard error.
    func finish(_ viewer: BackgroundProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        if let signal = viewer.crashSignal {
            Issue.record("the viewer crashed (signal \(signal)): \(viewer.errorOutput.suffix(2000))", sourceLocation: sourceLocation)
        }
        viewer.stop()
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

    /// The CLIPBOARD text that `copy` (keys that copy) puts there. The clipboard holds a marker
    /// of its own first, so the text is read once the copy has replaced it, however long the
    /// window takes ("" when it never does).
    func copied(by copy: () -> Void, timeout: Double = 10) -> String {
        let marker = "quire-test-clipboard-\(UUID().uuidString)"
        let file = directory.file("clipboard-marker")
        try? marker.write(toFile: file, atomically: true, encoding: .utf8)
        // xclip keeps the selection from a process of its own until another client takes it.
        _ = bed.run(["/usr/bin/xclip", "-selection", "clipboard", "-i", file], timeout: 10)
        var deadline = Date().addingTimeInterval(timeout)
        while clipboard() != marker && Date() < deadline { usleep(50_000) }
        copy()
        deadline = Date().addingTimeInterval(timeout)
        var text = clipboard()
        while text == marker && Date() < deadline {
            usleep(50_000)
            text = clipboard()
        }
        return text == marker ? "" : text
    }

    /// Presses Tab `count` times and lists what has the focus after each press (AT-SPI). Each
    /// press is read once the focus has left the control it was on (a key is handled
    /// asynchronously: reading after a fixed delay could see the control before it again).
    func tabCycle(_ count: Int) -> [WindowTestBed.Accessible] {
        func focused(_ tree: [WindowTestBed.Accessible]) -> [WindowTestBed.Accessible] {
            tree.filter { $0.states.contains("focused") && $0.role != "frame" }
        }
        var seen: [WindowTestBed.Accessible] = []
        var before = focused(bed.accessibilityTree()).map(\.description)
        for _ in 0..<count {
            bed.key("Tab")
            let now = focused(bed.waitForAccessible(timeout: 5) { tree in
                let current = focused(tree).map(\.description)
                return !current.isEmpty && current != before
            })
            seen += now
            before = now.map(\.description)
        }
        return seen
    }
}
