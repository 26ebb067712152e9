import Foundation
import Testing
@testable import QuireRender
import QuireTypes

/// E-mail messages read by GMime as a mail reader shows them: the headers, the plain part of an
/// alternative, HTML made into lines with nothing fetched or run, the attachments with their
/// decoded sizes (streamed, not decoded into memory), an mbox's message, and bounded walks over
/// hostile nesting.
@Suite struct MailTests {
    static func expectedSizes() throws -> [String: Int64] {
        let text = try String(contentsOfFile: SampleFiles.path("mail/message.sizes"), encoding: .utf8)
        var sizes: [String: Int64] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let size = Int64(fields[1]) { sizes[String(fields[0])] = size }
        }
        return sizes
    }

    @Test func aMessageIsItsHeadersItsPlainTextAndItsAttachments() throws {
        let renderer = try SampleFiles.renderer("mail/message.eml")
        #expect(renderer.title == "Quarterly report — naïve café figures", "the encoded-word subject decoded")
        #expect(renderer.author == "Ada Lovelace <ada@example.org>")
        let details = renderer.details.map { "\($0.label): \($0.value)" }
        #expect(details.contains("To: Charles Babbage <charles@example.org>, Mary Somerville <mary@example.org>"), "\(details)")
        #expect(details.contains("Cc: Team <team@example.org>"))
        #expect(details.contains("Date: Tue, 3 Mar 2026 14:05 +0100"), "\(details)")
        let sizes = try Self.expectedSizes()
        let pdf = try #require(sizes["report.pdf"]), notes = try #require(sizes["notes.txt"])
        #expect(details.contains("Attachment: report.pdf (\(ArchiveListingText.bytes(pdf)))"), "\(details)")
        #expect(details.contains("Attachment: notes.txt (\(ArchiveListingText.bytes(notes)))"), "\(details)")

        let markdown = try #require(renderer.markdown)
        let texts = markdown.lines.map(\.text)
        #expect(markdown.lines.first?.kind == .heading && texts.first == "Quarterly report — naïve café figures")
        #expect(texts.contains("From: Ada Lovelace <ada@example.org>"))
        #expect(texts.contains("Hello Charles,") && texts.contains("the figures are attached."), "\(texts)")
        #expect(!texts.contains { $0.contains("HTML version") }, "the plain alternative, not both")
        let quoted = try #require(markdown.lines.first { $0.text == "> Did it finish?" })
        #expect(quoted.runs.contains { $0.style.contains(.dim) })
        #expect(texts.contains("2 attachments"))
        #expect(texts.contains("• report.pdf — \(ArchiveListingText.bytes(pdf)), application/pdf"), "\(texts)")
        #expect(texts.contains("• notes.txt — \(ArchiveListingText.bytes(notes)), text/plain"), "the attachment is not shown as the body")
        // The page is drawn: dark text on white.
        #expect(renderer.pageCount == 1)
        let page = try renderer.render(page: 0, size: .longestSide(400))
        var dark = 0
        for y in 0..<page.height { for x in 0..<page.width where page.pixel(x: x, y: y).isClose(to: 0, 0, 0, tolerance: 90) { dark += 1 } }
        #expect(dark > 200, "text drawn: \(dark) dark pixels")
    }

    @Test func anHTMLMessageIsTextWithNothingFetchedOrRun() throws {
        let renderer = try SampleFiles.renderer("mail/html-only.eml")
        let markdown = try #require(renderer.markdown)
        let texts = markdown.lines.map(\.text)
        #expect(markdown.lines.contains { $0.kind == .heading && $0.text == "News of the week" }, "\(texts)")
        #expect(texts.contains("First item.") && texts.contains("Second item."))
        #expect(!texts.contains { $0.contains("document.title") || $0.contains("style.css") }, "no script or style")
        let picture = try #require(markdown.lines.first { $0.kind == .image })
        #expect(picture.image == nil, "the remote picture is never fetched")
    }

    @Test func anMboxShowsItsMessage() throws {
        let renderer = try SampleFiles.renderer("mail/mailbox.mbox")
        #expect(renderer.title == "From a mailbox")
        #expect(renderer.markdown?.lines.contains { $0.text == "The only message of this mailbox." } == true)
    }

    @Test func hostileMessagesAreBounded() throws {
        let nested = try SampleFiles.renderer("mail/nested.eml")
        let texts = try #require(nested.markdown).lines.map(\.text)
        #expect(texts.contains("Not shown: parts nested deeper than \(MailMessage.maximumDepth) levels"), "\(texts)")
        // A 20 MiB attachment is measured by streaming it.
        let big = try SampleFiles.renderer("mail/big-attachment.eml")
        #expect(big.details.contains { $0.label == "Attachment" && $0.value == "blob.bin (\(ArchiveListingText.bytes(20 << 20)))" },
                "\(big.details)")
        #expect(big.markdown?.lines.contains { $0.text == "See the attachment." } == true)
        // With few parts allowed, the rest is named, not walked.
        var limits = RenderLimits.standard
        limits.maximumArchiveEntries = 3
        let few = try SampleFiles.renderer("mail/message.eml", limits: limits)
        #expect(few.markdown?.lines.contains { $0.text == "Not shown: parts past the first 3" } == true)
    }

    @Test func theFamilyAndItsCapabilities() throws {
        let file = try SampleFiles.open("mail/message.eml")
        let type = try ContentType.detect(file)
        #expect(type.family == .mail)
        #expect(type.capabilities.print.isSupported)
        #expect(EngineAvailability.missingLibrary(for: type) == nil, "GMime is installed on the test machine")
    }
}

