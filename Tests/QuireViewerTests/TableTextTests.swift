import Foundation
import QuireTestSupport
import Quire
import QuireViewer
import QuireRenderService
import Testing

/// CSV shown as a table of characters in the viewers: the worker reads it with the table engine
/// and hands over the header, a rule and the rows, numbers right-aligned, cells padded to
/// their column.
@Suite("Table text")
struct TableTextTests {
    @Test func numbersSortAsNumbersAndEmptyCellsLast() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("sort.csv")
        try "n,word\n10,b\n9,\n,a\n100,c\n".write(toFile: path, atomically: true, encoding: .utf8)
        let table = try DelimitedTable(file: try InputFile(path: DocumentPath(path)))
        let rows = table.rows(0..<10)
        #expect(TableText.sorted(rows, by: 0, in: table, descending: false).map { $0[0] } == ["9", "10", "100", ""])
        #expect(TableText.sorted(rows, by: 0, in: table, descending: true).map { $0[0] } == ["100", "10", "9", ""])
        #expect(TableText.sorted(rows, by: 1, in: table, descending: false).map { $0[1] } == ["a", "b", "c", ""])
    }

    @Test func cellsArePaddedCutAndMadeSafe() {
        #expect(TableText.cell("ab", width: 4, right: false) == "ab  ")
        #expect(TableText.cell("7", width: 4, right: true) == "   7")
        #expect(TableText.cell("abcdef", width: 4, right: false) == "abc…")
        #expect(TableText.cell("a\nb\u{1B}[2J", width: 8, right: false) == "a↵b␛[2J ")
    }

    @Test func theViewerShowsACSVFileAsATable() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("table.csv")
        try "id,name\n1,Ann\n22,\"Bo, Jr\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let model = ViewerModel(paths: [DocumentPath(path)],
                                configuration: .init(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil,
                                                     worker: WorkerCommand(executable: QuireBinary.path)))
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil, "the worker read the file")
        guard case .text(let text) = model.content else {
            Issue.record("CSV is shown as text, got \(model.content)")
            return
        }
        #expect(text.table?.header == ["id │ name  ", "───┼───────"])
        #expect(text.lines == [" 1 │ Ann   ", "22 │ Bo, Jr"])
        #expect(text.table?.columnStarts == [0, 5])
        #expect(model.positionText == "row 1 of 2 rows")
        // Sorted in the worker: by name, then by name the other way.
        #expect(model.sortTable(column: 1) == nil)
        #expect(model.positionText == "sorting by name…")
        #expect(model.waitUntilOpened() == nil)
        guard case .text(let ascending) = model.content else { Issue.record("\(model.content)"); return }
        #expect(ascending.lines == [" 1 │ Ann   ", "22 │ Bo, Jr"])
        #expect(model.sortTable(column: 1) == nil)
        #expect(model.waitUntilOpened() == nil)
        guard case .text(let descending) = model.content else { Issue.record("\(model.content)"); return }
        #expect(descending.lines == ["22 │ Bo, Jr", " 1 │ Ann   "])
        #expect(model.positionText == "row 1 of 2 rows, sorted by name ↓")
        // Find searches the rows as shown: Ann is the second line once sorted the other way.
        #expect(model.find("Ann") == nil)
        let deadline = Date().addingTimeInterval(30)
        repeat {
            _ = model.update()
            usleep(2_000)
        } while model.find.isSearching && Date() < deadline
        #expect(model.find.matches.map(\.page) == [1], "\(model.find.matches)")
        #expect(model.card?.mimeType == "text/csv")
    }
}
