import Foundation
import QuireTestSupport
import QuireRender
import Testing

/// Comic books through the built binary: `info`'s ComicInfo facts and page count (human and
/// JSON), `preview` of a spread at its own width, the cover as a tar comic's thumbnail, and the
/// book printed on the CUPS test bed, a page per image.
@Suite("Comic books through quire")
struct ComicBookCommandTests {
    @Test func infoSaysTitleSeriesAndPages() throws {
        let result = QuireBinary.run(["info", Samples.path("series.cbt")])
        #expect(result.status == 0, "\(result.standardError)")
        let card = result.standardOutputText
        for line in ["Title:      The Quire Sample", "Series:     Quire Comics", "Number:     7", "Writer:     A. Writer & B. Artist",
                     "Pages:      4"] {
            #expect(card.contains(line), "\(line) in \(card)")
        }
        let json = QuireBinary.run(["info", "--json", Samples.path("series.cbz")])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        let book = try #require(records.first?["comicBook"] as? [String: Any])
        #expect(book["pages"] as? Int == 4 && book["series"] as? String == "Quire Comics" && book["number"] as? String == "7")
        #expect(records.first?["family"] as? String == "comic-book")
    }

    @Test func theSpreadIsPreviewedWideAndTheCoverIsTheThumbnail() throws {
        let scratch = TemporaryDirectory()
        let spread = scratch.file("spread.png")
        let preview = QuireBinary.run(["preview", "--pages", "3", "--width", "200", "-o", spread, Samples.path("series.cbz")])
        #expect(preview.status == 0, "\(preview.standardError)")
        let image = try IsolationRuleTests.decodePNG(spread)
        #expect(image.width == 200 && image.height == 150, "\(image.width)×\(image.height)")
        let left = image.pixel(x: 40, y: 75), right = image.pixel(x: 160, y: 75)
        #expect(left.red > 200 && left.green < 60 && right.red > 200 && right.green > 200, "\(left) \(right)")
        let cover = scratch.file("cover.png")
        let thumbnail = QuireBinary.run(["thumbnail", "-s", "128", Samples.path("series.cbt"), cover])
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        let made = try IsolationRuleTests.decodePNG(cover)
        let middle = made.pixel(x: made.width / 2, y: made.height / 2)
        #expect(made.height == 128 && middle.green > 200 && middle.red < 60 && middle.blue < 60, "\(made.width)×\(made.height) \(middle)")
    }

    @Test func theBookPrintsAPagePerImage() throws {
        let bed = try CUPSTestBed(.full)
        let result = QuireBinary.run(["print", "-d", "quire-office", Samples.path("series.cbz")], environment: bed.environment())
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "series.cbz"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 4)
    }
}
