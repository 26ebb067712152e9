import Foundation
import Testing
@testable import QuireRender
import QuireTypes

@Suite struct ThumbnailTests {
    static let everyFamily = [
        "document.pdf", "document.ps", "drawing.eps", "drawing.svg", "format.png", "format.jpg", "format.gif",
        "format.tiff", "format.bmp", "format.ico", "notes.txt", "hello.c", "readme.md",
        "book.epub", "comic.cbz",
    ] + (ImageProbe.canLoad(mimeType: "image/webp") ? ["format.webp"] : [])

    /// Office files' thumbnails, laid out by LibreOffice in the test process: in the office pass.
    static let officeFamily = ["document.odt", "document.docx", "document.pages"]

    /// Page 1 drawn at `size` on its longest side: the one drawing every thumbnail uses.
    static func firstPage(_ name: String, size: Int) throws -> Thumbnail.FirstPage {
        let file = try SampleFiles.open(name)
        return try Thumbnail.firstPage(file, contentType: try ContentType.detect(file), sizes: [size], limits: .standard,
                                       interpreters: .here)
    }

    @Test(arguments: everyFamily)
    func longestSideEqualsSize(name: String) throws {
        let image = try #require(try Self.firstPage(name, size: 100).images[100])
        #expect(image.longestSide == 100, "\(name): \(image.width)×\(image.height)")
    }

    @Test(.inProcessOffice, arguments: officeFamily)
    func officeLongestSideEqualsSize(name: String) throws {
        try longestSideEqualsSize(name: name)
    }

    @Test func smallImagesAreNotEnlarged() throws {
        let image = try #require(try Self.firstPage("quadrants.png", size: 256).images[256])
        #expect(image.width == 64 && image.height == 48)
    }

    @Test func anImagesPixelSizeAndADocumentsPagesAreGivenForTheKeys() throws {
        let photo = try Self.firstPage("photo-rotated.jpg", size: 32)
        #expect(photo.imageWidth == 60 && photo.imageHeight == 80)
        #expect(photo.images[32]?.width == 24 && photo.images[32]?.height == 32)
        #expect(try Self.firstPage("document.pdf", size: 64).pageCount == 3)
    }
}
