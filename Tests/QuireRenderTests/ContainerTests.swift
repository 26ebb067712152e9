import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// Each container's preview (or cover, or first page) is solid green; decoys are red.
@Suite struct ContainerTests {
    @Test(arguments: [
        ("document.odt", "Thumbnails/thumbnail.png"),
        ("document.docx", "docProps/thumbnail.jpeg"),
        ("document.pages", "QuickLook/Thumbnail.jpg"),
        ("book.epub", "OEBPS/images/the cover.png"),
        ("comic.cbz", "page1.png"),
    ])
    func embeddedPreviewIsFound(name: String, entry: String) throws {
        // As thumbnails ask (office files are otherwise laid out by LibreOffice when it is installed).
        let renderer = try SampleFiles.renderer(name, preferEmbeddedPreview: true)
        #expect(renderer.embeddedPreviewName == entry)
        let image = try renderer.render(size: .longestSide(120))
        #expect(image.width == 120 && image.height == 80)
        #expect(image.pixel(x: 60, y: 40).isClose(to: 0, 255, 0))
    }

    @Test func zipBombIsRefused() throws {
        #expect {
            _ = try SampleFiles.renderer("bomb.odt")
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .limitExceeded && error.reason.contains("inflates")
        }
    }

    @Test func tooManyEntriesAreRefused() throws {
        #expect {
            _ = try SampleFiles.renderer("many-entries.cbz")
        } throws: { ($0 as? DocumentError)?.kind == .limitExceeded }
    }

    @Test(arguments: ["truncated.odt", "truncated.epub"])
    func damagedContainersAreRefused(name: String) throws {
        #expect {
            _ = try SampleFiles.renderer(name)
        } throws: { ($0 as? DocumentError)?.kind == .damaged }
    }

    /// libarchive refusing to open the file used to free its reader twice (found by fuzz-thumbnail).
    @Test(arguments: ["application/vnd.oasis.opendocument.text", "application/epub+zip", "application/vnd.comicbook+zip"])
    func bytesThatAreNotAZipAreDamagedNotACrash(mimeType: String) throws {
        for sample in ["notes.txt", "document.pdf", "photo.jpg"] {
            let file = try SampleFiles.open(sample)
            #expect {
                _ = try Renderer(file: file, contentType: ContentType(mimeType: mimeType))
            } throws: { ($0 as? DocumentError)?.kind == .damaged }
        }
    }

    @Test func naturalOrderPicksPageOne() {
        #expect(ContainerPreview.firstImage(["page10.png", "page2.png", "__MACOSX/._page0.png", "page1.png"]) == "page1.png")
        #expect(ContainerPreview.firstImage(["b/10.jpg", "b/9.jpg", ".hidden.png"]) == "b/9.jpg")
    }
}

@Suite struct XMLScanTests {
    @Test func startTagsAndAttributes() {
        let xml = """
            <?xml version="1.0"?><!-- <item id="comment"/> --><opf:package xmlns:opf="x">
            <item id='a' href="images/a%20b.png" media-type="image/png" properties="nav cover-image"/>
            <meta name="cover" content="x&amp;y&#65;"/><![CDATA[<item id="cdata"/>]]></opf:package>
            """
        let scan = XMLScan(Array(xml.utf8))
        #expect(scan.elements.map(\.name) == ["package", "item", "meta"])
        #expect(scan.elements[1].attributes["href"] == "images/a%20b.png")
        #expect(scan.elements[1].attributes["properties"] == "nav cover-image")
        #expect(scan.elements[2].attributes["content"] == "x&yA")
    }
}
