import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// Jupyter notebooks: cells in order, Markdown cells rendered, code cells with their execution
/// counts and outputs, the PNG output drawn on the page, tracebacks without their ANSI codes.
@Suite struct NotebookTests {
    @Test func cellsAreLinesInOrder() throws {
        let file = try SampleFiles.open("data/analysis.ipynb")
        #expect(try ContentType.detect(file).family == .notebook)
        let notebook = try NotebookText.read(file)
        #expect(notebook.summary.kernel == "Python 3 (ipykernel)" && notebook.summary.language == "python")
        #expect(notebook.summary.cells == ["code": 4, "markdown": 2] && notebook.summary.images == 1)
        #expect(notebook.summary.cellsText == "4 code, 2 markdown")
        let texts = notebook.text.lines.map(\.text)
        #expect(texts.first == "Analysis" && notebook.text.title == "Analysis")
        #expect(texts.contains("In [1]:") && texts.contains("total = sum(range(10))") && texts.contains("45"))
        #expect(texts.contains("ZeroDivisionError: division by zero"))
        #expect(texts.contains("----> 1 1 / 0"), "the traceback without its colours")
        #expect(texts.contains("<table><tr><td>x</td></tr></table>"), "HTML output as text")
        let picture = try #require(notebook.text.lines.first { $0.kind == .image })
        #expect(picture.text == "[image/png output]" && picture.image?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(texts.last == "Done")
    }

    /// The PNG output (red over blue) is drawn on page 1, below "In [2]:".
    @Test func theImageOutputIsDrawnOnThePage() throws {
        let renderer = try SampleFiles.renderer("data/analysis.ipynb")
        #expect(renderer.pageCount == 1)
        #expect(renderer.details.map(\.label) == ["Kernel", "Language", "Cells"])
        let image = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        var red = 0, blue = 0
        for y in 150..<400 {
            for x in 48..<120 {
                let pixel = image.pixel(x: x, y: y)
                if pixel.isClose(to: 230, 20, 20, tolerance: 30) { red += 1 }
                if pixel.isClose(to: 20, 20, 230, tolerance: 30) { blue += 1 }
            }
        }
        #expect(red > 1000 && blue > 1000, "red \(red), blue \(blue)")
    }

    @Test func aNotebookThatIsNotJSONIsOneReason() throws {
        let folder = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.ipynb").path
        try Data("{\"cells\": [ {\"cell_type\": ".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try NotebookText.read(try InputFile(path: DocumentPath(path)))
        } throws: { error in
            (error as? DocumentError).map { $0.kind == .damaged && $0.reason.hasPrefix("not a readable notebook") } ?? false
        }
        // Fields of the wrong kind (a number as source) are read as empty, not a crash.
        let broken = try NotebookText.read(try SampleFiles.open("data/broken.ipynb"))
        #expect(broken.summary.cells == ["code": 1])
    }
}