/// Attachments opened as an archive's files are: decoded bytes by the listed name, names made
/// unique, the inflated-size limit checked before decoding.
@Suite struct MailAttachmentTests {
    @Test func anAttachmentIsItsDecodedBytes() throws {
        let file = try SampleFiles.open("mail/message.eml")
        let pdf = try MailAttachment.contents(of: "report.pdf", in: file, mimeType: "message/rfc822", limits: .standard)
        #expect(pdf == Array(try Data(contentsOf: URL(fileURLWithPath: SampleFiles.path("document.pdf")))), "base64 decoded byte for byte")
        let notes = try MailAttachment.contents(of: "notes.txt", in: file, mimeType: "message/rfc822", limits: .standard)
        let text = String(decoding: notes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        #expect(text.hasPrefix("Café = 3.50 €\nCafé = 3.50 €\n"), "quoted-printable decoded: \(text.prefix(40))")
        #expect {
            _ = try MailAttachment.contents(of: "missing.pdf", in: file, mimeType: "message/rfc822", limits: .standard)
        } throws: { ($0 as? DocumentError)?.reason == "the message has no attachment missing.pdf" }
        var small = RenderLimits.standard
        small.maximumInflatedBytes = 1000
        #expect {
            _ = try MailAttachment.contents(of: "report.pdf", in: file, mimeType: "message/rfc822", limits: small)
        } throws: { ($0 as? DocumentError)?.kind == .limitExceeded }
    }

    @Test func namesAreMadeUnique() throws {
        let renderer = try SampleFiles.renderer("mail/same-names.eml")
        #expect(renderer.entries.map(\.path) == ["a_b.txt", "a_b (2).txt", "README", "README (2)"], "\(renderer.entries.map(\.path))")
        let file = try SampleFiles.open("mail/same-names.eml")
        let second = try MailAttachment.contents(of: "a_b (2).txt", in: file, mimeType: "message/rfc822", limits: .standard)
        #expect(String(decoding: second, as: UTF8.self) == "second")
        let fourth = try MailAttachment.contents(of: "README (2)", in: file, mimeType: "message/rfc822", limits: .standard)
        #expect(String(decoding: fourth, as: UTF8.self) == "fourth")
    }
}
