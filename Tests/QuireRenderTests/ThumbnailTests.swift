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

    @Test(arguments: everyFamily)
    func longestSideEqualsSize(name: String) throws {
        let file = try SampleFiles.open(name)
        let thumbnail = try Thumbnail.make(file: file, contentType: try ContentType.detect(file), size: 100)
        #expect(thumbnail.image.longestSide == 100, "\(name): \(thumbnail.image.width)×\(thumbnail.image.height)")
    }

    @Test(.inProcessOffice, arguments: officeFamily)
    func officeLongestSideEqualsSize(name: String) throws {
        try longestSideEqualsSize(name: name)
    }

    @Test func smallImagesAreNotEnlarged() throws {
        let file = try SampleFiles.open("quadrants.png")
        let thumbnail = try Thumbnail.make(file: file, contentType: try ContentType.detect(file), size: 256)
        #expect(thumbnail.image.width == 64 && thumbnail.image.height == 48)
    }

    @Test func metadataFollowsTheStandard() throws {
        let file = try SampleFiles.open("document.pdf")
        let thumbnail = try Thumbnail.make(file: file, contentType: try ContentType.detect(file), size: 128, software: "Quire test")
        let text = Dictionary(uniqueKeysWithValues: thumbnail.metadata.textEntries.map { ($0.key, $0.value) })
        #expect(text["Thumb::URI"] == "file://" + SampleFiles.path("document.pdf"))
        #expect(text["Thumb::MTime"] == String(file.modificationTime.seconds))
        #expect(text["Thumb::Size"] == String(file.size))
        #expect(text["Thumb::Mimetype"] == "application/pdf")
        #expect(text["Software"] == "Quire test")
        #expect(text["Thumb::Document::Pages"] == "3")

        let png = try thumbnail.pngData()
        let chunks = PNGChunks(png)
        #expect(chunks.isPNG)
        // IHDR: 8-bit, colour type 6 (RGBA), no interlace.
        #expect(chunks.header?.bitDepth == 8 && chunks.header?.colorType == 6 && chunks.header?.interlace == 0)
        #expect(chunks.header?.width == thumbnail.image.width && chunks.header?.height == 128)
        #expect(chunks.text["Thumb::URI"] == text["Thumb::URI"])
        #expect(chunks.text["Thumb::Document::Pages"] == "3")
    }

    @Test func imageMetadataHasPixelSize() throws {
        let file = try SampleFiles.open("photo-rotated.jpg")
        let thumbnail = try Thumbnail.make(file: file, contentType: try ContentType.detect(file), size: 32)
        let text = Dictionary(uniqueKeysWithValues: thumbnail.metadata.textEntries.map { ($0.key, $0.value) })
        #expect(text["Thumb::Image::Width"] == "60" && text["Thumb::Image::Height"] == "80")
        #expect(thumbnail.image.width == 24 && thumbnail.image.height == 32)
    }
}

/// Minimal PNG chunk reader for checking what the encoder wrote.
struct PNGChunks {
    struct Header { let width: Int, height: Int, bitDepth: Int, colorType: Int, interlace: Int }
    var isPNG = false
    var header: Header?
    var text: [String: String] = [:]

    init(_ bytes: [UInt8]) {
        isPNG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var offset = 8
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        while isPNG, offset + 12 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = Array(bytes[(offset + 8)..<min(bytes.count, offset + 8 + length)])
            if type == "IHDR" {
                header = Header(width: u32(offset + 8), height: u32(offset + 12), bitDepth: Int(data[8]),
                                colorType: Int(data[9]), interlace: Int(data[12]))
            } else if type == "tEXt", let zero = data.firstIndex(of: 0) {
                text[String(decoding: data[..<zero], as: UTF8.self)] = String(decoding: data[(zero + 1)...], as: UTF8.self)
            }
            offset += 12 + length
        }
    }
}
