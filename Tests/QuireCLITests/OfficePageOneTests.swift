#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireRender
import QuireTestSupport
import QuireThumbnails
import Testing

/// Issue 44: what needs page 1 of an office document gets page 1 without the rest — no export
/// of every page, no page limit on the layout — a file LibreOffice would ask a question about is
/// refused at once instead of waiting for an answer, and Office's encryption is LibreOffice's.
@Suite("Office page 1 alone, questions, encryption", .serialized)
struct OfficePageOneTests {
    static let seconds = OfficeSandboxTests.officeSeconds

    /// The office in the command's own process (no bubblewrap: the export log is written where
    /// the test reads it, not in a sandbox's private /tmp), every whole-document export logged.
    static func environment(_ scratch: TemporaryDirectory) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(
            ["QUIRE_OFFICE_EXPORT_LOG": scratch.file("exports.log"), "XDG_CACHE_HOME": scratch.file("cache"),
             "QUIRE_BWRAP": "/nonexistent/bwrap"]) { $1 }
    }

    static func exports(_ scratch: TemporaryDirectory) -> String {
        (try? String(contentsOfFile: scratch.file("exports.log"), encoding: .utf8)) ?? ""
    }

    /// Share of pixels in rows `rows` (fractions of the height) darker than mid-grey.
    static func ink(_ image: RenderedImage, rows: ClosedRange<Double>) -> Double {
        let first = Int(rows.lowerBound * Double(image.height)), last = min(image.height - 1, Int(rows.upperBound * Double(image.height)))
        var dark = 0, all = 0
        for y in first...last {
            for x in 0..<image.width {
                let at = (y * image.width + x) * 4
                let luma = (Int(image.pixels[at]) + Int(image.pixels[at + 1]) + Int(image.pixels[at + 2])) / 3
                if luma < 128 { dark += 1 }
                all += 1
            }
        }
        return Double(dark) / Double(max(all, 1))
    }

    /// A spreadsheet LibreOffice prints on ~890 pages (over the default --max-pages of 500):
    /// its thumbnail (one file and the batch) and `preview` of page 1 are page 1, and nothing
    /// exports every page; a PDF of it (every page) is exported and refused by the page limit —
    /// the control that the log and the limit work.
    @Test func aLongSpreadsheetsFirstPageWithoutTheRest() throws {
        let scratch = TemporaryDirectory()
        let tree = scratch.file("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("office-long-sheet.xlsx"), toPath: tree + "/ledger.xlsx")
        let environment = Self.environment(scratch)
        let one = QuireBinary.run(["thumbnail", "-s", "256", "--timeout", Self.seconds, tree + "/ledger.xlsx", scratch.file("one.png")],
                                  timeout: 180, environment: environment)
        #expect(one.status == 0, "\(one.standardError)")
        let batch = QuireBinary.run(["thumbnail", "--batch", "--no-sandbox", "--json", "--timeout", Self.seconds, tree],
                                    timeout: 180, environment: environment)
        #expect(batch.status == 0 && batch.standardOutputText.contains("\"generated\":1"), "\(batch.standardOutputText) \(batch.standardError)")
        let preview = QuireBinary.run(["preview", "--timeout", Self.seconds, tree + "/ledger.xlsx", "-o", scratch.file("page.png")],
                                      timeout: 180, environment: environment)
        #expect(preview.status == 0, "\(preview.standardError)")
        #expect(Self.exports(scratch).isEmpty, "exported every page: \(Self.exports(scratch))")
        // Page 1 as it prints: a portrait page, the bold "LEDGER" heading inked at its top, the
        // rest mostly white. Its page count is not known (only page 1 was laid out for print).
        let image = try IsolationRuleTests.decodePNG(scratch.file("one.png"))
        #expect(image.height == 256 && image.width < image.height, "\(image.width)×\(image.height)")
        #expect(Self.ink(image, rows: 0.0...0.12) > 0.002, "no heading at the top of page 1")
        #expect(Self.ink(image, rows: 0.0...1.0) < 0.2, "not a page: \(Self.ink(image, rows: 0.0...1.0))")
        #expect(ThumbnailCache.metadata(at: scratch.file("one.png"))?.pageCount == nil)
        let page = try IsolationRuleTests.decodePNG(scratch.file("page.png"))
        #expect(page.width < page.height && Self.ink(page, rows: 0.0...0.12) > 0.002)
        // Every page: exported, and over the limit.
        let pdf = QuireBinary.run(["preview", "--format", "pdf", "--timeout", Self.seconds, tree + "/ledger.xlsx", "-o", scratch.file("all.pdf")],
                                  timeout: 180, environment: environment)
        #expect(pdf.status != 0 && pdf.standardError.contains("more than the maximum of 500"), "\(pdf.standardError)")
        #expect(Self.exports(scratch).contains("ledger.xlsx"), "the export log recorded nothing")
    }

    /// `preview` of page 1 of the ~440-page document paints it from the layout (no export);
    /// page 2 needs the export (the control).
    @Test func previewOfPageOneIsNotAnExport() throws {
        let scratch = TemporaryDirectory()
        let environment = Self.environment(scratch)
        let first = QuireBinary.run(["preview", "--page", "1", "--width", "300", "--timeout", Self.seconds, Samples.path("office-long.docx"),
                                     "-o", scratch.file("one.png")], timeout: 180, environment: environment)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(Self.exports(scratch).isEmpty, "exported every page: \(Self.exports(scratch))")
        let image = try IsolationRuleTests.decodePNG(scratch.file("one.png"))
        #expect(image.width == 300 && image.height > 300 && Self.ink(image, rows: 0.05...0.5) > 0.01)
        let second = QuireBinary.run(["preview", "--page", "2", "--width", "300", "--timeout", Self.seconds, Samples.path("office-long.docx"),
                                      "-o", scratch.file("two.png")], timeout: 180, environment: environment)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(Self.exports(scratch).contains("office-long.docx"), "page 2 came without the export")
    }

    /// A fuzzed .xls whose bytes LibreOffice takes for plain text: under LibreOfficeKit its Text
    /// Import dialog waited for an answer until the time limit; now the question is cancelled at
    /// once and the file refused in one line. `soffice --convert-to png` converts it (the
    /// control: a file LibreOffice handles in a second or two).
    @Test func aFileLibreOfficeWouldAskAboutIsRefusedAtOnce() throws {
        let scratch = TemporaryDirectory()
        let sample = Samples.path("office-fuzzed.xls")
        let control = ProcessRunner.run(["/usr/bin/soffice", "-env:UserInstallation=file://\(scratch.file("profile"))", "--headless", "--norestore",
                                         "--convert-to", "png", "--outdir", scratch.file("soffice"), sample], timeout: 120)
        #expect(control.status == 0 && FileManager.default.fileExists(atPath: scratch.file("soffice/office-fuzzed.png")), "\(control.standardError)")
        for sandbox in [true, false] {
            var environment = ProcessInfo.processInfo.environment
            if !sandbox { environment["QUIRE_BWRAP"] = "/nonexistent/bwrap" }
            let started = Date()
            let result = QuireBinary.run(["thumbnail", "--timeout", "60", sample, scratch.file("t.png")], timeout: 90, environment: environment)
            let seconds = Date().timeIntervalSince(started)
            #expect(result.status == 65 && result.errorLines.count == 1, "\(result.status) \(result.standardError)")
            #expect(result.standardError.contains("asks how to import it"), "\(result.standardError)")
            #expect(seconds < 45, "took \(seconds) s: waited for the time limit")
        }
        let tree = scratch.file("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sample, toPath: tree + "/fuzzed.xls")
        try FileManager.default.copyItem(atPath: Samples.path("office-report.docx"), toPath: tree + "/report.docx")
        let batch = QuireBinary.run(["thumbnail", "--batch", "--jobs", "1", "--json", "--timeout", "60", tree], timeout: 180,
                                    environment: ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": scratch.file("cache")]) { $1 })
        #expect(batch.standardOutputText.contains("\"generated\":1") && batch.standardOutputText.contains("\"failed\":1"),
                "\(batch.standardOutputText) \(batch.standardError)")
        #expect(!batch.standardOutputText.contains("\"kind\":\"timeout\"") && batch.standardOutputText.contains("asks how to import it"),
                "\(batch.standardOutputText)")
    }

    /// Excel's default password ("VelvetSweatshop", written for a workbook that is only
    /// structure-protected): LibreOffice opens it without asking, and so does Quire — the pages
    /// LibreOffice's own export has. A real password is asked for, never called damage.
    @Test func officeEncryptionAsLibreOfficeHandlesIt() throws {
        let scratch = TemporaryDirectory()
        let velvet = Samples.path("office-velvet.xlsx")
        let control = ProcessRunner.run(["/usr/bin/soffice", "-env:UserInstallation=file://\(scratch.file("profile"))", "--headless", "--norestore",
                                         "--convert-to", "pdf", "--outdir", scratch.file("soffice"), velvet],
                                        environment: ProcessInfo.processInfo.environment.merging(["LC_PAPER": "en_US.UTF-8"]) { $1 }, timeout: 120)
        let expected = CUPSTestBed.pageCount(ofPDF: scratch.file("soffice/office-velvet.pdf"))
        #expect(control.status == 0 && expected != nil, "\(control.standardError)")
        let info = QuireBinary.run(["info", "--timeout", Self.seconds, velvet], timeout: 180)
        #expect(info.status == 0 && info.standardOutputText.contains("Pages:      \(expected ?? -1)\n"), "\(info.standardOutputText) \(info.standardError)")
        let thumbnail = QuireBinary.run(["thumbnail", "--timeout", Self.seconds, velvet, scratch.file("velvet.png")], timeout: 180)
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        if thumbnail.status == 0 {
            let image = try IsolationRuleTests.decodePNG(scratch.file("velvet.png"))
            #expect(Self.ink(image, rows: 0.0...0.15) > 0.002, "no heading on the decrypted page 1")
            // Drawn in the sandboxed worker, page 1 exported alone: the page count is not known.
            #expect(ThumbnailCache.metadata(at: scratch.file("velvet.png"))?.pageCount == nil)
        }
        let encrypted = Samples.path("office-encrypted.xlsx")
        for command in [["preview", encrypted, "-o", scratch.file("a.png")], ["thumbnail", encrypted, scratch.file("b.png")]] {
            let refused = QuireBinary.run(command + ["--timeout", Self.seconds], timeout: 180)
            #expect(refused.status == 65 && refused.errorLines.count == 1, "\(command[0]): \(refused.status) \(refused.standardError)")
            #expect(refused.standardError.contains("password-protected (give the password with --password)"), "\(command[0]): \(refused.standardError)")
            #expect(!refused.standardError.contains("damaged"), "\(refused.standardError)")
        }
        let right = QuireBinary.run(["preview", encrypted, "--password", "secret", "--timeout", Self.seconds, "-o", scratch.file("c.png")], timeout: 180)
        #expect(right.status == 0, "\(right.standardError)")
        let wrong = QuireBinary.run(["preview", encrypted, "--password", "nope", "--timeout", Self.seconds, "-o", scratch.file("d.png")], timeout: 180)
        #expect(wrong.status == 65 && wrong.standardError.contains("not correct"), "\(wrong.standardError)")
    }

    /// A Word 97–2003 document saved with a password (`office-encrypted.doc`: the FIB's
    /// fEncrypted flag and an RC4 encryption header): LibreOffice 7.4 crashes when
    /// LibreOfficeKit reports its password request, which made the worker die ("exited
    /// unexpectedly"). It is now refused before the office, in one line that says why, in the
    /// sandboxed worker, in the command's own process and in the batch; the same document
    /// unencrypted still has its thumbnail.
    @Test func anEncryptedWordDocumentIsPasswordProtectedNotACrash() throws {
        let scratch = TemporaryDirectory()
        let sample = Samples.path("office-encrypted.doc")
        for sandbox in [true, false] {
            var environment = ProcessInfo.processInfo.environment
            if !sandbox { environment["QUIRE_BWRAP"] = "/nonexistent/bwrap" }
            for command in [["thumbnail", sample, scratch.file("a.png")], ["preview", sample, "-o", scratch.file("b.png")]] {
                let refused = QuireBinary.run(command + ["--timeout", Self.seconds], timeout: 180, environment: environment)
                #expect(refused.status == 65 && refused.errorLines.count == 1, "\(command[0]), sandbox \(sandbox): \(refused.status) \(refused.standardError)")
                #expect(refused.standardError.contains("password-protected (an encrypted Word 97–2003 document"), "\(refused.standardError)")
                #expect(!refused.standardError.contains("unexpectedly"), "\(refused.standardError)")
            }
        }
        let tree = scratch.file("tree")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sample, toPath: tree + "/encrypted.doc")
        try FileManager.default.copyItem(atPath: Samples.path("office-report.doc"), toPath: tree + "/report.doc")
        let batch = QuireBinary.run(["thumbnail", "--batch", "--jobs", "1", "--json", "--timeout", Self.seconds, tree], timeout: 180,
                                    environment: ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": scratch.file("cache")]) { $1 })
        #expect(batch.standardOutputText.contains("\"generated\":1") && batch.standardOutputText.contains("\"failed\":1"),
                "\(batch.standardOutputText) \(batch.standardError)")
        #expect(batch.standardOutputText.contains("password-protected") && !batch.standardOutputText.contains("unexpectedly"), "\(batch.standardOutputText)")
    }
}
