import Foundation
@testable import QuireRender
import QuireTypes
import Testing

/// Delimited text drawn as pages by the table engine: header repeated, columns that do not fit
/// continuing on the next page, numbers right-aligned, `--csv-as-spreadsheet` still LibreOffice's.
@Suite struct TableSourceTests {
    @Test func theTableEngineTakesDelimitedTextOnly() throws {
        let csv = try SampleFiles.open("tables/people.csv")
        #expect(RenderEngine.engine(for: try ContentType.detect(csv), path: csv.path)?.name == "table")
        let tsv = try SampleFiles.open("tables/measures.tsv")
        #expect(RenderEngine.engine(for: try ContentType.detect(tsv), path: tsv.path)?.name == "table")
        let psv = try SampleFiles.open("tables/pipes.psv")
        #expect(RenderEngine.engine(for: try ContentType.detect(psv), path: psv.path)?.name == "table", "plain text named .psv")
        let text = try SampleFiles.open("long.txt")
        #expect(RenderEngine.engine(for: try ContentType.detect(text), path: text.path)?.name == "text")
        #expect(RenderEngine.engine(for: .text)?.name == "text")
    }

    @Test func rowsArePagedWithTheirCardFacts() throws {
        let renderer = try SampleFiles.renderer("tables/people.csv")
        // 500 rows under a header, 63 rows a page.
        #expect(TableSource.rowsPerPage == 63)
        #expect(renderer.pageCount == (500 + 62) / 63)
        #expect(renderer.details.first == CardRow("Rows", "500 rows"))
        #expect(renderer.details.contains(CardRow("Encoding", "UTF-8")))
        let text = try #require(try renderer.text(page: 1))
        #expect(text.hasPrefix("id\tname\tborn\theight\tcity\n64\tPerson 0064\t"), "header repeated on page 2: \(text.prefix(80))")
        let image = try renderer.render(page: 0, size: .fit(width: 600, height: 850))
        #expect(image.pixels.contains { $0 < 64 }, "ink on page 1")
    }

    @Test func columnsThatDoNotFitContinueOnTheNextPage() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wide.csv").path
        let header = (1...12).map { "column \($0) with a name longer than forty characters" }.joined(separator: ",")
        let rows = (1...100).map { row in (1...12).map { "cell \(row).\($0) with more than forty characters in it" }.joined(separator: ",") }
        try ([header] + rows).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let file = try InputFile(path: DocumentPath(path))
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        // 12 columns cut at 40 characters: 2 across an A4 page; 100 rows: 2 bands.
        #expect(renderer.pageCount == 12)
        let first = try #require(try renderer.text(page: 0)), second = try #require(try renderer.text(page: 1))
        #expect(first.hasPrefix("column 1 with a name longer than forty characters\tcolumn 2 with a name longer than forty characters\ncell 1.1 "))
        #expect(second.hasPrefix("column 3 with a name longer than forty characters\tcolumn 4 with a name longer than forty characters\ncell 1.3 "), "the next columns, header repeated")
        let seventh = try #require(try renderer.text(page: 6))
        #expect(seventh.hasPrefix("column 1 with a name longer than forty characters\tcolumn 2 with a name longer than forty characters\ncell 64.1 "), "the next band of rows")
    }

    @Test func aThumbnailLaysOutOnlyTheStart() throws {
        let file = try SampleFiles.open("tables/many-rows.csv")
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file), textByteLimit: 16 * 1024)
        #expect(renderer.pageCount == 7, "the 399 rows that start in the first 16 KiB")
        #expect(renderer.isTruncated)
    }
}
