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
        ("readme.md", "text/markdown", .markdown),
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

    func detect(_ name: String, _ text: String) -> ContentType {
        ContentType.detect(fileName: Array(name.utf8), prefix: Array(text.utf8))
    }

    @Test("weak text magic of another type never overrides a single glob", arguments: [
        ("Foo.java", "class Foo {}\n", "text/x-java"),          // Modelica "class", priority 50
        ("README.md", "function f\n", "text/markdown"),         // MATLAB "function", priority 50
        ("style.css", "/* reset */\n", "text/css"),             // C "/*", priority 30
        ("module.jsm", "\"use strict\";\n", "application/javascript"),  // Perl "use strict", 40
        ("a.ent", "<!-- x -->\n", "application/xml-external-parsed-entity"),  // HTML "<!--", 40
        ("window.gs", "class W : Gtk.Window\n", "text/x-genie"),
        ("notes.txt", "// not C\n", "text/plain"),                // C "//", a sub-class of text/plain
    ])
    func weakMagicLosesToTheName(name: String, text: String, mime: String) {
        let type = detect(name, text)
        #expect(type.mimeType == mime)
        #expect(!type.isUncertain)
    }

    @Test func highPriorityOrMoreSpecificContentOverridesTheName() {
        // EPS magic has priority 90 and image/x-eps is a sub-class of PostScript.
        #expect(detect("figure.ps", "%!PS-Adobe-3.0 EPSF-3.0\n").mimeType == "image/x-eps")
        // PHP magic has priority 80.
        #expect(detect("notes.txt", "<?php echo 1; ?>\n").mimeType == "application/x-php")
        // A non-text sub-class of the name's type: an OpenDocument text named .zip.
        let odf = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 26)
            + Array("mimetypeapplication/vnd.oasis.opendocument.text".utf8)
        #expect(ContentType.detect(fileName: Array("report.zip".utf8), prefix: odf).mimeType
                == "application/vnd.oasis.opendocument.text")
        // Without the higher-priority content, the name stays.
        #expect(detect("figure.ps", "%!PS-Adobe-3.0\n").mimeType == "application/postscript")
    }

    @Test func contentNeverMakesADesktopEntryOfANamedFile() {
        let entry = "[Desktop Entry]\nType=Application\nExec=true\n"
        #expect(detect("notes.txt", entry).mimeType == "text/plain")
        #expect(detect("launcher", entry).mimeType == "text/plain")
        #expect(detect("launcher.desktop", entry).mimeType == "application/x-desktop")
    }

    @Test("empty content is typed by the name alone", arguments: [
        ("x.c", "text/x-csrc"), ("x.el", "text/x-emacs-lisp"), ("core", "application/x-core"),
        ("x.pdf", "application/pdf"), ("nameless", "application/x-zerosize"), ("", "application/x-zerosize"),
    ])
    func emptyContent(name: String, mime: String) {
        let type = ContentType.detect(fileName: Array(name.utf8), prefix: [])
        #expect(type.mimeType == mime)
        #expect(type.family == .empty)
        #expect(type.capabilities.preview == .unsupported(reason: "the file is empty"))
    }

    @Test func emptyDataIsZeroSize() {
        #expect(ContentType.detect(data: []).mimeType == "application/x-zerosize")
    }
}
