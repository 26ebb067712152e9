#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// Find in the terminal viewer, driven in tmux: `/` then a word and Enter, `n`/`N` for the
/// next and previous match (the next/previous file when no search is on), Esc to end it; the
/// status line counts, the match is marked on the page (or in the text).
@Suite("quire look find in a terminal (tmux)")
final class LookFindTerminalTests {
    let directory = TemporaryDirectory("quire-look-find")

    func look(_ files: [String]) throws -> TmuxSession {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        env["NO_COLOR"] = nil
        env["QUIRE_GRAPHICS"] = nil
        return try TmuxSession([QuireBinary.path, "look", "--no-resume"] + files, environment: env)
    }

    /// The 24-bit colours of the screen's cells (foreground and background), as tmux keeps them.
    static func colours(_ screen: String) -> [(Int, Int, Int)] {
        var found: [(Int, Int, Int)] = []
        let regex = try! NSRegularExpression(pattern: "[34]8;2;(\\d+);(\\d+);(\\d+)")
        for match in regex.matches(in: screen, range: NSRange(screen.startIndex..., in: screen)) {
            let values = (1...3).map { Int((screen as NSString).substring(with: match.range(at: $0)))! }
            found.append((values[0], values[1], values[2]))
        }
        return found
    }

    static func orange(_ screen: String) -> Int {
        colours(screen).count { r, g, b in r > 200 && g > 90 && g < 190 && b < 70 }
    }

