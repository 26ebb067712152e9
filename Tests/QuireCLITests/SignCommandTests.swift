import Foundation
import QuireSigning
import QuireTestSupport
import Testing

/// `quire sign` (issue 36): a detached PKCS#7 signature with a certificate from a throw-away NSS
/// database (`certutil`), checked by poppler's `pdfsig` (valid, whole document signed, the
/// signer's name), the original bytes first and unchanged, the visible box where it was asked
/// for in pdftoppm's picture (a page shown upright and one shown turned), signatures already in
/// the file still valid; and bad input refused in one line with nothing written.
@Suite("quire sign")
final class SignCommandTests {
    let directory = TemporaryDirectory("quire-sign")

    func copy(_ sample: String, mode: Int = 0o644) throws -> String {
        let path = directory.file("\(UUID().uuidString)-" + (sample as NSString).lastPathComponent)
        try FileManager.default.copyItem(atPath: Samples.path(sample), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func bytes(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    /// pdfsig's report of each signature: its lines, split at "Signature #".
    func signatures(_ path: String) -> [String] {
        let check = ProcessRunner.run(["/usr/bin/pdfsig", "-nocert", path], timeout: 60)
        return check.standardOutputText.components(separatedBy: "Signature #").dropFirst().map { $0 }
    }

    static func isValid(_ report: String) -> Bool { report.contains("Signature Validation: Signature is Valid.") }

    /// The frame's and the text's blue (0.1 0.2 0.6).
    static func isSignatureBlue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { b > 110 && r < 90 && g < 110 && b > r + 50 }

    @Test func signsInvisiblyAndVisiblyAsAnUpdateOfTheFile() throws {
        let database = try NSSTestDatabase.make(in: directory)
        let source = try copy("document.pdf")
        let original = bytes(source)

        let invisible = directory.file("invisible.pdf")
        let quiet = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "-o", invisible], timeout: 120)
        #expect(quiet.status == 0, "\(quiet.standardError)")
        let signed = bytes(invisible)
        #expect(signed.count > original.count && Array(signed.prefix(original.count)) == original, "the original bytes come first")
        let reports = signatures(invisible)
        #expect(reports.count == 1 && reports.allSatisfy(Self.isValid), "\(reports)")
        #expect(reports.first?.contains("Signer Certificate Common Name: Quire Test") == true)
        #expect(reports.first?.contains("Total document signed") == true)
        #expect(reports.first?.contains("Signature Field Name: Signature1") == true)
        #expect(reports.first?.contains("adbe.pkcs7.detached") == true)
        #expect(bytes(source) == original, "the source is not touched")

        // Shown: a framed box at 300,650 (points from the top left), 200 × 52.
        let visible = directory.file("visible.pdf")
        let shown = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "--at", "300,650",
                                     "--reason", "I agree", "-o", visible], timeout: 120)
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(signatures(visible).count == 1 && signatures(visible).allSatisfy(Self.isValid))
        // pypdf reads the field: a widget on page 1 with its rectangle in PDF space, its value
        // the signature dictionary with the signer's name, the reason and the form's /SigFlags.
        let script = """
            import json, sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            widget = reader.pages[0]['/Annots'][-1].get_object()
            value = widget['/V'].get_object()
            form = reader.trailer['/Root']['/AcroForm']
            print(json.dumps({'type': str(widget['/FT']), 'name': str(widget['/T']), 'rect': [float(v) for v in widget['/Rect']],
                              'signer': str(value['/Name']), 'reason': str(value['/Reason']), 'filter': str(value['/SubFilter']),
                              'flags': int(form['/SigFlags']), 'fields': len(form['/Fields'])}))
            """
        let read = ProcessRunner.run(["/usr/bin/python3", "-c", script, visible], timeout: 60)
        let field = try JSONSerialization.jsonObject(with: Data(read.standardOutput)) as? [String: Any]
        #expect(field?["type"] as? String == "/Sig" && field?["name"] as? String == "Signature1", "\(read.standardOutputText) \(read.standardError)")
        #expect(field?["signer"] as? String == "Quire Test" && field?["reason"] as? String == "I agree" && field?["flags"] as? Int == 3)
        let rect = field?["rect"] as? [Double] ?? []
        // 300,650 from the top left of an 841.89-point-high page: x 300…500, y 139.89…191.89.
        #expect(rect.count == 4 && abs(rect[0] - 300) < 0.01 && abs(rect[2] - 500) < 0.01 && abs(rect[1] - 139.89) < 0.01
                && abs(rect[3] - 191.89) < 0.01, "\(rect)")
        let before = try #require(PDFPageRaster(source, in: directory.path))
        let page = try #require(PDFPageRaster(visible, in: directory.path))
        let inBox = page.count(x: 300, y: 650, width: 200, height: 52, where: Self.isSignatureBlue)
        let wasThere = before.count(x: 300, y: 650, width: 200, height: 52, where: Self.isSignatureBlue)
        let pale = page.count(x: 305, y: 655, width: 190, height: 42) { r, g, b in r > 235 && r < 250 && b == 255 }
        #expect(inBox > 300 && wasThere == 0, "blue in the box: \(inBox), before \(wasThere)")
        #expect(pale > 1000, "the box's pale ground: \(pale)")
        // Nothing drawn elsewhere: the page above the box is as it was.
        let elsewhere = zip(before.pixels, page.pixels).enumerated().filter { index, pair in
            let (x, y) = ((index / 3) % page.width, (index / 3) / page.width)
            return pair.0 != pair.1 && !(299...501).contains(x) || pair.0 != pair.1 && !(649...703).contains(y)
        }.count
        #expect(elsewhere == 0, "\(elsewhere) bytes changed outside the box")
    }

    /// --drawn: the signature drawn with Markup's Sign (kept under $XDG_DATA_HOME) is drawn in
    /// the box in dark ink, above the line that says who signed; without one kept, 66.
    @Test func theDrawnSignatureIsTheBoxsPicture() throws {
        let database = try NSSTestDatabase.make(in: directory)
        let source = try copy("document.pdf")
        let dataHome = directory.file("data-\(UUID().uuidString)")
        let arguments = [source, "--certificate", "quire-test", "--nss-dir", database, "--at", "300,650", "--drawn"]
        let none = QuireBinary.run(["sign"] + arguments + ["-o", directory.file("none.pdf")], timeout: 120,
                                   environment: ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": dataHome]) { $1 })
        #expect(none.status == 66 && none.standardError.contains("no drawn signature is kept"), "\(none.status) \(none.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("none.pdf")))
        // A zigzag 100 × 40 points, kept as Markup's Sign keeps it.
        try FileManager.default.createDirectory(atPath: dataHome + "/quire/signatures", withIntermediateDirectories: true)
        let kept = #"{"version": 1, "signature": {"width": 100, "height": 40, "strokes": [[[0, 20], [25, 0], [50, 40], [75, 0], [100, 20]]]}}"#
        try Data(kept.utf8).write(to: URL(fileURLWithPath: dataHome + "/quire/signatures/signature.json"))
        let output = directory.file("drawn.pdf"), plain = directory.file("plain.pdf")
        let environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": dataHome]) { $1 }
        let result = QuireBinary.run(["sign"] + arguments + ["-o", output], timeout: 120, environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(signatures(output).count == 1 && signatures(output).allSatisfy(Self.isValid))
        let words = QuireBinary.run(["sign"] + arguments.dropLast() + ["-o", plain], timeout: 120, environment: environment)
        #expect(words.status == 0, "\(words.standardError)")
        func ink(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r < 25 && g < 40 && b > 70 && b < 140 }
        let drawnPage = try #require(PDFPageRaster(output, in: directory.path))
        let plainPage = try #require(PDFPageRaster(plain, in: directory.path))
        // The upper 72 % of the 52-point box (650…687): the zigzag in dark ink; in words only, none.
        let drawnInk = drawnPage.count(x: 300, y: 651, width: 200, height: 36, where: ink)
        let plainInk = plainPage.count(x: 300, y: 651, width: 200, height: 36, where: ink)
        #expect(drawnInk > 60 && plainInk < 5, "dark ink in the box: drawn \(drawnInk), words only \(plainInk)")
        // Below it, the line that says who signed, in the frame's blue.
        let line = drawnPage.count(x: 305, y: 688, width: 190, height: 12, where: Self.isSignatureBlue)
        #expect(line > 30, "the words under the drawing: \(line)")
    }

    /// A page shown turned (/Rotate 90, shown 842 × 595): the box goes where it is asked for on
    /// the page as shown.
    @Test func theBoxFollowsThePageAsShown() throws {
        let database = try NSSTestDatabase.make(in: directory)
        let source = try copy("find-rotated.pdf")
        let output = directory.file("rotated.pdf")
        let result = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "--at", "600,500",
                                      "--size", "220,60", "-o", output], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(signatures(output).count == 1 && signatures(output).allSatisfy(Self.isValid))
        let page = try #require(PDFPageRaster(output, in: directory.path))
        #expect(page.width > page.height, "shown landscape: \(page.width) × \(page.height)")
        let inBox = page.count(x: 600, y: 500, width: 220, height: 60, where: Self.isSignatureBlue)
        let outside = page.count(x: 0, y: 0, width: page.width, height: 490, where: Self.isSignatureBlue)
        #expect(inBox > 300 && outside == 0, "blue in the box \(inBox), above it \(outside)")
        // Its left edge is a vertical line of the frame at x = 600: upright, not turned.
        let edge = page.count(x: 599, y: 505, width: 3, height: 50, where: Self.isSignatureBlue)
        #expect(edge >= 40, "the frame's left edge: \(edge)")
    }

    /// A file signed already (by pdfsig) and then by quire sign twice: every signature is valid,
    /// the later ones are named Signature1, Signature2; a form's fields are all still there.
    @Test func signaturesAlreadyThereStayValid() throws {
        let database = try NSSTestDatabase.make(in: directory)
        let signedByPdfsig = try SignedPDF.make(from: Samples.path("forms/form.pdf"), in: directory)
        let path = directory.file("twice.pdf")
        try FileManager.default.copyItem(atPath: signedByPdfsig, toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        for _ in 0..<2 {
            let result = QuireBinary.run(["sign", path, "--certificate", "quire-test", "--nss-dir", database, "--in-place"], timeout: 120)
            #expect(result.status == 0, "\(result.standardError)")
        }
        let reports = signatures(path)
        #expect(reports.count == 3 && reports.allSatisfy(Self.isValid), "\(reports)")
        #expect(reports.contains { $0.contains("Field Name: Signature1") } && reports.contains { $0.contains("Field Name: Signature2") })
        #expect(reports.last?.contains("Total document signed") == true)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the file keeps its mode")
        let fields = QuireBinary.run(["form", path, "--json"], timeout: 60)
        let original = QuireBinary.run(["form", Samples.path("forms/form.pdf"), "--json"], timeout: 60)
        let count = { (text: String) in text.components(separatedBy: "\"name\"").count - 1 }
        #expect(count(fields.standardOutputText) == count(original.standardOutputText) + 3, "\(fields.standardOutputText)")
    }

    /// A cross-reference stream file (qpdf's object streams): the update has a stream section too.
    @Test func aCrossReferenceStreamFileIsSigned() throws {
        let database = try NSSTestDatabase.make(in: directory)
        let source = directory.file("streams.pdf")
        let made = ProcessRunner.run(["/usr/bin/qpdf", "--object-streams=generate", Samples.path("document.pdf"), source], timeout: 60)
        #expect(made.status == 0)
        let output = directory.file("streams-signed.pdf")
        let result = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "--at", "72,72", "-o", output],
                                     timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(signatures(output).count == 1 && signatures(output).allSatisfy(Self.isValid))
        let check = ProcessRunner.run(["/usr/bin/qpdf", "--check", output], timeout: 60)
        #expect(check.status == 0, "\(check.standardOutputText)")
    }

    /// A key database with a password: without --password-file or with a wrong one, 77 and a
    /// line saying so; with the right one, signed.
    @Test func aPasswordProtectedKeyDatabase() throws {
        let database = try NSSTestDatabase.make(in: directory, password: "sesame")
        let source = try copy("document.pdf")
        let wrong = directory.file("wrong-password")
        let right = directory.file("right-password")
        try Data("open up\n".utf8).write(to: URL(fileURLWithPath: wrong))
        try Data("sesame\n".utf8).write(to: URL(fileURLWithPath: right))
        let output = directory.file("out.pdf")
        for (extra, needle) in [([], "protected by a password"), (["--password-file", wrong], "not correct")] {
            let result = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "-o", output] + extra,
                                         timeout: 120)
            let message = result.standardError
            #expect(result.status == 77 && message.contains(needle) && message.split(separator: "\n").count == 1, "\(result.status): \(message)")
            #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
        }
        let result = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "-o", output,
                                      "--password-file", right], timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(signatures(output).count == 1 && signatures(output).allSatisfy(Self.isValid))
    }

    @Test func badInputIsOneLineAndNothingIsWritten() throws {
        let database = try NSSTestDatabase.make(in: directory)
        let source = try copy("document.pdf")
        let output = directory.file("never.pdf")
        let encrypted = directory.file("encrypted.pdf")
        let made = ProcessRunner.run(["/usr/bin/qpdf", "--encrypt", "", "owner", "256", "--", Samples.path("document.pdf"), encrypted], timeout: 60)
        #expect(made.status == 0)
        let cases: [(arguments: [String], status: Int32, needle: String)] = [
            ([source, "--certificate", "nobody", "--nss-dir", database, "-o", output], 78, "quire-test"),
            ([source, "--certificate", "quire-test", "--nss-dir", directory.file("no-such-db"), "-o", output], 78, "no certificate database"),
            ([source, "--certificate", "quire-test", "--nss-dir", database, "--page", "9", "-o", output], 65, "page 9 does not exist"),
            ([encrypted, "--certificate", "quire-test", "--nss-dir", database, "-o", output], 65, "encrypted"),
            ([Samples.path("photo.jpg"), "--certificate", "quire-test", "--nss-dir", database, "-o", output], 65, "not a PDF"),
            ([source, "--certificate", "quire-test", "--nss-dir", database], 64, "-o FILE or --in-place"),
            ([source, "--certificate", "quire-test", "--nss-dir", database, "--size", "100,40", "-o", output], 64, "--size goes with --at"),
            ([source, "--certificate", "quire-test", "--nss-dir", database, "--at", "ten,20", "-o", output], 64, "--at takes X,Y"),
            ([source, "--nss-dir", database, "-o", output], 64, "--certificate"),
        ]
        for (arguments, status, needle) in cases {
            let result = QuireBinary.run(["sign"] + arguments, timeout: 120)
            let message = result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(result.status == status && message.contains(needle), "\(arguments): \(result.status) \(message)")
            if status != 64 { #expect(!message.contains("\n"), "one line: \(message)") }
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments): nothing written")
        }
        // A field name the form has already: signed once under it, then refused.
        let first = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "--field", "Approval",
                                     "--in-place"], timeout: 120)
        #expect(first.status == 0, "\(first.standardError)")
        let before = bytes(source)
        let again = QuireBinary.run(["sign", source, "--certificate", "quire-test", "--nss-dir", database, "--field", "Approval",
                                     "--in-place"], timeout: 120)
        #expect(again.status == 65 && again.standardError.contains("already has a field named Approval"), "\(again.standardError)")
        #expect(bytes(source) == before, "nothing written over the file")
    }

    @Test func listsTheCertificatesThatCanSign() throws {
        let database = try NSSTestDatabase.make(in: directory)
        let result = QuireBinary.run(["sign", "--list-certificates", "--nss-dir", database], timeout: 60)
        #expect(result.status == 0 && result.standardOutputText == "quire-test\n", "\(result.standardOutputText) \(result.standardError)")
    }

    @Test func commonNamesAreReadFromSubjects() {
        #expect(SigningCertificate.commonName(inSubject: "CN=Quire Test,O=Quire") == "Quire Test")
        #expect(SigningCertificate.commonName(inSubject: "E=ada@example.org,CN=\"Lovelace, Ada\",O=Example") == "Lovelace, Ada")
        #expect(SigningCertificate.commonName(inSubject: "O=Example\\, Inc.,cn=Ada") == "Ada")
        #expect(SigningCertificate.commonName(inSubject: "O=Example") == nil)
    }
}
