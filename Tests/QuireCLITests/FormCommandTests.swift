import Foundation
import QuireTestSupport
import Testing

/// `quire form` (issue 36): fields listed as pdftk lists them, values filled through the render
/// worker and read back by independent readers (pypdf, pdftk) and seen in poppler's rendering,
/// the original bytes kept first (an incremental update), a digital signature still valid after
/// filling, and refusals that write nothing.
@Suite("quire form")
final class FormCommandTests {
    let directory = TemporaryDirectory("quire-form")
    static let form = "forms/form.pdf"

    func copy(_ sample: String, to name: String, mode: Int = 0o644) throws -> String {
        let path = directory.file(name)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: Samples.path(sample), toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Field values as pypdf reads them (its /V, as text).
    func pypdfValues(_ path: String) -> [String: String] {
        let script = """
            import json, sys, pypdf
            fields = pypdf.PdfReader(sys.argv[1]).get_fields() or {}
            print(json.dumps({name: (None if f.get('/V') is None else str(f.get('/V'))) for name, f in fields.items()}))
            """
        let result = ProcessRunner.run(["/usr/bin/python3", "-c", script, path], timeout: 60)
        let object = try? JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [String: Any]
        return (object ?? [:]).compactMapValues { $0 as? String }
    }

    /// `pdftk dump_data_fields`: each field's name and value.
    func pdftkValues(_ path: String) -> [String: String] {
        let result = ProcessRunner.run(["/usr/bin/pdftk", path, "dump_data_fields_utf8"], timeout: 120)
        var values: [String: String] = [:]
        var name: String?
        for line in result.standardOutputText.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("FieldName: ") { name = String(line.dropFirst(11)) }
            if line.hasPrefix("FieldValue: "), let name { values[name] = String(line.dropFirst(12)) }
            if line == "---" { name = nil }
        }
        return values
    }

    /// Dark pixels (grey < 96) inside a rectangle given in PDF points from the page's top left,
    /// in pdftoppm's 72 dpi rendering of page 1.
    func darkPixels(_ path: String, x: Int, y: Int, width: Int, height: Int) throws -> Int {
        let page = try #require(PDFPageRaster(path, in: directory.path), "pdftoppm drew \(path)")
        return page.count(x: x, y: y, width: width, height: height) { r, g, b in (Int(r) + Int(g) + Int(b)) / 3 < 96 }
    }

    /// A form made with LibreOffice Writer's form controls and exported by its PDF export
    /// (Samples/office.py: FullName, Subscribe, Colour at 113 pt from the left, 8.5 pt down, 170 ×
    /// 22.7 pt each, 28 pt apart): listed, filled in place, read back by pypdf and drawn.
    @Test func aFormMadeByLibreOfficeWritersPDFExportIsListedAndFilled() throws {
        let sample = "forms/writer-form.pdf"
        try #require(FileManager.default.fileExists(atPath: Samples.path(sample)), "made by Samples/office.py with LibreOffice (make deps installs it)")
        let listed = QuireBinary.run(["form", Samples.path(sample), "--json"], timeout: 60)
        #expect(listed.status == 0, "\(listed.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput)) as? [String: Any])
        let fields = try #require(object["fields"] as? [[String: Any]])
        #expect(fields.map { "\($0["name"] ?? "") \($0["type"] ?? "")" } == ["FullName text", "Subscribe checkbox", "Colour combo"], "\(fields)")
        #expect(fields.last?["choices"] as? [String] == ["Red", "Green", "Blue"])
        let path = try copy(sample, to: "writer.pdf")
        let original = try bytes(path)
        let blank = try darkPixels(path, x: 116, y: 11, width: 165, height: 18)
        let filled = QuireBinary.run(["form", path, "--set", "FullName=Ada Lovelace", "--set", "Subscribe=on", "--set", "Colour=Green", "--in-place"],
                                     timeout: 60)
        #expect(filled.status == 0, "\(filled.standardError)")
        let saved = try bytes(path)
        #expect(saved.count > original.count && Array(saved.prefix(original.count)) == original, "an incremental update")
        let values = pypdfValues(path)
        #expect(values["FullName"] == "Ada Lovelace" && values["Subscribe"] == "/Yes" && values["Colour"] == "Green", "\(values)")
        #expect(try darkPixels(path, x: 116, y: 11, width: 165, height: 18) > blank + 30, "the name is drawn in its field")
    }

