import Foundation
import Testing
@testable import QuireRender
import QuireGIO
import QuireSystem
import QuireTypes
import Synchronization

/// Code coloured by its language (GtkSourceView's definitions, loaded in the worker without a
/// display): Markdown code blocks by their fence's language, a notebook's code cells by its
/// kernel's, drawn in colour on the pages.
@Suite struct CodeColourTests {
    /// The run over `word` in `line` that carries a colour or bold.
    private func run(over word: String, in line: MarkdownText.Line) -> MarkdownText.Run? {
        guard let range = line.text.range(of: word) else { return nil }
        let start = line.text.unicodeScalars.distance(from: line.text.unicodeScalars.startIndex, to: range.lowerBound)
        return line.runs.last { $0.start <= start && start < $0.start + $0.length && ($0.colour != 0 || $0.style.contains(.bold)) }
    }

    /// GtkSourceView schedules its work on GLib's default main context: in a process whose main
    /// loop runs on another thread (a GTK program using the library, a D-Bus service) the work
    /// is handed to that thread, never done beside it (the two crashed the test process once).
    @Test func codeIsColouredWhileAnotherThreadRunsGLibsMainLoop() throws {
        let loop = GLibMainLoop()
        let running = Atomic<Bool>(false), stop = Atomic<Bool>(false)
        loop.quit(every: 5) {
            running.store(true, ordering: .relaxed)
            return stop.load(ordering: .relaxed)
        }
        let thread = JoinableThread(stackSize: 1 << 20) { loop.run() }
        defer {
            stop.store(true, ordering: .relaxed)
            thread.join()
        }
        for _ in 0..<400 where !running.load(ordering: .relaxed) { usleep(5_000) }
        let started = running.load(ordering: .relaxed)
        try #require(started, "the loop runs")
        for round in 0..<20 {
            let runs = try #require(SyntaxHighlighting.runs(["def area(r):", "    return 3.14 * r * r"], language: "python"), "round \(round)")
            #expect(runs[0].contains { $0.start == 0 && $0.length == 3 && $0.colour == 2 }, "round \(round): def coloured: \(runs[0])")
        }
    }

    @Test func aFencedBlockIsColouredByItsLanguage() throws {
        let text = try MarkdownText.parse(Array("""
        ```python
        def area(r):
            # a circle's
            return 3.14 * r * r  # "pi"
        ```

        ```
        def plain(): pass
        ```
        """.utf8))
        let code = text.lines.filter { $0.kind == .code }
        let definition = try #require(code.first { $0.text.hasPrefix("def area") })
        let keyword = try #require(run(over: "def", in: definition))
        #expect(keyword.colour == 2 && keyword.style.contains(.bold) && keyword.style.contains(.syntax), "def: \(keyword)")
        let comment = try #require(code.first { $0.text.contains("# a circle") })
        #expect(run(over: "# a circle", in: comment)?.colour == 5, "comments blue")
        let number = try #require(code.first { $0.text.contains("3.14") })
        #expect(run(over: "3.14", in: number)?.colour == 6, "numbers magenta")
        #expect(run(over: "r * r", in: number) == nil, "names stay the ordinary colour")
        // Without a language: plain code, as before.
        let plain = try #require(code.first { $0.text.hasPrefix("def plain") })
        #expect(plain.runs.allSatisfy { !$0.style.contains(.syntax) && $0.colour == 0 })
    }

    @Test func languagesAreFoundByNameAliasOrExtension() throws {
        #expect(SyntaxHighlighting.runs(["int main(void) { return 0; }"], language: "c")?.first?.isEmpty == false)
        #expect(SyntaxHighlighting.runs(["fn main() { let x = 1; }"], language: "rs")?.first?.isEmpty == false, "an extension")
        #expect(SyntaxHighlighting.runs(["echo hi # there"], language: "bash")?.first?.isEmpty == false, "an alias")
        #expect(SyntaxHighlighting.runs(["anything"], language: "no-such-language") == nil)
        #expect(SyntaxHighlighting.runs(["x"], language: "../../etc/passwd") == nil, "not a language's name")
        // A span that crosses lines (a block comment) is cut at each line's end.
        let comment = try #require(SyntaxHighlighting.runs(["/* one", "two */ int x;"], language: "c"))
        #expect(comment[0].first.map { $0.start == 0 && $0.length == 6 } == true, "\(comment[0])")
        #expect(comment[1].first.map { $0.start == 0 && $0.length == 6 } == true, "\(comment[1])")
        // Too long a block stays plain.
        let long = [String](repeating: String(repeating: "x", count: 1000), count: SyntaxHighlighting.maximumBytes / 1000 + 1)
        #expect(SyntaxHighlighting.runs(long, language: "c") == nil)
    }

    @Test func coloursAreTheTerminalsNearest() {
        #expect(SyntaxHighlighting.nearestColour(0xA52A2A) == 2)  // red
        #expect(SyntaxHighlighting.nearestColour(0x2E8B57) == 3)  // green
        #expect(SyntaxHighlighting.nearestColour(0x0000FF) == 5)  // blue
        #expect(SyntaxHighlighting.nearestColour(0xFF00FF) == 6)  // magenta
        #expect(SyntaxHighlighting.nearestColour(0x008A8C) == 7)  // cyan
        #expect(SyntaxHighlighting.nearestColour(0x000000) == 0)  // the ordinary colour
    }

    @Test func aNotebooksCodeCellsAreColouredInItsLanguage() throws {
        let notebook = try NotebookText.read(try SampleFiles.open("data/analysis.ipynb"))
        let line = try #require(notebook.text.lines.first { $0.kind == .code && $0.text == "total = sum(range(10))" })
        let builtin = try #require(run(over: "sum", in: line))
        #expect(builtin.colour != 0 && builtin.style.contains(.syntax), "\(line.runs)")
        #expect(line.runs.first?.style == [.code, .syntax] && line.runs.first?.length == line.text.unicodeScalars.count)
    }

    /// On the page, the keyword is drawn in the pages' red, the comment in their blue.
    @Test func thePageDrawsTheColours() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("code.md")
        try Data("# Code\n\n```python\ndef define_a_function():\n    # a comment that is long enough to count\n    return None\n```\n".utf8).write(to: file)
        let input = try InputFile(path: DocumentPath(file.path))
        let renderer = try Renderer(file: input, contentType: try ContentType.detect(input))
        let image = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        var red = 0, blue = 0
        for y in 0..<300 {
            for x in 0..<595 {
                let pixel = image.pixel(x: x, y: y)
                if pixel.isClose(to: 0xC0, 0x1C, 0x28, tolerance: 40) { red += 1 }
                if pixel.isClose(to: 0x12, 0x48, 0x8B, tolerance: 40) { blue += 1 }
            }
        }
        #expect(red > 20 && blue > 50, "red \(red), blue \(blue)")
    }
}
