import Foundation
import QuireTestSupport
@testable import QuireRender
import QuireTypes
import Testing

/// `quire info` reads a PDF's facts through libpoppler-cpp (``SplashPDFDocument/info(of:)``,
/// which loads without GLib's object system and cairo) and falls back on poppler-glib
/// (``PDFDocument/info``): both must say exactly the same, text encodings and dates included.
@Suite struct PDFInfoBackendsTests {
    /// A one-page PDF with `info` as its Info dictionary (raw bytes: PDFDocEncoding and UTF-16
    /// strings are written as the PDF carries them) and `page` as its page dictionary entries.
    static func pdf(info: [UInt8], page: String = "/MediaBox [0 0 595 842]", version: String = "1.6") -> [UInt8] {
        let objects: [[UInt8]] = [
            Array("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Array("<< /Type /Page /Parent 2 0 R \(page) >>".utf8),
            info,
        ]
        var out = Array("%PDF-\(version)\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += Array("\(index + 1) 0 obj\n".utf8) + object + Array("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Array((String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n").utf8) }
        out += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R /Info 4 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    static func utf16Hex(_ text: String) -> String {
        "<FEFF" + text.utf16.map { String(format: "%04X", $0) }.joined() + ">"
    }

    static func bothBackends(_ path: String) throws -> (splash: PDFInfo?, glib: PDFInfo) {
        let file = try InputFile(path: DocumentPath(path))
        let glib = try PDFDocument(file: file).info
        return (SplashPDFDocument.info(of: try InputFile(path: DocumentPath(path))), glib)
    }

    @Test func theShimIsThere() {
        #expect(SplashPDFDocument.isAvailable, "\(SplashPDFDocument.unavailableReason ?? "")")
    }

    @Test func metadataEncodingsDatesVersionAndRotationAgree() throws {
        let scratch = TemporaryDirectory()
        // PDFDocEncoding bytes that differ from Latin-1: 0x93 "fi", 0x8D/0x8E curly quotes, 0x84 em
        // dash, 0x18 breve, 0xA0 euro; and plain Latin-1 0xE9.
        let docEncoded: [UInt8] = Array("(".utf8) + [0x8D, 0x93, 0x6C, 0x65, 0x8E, 0x20, 0x84, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x20, 0xA0, 0x18]
            + Array(")".utf8)
        let variants: [(String, [UInt8], String)] = [
            ("plain", Array("<< /Title (Quarterly report) /Author (Ann Example) /Subject (Numbers) /Keywords (q3, sales) /Creator (Writer) /Producer (Quire tests) /CreationDate (D:20240102030405+01'30') /ModDate (D:20231231235959Z) >>".utf8),
             "/MediaBox [0 0 612 792]"),
            ("docencoding", Array("<< /Title ".utf8) + docEncoded + Array(" /Author (  padded  ) /CreationDate (D:19991231) >>".utf8),
             "/MediaBox [0 0 595 842] /Rotate 90"),
            ("utf16", Array("<< /Title \(Self.utf16Hex("Résumé — 履歴書 𝄞")) /Author \(Self.utf16Hex("Zoë")) /Keywords () /ModDate (D:2024) >>".utf8),
             "/MediaBox [0 0 420 595] /CropBox [10 10 400 500] /Rotate 270"),
            ("none", Array("<< >>".utf8), "/MediaBox [0 0 100 200]"),
        ]
        for (name, info, page) in variants {
            let path = scratch.file("\(name).pdf")
            try Data(Self.pdf(info: info, page: page)).write(to: URL(fileURLWithPath: path))
            let (splash, glib) = try Self.bothBackends(path)
            #expect(splash != nil, "\(name)")
            #expect(splash == glib, "\(name): splash \(String(describing: splash)) glib \(glib)")
        }
        // The checks read real values (not two nils compared).
        let plain = try Self.bothBackends(scratch.file("plain.pdf")).glib
        #expect(plain.title == "Quarterly report" && plain.version == "PDF-1.6" && plain.creationDate != nil)
        let encoded = try Self.bothBackends(scratch.file("docencoding.pdf")).splash
        #expect(encoded?.title?.hasPrefix("\u{201C}\u{FB01}le\u{201D} \u{2014} caf\u{E9}") == true, "\(String(describing: encoded?.title))")
    }

    @Test func samplesAndRestrictedPermissionsAgree() throws {
        let scratch = TemporaryDirectory()
        let restricted = scratch.file("restricted.pdf")
        let qpdf = ProcessRunner.run(["/usr/bin/qpdf", "--encrypt", "", "owner-secret", "256", "--print=none", "--modify=none", "--",
                                      Samples.path("document.pdf"), restricted], timeout: 60)
        #expect(qpdf.status == 0, "\(qpdf.standardError)")
        for path in [Samples.path("document.pdf"), Samples.path("thousand-pages.pdf"), restricted] {
            let (splash, glib) = try Self.bothBackends(path)
            #expect(splash != nil && splash == glib, "\(path): splash \(String(describing: splash)) glib \(glib)")
        }
        #expect(try Self.bothBackends(restricted).glib.permissionsRestricted)
    }

    /// What poppler-glib reports as locked or damaged is left to it (nil here), so the errors and
    /// their messages stay the ones Quire has always given.
    @Test func lockedAndDamagedAreLeftToPopplerGlib() throws {
        for name in ["encrypted.pdf", "truncated.pdf", "garbage.pdf"] {
            #expect(SplashPDFDocument.info(of: try InputFile(path: DocumentPath(Samples.path(name)))) == nil, "\(name)")
        }
        // A page tree that yields no page: refused once, not freed twice (this crashed).
        let scratch = TemporaryDirectory()
        let noPages = scratch.file("no-pages.pdf")
        var bytes = Self.pdf(info: Array("<< >>".utf8))
        let count = Array("/Count 1 ".utf8), huge = Array("/Count 2147483647 ".utf8)
        if let at = bytes.firstRange(of: count) { bytes.replaceSubrange(at, with: huge) }
        try Data(bytes).write(to: URL(fileURLWithPath: noPages))
        #expect(throws: DocumentError.self) { try SplashPDFDocument(file: try InputFile(path: DocumentPath(noPages))) }
        #expect(SplashPDFDocument.info(of: try InputFile(path: DocumentPath(noPages))) == nil)
    }
}