    @Test func listsEveryKindOfFieldWithTheValuesPdftkReads() throws {
        let result = QuireBinary.run(["form", Samples.path(Self.form), "--json"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [String: Any])
        #expect(object["fillable"] as? Bool == true && object["xfaOnly"] as? Bool == false)
        let fields = try #require(object["fields"] as? [[String: Any]])
        #expect(fields.map { $0["name"] as? String } == ["name", "email", "reference", "agree", "size", "colour", "fruit"])
        #expect(fields.map { $0["type"] as? String } == ["text", "text", "text", "checkbox", "radio", "combo", "list"])
        let byName = Dictionary(uniqueKeysWithValues: fields.map { ($0["name"] as! String, $0) })
        #expect(byName["reference"]?["readOnly"] as? Bool == true && byName["name"]?["readOnly"] as? Bool == false)
        #expect(byName["colour"]?["choices"] as? [String] == ["Red", "Green", "Blue"])
        #expect(byName["name"]?["value"] is NSNull, "an empty text field's value is null")
        // The same values pdftk reads (its check box says Off/Yes, its radio group the export name).
        let pdftk = pdftkValues(Samples.path(Self.form))
        #expect(Set(pdftk.keys) == Set(byName.keys), "\(pdftk)")
        for name in ["reference", "colour", "fruit"] {
            #expect(byName[name]?["value"] as? String == pdftk[name], "\(name): \(pdftk)")
        }
        #expect(pdftk["agree"] == "Off" && byName["agree"]?["value"] as? String == "off")
        #expect(pdftk["size"] == "medium" && byName["size"]?["value"] as? String == "medium", "radio buttons by export name")
        #expect(byName["size"]?["choices"] as? [String] == ["small", "medium", "large"])

        let table = QuireBinary.run(["form", Samples.path(Self.form)], timeout: 60)
        #expect(table.status == 0)
        let lines = table.standardOutputText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NAME") == true && lines.count == 8, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("reference") && $0.contains("Q-17") && $0.hasSuffix("read-only") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("colour") && $0.contains("Red, Green, Blue") }, "\(lines)")
    }

    @Test func fillsInPlaceAsAnIncrementalUpdateThatOtherReadersAndPixelsShow() throws {
        let path = try copy(Self.form, to: "form.pdf", mode: 0o640)
        let original = try bytes(path)
        // The name field's inside (x 160…460, y 755…779 in PDF space: 63…87 from the top).
        let before = try darkPixels(path, x: 166, y: 67, width: 280, height: 16)
        let result = QuireBinary.run(["form", path, "--set", "name=Ada Lovelace", "--set", "agree=on", "--set", "size=large",
                                      "--set", "colour=Blue", "--set", "fruit=Pear", "--in-place"], timeout: 60)
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        let filled = try bytes(path)
        #expect(filled.count > original.count && Array(filled.prefix(original.count)) == original,
                "the original bytes stay first and unchanged")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the file keeps its mode")
        let pypdf = pypdfValues(path)
        #expect(pypdf["name"] == "Ada Lovelace" && pypdf["colour"] == "Blue" && pypdf["fruit"] == "Pear", "\(pypdf)")
        #expect(pypdf["agree"] == "/Yes" && pypdf["size"] == "/large", "\(pypdf)")
        let pdftk = pdftkValues(path)
        #expect(pdftk["name"] == "Ada Lovelace" && pdftk["agree"] == "Yes" && pdftk["size"] == "large", "\(pdftk)")
        let after = try darkPixels(path, x: 166, y: 67, width: 280, height: 16)
        #expect(before == 0 && after > 40, "the typed name is drawn (appearance stream): \(before) → \(after) dark pixels")
        // And quire reads its own result back.
        let listed = QuireBinary.run(["form", path, "--json"], timeout: 60)
        #expect(listed.standardOutputText.contains("\"Ada Lovelace\""))
    }

