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
        #expect(try thumbnail.pngData().starts(with: [0x89, 0x50, 0x4E, 0x47]))
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
