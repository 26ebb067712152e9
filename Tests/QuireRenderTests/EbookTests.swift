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
