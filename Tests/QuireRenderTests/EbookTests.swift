import Testing
@testable import QuireRender
import QuireTypes

/// EPUB books read as a reader reads them: the cover, then the chapters in spine order as
/// styled lines (headings, emphasis, lists, quotes, code, the book's own pictures); scripts,
/// styles and outside references never loaded; a DRM-protected book says so; a thumbnail is
/// the cover alone.
@Suite struct EbookTests {
    @Test func aBookIsItsCoverThenItsChaptersInSpineOrder() throws {
        let renderer = try SampleFiles.renderer("novel.epub")
        #expect(renderer.title == "The Quire Reader" && renderer.author == "A. Author & B. Writer")
        let details = Dictionary(uniqueKeysWithValues: renderer.details.map { ($0.label, $0.value) })
        #expect(details["Chapters"] == "2" && details["Author"] == "A. Author & B. Writer")
        let markdown = try #require(renderer.markdown)
        let lines = markdown.lines.filter { $0.kind != .blank }
        #expect(lines.first?.kind == .image && lines.first?.image != nil, "the cover first")
        let headings = lines.filter { $0.kind == .heading }.map { "\($0.level) \($0.text)" }
        #expect(headings == ["1 Chapter One", "2 Chapter Two"], "the nav (linear=no) is not read: \(headings)")
        let night = try #require(lines.first { $0.text.hasPrefix("It was a quiet night") })
        #expect(night.text == "It was a quiet night and the printer hummed.")
        #expect(night.runs.contains { $0.style.contains(.italic) && $0.start == 9 && $0.length == 5 })
        #expect(night.runs.contains { $0.style.contains(.bold) && $0.length == 7 })
        #expect(lines.contains { $0.text == "A link away and\u{00A0}an\u{00A0}entity & more." })
        let pictures = lines.filter { $0.kind == .image }
        #expect(pictures.count == 3)
        #expect(pictures[1].text == "[picture: A blue figure]" && pictures[1].image != nil)
        #expect(pictures[2].text == "[picture: remote, not shown]" && pictures[2].image == nil, "never fetched")
        #expect(lines.contains { $0.text == "• first thing" } && lines.contains { $0.text == "│ Quoted words." })
        #expect(lines.filter { $0.kind == .code }.map(\.text) == ["let x = 1", "let y = 2"])
        #expect(!markdown.lines.contains { $0.text.contains("never run") || $0.text.contains("color: red") || $0.text.contains("Not in the reading order") })
        // The first page shows the green cover at the top.
        let page = try renderer.render(page: 0, size: .longestSide(300))
        #expect(page.pixel(x: page.width / 4, y: Int(Double(page.height) * 0.12)).isClose(to: 0, 255, 0, tolerance: 40))
        #expect(page.pixel(x: page.width * 3 / 4, y: Int(Double(page.height) * 0.12)).isClose(to: 255, 255, 255), "the cover at its own size")
    }

    /// The contents come from the EPUB 3 navigation document's `toc` list (not its landmarks),
    /// nested as it nests them, each entry at the line its chapter or fragment (percent-encoded
    /// in the link) starts; an entry outside the book goes nowhere.
    @Test func theContentsComeFromTheNavigationDocument() throws {
        let renderer = try SampleFiles.renderer("novel.epub")
        let markdown = try #require(renderer.markdown)
        let contents = renderer.contents
        #expect(!contents.isFromHeadings)
        #expect(contents.entries.map { "\($0.level) \($0.title)" } == ["1 The First Chapter", "1 A quotation", "2 Some code", "1 Elsewhere"])
        func text(_ index: Int) -> String? { contents.entries[index].line.map { markdown.lines[$0].text } }
        #expect(text(0) == "Chapter One", "a chapter: its first line")
        #expect(text(1) == "│ Quoted words.", "#quote: the block quote's line")
        #expect(text(2) == "let x = 1", "#c%C3%B3digo: the element whose id is código")
        #expect(contents.entries[3].line == nil, "http://…: outside the book")
        #expect(contents.entry(at: 0) == nil && contents.entry(at: contents.entries[2].line! + 1) == 2)
        let details = Dictionary(uniqueKeysWithValues: renderer.details.map { ($0.label, $0.value) })
        #expect(details["Contents"] == "4 entries")
    }

