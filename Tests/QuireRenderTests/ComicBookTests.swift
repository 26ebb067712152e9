import Testing
@testable import QuireRender
import QuireTypes

/// Comic-book archives as pages: natural name order, a spread kept wide, ComicInfo.xml on the
/// card, the same book as zip (.cbz) and tar (.cbt). (A page that is a zip bomb: HostileCorpusTests.)
@Suite struct ComicBookTests {
    @Test(arguments: ["series.cbz", "series.cbt"])
    func pagesComeInNaturalOrderAtTheirOwnSize(name: String) throws {
        let renderer = try SampleFiles.renderer(name)
        #expect(renderer.pageCount == 4)
        #expect((0..<4).map { renderer.pageSize(at: $0) }
                == [PageSize(width: 200, height: 300), PageSize(width: 200, height: 300),
                    PageSize(width: 400, height: 300), PageSize(width: 200, height: 300)])
        // page1 green (the cover), page2 blue, the spread red | yellow, page10 magenta.
        let cover = try renderer.render(page: 0, size: .longestSide(90))
        #expect(cover.width == 60 && cover.height == 90)
        #expect(cover.pixel(x: 30, y: 45).isClose(to: 0, 255, 0))
        #expect(try renderer.render(page: 1, size: .longestSide(90)).pixel(x: 30, y: 45).isClose(to: 0, 0, 255))
        let spread = try renderer.render(page: 2, size: .longestSide(120))
        #expect(spread.width == 120 && spread.height == 90)
        #expect(spread.pixel(x: 20, y: 45).isClose(to: 255, 0, 0) && spread.pixel(x: 100, y: 45).isClose(to: 255, 255, 0))
        #expect(try renderer.render(page: 3, size: .longestSide(90)).pixel(x: 30, y: 45).isClose(to: 255, 0, 255))
    }

    @Test(arguments: ["series.cbz", "series.cbt"])
    func comicInfoIsOnTheCard(name: String) throws {
        let renderer = try SampleFiles.renderer(name)
        #expect(renderer.title == "The Quire Sample")
        #expect(renderer.author == "A. Writer & B. Artist")
        let details = Dictionary(uniqueKeysWithValues: renderer.details.map { ($0.label, $0.value) })
        #expect(details["Series"] == "Quire Comics")
        #expect(details["Number"] == "7")
        #expect(details["Year"] == "2026")
        #expect(details["Pages"] == nil, "the page count is the card's own line")
    }

    @Test func comicInfoWithoutATitleIsNamedBySeriesAndNumber() {
        let info = ComicInfo(Array("<ComicInfo><Series> Long &lt;Run&gt; </Series><Number>12</Number></ComicInfo>".utf8))
        #expect(info.series == "Long <Run>" && info.title == nil)
        let summary = ComicBookSummary(pages: 3, title: info.title, series: info.series, number: info.number)
        #expect(summary.displayTitle == "Long <Run> #12")
        #expect(ComicBookSummary(pages: 1).displayTitle == nil)
    }

    @Test func theCoverIsTheThumbnail() throws {
        let renderer = try SampleFiles.renderer("comic.cbz", preferEmbeddedPreview: true)
        #expect(renderer.pageCount == 3)   // page1, page2, page10; the __MACOSX fork is not a page
        let image = try renderer.renderThumbnail(longestSide: 64)
        #expect(image.pixel(x: image.width / 2, y: image.height / 2).isClose(to: 0, 255, 0))
    }

    @Test func anArchiveWithNoImageSaysSo() throws {
        #expect {
            _ = try Renderer(file: try SampleFiles.open("archives/project.zip"), contentType: ContentType(mimeType: "application/vnd.comicbook+zip"))
        } throws: { ($0 as? DocumentError)?.reason == "the comic book holds no image" }
    }

    @Test func tooManyEntriesAreRefusedWithTheOption() throws {
        #expect {
            _ = try SampleFiles.renderer("many-entries.cbz")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .limitExceeded && error.reason.contains("comic book has more than the maximum of 10000 entries")
        }
    }
}