    @Test func slashFindsAWordOnPage900AndMarksIt() throws {
        let session = try look([Samples.path("find-1000.pdf")])
        _ = session.wait(for: "page 1 of 1000")
        #expect(Self.orange(session.capture(escapes: true)) == 0, "nothing marked before a search")
        session.send("/")
        var screen = session.wait(for: "Find: ")
        #expect(TmuxSession.lastLine(screen).contains("Find: ▏"))
        session.type("xylophone")
        session.send("Enter")
        screen = session.wait(timeout: 30) { $0.contains("page 900 of 1000") && $0.contains("1 of 1 ") }
        #expect(TmuxSession.lastLine(screen).contains("/xylophone: 1 of 1"), "\(TmuxSession.lastLine(screen))")
        #expect(screen.contains("page 900 of 1000"))
        let marked = session.wait(timeout: 10, escapes: true) { Self.orange($0) > 0 }
        #expect(Self.orange(marked) > 0, "the match is marked on the page")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func nAndShiftNMoveBetweenMatchesEscEndsTheSearch() throws {
        let session = try look([Samples.path("find-cases.pdf")])
        _ = session.wait(for: "page 1 of 3")
        session.send("/")
        session.type("fox")
        session.send("Enter")
        var screen = session.wait { TmuxSession.lastLine($0).contains("/fox: 1 of 2") }
        #expect(TmuxSession.lastLine(screen).contains("/fox: 1 of 2"), "\(TmuxSession.lastLine(screen))")
        #expect(screen.contains("page 3 of 3"))
        session.send("n")
        screen = session.wait { TmuxSession.lastLine($0).contains("/fox: 2 of 2") }
        #expect(TmuxSession.lastLine(screen).contains("/fox: 2 of 2"))
        session.send("N")
        screen = session.wait { TmuxSession.lastLine($0).contains("/fox: 1 of 2") }
        #expect(TmuxSession.lastLine(screen).contains("/fox: 1 of 2"))
        // Page 2 is a drawing: no text there.
        session.send("PageUp")
        screen = session.wait { $0.contains("page 2 of 3") }
        #expect(TmuxSession.lastLine(screen).contains("no text on this page — it is an image"), "\(TmuxSession.lastLine(screen))")
        // Regex characters are text.
        session.send("/")
        session.type("a.c")
        session.send("Enter")
        screen = session.wait { TmuxSession.lastLine($0).contains("/a.c: No matches") }
        #expect(TmuxSession.lastLine(screen).contains("/a.c: No matches"), "\(TmuxSession.lastLine(screen))")
        // Esc ends the search and the viewer stays; n is the next file again.
        session.send("Escape")
        screen = session.wait { TmuxSession.frameIsWhole($0) && !TmuxSession.lastLine($0).contains("/a.c") }
        #expect(!TmuxSession.lastLine(screen).contains("/a.c") && session.alternateOn)
        session.send("n")
        screen = session.wait { TmuxSession.lastLine($0).contains("only one file") }
        #expect(TmuxSession.lastLine(screen).contains("only one file"))
        session.send("Escape")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func textIsSearchedAndTheMatchIsMarked() throws {
        let notes = directory.file("notes.txt")
        let text = (1...120).map { "line \($0): the quick brown fox\n" }.joined() + "the Zébra line\n"
        try text.write(toFile: notes, atomically: true, encoding: .utf8)
        let session = try look([notes])
        _ = session.wait(for: "line 1 of 121")
        session.send("/")
        session.type("zebra")
        session.send("Enter")
        var screen = session.wait { TmuxSession.lastLine($0).contains("/zebra: 1 of 1") }
        #expect(TmuxSession.lastLine(screen).contains("/zebra: 1 of 1"), "\(TmuxSession.lastLine(screen))")
        screen = session.capture(escapes: true)
        #expect(screen.contains("the \u{1B}[1;7mZébra\u{1B}[0m"), "the match is shown in reverse video")
        #expect(!screen.contains("\u{1B}[1;7mfox") && !screen.contains("\u{1B}[7mfox"), "nothing else is marked")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }
}

/// `y` in the terminal viewer: the page's text to the clipboard with OSC 52 (tmux with
/// set-clipboard on keeps it in its paste buffer, where the test reads it back).
@Suite("quire look copy in a terminal (tmux)")
final class LookCopyTerminalTests {
    let directory = TemporaryDirectory("quire-look-copy")

    @Test func yCopiesThePagesTextThroughOSC52() throws {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        let session = try TmuxSession([QuireBinary.path, "look", "--no-resume", Samples.path("find-cases.pdf")], environment: env)
        let tmux = { (arguments: [String]) in ProcessRunner.run(["/usr/bin/tmux", "-L", session.socket] + arguments, timeout: 20) }
        #expect(tmux(["set-option", "-g", "set-clipboard", "on"]).status == 0)
        _ = session.wait(for: "page 1 of 3")
        session.send("y")
        let screen = session.wait { TmuxSession.lastLine($0).contains("copied page 1's text") }
        #expect(TmuxSession.lastLine(screen).contains("copied page 1's text"), "\(TmuxSession.lastLine(screen))")
        var buffer = ""
        let deadline = Date().addingTimeInterval(10)
        while !buffer.contains("Café") && Date() < deadline {
            buffer = tmux(["show-buffer"]).standardOutputText
            usleep(50_000)
        }
        #expect(buffer.hasPrefix("Café résumé naïve\nLiteral a.b*c (x+y) [z]? here\nThe end"), "\(buffer.debugDescription)")
        // Page 2 is a drawing: nothing to copy, said so.
        session.send("PageDown")
        _ = session.wait(for: "page 2 of 3")
        session.send("y")
        let image = session.wait { TmuxSession.lastLine($0).contains("not copied") }
        #expect(TmuxSession.lastLine(image).contains("not copied: no text on this page — it is an image"), "\(TmuxSession.lastLine(image))")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// `Y`: the file's absolute path, as text, through the same OSC 52; the keys screen lists it.
    @Test func capitalYCopiesTheFilesPath() throws {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        let folder = directory.file("a folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/Café notes.txt"
        try "one\ntwo\n".write(toFile: file, atomically: true, encoding: .utf8)
        // Started from the folder with a relative name: the path copied is still absolute.
        let session = try TmuxSession(["/bin/sh", "-c", "cd \"$0\" && exec \"$1\" look --no-resume \"$2\"",
                                       folder, QuireBinary.path, "Café notes.txt"], environment: env)
        _ = ProcessRunner.run(["/usr/bin/tmux", "-L", session.socket, "set-option", "-g", "set-clipboard", "on"], timeout: 20)
        _ = session.wait(for: "line 1 of 2")
        // The keys screen (?) lists Y; any key closes it.
        session.send("?")
        let help = session.wait { $0.contains("copy the file's path") }
        #expect(help.split(separator: "\n").contains { $0.contains("Y") && $0.contains("copy the file's path") }, "\(help)")
        session.send("Escape")
        _ = session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("copy the file's path") }
        session.send("Y")
        let screen = session.wait { TmuxSession.lastLine($0).contains("copied the path") }
        #expect(TmuxSession.lastLine(screen).contains("copied the path of Café notes.txt"), "\(TmuxSession.lastLine(screen))")
        var buffer = ""
        let deadline = Date().addingTimeInterval(10)
        while buffer != file && Date() < deadline {
            buffer = ProcessRunner.run(["/usr/bin/tmux", "-L", session.socket, "show-buffer"], timeout: 20).standardOutputText
            usleep(50_000)
        }
        #expect(buffer == file, "\(buffer.debugDescription)")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func yCopiesTheLinesOnTheScreenOfATextFile() throws {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        let notes = directory.file("notes.txt")
        try (1...100).map { "note \($0)" }.joined(separator: "\n").write(toFile: notes, atomically: true, encoding: .utf8)
        let session = try TmuxSession([QuireBinary.path, "look", "--no-resume", notes], environment: env)
        _ = ProcessRunner.run(["/usr/bin/tmux", "-L", session.socket, "set-option", "-g", "set-clipboard", "on"], timeout: 20)
        _ = session.wait(for: "line 1 of 100")
        session.send("y")
        let screen = session.wait { TmuxSession.lastLine($0).contains("copied") }
        #expect(TmuxSession.lastLine(screen).contains("copied 39 lines"), "\(TmuxSession.lastLine(screen))")
        var buffer = ""
        let deadline = Date().addingTimeInterval(10)
        while !buffer.contains("note 39") && Date() < deadline {
            buffer = ProcessRunner.run(["/usr/bin/tmux", "-L", session.socket, "show-buffer"], timeout: 20).standardOutputText
            usleep(50_000)
        }
        #expect(buffer.hasPrefix("note 1\nnote 2\n") && buffer.contains("note 39\n") && !buffer.contains("note 40"), "\(buffer.prefix(80))")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }
}

/// `t` in the terminal viewer: every file as a tile (first page in half-block cells, name,
/// kind, size), arrows and Enter to open one, a file that vanishes meanwhile said so.
@Suite("quire look tiles in a terminal (tmux)")
final class LookTilesTerminalTests {
    let directory = TemporaryDirectory("quire-look-tiles")

    @Test func tShowsEveryFileAndEnterOpensOne() throws {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        let gone = directory.file("gone.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("find-cases.pdf"), toPath: gone)
        let session = try TmuxSession([QuireBinary.path, "look", "--no-resume", Samples.path("thousand-pages.pdf"),
                                       Samples.path("find-cases.pdf"), Samples.path("hello.c"), gone], environment: env)
        _ = session.wait(for: "page 1 of 1000")
        session.send("t")
        var screen = session.wait { $0.contains("PDF document · 774") && $0.contains("C source code") && $0.contains("gone.pdf") }
        #expect(screen.contains("thousand-pages.pdf") && screen.contains("PDF document · 774"), "\(screen)")
        #expect(screen.contains("find-cases.pdf") && screen.contains("PDF document · 1.3 kB"))
        #expect(screen.contains("hello.c") && screen.contains("C source code"))
        // A text file's tile is its first lines, as text, not a bare glyph.
        #expect(screen.contains("#include <stdio.h>") && !screen.contains("≡"), "\(screen)")
        #expect(TmuxSession.lastLine(screen).contains("4 files · thousand-pages.pdf"))
        let colours = session.wait(escapes: true) { $0.contains("38;2;255;0;0") || $0.contains("48;2;255;0;0") }
        #expect(colours.contains("38;2;255;0;0") || colours.contains("48;2;255;0;0"), "the first page's red rectangle on its tile")
        try FileManager.default.removeItem(atPath: gone)
        screen = session.wait(timeout: 10) { $0.contains("the file is no longer") }
        #expect(screen.contains("the file is no longer"), "\(screen)")
        session.send("Right")
        screen = session.wait { TmuxSession.lastLine($0).contains("4 files · find-cases.pdf") }
        #expect(TmuxSession.lastLine(screen).contains("4 files · find-cases.pdf"))
        session.send("Enter")
        screen = session.wait(for: "page 1 of 3")
        #expect(screen.contains("page 1 of 3") && screen.contains("file 2 of 4"))
        session.send("t")
        _ = session.wait { TmuxSession.lastLine($0).contains("4 files · find-cases.pdf") }
        session.send("End")
        session.send("Enter")
        screen = session.wait(for: "file 4 of 4")
        #expect(screen.contains("file 4 of 4"))
        screen = session.wait { $0.contains("the file is no longer there") }
        #expect(screen.contains("the file is no longer there"), "opened, the vanished file says so: \(screen)")
        #expect(!screen.contains("page 1 of 3"), "not shown from what was read before")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }
}

/// Keys are answered while a long search scans (it runs in the worker, a slice at a time).
@Suite("quire look keys during a search (tmux)")
final class LookFindKeysTests {
    let directory = TemporaryDirectory("quire-look-find-keys")

    @Test func pagesTurnWhileASearchRuns() throws {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        let session = try TmuxSession([QuireBinary.path, "look", "--no-resume", Samples.path("find-1000.pdf")], environment: env)
        _ = session.wait(for: "page 1 of 1000")
        session.send("/")
        session.type("nowhere in this document")
        session.send("Enter", "PageDown", "PageDown")
        let screen = session.wait { $0.contains("page 3 of 1000") }
        #expect(screen.contains("page 3 of 1000"), "Page Down answered during the search")
        let done = session.wait(timeout: 30) { TmuxSession.lastLine($0).contains("No matches") }
        #expect(TmuxSession.lastLine(done).contains("/nowhere in this document: No matches"))
        #expect(done.contains("page 3 of 1000"), "a search that finds nothing leaves the page where it was")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }
}
