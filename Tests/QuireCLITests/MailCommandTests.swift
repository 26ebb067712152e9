import Foundation
import QuireTestSupport
import Testing

/// E-mail messages through the built binary: `info` lists the headers and the attachments with
/// their decoded sizes (human and JSON); the preview is a page of text; the terminal viewer shows
/// the message as text; the message prints on the CUPS test bed; bytes that are no message and
/// a message without headers are one line and exit 65, with nothing written.
@Suite("E-mail through quire")
final class MailCommandTests {
    let directory = TemporaryDirectory("quire-mail")

    @Test func infoListsTheHeadersAndTheAttachments() throws {
        let sizes = try String(contentsOfFile: Samples.path("mail/message.sizes"), encoding: .utf8)
            .split(separator: "\n").reduce(into: [String: Int]()) { sizes, line in
                let fields = line.split(separator: " ")
                sizes[String(fields[0])] = Int(fields[1])
            }
        let human = QuireBinary.run(["info", Samples.path("mail/message.eml")])
        #expect(human.status == 0, "\(human.standardError)")
        #expect(human.standardOutputText.contains("  Subject:      Quarterly report — naïve café figures\n"), "\(human.standardOutputText)")
        #expect(human.standardOutputText.contains("  From:         Ada Lovelace <ada@example.org>\n"))
        #expect(human.standardOutputText.contains("  Attachments:  2\n                report.pdf ("))
        let json = QuireBinary.run(["info", "--json", Samples.path("mail/message.eml")])
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput)) as? [[String: Any]])
        #expect(records.first?["family"] as? String == "mail")
        let mail = try #require(records.first?["mail"] as? [String: Any])
        #expect(mail["to"] as? String == "Charles Babbage <charles@example.org>, Mary Somerville <mary@example.org>")
        #expect(mail["cc"] as? String == "Team <team@example.org>")
        let attachments = try #require(mail["attachments"] as? [[String: Any]])
        #expect(attachments.map { $0["name"] as? String } == ["report.pdf", "notes.txt"])
        #expect(attachments.map { $0["size"] as? Int } == [sizes["report.pdf"], sizes["notes.txt"]],
                "decoded sizes (base64, quoted-printable): \(attachments)")
        #expect(attachments.map { $0["mimeType"] as? String } == ["application/pdf", "text/plain"])
    }

    @Test func thePreviewIsAPageOfTheMessage() throws {
        let out = directory.file("message.png")
        let result = QuireBinary.run(["preview", "--width", "600", Samples.path("mail/message.eml"), "-o", out])
        #expect(result.status == 0, "\(result.standardError)")
        let image = try IsolationRuleTests.decodePNG(out)
        #expect(image.width == 600 && image.height > image.width, "an A4 page: \(image.width)×\(image.height)")
        var dark = 0
        for y in 0..<image.height / 3 {
            for x in 0..<image.width {
                let pixel = image.pixel(x: x, y: y)
                if Int(pixel.red) + Int(pixel.green) + Int(pixel.blue) < 200 { dark += 1 }
            }
        }
        #expect(dark > 500, "the headers and text drawn at the top: \(dark) dark pixels")
    }

    @Test func theTerminalViewerShowsTheMessageAsText() throws {
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("mail/message.eml")],
                                      environment: LookEnvironment.plain(directory))
        let screen = session.wait(for: "the figures are attached.")
        #expect(screen.contains("From: Ada Lovelace <ada@example.org>"), "\(screen)")
        #expect(screen.contains("• report.pdf — "), "the attachment list")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// `o` lists the attachments as an archive's files; Enter opens one as a file of its own.
    @Test func anAttachmentOpensFromTheList() throws {
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("mail/message.eml")],
                                      environment: LookEnvironment.plain(directory))
        _ = session.wait(for: "the figures are attached.")
        session.send("o")
        var screen = session.wait(for: "sorted by name")
        #expect(screen.contains("notes.txt") && screen.contains("report.pdf"), "\(screen)")
        session.send("End")
        session.send("Enter")
        screen = session.wait { $0.contains("file 2 of 2") && $0.contains("page 1 of") }
        #expect(TmuxSession.lastLine(screen).contains("report.pdf"), "the PDF attachment opened: \(TmuxSession.lastLine(screen))")
        session.send("Escape")
        _ = session.wait(for: "sorted by name")
        session.send("Escape")
        _ = session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("sorted by name") }
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func theMessagePrints() throws {
        let bed = try CUPSTestBed(.full)
        let result = QuireBinary.run(["print", "-d", "quire-office", Samples.path("mail/message.eml")], environment: bed.environment())
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(bed.waitForDocument(titled: "message.eml"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 1)
    }

    @Test func bytesThatAreNoMessageAreOneLine() throws {
        for name in ["mail/not-mail.eml"] {
            let out = directory.file("never.png")
            let result = QuireBinary.run(["thumbnail", Samples.path(name), out])
            #expect(result.status == 65 && result.errorLines.count == 1, "\(result.standardError)")
            #expect(result.standardError.contains("not an e-mail message"), "\(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
