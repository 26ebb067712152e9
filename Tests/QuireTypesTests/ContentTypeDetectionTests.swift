import Foundation
import QuireTestSupport
import QuireTypes
import Testing

@Suite("Content type detection")
struct ContentTypeDetectionTests {
    func detect(_ sample: String) throws -> ContentType {
        let file = try InputFile(path: DocumentPath(Samples.path(sample)))
        return try ContentType.detect(file)
    }

    @Test("samples with honest names", arguments: [
        ("document.pdf", "application/pdf", DocumentFamily.pdf),
        ("quadrants.png", "image/png", .image),
        ("photo.jpg", "image/jpeg", .image),
        ("notes.txt", "text/plain", .text),
        ("hello.c", "text/x-csrc", .text),
        ("readme.md", "text/markdown", .text),
        ("drawing.svg", "image/svg+xml", .svg),
    ])
    func honestNames(sample: String, mime: String, family: DocumentFamily) throws {
        let type = try detect(sample)
        #expect(type.mimeType == mime)
        #expect(type.family == family)
    }

    @Test("content wins over a misleading or missing extension", arguments: [
        ("pdf-named-as.txt", "application/pdf"),
        ("pdf-without-extension", "application/pdf"),
        ("jpeg-named-as.png", "image/jpeg"),
        ("png-without-extension", "image/png"),
    ])
    func misleadingNames(sample: String, mime: String) throws {
        #expect(try detect(sample).mimeType == mime)
    }

    @Test func contentOnlyDetectionFromBytes() throws {
        let pdf = try InputFile(path: DocumentPath(Samples.path("document.pdf"))).read(upTo: 4096)
        #expect(ContentType.detect(data: pdf).mimeType == "application/pdf")
        #expect(ContentType.detect(data: Array("just some words\n".utf8)).mimeType == "text/plain")
    }

    @Test("a more specific name is kept over generic content")
    func nameRefinesContent() {
        // C source is plain text by content; the name makes it C.
        let c = ContentType.detect(fileName: Array("main.c".utf8), prefix: Array("int x;\n".utf8))
        #expect(c.mimeType == "text/x-csrc")
        // Random bytes named .pdf: no magic matches, the name decides (and reading will fail).
        let garbage = ContentType.detect(fileName: Array("x.pdf".utf8), prefix: [0x00, 0xFF, 0x13, 0x37, 0x80])
        #expect(garbage.mimeType == "application/pdf")
    }

    @Test func descriptionAndIcons() {
        let pdf = ContentType(mimeType: "application/pdf")
        #expect(pdf.localizedDescription == "PDF document")
        #expect(pdf.iconName == "application-pdf")
        #expect(pdf.genericIconName == "x-office-document")
    }

    @Test("parent types follow shared-mime-info's is-a relations")
    func parents() {
        let c = ContentType(mimeType: "text/x-csrc")
        #expect(c.parentTypes.first == "text/plain")
        #expect(c.parentTypes.last == "application/octet-stream")
        #expect(c.conforms(to: "text/plain"))
        #expect(!c.conforms(to: "application/pdf"))
        let svg = ContentType(mimeType: "image/svg+xml")
        #expect(svg.parentTypes.contains("application/xml"))
    }

    @Test("a subtype of application/pdf is treated as PDF")
    func pdfSubtype() {
        // shared-mime-info declares WWF documents a subclass of application/pdf.
        let subtype = ContentType(mimeType: "application/x-wwf")
        #expect(subtype.conforms(to: "application/pdf"))
        #expect(subtype.family == .pdf)
        #expect(subtype.capabilities.print == .direct)
    }

    @Test func aliasesResolveToTheCanonicalType() {
        #expect(ContentType(mimeType: "application/x-pdf").mimeType == "application/pdf")
    }

    @Test func emptyContentIsZeroSize() {
        let empty = ContentType.detect(fileName: Array("x".utf8), prefix: [])
        #expect(empty.family == .empty || empty.mimeType == "application/octet-stream" || empty.mimeType == "text/plain")
    }
}
