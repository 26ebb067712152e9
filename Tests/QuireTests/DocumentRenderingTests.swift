import Foundation
import Quire
import QuireTestSupport
import Testing

/// The façade's rendering API, as another Swift program would use it.
@Suite struct DocumentRenderingTests {
    func open(_ sample: String) throws -> Document {
        try Document(path: DocumentPath(Samples.path(sample)))
    }

    @Test func previewOfAPDFPage() async throws {
        let image = try await open("document.pdf").preview(page: 0, size: .width(298))
        #expect(image.width == 298)
        #expect(image.pixel(x: 86, y: 61) == RenderedImage.Pixel(red: 255, green: 0, blue: 0, alpha: 255))
    }

    @Test func thumbnailOfAnEPUBIsItsCover() async throws {
        let thumbnail = try await open("book.epub").thumbnail(size: 120)
        #expect(thumbnail.image.longestSide == 120)
        let centre = thumbnail.image.pixel(x: thumbnail.image.width / 2, y: thumbnail.image.height / 2)
        #expect(centre.green > 200 && centre.red < 50)
        #expect(thumbnail.metadata.textEntries.contains { $0.key == "Thumb::Mimetype" && $0.value == "application/epub+zip" })
        #expect(thumbnail.png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// The thumbnail is the render service's file: the standard's keys, read back from the PNG
    /// by a reader of the test's own, and the image decoded from it.
    @Test func aThumbnailsKeysFollowTheStandard() async throws {
        let path = Samples.path("document.pdf")
        let document = try open("document.pdf")
        let thumbnail = try await document.thumbnail(size: 128, software: "Quire test")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let chunks = PNGFile(thumbnail.png)
        #expect(chunks.isPNG)
        // IHDR: 8-bit, colour type 6 (RGBA), no interlace; the page is portrait, so 128 high.
        #expect(chunks.header?.bitDepth == 8 && chunks.header?.colorType == 6 && chunks.header?.interlace == 0)
        #expect(chunks.header?.width == thumbnail.image.width && chunks.header?.height == 128 && thumbnail.image.height == 128)
        #expect(chunks.text["Thumb::URI"] == "file://" + path)
        #expect(chunks.text["Thumb::MTime"] == String(Int64((attributes[.modificationDate] as! Date).timeIntervalSince1970)))
        #expect(chunks.text["Thumb::Size"] == String(attributes[.size] as! Int))
        #expect(chunks.text["Thumb::Mimetype"] == "application/pdf")
        #expect(chunks.text["Software"] == "Quire test")
        #expect(chunks.text["Thumb::Document::Pages"] == "3")
        #expect(Dictionary(uniqueKeysWithValues: thumbnail.metadata.textEntries.map { ($0.key, $0.value) }) == chunks.text)
        // The page's red square (as in the preview above) is in the decoded image.
        let red = thumbnail.image.pixels.withUnsafeBufferPointer { pixels in
            stride(from: 0, to: pixels.count, by: 4).count { pixels[$0] > 200 && pixels[$0 + 1] < 60 && pixels[$0 + 2] < 60 }
        }
        #expect(red > 20, "red pixels: \(red)")
    }

    @Test func aThumbnailSizeOutsideTheStandardsRangeIsRefused() async throws {
        let document = try open("document.pdf")
        for size in [0, 4097] {
            await #expect {
                _ = try await document.thumbnail(size: size)
            } throws: { error in
                (error as? DocumentError)?.kind == .limitExceeded && "\(error)".contains("outside 1…4096")
            }
        }
    }

    @Test func textConvertsToPDF() async throws {
        let bytes = try await open("notes.txt").pdfData()
        #expect(bytes.starts(with: Array("%PDF-".utf8)))
    }

    @Test func unsupportedTypesSayWhy() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("data.bin")
        FileManager.default.createFile(atPath: path, contents: Data([0x00, 0x01, 0x02, 0xFF, 0xFE, 0x00, 0x7F, 0x80]))
        let document = try Document(path: DocumentPath(path))
        await #expect {
            _ = try await document.thumbnail(size: 64)
        } throws: { error in
            guard let error = error as? DocumentError else { return false }
            return error.kind == .unsupported && error.reason.contains("cannot be previewed")
        }
    }
}

/// A PNG file's header and tEXt chunks, read by the test itself.
struct PNGFile {
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
