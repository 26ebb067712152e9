import Foundation
import QuireTestSupport
import Quire
import QuireViewer
import QuireRenderService
import Testing

/// CSV shown as aligned columns: cells kept as written, padding only after separators.
@Suite("CSV columns")
struct CSVColumnsTests {
    @Test func columnsLineUpUnderTheirHeadingsAndQuotedSeparatorsStayInTheirCell() {
        let lines = ["name,age,\"city, country\"", "Bartholomew,4,\"Rio, Brazil\"", "Al,\"3\"\"\",x"]
        let aligned = CSVColumns.aligned(lines)
        #expect(aligned == [
            "name," + String(repeating: " ", count: 8) + "age,   \"city, country\"",
            "Bartholomew, 4,     \"Rio, Brazil\"",
            "Al," + String(repeating: " ", count: 10) + "\"3\"\"\", x",
        ])
        // Every line reads back to the same cells once the added spaces are taken away.
        for (original, shown) in zip(lines, aligned ?? []) {
            #expect(shown.replacingOccurrences(of: ", +", with: ",", options: .regularExpression)
                    == original.replacingOccurrences(of: ", ", with: ","))
        }
    }

    @Test func wideCellsDoNotWidenTheirColumnPastTheLimit() throws {
        let wide = String(repeating: "w", count: 100)
        let aligned = try #require(CSVColumns.aligned(["\(wide),a", "b,c"]))
        #expect(aligned[0] == "\(wide), a")
        #expect(aligned[1] == "b," + String(repeating: " ", count: CSVColumns.maximumColumnWidth) + "c")
    }

    @Test func anOpenQuoteOrASingleColumnLeavesTheFileAsWritten() {
        #expect(CSVColumns.aligned(["a,\"multi", "line\",b"]) == nil)
        #expect(CSVColumns.aligned(["one", "column"]) == nil)
    }

    @Test func theViewerShowsACSVFileAligned() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("table.csv")
        try "id,name\n1,Ann\n22,Bo\n".write(toFile: path, atomically: true, encoding: .utf8)
        let model = ViewerModel(paths: [DocumentPath(path)],
                                configuration: .init(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil,
                                                     worker: WorkerCommand(executable: QuireBinary.path)))
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil, "the worker read the file")
        guard case .text(let text) = model.content else {
            Issue.record("CSV is shown as text, got \(model.content)")
            return
        }
        #expect(text.lines == ["id, name", "1,  Ann", "22, Bo"])
        #expect(model.card?.mimeType == "text/csv")
    }
}
