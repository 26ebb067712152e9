import Foundation
import QuireTestSupport
import Testing

/// JSON through the built binary: `info` (shape, depth, the error's line and column), and the
/// terminal viewer's tree in tmux (fold, unfold, copy a node's path, Esc to the text).
@Suite("JSON through quire")
final class JSONCommandTests {
    let directory = TemporaryDirectory("quire-json")

    @Test func infoSaysTheShapeAndDepth() throws {
        let result = QuireBinary.run(["info", Samples.path("data/sample.json"), Samples.path("data/records.jsonl")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText.contains("Top level:  object, 6 keys"), "\(result.standardOutputText)")
        #expect(result.standardOutputText.contains("Depth:      4"))
        #expect(result.standardOutputText.contains("Top level:  JSON Lines, 40 records"))
    }

    @Test func invalidJSONIsTextWithTheErrorOnTheCard() throws {
        let result = QuireBinary.run(["info", "--json", Samples.path("data/invalid.json")])
        #expect(result.status == 0, "\(result.standardError)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]])
        let json = try #require(records.first?["json"] as? [String: Any])
        let error = try #require(json["syntaxError"] as? [String: Any])
        #expect(error["line"] as? Int == 4 && error["column"] as? Int == 3)
        #expect(error["message"] as? String == "expected ',' or '}'")
        let card = QuireBinary.run(["info", Samples.path("data/invalid.json")]).standardOutputText
        #expect(card.contains("JSON error:  line 4, column 3: expected ',' or '}' (shown as text)"), "\(card)")
    }

    @Test func nesting100000DeepIsBounded() throws {
        let started = Date()
        let result = QuireBinary.run(["info", Samples.path("data/deep.json")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText.contains("nested deeper than 512 levels"))
        #expect(Date().timeIntervalSince(started) < 5)
        let preview = QuireBinary.run(["preview", Samples.path("data/deep.json"), "-o", directory.file("deep.png")])
        #expect(preview.status == 0, "\(preview.standardError)")
    }

    /// The tree: opens folded nowhere, Tab folds `items` to one line, c copies the path of the
    /// node under the cursor, Z unfolds all, Esc shows the plain text, T the tree again.
    @Test func theTerminalViewerShowsAFoldableTree() throws {
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("data/sample.json")],
                                      environment: LookEnvironment.plain(directory))
        session.acceptClipboardWrites()
        var screen = session.wait(for: "Tab fold")
        #expect(screen.contains("▾ {"), "\(screen)")
        #expect(screen.contains(#"▾   "items": ["#), "\(screen)")
        session.send("j", "j", "j")
        screen = session.wait(for: "│ .items · Tab fold")
        session.send("Tab")
        screen = session.wait(for: "5 items")
        #expect(screen.contains(#"▸   "items": [ … ],  5 items"#), "\(screen)")
        #expect(!screen.contains(#""name": "item 0""#), "the items are folded away: \(screen)")
        session.send("j", "j", "j", "j")
        screen = session.wait(for: #"["odd key"]["1st"] · Tab"#)
        session.send("c")
        screen = session.wait(for: "copied")
        #expect(session.pasteBuffers.contains(#"["odd key"]["1st"]"#), "\(session.pasteBuffers)")
        session.send("Z")
        screen = session.wait(for: #""name": "item 0""#)
        session.send("z")
        screen = session.wait { $0.contains(#""odd key": { … },  3 keys"#) }
        #expect(screen.contains(#""items": [ … ],  5 items"#), "z folds every node below the top: \(screen)")
        session.send("Escape")
        screen = session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("Tab fold") && $0.contains(" of 50 │") }
        #expect(!screen.contains("▾") && !screen.contains("{ … }"), "the plain text, every line: \(screen)")
        #expect(screen.contains(#"48    "empty": {},"#), "with line numbers: \(screen)")
        session.send("T")
        session.wait(for: "Tab fold")
        session.send("?")
        screen = session.wait(for: "Keys for sample.json")
        #expect(screen.contains("fold or unfold the JSON node under the cursor") && screen.contains("Tab"), "\(screen)")
        session.send("q")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }
}
