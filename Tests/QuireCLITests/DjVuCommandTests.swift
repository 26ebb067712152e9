import Foundation
import QuireTestSupport
import Testing

/// DjVu through the built binary: `info`'s pages and page size (human and JSON), the thumbnail,
/// the book printed on the CUPS test bed, and find on the hidden text layer in the terminal viewer.
@Suite("DjVu through quire")
final class DjVuCommandTests {
    let directory = TemporaryDirectory("quire-djvu")

    @Test func infoSaysPagesAndPageSize() throws {
        let result = QuireBinary.run(["info", Samples.path("djvu/book.djvu")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputText.contains("Pages:      3\n  Page size:  288 × 216 pt, 100 dpi\n"), "\(result.standardOutputText)")
        let json = QuireBinary.run(["info", "--json", Samples.path("djvu/indirect/index.djvu")])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        let djvu = try #require(records.first?["djvu"] as? [String: Any])
        #expect(djvu["pages"] as? Int == 3 && djvu["resolution"] as? Int == 100 && records.first?["family"] as? String == "djvu")
        let truncated = QuireBinary.run(["thumbnail", Samples.path("djvu/truncated.djvu"), directory.file("t.png")])
        #expect(truncated.status == 65 && truncated.errorLines.count == 1, "\(truncated.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("t.png")))
    }

    @Test func theThumbnailIsPageOne() throws {
        let out = directory.file("book.png")
        let result = QuireBinary.run(["thumbnail", "-s", "128", Samples.path("djvu/book.djvu"), out])
        #expect(result.status == 0, "\(result.standardError)")
        let image = try IsolationRuleTests.decodePNG(out)
        #expect(image.width == 128 && image.height == 96)
        let left = image.pixel(x: 20, y: 48), right = image.pixel(x: 108, y: 48)
        #expect(left.red > 200 && left.blue < 60 && right.blue > 200 && right.red < 60, "\(left) \(right)")
    }

    @Test func theBookPrintsEveryPage() throws {
        let bed = try CUPSTestBed(.full)
        let result = QuireBinary.run(["print", "-d", "quire-office", Samples.path("djvu/book.djvu")], environment: bed.environment())
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "book.djvu"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 3)
    }

    @Test func slashFindsTheTextLayerInTheTerminalViewer() throws {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        let session = try TmuxSession([QuireBinary.path, "look", "--no-resume", Samples.path("djvu/book.djvu")], environment: env)
        _ = session.wait(for: "page 1 of 3")
        session.send("/")
        session.type("cafe")
        session.send("Enter")
        let screen = session.wait { TmuxSession.lastLine($0).contains("/cafe: 1 of 1") }
        #expect(TmuxSession.lastLine(screen).contains("/cafe: 1 of 1"), "\(TmuxSession.lastLine(screen))")
        #expect(screen.contains("page 2 of 3"))
        // Esc ends the search (waited for: Esc and q at once would be read as Alt+q), q closes.
        session.send("Escape")
        _ = session.wait { TmuxSession.frameIsWhole($0) && !TmuxSession.lastLine($0).contains("/cafe") }
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }
}