    /// An EPUB 2 book's contents come from its NCX (the navMap's navPoints, nested; its page
    /// list is not contents); a book that lists none gets its headings, and says so.
    @Test func theContentsComeFromTheNCXElseTheHeadings() throws {
        let old = try SampleFiles.renderer("old-book.epub")
        let lines = try #require(old.markdown).lines
        #expect(old.contents.entries.map { "\($0.level) \($0.title)" } == ["1 Part & One", "2 Its Second Scene", "1 Part Two"])
        #expect(old.contents.entries.map { $0.line.map { lines[$0].text } } == ["The first scene.", "The second scene.", "The second part."])
        let plain = try SampleFiles.renderer("plain-book.epub")
        let plainLines = try #require(plain.markdown).lines
        #expect(plain.contents.isFromHeadings)
        #expect(plain.contents.entries.map { "\($0.level) \($0.title)" } == ["1 Opening", "2 A Detail", "1 Closing"])
        #expect(plain.contents.entries.allSatisfy { entry in
            entry.line.map { plainLines[$0].kind == .heading && plainLines[$0].text == entry.title } ?? false
        })
        let details = Dictionary(uniqueKeysWithValues: plain.details.map { ($0.label, $0.value) })
        #expect(details["Contents"] == "3 entries (the book's headings)")
    }

    /// A hostile navigation document: contents bounded in entries, levels and title length;
    /// nested navs and links outside a list are not entries.
    @Test func hostileContentsAreBounded() {
        let many = "<nav epub:type=\"toc\"><ol>" + String(repeating: "<li><a href=\"a.xhtml\">x</a></li>", count: TableOfContents.maximumEntries + 50) + "</ol></nav>"
        #expect(EpubContents.navigation(Array(many.utf8), folder: "", present: ["a.xhtml"]).count == TableOfContents.maximumEntries)
        let deep = "<nav epub:type=\"toc\">" + String(repeating: "<ol><li>", count: 40) + "<a href=\"a.xhtml\">" + String(repeating: "long ", count: 100) + "</a></nav>"
        let entry = EpubContents.navigation(Array(deep.utf8), folder: "", present: ["a.xhtml"]).first
        #expect(entry?.level == TableOfContents.maximumLevel && entry?.chapter == "a.xhtml")
        #expect((entry?.title.count ?? 0) == TableOfContents.maximumTitle && entry?.title.hasSuffix("…") == true)
        let loose = "<nav epub:type=\"toc\"><a href=\"a.xhtml\">not in a list</a><ol><li><a href=\"../../etc/passwd\">Up</a></li></ol></nav>"
        let found = EpubContents.navigation(Array(loose.utf8), folder: "", present: ["a.xhtml"])
        #expect(found == [EpubContents.Target(level: 1, title: "Up", chapter: nil, fragment: nil)])
    }

    @Test func aThumbnailIsTheCoverAlone() throws {
        let renderer = try SampleFiles.renderer("novel.epub", preferEmbeddedPreview: true)
        #expect(renderer.embeddedPreviewName == "OEBPS/images/cover.png")
        #expect(renderer.pageCount == 1)
    }

    @Test func aDRMProtectedBookSaysSo() throws {
        #expect {
            _ = try SampleFiles.renderer("drm.epub")
        } throws: { ($0 as? DocumentError)?.reason == "the book is protected by DRM; Quire shows only books that are not" }
    }

    @Test func referencesOutsideTheBookAreNotResolved() {
        let present: Set<String> = ["OEBPS/images/a.png", "images/b.png"]
        #expect(EpubBook.resolve("../images/a.png", from: "OEBPS/text/", in: present) == "OEBPS/images/a.png")
        #expect(EpubBook.resolve("a.png#x", from: "OEBPS/images/", in: present) == "OEBPS/images/a.png")
        for outside in ["http://example.org/a.png", "file:///etc/passwd", "/images/b.png", "../../../images/b.png", "data:image/png;base64,AAAA"] {
            #expect(EpubBook.resolve(outside, from: "OEBPS/", in: present) == nil, "\(outside)")
        }
    }

    @Test func elementTextsAreReadByOneTokenizer() {
        let xml = Array("<?xml version=\"1.0\"?><!-- <Title>no</Title> --><m><dc:title>A &amp; <![CDATA[<B>]]>  C</dc:title><Title/><Title>Real</Title></m>".utf8)
        let texts = XMLScan.firstTexts(xml, of: ["title", "Title", "missing"])
        #expect(texts["title"] == "A & <B> C")
        #expect(texts["Title"] == "Real", "a comment and an empty element are not the text")
        #expect(texts["missing"] == nil)
        #expect(XMLScan(xml).elements.map(\.name) == ["m", "title", "Title", "Title"])
    }
}
