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

    /// A traceback's ANSI colours are runs over the text without its escapes (red 31 is colour
    /// 2, green 32 colour 3); 256-colour codes below 16, bold and resets are read; OSC titles
    /// and cursor moves are dropped.
    @Test func ansiColoursBecomeRuns() throws {
        let notebook = try NotebookText.read(try SampleFiles.open("data/analysis.ipynb"))
        let error = try #require(notebook.text.lines.first { $0.text == "ZeroDivisionError Traceback" })
        #expect(error.runs.contains { $0.start == 0 && $0.length == 17 && $0.colour == 2 }, "\(error.runs)")
        let arrow = try #require(notebook.text.lines.first { $0.text == "----> 1 1 / 0" })
        #expect(arrow.runs.contains { $0.start == 0 && $0.length == 7 && $0.colour == 3 }, "\(arrow.runs)")
        let lines = NotebookText.colouredLines("\u{1B}]0;title\u{07}\u{1B}[1;38;5;9mbright\u{1B}[22m plain red\u{1B}[2K\n\u{1B}[0mreset", kind: .code)
        #expect(lines.map(\.text) == ["bright plain red", "reset"])
        #expect(lines[0].runs == [MarkdownText.Run(start: 0, length: 6, style: .bold, colour: 10),
                                  MarkdownText.Run(start: 6, length: 10, style: [], colour: 10)], "\(lines[0].runs)")
        #expect(lines[1].runs.isEmpty)
    }

    /// An `image/svg+xml` output is drawn by librsvg on the page (a green rectangle), and is the
    /// thumbnail; the address it refers to is never fetched (librsvg has no base to load from).
    @Test func anSVGOutputIsDrawn() throws {
        let folder = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#00c000"/>"##
            + ##"<image href="http://127.0.0.1:9/x.png" width="10" height="10"/></svg>"##
        let notebook: [String: Any] = [
            "nbformat": 4, "nbformat_minor": 5, "metadata": [:],
            "cells": [["cell_type": "code", "execution_count": 1, "metadata": [:], "source": "plot()",
                       "outputs": [["output_type": "display_data", "metadata": [:],
                                    "data": ["image/svg+xml": svg, "text/plain": "<Figure>"]]]]]]
        let path = folder.appendingPathComponent("svg.ipynb").path
        try JSONSerialization.data(withJSONObject: notebook).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: DocumentPath(path))
        let text = try NotebookText.read(file)
        #expect(text.text.lines.contains { $0.kind == .image && $0.text == "[image/svg+xml output]" && $0.image != nil })
        #expect(text.summary.images == 1)
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        let page = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        var green = 0
        for y in 0..<400 { for x in 0..<595 where page.pixel(x: x, y: y).isClose(to: 0, 192, 0, tolerance: 20) { green += 1 } }
        #expect(green > 15_000, "the 200×100 rectangle is drawn: \(green) green pixels")
        let thumbnail = try renderer.renderThumbnail(longestSide: 128)
        #expect(thumbnail.width == 128 && thumbnail.height == 64, "\(thumbnail.width)×\(thumbnail.height)")
        #expect(thumbnail.pixel(x: 64, y: 32).isClose(to: 0, 192, 0, tolerance: 20))
    }
}
