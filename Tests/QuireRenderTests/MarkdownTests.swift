import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// Markdown read by cmark-gfm into styled lines and rendered pages: every construct of the
/// sample, images never fetched (placeholders), raw HTML as text, nesting bounded.
@Suite struct MarkdownTests {
    /// Many files read at once in one process keep their strikethrough: cmark-gfm's table of the
    /// inline parser's special characters is shared, and a parser freed on one thread took `~`
    /// out of it under another (a shared test pass failed so once).
    @Test func filesReadAtOnceKeepTheirStrikethrough() async throws {
        let bytes = Array("plain ~~struck~~ and **bold**\n".utf8)
        let struck = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var count = 0
                    for _ in 0..<200 {
                        let line = try? MarkdownText.parse(bytes).lines.first
                        if line?.runs.contains(where: { $0.style == .strike }) == true { count += 1 }
                    }
                    return count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(struck == 8 * 200)
    }

    @Test func everyConstructBecomesStyledLines() throws {
        let file = try SampleFiles.open("data/readme.md")
        #expect(try ContentType.detect(file).family == .markdown)
        let markdown = try MarkdownText.read(file)
        let texts = markdown.lines.map(\.text)
        #expect(markdown.title == "Quire Notes")
        #expect(markdown.headings.map(\.level) == [1, 2, 3])
        #expect(markdown.headings.map(\.text) == ["Quire Notes", "Lists", "Code"])
        #expect(markdown.wordCount > 50 && markdown.wordCount < 90, "\(markdown.wordCount)")
        let heading = try #require(markdown.lines.first)
        #expect(heading.kind == .heading && heading.level == 1 && heading.runs.first?.style == .bold)
        let paragraph = try #require(markdown.lines.first { $0.text.hasPrefix("Quire shows") })
        func style(of word: String, in line: MarkdownText.Line) -> MarkdownText.Style? {
            guard let range = line.text.range(of: word) else { return nil }
            let start = line.text.unicodeScalars.distance(from: line.text.unicodeScalars.startIndex, to: range.lowerBound)
            return line.runs.first { $0.start == start }?.style
        }
        #expect(style(of: "data", in: paragraph) == .italic)
        #expect(style(of: "notes", in: paragraph) == .bold)
        #expect(style(of: "inline code", in: paragraph) == .code)
        #expect(style(of: "struck", in: paragraph) == .strike)
        #expect(style(of: "link", in: paragraph) == .link)
        #expect(paragraph.text.contains("link <https://example.org/docs>"), "a link's address follows it")
        #expect(texts.contains("• first item") && texts.contains("  1. nested one") && texts.contains("☐ a task to do") && texts.contains("☑ a task done"))
        #expect(texts.contains("│ A quoted line that goes on."))
        #expect(markdown.lines.contains { $0.kind == .code && $0.text == "let answer = 42" })
        #expect(texts.contains("│ Name  │ City     │ Amount │") && texts.contains("│ Linus │ Helsinki │      7 │"), "---: right-aligns")
        // The delimiter row's colons align each column, the header too.
        let aligned = try MarkdownText.parse(Array("| left | centre | right |\n|:--|:-:|--:|\n| a | bb | c |\n".utf8)).lines.map(\.text)
        #expect(aligned.contains("│ left │ centre │ right │") && aligned.contains("│ a    │   bb   │     c │"), "\(aligned)")
        #expect(markdown.lines.contains { $0.kind == .rule })
        #expect(texts.contains { $0.contains("[image: remote picture — http://127.0.0.1:PORT/picture.png (not fetched)]") })
        #expect(texts.contains { $0.contains("[image: local picture — quadrants.png]") })
        #expect(texts.contains(#"<script>alert("never run")</script>"#), "raw HTML is shown as text")
        #expect(texts.contains("Text with a footnote[1].") && texts.contains("[1]: The footnote's text."))
    }

    @Test func controlCharactersAndNestingAreBounded() throws {
        let text = try MarkdownText.parse(Array("# a\u{1B}]0;x\u{07}b\n\ntab\there\n".utf8))
        #expect(text.lines.map(\.text) == ["a␛]0;x␇b", "", "tab    here"])
        let nested = try MarkdownText.read(try SampleFiles.open("data/nested-lists.md"))
        #expect(nested.lines.contains { $0.text.contains("(nested deeper than \(MarkdownText.maximumDepth) levels: not shown)") })
        #expect(nested.lines.count < 200)
    }

