import QuireTypes
import Testing

@Suite("Capabilities")
struct CapabilitiesTests {
    @Test func pdfPrintsDirectly() {
        let caps = ContentType(mimeType: "application/pdf").capabilities
        #expect(caps.preview == .supported)
        #expect(caps.thumbnail == .supported)
        #expect(caps.print == .direct)
    }

    @Test("text, source code and images print by conversion to PDF",
          arguments: ["text/plain", "text/x-csrc", "text/markdown", "image/png", "image/jpeg", "image/svg+xml"])
    func conversion(mime: String) {
        #expect(ContentType(mimeType: mime).capabilities.print == .byConversion(to: "application/pdf"))
    }

    @Test func archivesAreListedButNotPrintedAndSayWhy() {
        let zip = ContentType(mimeType: "application/zip")
        #expect(zip.family == .archive)
        let reason = zip.capabilities.print.reason
        #expect(reason == "Quire does not print archives (Zip archive); print the files in it"
                || reason == "Quire does not print archives (ZIP archive); print the files in it")
        #expect(zip.capabilities.preview.isSupported && zip.capabilities.thumbnail.isSupported)
        // Zip-based documents keep their own families.
        #expect(ContentType(mimeType: "application/vnd.oasis.opendocument.text").family == .officeDocument)
        #expect(ContentType(mimeType: "application/epub+zip").family == .ebook)
        #expect(ContentType(mimeType: "application/x-compressed-tar").family == .archive)
        // Binary data that is no archive still says it cannot be previewed.
        #expect(ContentType(mimeType: "application/x-executable").capabilities.preview.reason?.contains("cannot be previewed") == true)
    }

    @Test("container families", arguments: [
        ("application/vnd.oasis.opendocument.text", DocumentFamily.officeDocument),
        ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", .officeDocument),
        ("application/epub+zip", .ebook),
        ("application/vnd.comicbook+zip", .comicBook),
    ])
    func containers(mime: String, family: DocumentFamily) {
        let type = ContentType(mimeType: mime)
        #expect(type.family == family)
        // Office files print as the PDF LibreOffice makes of them, when it is installed; a comic
        // book's pages are images, printed as images are; an EPUB only has its cover.
        let printable = family == .comicBook || (family == .officeDocument && OfficeInstallation.isInstalled)
        #expect(type.capabilities.print.isSupported == printable)
    }
}
