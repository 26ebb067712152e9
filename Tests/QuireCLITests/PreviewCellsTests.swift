import Foundation
import QuireTestSupport
import Testing

/// `quire preview --cells COLSxROWS`: the non-interactive previewer for file managers' preview
/// panes, which read it through a pipe.
@Suite("quire preview --cells (file-manager previewers)")
struct PreviewCellsTests {
    func environment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["QUIRE_GRAPHICS"] = "blocks"
        return env
    }

    @Test func aPageFitsTheCellBoxThroughAPipe() throws {
        let directory = TemporaryDirectory("quire-cells")
        let pdf = directory.file("three.pdf")
        try TestPDF.write(pages: 3, to: pdf)
        let result = QuireBinary.run(["preview", "--cells", "40x12", pdf], environment: environment())
        #expect(result.status == 0)
        let lines = result.standardOutputText.split(separator: "\n")
        #expect(lines.count == 12, "A4 portrait fits by height: 12 rows of half blocks")
        let widest = lines.map { line in line.filter { $0 == "▀" || $0 == "▄" || $0 == " " }.count }.max() ?? 0
        #expect(widest > 0 && widest <= 40)
    }

    @Test func textIsShownAsItsFirstLines() throws {
        let directory = TemporaryDirectory("quire-cells")
        let text = directory.file("notes.txt")
        try (1...50).map { "row \($0)\tof a long text file that goes on and on\n" }.joined()
            .write(toFile: text, atomically: true, encoding: .utf8)
        let result = QuireBinary.run(["preview", "--cells", "30x5", text], environment: environment())
        #expect(result.status == 0)
        #expect(result.standardOutputText == (1...5).map { String("row \($0)" + String(repeating: " ", count: 8 - "row \($0)".count) + "of a long text file that goes on").prefix(30) + "\n" }.joined())
    }

    @Test func aTableIsShownAsItsHeaderAndFirstRows() throws {
        let result = QuireBinary.run(["preview", "--cells", "40x4", Samples.path("tables/people.csv")], environment: environment())
        #expect(result.status == 0, "\(result.standardError)")
        // 40 characters of each line: the header's names, the rule, two rows (numbers right-aligned).
        #expect(result.standardOutputText == [" id │ name        │ born       │ height ",
                                              "────┼─────────────┼────────────┼────────",
                                              "  1 │ Person 0001 │ 1951-02-02 │  157.1 ",
                                              "  2 │ Person 0002 │ 1952-03-03 │  164.2 "].map { $0 + "\n" }.joined())
    }

    /// A file-manager pane (yazi, ranger) gets data and notes as text: a database's overview,
    /// pretty JSON, Markdown's lines — never a picture of a page.
    @Test func dataAndNotesAreShownAsText() throws {
        let database = QuireBinary.run(["preview", "--cells", "50x3", Samples.path("data/shop.sqlite")], environment: environment())
        #expect(database.status == 0, "\(database.standardError)")
        #expect(database.standardOutputText == "shop.sqlite: SQLite database, 2 tables, 1 view\npage size 4096 bytes · 16 pages · UTF-8\n")
        let json = QuireBinary.run(["preview", "--cells", "40x3", Samples.path("data/sample.json")], environment: environment())
        #expect(json.standardOutputText == "{\n  \"name\": \"Quire\",\n  \"version\": 38,\n")
        let markdown = QuireBinary.run(["preview", "--cells", "40x1", Samples.path("data/readme.md")], environment: environment())
        #expect(markdown.standardOutputText == "Quire Notes\n")
        #expect(!database.standardOutputText.contains("▀") && !markdown.standardOutputText.contains("▀"))
    }

    @Test func aBadBoxIsAUsageError() {
        let result = QuireBinary.run(["preview", "--cells", "forty", "/dev/null"], environment: environment())
        #expect(result.status == 64)
        #expect(result.errorLines.count >= 1)
    }
}
