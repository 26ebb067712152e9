import Foundation
import QuireTestSupport
import Testing

/// A book's table of contents in the terminal viewer (tmux): the card lists its first entries,
/// C lists them all with the one the reader is in chosen, Enter goes to the chosen entry's
/// line, Esc goes back; a file without contents says so.
@Suite("quire look terminal: a book's contents")
struct LookContentsTerminalTests {
    @Test func cListsTheContentsAndEnterGoesThere() throws {
        let directory = TemporaryDirectory("quire-look-contents-terminal")
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("old-book.epub")],
                                      environment: LookEnvironment.plain(directory), width: 100, height: 30)
        let first = session.wait(for: "line 1 of")
        #expect(first.contains("The first scene.") && !first.contains("The second scene."), "\(first)")
        session.send("i")
        let card = session.wait(for: "Its Second Scene")
        #expect(card.contains("3 entries") && card.contains("Part & One") && card.contains("Part Two"), "\(card)")
        session.send("i")
        session.send("C")
        let list = session.wait(for: "in the contents")
        #expect(list.contains("1 of 3 in the contents"), "the reader is in part one: \(list)")
        let rows = list.split(separator: "\n").map(String.init)
        let indent = { (title: String) -> Int? in rows.first { $0.hasSuffix(title) || $0.contains(title + " ") }.map { $0.prefix { $0 == " " }.count } }
        let top = try #require(indent("Part & One"), "\(list)"), nested = try #require(indent("Its Second Scene"), "\(list)")
        #expect(nested == top + 2 && indent("Part Two") == top, "indented by level: \(list)")
        session.send("Down")
        session.wait(for: "2 of 3 in the contents")
        session.send("Enter")
        // The second scene's line at the top (line 123 of the text).
        let there = session.wait(for: "line 123 of")
        #expect(there.split(separator: "\n").first?.contains("The second scene.") == true, "\(there)")
        // C again: the entry the reader is in now is chosen.
        session.send("C")
        let again = session.wait(for: "in the contents")
        #expect(again.contains("2 of 3 in the contents"), "\(again)")
        session.send("Escape")
        let back = session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("in the contents") }
        #expect(back.contains("line 123 of"), "\(back)")
        session.send("q")
        session.wait(for: "EXIT=")
        // A text file has no contents: C says so.
        let notes = try TmuxSession([QuireBinary.path, "look", Samples.path("notes.txt")],
                                    environment: LookEnvironment.plain(directory), width: 100, height: 30)
        notes.wait(for: "line 1 of")
        notes.send("C")
        let refused = notes.wait(for: "has none")
        #expect(refused.contains("C lists a book's contents; notes.txt has none"), "\(refused)")
        notes.send("q")
        notes.wait(for: "EXIT=")
    }
}