    @Test func valuesFromAJSONFileGoToACopy() throws {
        let values = directory.file("values.json")
        try Data(#"{"email": "ada@example.org", "agree": true, "size": "small"}"#.utf8).write(to: URL(fileURLWithPath: values))
        let output = directory.file("copy.pdf")
        let result = QuireBinary.run(["form", Samples.path(Self.form), "--set-from", values, "-o", output], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let pypdf = pypdfValues(output)
        #expect(pypdf["email"] == "ada@example.org" && pypdf["agree"] == "/Yes" && pypdf["size"] == "/small", "\(pypdf)")
        #expect(try bytes(Samples.path(Self.form)) == Array(try bytes(output).prefix(try bytes(Samples.path(Self.form)).count)))
    }

    @Test func anUnknownFieldOrAValueNotOfferedIsOneLineAndWritesNothing() throws {
        let path = try copy(Self.form, to: "refuse.pdf")
        let original = try bytes(path)
        let output = directory.file("never.pdf")
        for (arguments, word) in [(["--set", "name=Ada", "--set", "nickname=Ada"], "nickname"),
                                  (["--set", "colour=Purple"], "Purple"),
                                  (["--set", "agree=maybe"], "maybe"),
                                  (["--set", "size=huge"], "huge"),
                                  (["--set", "reference=Q-18"], "read-only")] {
            for target in [["-o", output], ["--in-place"]] {
                let result = QuireBinary.run(["form", path] + arguments + target, timeout: 60)
                #expect(result.status == 65, "\(arguments): \(result.status) \(result.standardError)")
                #expect(result.errorLines.count == 1 && result.standardError.contains(word), "\(result.standardError)")
                #expect(!FileManager.default.fileExists(atPath: output), "nothing written for \(arguments)")
                #expect(try bytes(path) == original, "the form is unchanged after \(arguments)")
            }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".quire-tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func xfaOnlyAndLockedFormsSaySo() throws {
        let xfa = QuireBinary.run(["form", Samples.path("forms/xfa-only.pdf")], timeout: 60)
        #expect(xfa.status == 65 && xfa.standardError.contains("XFA forms are not supported"), "\(xfa.standardError)")
        let locked = try copy("forms/form-locked.pdf", to: "locked.pdf")
        let original = try bytes(locked)
        let listed = QuireBinary.run(["form", locked], timeout: 60)
        #expect(listed.status == 0 && listed.standardOutputText.contains("Cannot be filled: the PDF's permissions do not allow filling in"),
                "\(listed.standardOutputText)")
        let json = QuireBinary.run(["form", locked, "--json"], timeout: 60)
        #expect(json.standardOutputText.contains("\"fillable\" : false"), "\(json.standardOutputText)")
        let fill = QuireBinary.run(["form", locked, "--set", "name=Ada", "--in-place"], timeout: 60)
        #expect(fill.status == 65 && fill.errorLines.count == 1 && fill.standardError.contains("permissions"), "\(fill.standardError)")
        #expect(try bytes(locked) == original)
        let notPDF = QuireBinary.run(["form", Samples.path("long.txt"), "--set", "a=b", "-o", directory.file("x.pdf")], timeout: 60)
        #expect(notPDF.status == 65 && notPDF.standardError.contains("not a PDF"), "\(notPDF.standardError)")
    }

    @Test func aSignedPDFStillValidatesAfterItsFormIsFilled() throws {
        let signed = try SignedPDF.make(from: Samples.path(Self.form), in: directory)
        let original = try bytes(signed)
        let result = QuireBinary.run(["form", signed, "--set", "name=Ada", "--set", "agree=on", "--in-place"], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Array(try bytes(signed).prefix(original.count)) == original)
        let check = ProcessRunner.run(["/usr/bin/pdfsig", signed], timeout: 60)
        #expect(check.standardOutputText.contains("Signature Validation: Signature is Valid."), "\(check.standardOutputText)")
        #expect(pypdfValues(signed)["name"] == "Ada")
        let listed = QuireBinary.run(["form", signed, "--json"], timeout: 60)
        #expect(listed.standardOutputText.contains("\"type\" : \"signature\""), "the signature is listed as a field")
        let sign = QuireBinary.run(["form", signed, "--set", "\(SignedPDF.fieldName(signed))=x", "-o", directory.file("s.pdf")], timeout: 60)
        #expect(sign.status == 65 && sign.standardError.contains("signature field"), "\(sign.standardError)")
    }

    /// --flatten: the values drawn into the page, the form gone — pypdf finds no /AcroForm, no
    /// fields and no widget left; pypdf reads the typed name in the page's text now; the
    /// page looks as the filled form looked (poppler's rendering of both, pixel for pixel
    /// within anti-aliasing); the original bytes stay first; qpdf --check passes.
    @Test func flattenDrawsTheValuesIntoThePageAndLeavesNoForm() throws {
        let source = Samples.path(Self.form)
        let original = try bytes(source)
        let filled = directory.file("filled.pdf"), flat = directory.file("flat.pdf")
        let values = ["--set", "name=Ada Lovelace", "--set", "agree=on", "--set", "size=large", "--set", "fruit=Pear"]
        #expect(QuireBinary.run(["form", source] + values + ["-o", filled], timeout: 60).status == 0)
        let result = QuireBinary.run(["form", source] + values + ["--flatten", "-o", flat], timeout: 60)
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
        #expect(Array(try bytes(flat).prefix(original.count)) == original, "the original bytes stay first and unchanged")
        let script = """
            import json, sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            annots = reader.pages[0].get('/Annots')
            widgets = [a for a in (annots.get_object() if annots is not None else []) if a.get_object().get('/Subtype') == '/Widget']
            print(json.dumps({'acroform': '/AcroForm' in reader.trailer['/Root'], 'fields': len(reader.get_fields() or {}),
                              'widgets': len(widgets)}))
            """
        let read = ProcessRunner.run(["/usr/bin/python3", "-c", script, flat], timeout: 60)
        let facts = (try? JSONSerialization.jsonObject(with: Data(read.standardOutput)) as? [String: Any]) ?? [:]
        #expect(facts["acroform"] as? Bool == false && facts["fields"] as? Int == 0 && facts["widgets"] as? Int == 0,
                "pypdf: \(read.standardError) \(facts)")
        // pypdf's text of the page (its content, not its fields'): the value is in it now.
        func pageText(_ path: String) -> String {
            let script = "import sys, pypdf; print(pypdf.PdfReader(sys.argv[1]).pages[0].extract_text())"
            return ProcessRunner.run(["/usr/bin/python3", "-c", script, path], timeout: 60).standardOutputText
        }
        #expect(pageText(flat).contains("Ada Lovelace") && !pageText(filled).contains("Ada Lovelace"),
                "the name is part of the page: \(pageText(flat))")
        let asFilled = try #require(PDFPageRaster(filled, in: directory.path))
        let asFlat = try #require(PDFPageRaster(flat, in: directory.path))
        #expect(asFilled.width == asFlat.width && asFilled.height == asFlat.height)
        let differing = stride(from: 0, to: min(asFilled.pixels.count, asFlat.pixels.count), by: 3).filter { index in
            (0..<3).contains { abs(Int(asFilled.pixels[index + $0]) - Int(asFlat.pixels[index + $0])) > 48 }
        }.count
        let darkFlat = try darkPixels(flat, x: 166, y: 67, width: 280, height: 16)
        #expect(darkFlat > 40 && differing < asFlat.width * asFlat.height / 500,
                "the flattened page looks as the filled form did: \(differing) pixels differ, \(darkFlat) dark in the name")
        #expect(ProcessRunner.run(["/usr/bin/qpdf", "--check", flat], timeout: 60).status == 0)
        let listed = QuireBinary.run(["form", flat], timeout: 60)
        #expect(listed.standardOutputText.contains("no form fields"), "\(listed.standardOutputText)")
    }

    /// What cannot be flattened says why in one line and writes nothing: a signed PDF (its
    /// signature would break), a PDF without a form, a form whose permissions forbid filling.
    @Test func flatteningASignedPDFOrOneWithoutAFormIsRefused() throws {
        let signed = try SignedPDF.make(from: Samples.path(Self.form), in: directory)
        let output = directory.file("never.pdf")
        // Encrypted with an owner password only: it opens and may be filled, but the new
        // content streams would have to be encrypted.
        let ownerOnly = directory.file("owner-only.pdf")
        let made = ProcessRunner.run(["/usr/bin/qpdf", "--encrypt", "", "owner", "256", "--", Samples.path(Self.form), ownerOnly], timeout: 60)
        try #require(made.status == 0, "\(made.standardError)")
        for (path, reason) in [(signed, "would break the signature"), (Samples.path("document.pdf"), "no form fields to flatten"),
                               (Samples.path("forms/form-locked.pdf"), "permissions"), (ownerOnly, "encrypted PDF's form is not supported")] {
            let original = try bytes(path)
            let result = QuireBinary.run(["form", path, "--flatten", "-o", output], timeout: 60)
            #expect(result.status == 65 && result.errorLines.count == 1 && result.standardError.contains(reason), "\(path): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: output))
            #expect(try bytes(path) == original)
        }
    }

    @Test func anEncryptedFormIsFilledWithItsPassword() throws {
        let encrypted = directory.file("encrypted-form.pdf")
        let made = ProcessRunner.run(["/usr/bin/qpdf", "--encrypt", "secret", "owner", "256", "--", Samples.path(Self.form), encrypted],
                                     timeout: 60)
        #expect(made.status == 0, "\(made.standardError)")
        let output = directory.file("encrypted-filled.pdf")
        let without = QuireBinary.run(["form", encrypted, "--set", "name=Ada", "-o", output], timeout: 60)
        #expect(without.status == 65 && without.standardError.contains("--password"), "\(without.standardError)")
        let wrong = QuireBinary.run(["form", encrypted, "--password", "nope", "--set", "name=Ada", "-o", output], timeout: 60)
        #expect(wrong.status == 65 && wrong.standardError.contains("not correct"), "\(wrong.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let result = QuireBinary.run(["form", encrypted, "--password", "secret", "--set", "name=Ada", "--set", "size=small", "-o", output],
                                     timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let original = try bytes(encrypted)
        #expect(Array(try bytes(output).prefix(original.count)) == original)
        let script = "import sys, pypdf; r = pypdf.PdfReader(sys.argv[1]); r.decrypt('secret'); f = r.get_fields(); print(f['name'].get('/V'), f['size'].get('/V'))"
        let read = ProcessRunner.run(["/usr/bin/python3", "-c", script, output], timeout: 60)
        #expect(read.standardOutputText == "Ada /small\n", "\(read.standardOutputText) \(read.standardError)")
    }

    @Test func argumentsThatCannotWorkAreUsageErrors() {
        for arguments in [["--set", "a=b"], ["--set", "a=b", "-o", "x.pdf", "--in-place"], ["-o", "x.pdf"], ["--set", "novalue", "--in-place"],
                          ["--flatten"], ["--flatten", "--json", "-o", "x.pdf"]] {
            let result = QuireBinary.run(["form", Samples.path(Self.form)] + arguments, timeout: 60)
            #expect(result.status == 64, "\(arguments): \(result.status)")
        }
    }
}

/// A PDF signed by `pdfsig -add-signature` with a self-signed certificate in a throw-away NSS
/// database (``NSSTestDatabase``).
enum SignedPDF {
    static func make(from source: String, in directory: TemporaryDirectory) throws -> String {
        let database = try NSSTestDatabase.make(in: directory)
        let signed = directory.file("signed-\(UUID().uuidString).pdf")
        let sign = ProcessRunner.run(["/usr/bin/pdfsig", "-add-signature", "-nssdir", "sql:" + database, "-nick", "quire-test", source, signed],
                                     timeout: 120)
        #expect(sign.status == 0, "\(sign.standardError)")
        let check = ProcessRunner.run(["/usr/bin/pdfsig", signed], timeout: 60)
        #expect(check.standardOutputText.contains("Signature Validation: Signature is Valid."), "signed: \(check.standardOutputText)")
        return signed
    }

    /// The signature field's name (pdfsig names it with a random id).
    static func fieldName(_ path: String) -> String {
        let check = ProcessRunner.run(["/usr/bin/pdfsig", path], timeout: 60)
        let line = check.standardOutputText.split(separator: "\n").first { $0.contains("Signature Field Name: ") } ?? ""
        return String(line.split(separator: ": ").last ?? "")
    }
}