    /// Page 1: the heading large and bold at the top, code on a grey ground, ink all the way down.
    @Test func pagesAreRendered() throws {
        let renderer = try SampleFiles.renderer("data/readme.md")
        #expect(renderer.pageCount == 1)
        #expect(renderer.title == "Quire Notes")
        #expect(renderer.details.map(\.label) == ["Title", "Headings", "Words"])
        let image = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        func ink(_ rows: Range<Int>, _ columns: Range<Int> = 48..<540) -> Int {
            var count = 0
            for y in rows { for x in columns where image.pixel(x: x, y: y).red < 100 { count += 1 } }
            return count
        }
        // The 20 pt heading's strokes are thick: far more ink in its band than in a body line's.
        let headingInk = ink(50..<72, 48..<250), bodyInk = ink(88..<100, 48..<250)
        #expect(headingInk > 2 * bodyInk, "heading \(headingInk), body \(bodyInk)")
        var grey = 0
        for y in 300..<600 where image.pixel(x: 530, y: y).isClose(to: 242, 242, 242, tolerance: 4) { grey += 1 }
        #expect(grey > 20, "the code block's ground")
        let text = try #require(try renderer.text(page: 0))
        #expect(text.contains("Quire Notes") && text.contains("│ Ada   │ Zürich   │     12 │"))
    }

    /// A 1 MB file: page 1 is laid out alone (nothing past it), drawn as a short file with the
    /// same start draws it; the page count, asked, lays out the rest and is exact (every copy's
    /// heading on some page, the last line and the footnotes on the last pages, no page after).
    @Test func pageOneOfALargeFileIsLaidOutAlone() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = try Data(contentsOf: URL(fileURLWithPath: SampleFiles.path("data/readme.md")))
        let copies = (1 << 20) / copy.count + 1
        let large = directory.appendingPathComponent("large.md"), small = directory.appendingPathComponent("small.md")
        var text = Data()
        for _ in 0..<copies { text.append(copy); text.append(Data("\n".utf8)) }
        text.append(Data("\nThe very last line.\n".utf8))  // a paragraph of its own (the copy ends in a footnote)
        try text.write(to: large)
        var start = Data()
        for _ in 0..<4 { start.append(copy); start.append(Data("\n".utf8)) }
        try start.write(to: small)
        func open(_ url: URL) throws -> Renderer {
            let file = try InputFile(path: DocumentPath(url.path))
            return try Renderer(file: file, contentType: try ContentType.detect(file), limits: RenderLimits(maximumPages: 100_000))
        }
        let renderer = try open(large), reference = try open(small)
        let source = try #require(renderer.source as? MarkdownSource)
        let page = try renderer.render(page: 0, size: .fit(width: 595, height: 842))
        #expect(source.laidOut.pages == 1 && !source.laidOut.isAll, "page 1 alone is laid out: \(source.laidOut)")
        let firstLines = source.markdown.lines.count
        #expect(firstLines < 2 * RenderEngine.markdownFirstLines, "lines are made for the first pages only: \(firstLines)")
        #expect(renderer.hasPage(1) && source.laidOut.pages == 2, "page 2 is laid out when asked for")
        let expected = try reference.render(page: 0, size: .fit(width: 595, height: 842))
        #expect(page.width == expected.width && page.height == expected.height)
        var differing = 0
        for y in 0..<page.height { for x in 0..<page.width where page.pixel(x: x, y: y) != expected.pixel(x: x, y: y) { differing += 1 } }
        #expect(differing == 0, "page 1 of the large file is page 1 of its start")
        #expect(try renderer.text(page: 0) == (try reference.text(page: 0)))
        // The count: every page laid out, each copy's title on one.
        let count = renderer.pageCount
        #expect(source.laidOut.isAll && count > 100, "\(count) pages")
        #expect(source.markdown.lines.count > 20 * firstLines, "every line made for the count")
        #expect(renderer.title == "Quire Notes" && renderer.viewText?.count == source.markdown.lines.count)
        #expect(renderer.details.first { $0.label == "Headings" }?.value == "\(3 * copies)")
        var titles = 0
        for index in 0..<count {
            titles += try #require(try renderer.text(page: index)).components(separatedBy: "Quire Notes").count - 1
        }
        #expect(titles == copies, "every copy's heading is on a page")
        // The end: the last line, then the footnotes (here one), which may begin a page of their own.
        let end = (try renderer.text(page: count - 2) ?? "") + "\n" + (try renderer.text(page: count - 1) ?? "")
        #expect(end.contains("The very last line.") && end.hasSuffix("[1]: The footnote's text."), "\(end.suffix(400))")
        #expect(!renderer.hasPage(count))
        #expect(throws: DocumentError.self) { try renderer.render(page: count, size: .longestSide(100)) }
    }
}
