import Foundation
import QuireTestSupport
import Testing

/// Text and source files in the window (GtkSourceView 5): highlighted in their language (more
/// than one text colour on screen, where plain text has none), selectable (Ctrl+A, Ctrl+C puts
/// the text on the clipboard), in a scheme that follows a dark theme. (CSV, JSON, Markdown and
/// databases: LookDataTests.)
@Suite("quire look window: text and source (Xvfb)")
final class LookTextTests {
    let harness: LookHarness
    let swiftSource: String
    let pythonSource: String

    init() throws {
        harness = try LookHarness("quire-look-text")
        swiftSource = harness.directory.file("Greeter.swift")
        try """
            import Foundation

            /// Says hello.
            struct Greeter {
                let name: String
                func greet(times: Int = 3) -> String {
                    // repeated on purpose
                    return String(repeating: "Hello, \\(name)! ", count: times)
                }
            }
            print(Greeter(name: "world").greet(), 42, true)

            """.write(toFile: swiftSource, atomically: true, encoding: .utf8)
        pythonSource = harness.directory.file("greet.py")
        try """
            #!/usr/bin/python3
            \"\"\"Says hello.\"\"\"
            import sys

            def greet(name: str, times: int = 3) -> str:
                # repeated on purpose
                return f"Hello, {name}! " * times

            if __name__ == "__main__":
                print(greet(sys.argv[1] if len(sys.argv) > 1 else "world"), 42, True)

            """.write(toFile: pythonSource, atomically: true, encoding: .utf8)
    }

    static func textView(_ tree: [WindowTestBed.Accessible]) -> WindowTestBed.Accessible? {
        tree.first { $0.role == "text" && $0.name == "Text" }
    }

    @Test func sourceIsHighlightedInItsLanguageAndPlainTextIsNot() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("hello.c"), swiftSource, pythonSource, Samples.path("notes.txt")])
        defer { viewer.stop() }
        let sources: [(title: String, language: String)] = [("hello.c", "C"), ("Greeter.swift", "Swift"), ("greet.py", "Python")]
        for (index, source) in sources.enumerated() {
            if index > 0 { bed.key("Right") }
            let window = bed.waitForWindow(named: "^\(NSRegularExpression.escapedPattern(for: source.title))$")
            #expect(window != nil, "\(source.title): \(viewer.errorOutput)")
            let tree = bed.waitForAccessible { Self.textView($0)?.detail.hasPrefix("Highlighted as \(source.language)") == true }
            let view = Self.textView(tree)
            #expect(view?.detail.hasPrefix("Highlighted as \(source.language)") == true,
                    "\(source.title): GtkSourceView's language: \(String(describing: view?.detail))")
            let shot = try harness.screenshot("highlighted-\(index)", window: window) { $0.colourCount() >= 2 }
            #expect(shot.colourCount() >= 2, "\(source.title): more than one text colour: \(shot.saturatedByHue)")
        }
        // The control: plain text has no language and no colour.
        bed.key("Right")
        let window = bed.waitForWindow(named: "^notes\\.txt$")
        let tree = bed.waitForAccessible { Self.textView($0)?.detail == "Plain text" }
        #expect(Self.textView(tree)?.detail == "Plain text")
        let plain = try harness.screenshot("plain", window: window)
        #expect(plain.saturatedByHue.reduce(0, +) < 40, "plain text is not coloured: \(plain.saturatedByHue)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0, "\(viewer.errorOutput)")
    }

    @Test func textIsSelectableAndCtrlCCopiesTheSelectionNotTheFile() throws {
        let bed = harness.bed
        let source = Samples.path("hello.c")
        let viewer = try harness.look([source])
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^hello\\.c$") != nil, "\(viewer.errorOutput)")
        let tree = bed.waitForAccessible { Self.textView($0)?.states.contains("focused") == true }
        #expect(Self.textView(tree)?.states.contains("focused") == true, "the text has the keyboard focus")
        // Nothing selected: Ctrl+C copies the file (its path as text, beside the URI list).
        bed.key("ctrl+c")
        var deadline = Date().addingTimeInterval(10)
        while harness.clipboard() != source && Date() < deadline { usleep(200_000) }
        #expect(harness.clipboard() == source)
        // Ctrl+A selects all the text; Ctrl+C copies it.
        bed.key("ctrl+a", "ctrl+c")
        deadline = Date().addingTimeInterval(10)
        while !harness.clipboard().contains("#include") && Date() < deadline { usleep(200_000) }
        let copied = harness.clipboard()
        let file = try String(contentsOfFile: source, encoding: .utf8)
        #expect(copied.contains("#include <stdio.h>") && copied.contains("return 0;"), "the text itself: \(copied)")
        #expect(copied.split(separator: "\n").count == file.split(separator: "\n").count, "all of it")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aDarkThemeGetsTheDarkSchemeStillHighlighted() throws {
        let bed = harness.bed
        let viewer = try harness.look([pythonSource], ProcessInfo.processInfo.environment, ["GTK_THEME": "Adwaita:dark"])
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^greet\\.py$")
        #expect(window != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { Self.textView($0)?.detail.hasPrefix("Highlighted as Python") == true }
        let shot = try harness.screenshot("dark", window: window) { $0.darkShare() > 0.6 && $0.colourCount() >= 2 }
        #expect(shot.darkShare() > 0.6, "the text area is dark: \(shot.darkShare())")
        #expect(shot.colourCount() >= 2, "and highlighted: \(shot.saturatedByHue)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))

        // The same file in the light theme: mostly light.
        let light = try harness.look([pythonSource])
        defer { light.stop() }
        let lightWindow = bed.waitForWindow(named: "^greet\\.py$")
        let lightShot = try harness.screenshot("light", window: lightWindow) { $0.colourCount() >= 2 }
        #expect(lightShot.darkShare() < 0.2, "light: \(lightShot.darkShare())")
        bed.key("Escape")
        #expect(light.waitForExit(timeout: 20))
    }
}
