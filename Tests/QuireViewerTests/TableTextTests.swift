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
        #expect(text.lines == ["id │ name  ", "───┼───────", " 1 │ Ann   ", "22 │ Bo, Jr"])
        #expect(model.card?.mimeType == "text/csv")
    }
}
