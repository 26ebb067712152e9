#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// What a file says reaches the terminal escaped (issue 41, item 3): archive entry names in the
/// terminal viewer's `o` list, a PDF's UTF-16 title and author and an MP3's title and artist tags
/// on its `i` card, and `info`. The samples (Samples/terminal-escapes.py) carry OSC 0 (set the
/// terminal's title) and OSC 52 (write the clipboard); in tmux, with clipboard writes accepted,
/// neither the pane's title nor tmux's paste buffers may change, and the escaped form is shown.
@Suite("terminal escapes from files are shown, not obeyed (tmux)")
final class TerminalEscapeTests {
    let directory = TemporaryDirectory("quire-escapes")

    func environment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        env["NO_COLOR"] = nil
        env["QUIRE_GRAPHICS"] = "blocks"
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        return env
    }

    /// Starts `quire look FILE` in tmux with OSC 52 accepted; returns it with the pane's title
    /// before anything ran.
    func look(_ file: String) throws -> (TmuxSession, String) {
        let session = try TmuxSession([QuireBinary.path, "look", file], environment: environment(), width: 160, height: 40)
        session.acceptClipboardWrites()
        return (session, session.paneTitle)
    }

    func expectUntouched(_ session: TmuxSession, title: String, _ label: String) {
        #expect(session.paneTitle == title, "\(label) changed the terminal's title to \(session.paneTitle.debugDescription)")
        #expect(!session.paneTitle.contains("PWNED"), "\(label)")
        #expect(!session.pasteBuffers.contains("PWNED"), "\(label) wrote the clipboard: \(session.pasteBuffers)")
        #expect(session.pasteBuffers.isEmpty, "\(label): \(session.pasteBuffers)")
    }

    @Test func archiveEntryNamesInTheEntryList() throws {
        let (session, title) = try look(Samples.path("escapes/osc-names.zip"))
        session.wait(for: "o open a file")
        session.send("o")
        let screen = session.wait(for: "plain.txt")
        #expect(screen.contains(#"title\x1B]0;PWNED-TITLE\x07.txt"#), "\(screen)")
        #expect(screen.contains(#"clip\x1B]52;c;UFdORUQtQ0xJUA==\x07.txt"#), "\(screen)")
        // Moving over the names redraws them (and the status line) again and again.
        session.send("Down")
        session.send("Down")
        session.send("s")
        session.wait(for: "sorted by size")
        expectUntouched(session, title: title, "the entry list")
        session.send("Escape")
        session.wait(for: "q close")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func aPDFTitleAndAuthorOnTheInfoCard() throws {
        let (session, title) = try look(Samples.path("escapes/osc-title.pdf"))
        session.wait(for: "page 1 of 1")
        session.send("i")
        let screen = session.wait(for: "Author")
        #expect(screen.contains("PWNED-TITLE"), "\(screen)")
        #expect(screen.contains(#"\x1B]0;"#), "\(screen)")
        #expect(screen.contains(#"\x07"#), "\(screen)")
        #expect(screen.contains(#"Mallory\x1B]52;c;"#), "\(screen)")
        expectUntouched(session, title: title, "the PDF's card")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func mp3TagsOnTheInfoCard() throws {
        let (session, title) = try look(Samples.path("escapes/osc-tags.mp3"))
        session.wait(for: "i info")
        session.send("i")
        let screen = session.wait(for: "PWNED-TITLE")
        #expect(screen.contains(#"Song\x1B]0;PWNED-TITLE\x07"#), "\(screen)")
        #expect(screen.contains(#"Band\x1B]52;c;"#), "\(screen)")
        #expect(screen.contains(#"Album\x1B[2J"#), "\(screen)")
        expectUntouched(session, title: title, "the MP3's card")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func infoAndPreviewInfoWriteNoEscapeFromTheFile() throws {
        for file in ["escapes/osc-title.pdf", "escapes/osc-tags.mp3", "escapes/osc-names.zip"] {
            for arguments in [["info", Samples.path(file)], ["preview", "--info", "--cells", "40x10", Samples.path(file)]] {
                var env = environment()
                env["NO_COLOR"] = "1"
                let result = QuireBinary.run(arguments, timeout: 60, environment: env)
                let text = result.standardOutputText + result.standardError
                #expect(!text.contains("\u{1B}]"), "\(arguments): an OSC reached the output")
                #expect(!text.contains("\u{07}"), "\(arguments): a BEL reached the output")
            }
        }
        let info = QuireBinary.run(["info", Samples.path("escapes/osc-title.pdf")], environment: environment())
        // poppler reads the title's ESC as PDFDocEncoding's U+02D9; the BEL stays, escaped.
        #expect(info.standardOutputText.contains(#"]0;PWNED-TITLE\x07"#), "\(info.standardOutputText)")
    }
}
