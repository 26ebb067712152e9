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

    @Test func archivesCannotBePrintedAndSayWhy() {
        let zip = ContentType(mimeType: "application/zip")
        #expect(zip.family == .other)
        let reason = zip.capabilities.print.reason
        #expect(reason == "this file type cannot be printed (Zip archive)" || reason == "this file type cannot be printed (ZIP archive)")
        #expect(zip.capabilities.preview.reason?.contains("cannot be previewed") == true)
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
        // Office files print as the PDF LibreOffice makes of them, when it is installed.
        let printable = family == .officeDocument && OfficeInstallation.isInstalled
        #expect(type.capabilities.print.isSupported == printable)
    }
}
