#if canImport(Glibc)
import Glibc
#endif
internal import CGMime
import QuireSystem
import QuireTypes

/// An e-mail message (a `.eml` file, or the first message of an mbox) read by GMime as a mail
/// reader shows it: From, To, Cc, Date and Subject; the text — the plain part of an
/// alternative when there is one, else its HTML made into lines as EPUB chapters are
/// (``XHTMLChapter``: no image or style fetched, no script run); then the attachments with their
/// names, types and decoded sizes. The whole message becomes ``MarkdownText`` lines, so pages, the
/// window's rendered view and the terminal show a message as they show notes.
///
/// Bounded: the parts walked (`--max-entries`), their nesting, and the bytes of text read; an
/// attachment is measured by streaming its encoded bytes, never decoded into memory.
struct MailMessage {
    struct Attachment: Sendable, Hashable {
        /// The name, made unique in the message ("notes (2).txt" for a second "notes.txt"):
        /// what a viewer lists and opens it by.
        var name: String
        var mimeType: String
        /// Decoded bytes; nil for an attached message.
        var size: Int64?
    }

    private(set) var subject: String?
    private(set) var from: String?
    private(set) var to: String?
    private(set) var cc: String?
    private(set) var date: String?
    private(set) var attachments: [Attachment] = []
    /// The message laid out: headers, text, the attachment list.
    private(set) var text = MarkdownText()
    /// Text parts shown, and parts left out (too deep, too many, too long).
    private(set) var omitted: [String] = []

    /// Deepest nesting of multiparts and attached messages walked.
    static let maximumDepth = 32
    /// Most bytes of one text part shown (a longer one is named, not shown).
    static let maximumTextBytes = MarkdownText.maximumBytes

    private var body: [MarkdownText.Line] = []
    private var parts = 0
    /// The parsed message, kept while this value lives, and each attachment's part in it.
    private let objects: MailObjects
    private var attachmentParts: [OpaquePointer] = []

    init(file: InputFile, isMailbox: Bool, limits: RenderLimits) throws(DocumentError) {
        let api = try LazyLibraries.gmime(file.path)
        let message = try MailObjects(file: file, isMailbox: isMailbox, api: api)
        objects = message
        subject = message.subject
        from = message.addresses(GMIME_ADDRESS_TYPE_FROM)
        to = message.addresses(GMIME_ADDRESS_TYPE_TO)
        cc = message.addresses(GMIME_ADDRESS_TYPE_CC)
        date = message.date
        // GMime makes a message of any bytes (all body, no header): one that names no sender,
        // recipient, subject or date is not taken for mail.
        guard subject != nil || from != nil || to != nil || date != nil else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not an e-mail message (no From, To, Subject or Date header)")
        }
        if let root = message.root {
            walk(root, api: api, depth: 0, limits: limits)
        }
        layOut()
    }

    // MARK: The parts

    private mutating func walk(_ object: OpaquePointer, api: quire_gmime_api, depth: Int, limits: RenderLimits) {
        parts += 1
        guard parts <= limits.maximumArchiveEntries else {
            if parts == limits.maximumArchiveEntries + 1 { omitted.append("parts past the first \(limits.maximumArchiveEntries)") }
            return
        }
        guard depth < Self.maximumDepth else {
            omitted.append("parts nested deeper than \(Self.maximumDepth) levels")
            return
        }
        let (media, subtype) = Self.type(of: object, api: api)
        if quire_gmime_is_a(UnsafeMutableRawPointer(object), api.g_mime_multipart_get_type()) != 0 {
            let children = (0..<max(0, Int(api.g_mime_multipart_get_count(object)))).compactMap { api.g_mime_multipart_get_part(object, Int32($0)) }
            if subtype == "alternative" {
                // One of the alternatives: plain text first (what a reader that fetches nothing
                // shows best), else HTML, else the richest (the last).
                let leaves = children.map { (child: $0, type: Self.type(of: $0, api: api)) }
                let chosen = leaves.first { $0.type == ("text", "plain") }?.child
                    ?? leaves.first { $0.type == ("text", "html") }?.child
                    ?? children.last
                if let chosen { walk(chosen, api: api, depth: depth + 1, limits: limits) }
            } else {
                for child in children { walk(child, api: api, depth: depth + 1, limits: limits) }
            }
            return
        }
        if quire_gmime_is_a(UnsafeMutableRawPointer(object), api.g_mime_message_part_get_type()) != 0 {
            let attached = api.g_mime_message_part_get_message(object)
            let title = attached.flatMap { api.g_mime_message_get_subject($0) }.map { String(cString: $0) }
            add(Attachment(name: (title?.isEmpty == false ? title! : "message") + ".eml", mimeType: "message/rfc822", size: nil), object)
            return
        }
        guard quire_gmime_is_a(UnsafeMutableRawPointer(object), api.g_mime_part_get_type()) != 0 else { return }
        let filename = api.g_mime_part_get_filename(object).map { String(cString: $0) }
        let isText = media == "text" && (subtype == "plain" || subtype == "html")
        let inline = api.g_mime_part_is_attachment(object) == 0 && (filename == nil || isText)
        let encoded = api.g_mime_part_get_content(object).flatMap { api.g_mime_data_wrapper_get_stream($0) }
        if inline && isText && quire_gmime_is_a(UnsafeMutableRawPointer(object), api.g_mime_text_part_get_type()) != 0 {
            let length = encoded.map { Self.length(of: $0, api: api) } ?? 0
            guard length <= Self.maximumTextBytes else {
                omitted.append("a text part of \(ArchiveListingText.bytes(length)) (too long to show)")
                return
            }
            guard let raw = api.g_mime_text_part_get_text(object) else { return }
            defer { g_free(raw) }
            let content = String(cString: raw)
            if !body.isEmpty { body.append(MarkdownText.Line(text: "", kind: .rule)) }
            if subtype == "html" {
                body += XHTMLChapter(Array(content.utf8), maximumLines: MarkdownText.maximumLines) { _ in nil }.lines
            } else {
                body += Self.plainLines(content)
            }
            return
        }
        let size = api.g_mime_part_get_content(object).map { Self.decodedSize(of: $0, api: api) }
        add(Attachment(name: filename ?? "untitled.\(subtype)", mimeType: "\(media)/\(subtype)", size: size), object)
    }

    /// Lists an attachment under a name no other has (a name is what a viewer opens it by; a
    /// "/" in a sender's file name would read as a folder and is replaced).
    private mutating func add(_ attachment: Attachment, _ part: OpaquePointer) {
        var attachment = attachment
        let base = attachment.name.replacing("/", with: "_")
        attachment.name = base.isEmpty ? "untitled" : base
        var number = 2
        while attachments.contains(where: { $0.name == attachment.name }) {
            let dot = base.lastIndex(of: ".").flatMap { $0 == base.startIndex ? nil : $0 }
            attachment.name = dot.map { "\(base[..<$0]) (\(number))\(base[$0...])" } ?? "\(base) (\(number))"
            number += 1
        }
        attachments.append(attachment)
        attachmentParts.append(part)
    }

    /// The decoded bytes of the attachment named `name` (as listed), at most `limit` bytes.
    func contents(of name: String, limit: Int) throws(DocumentError) -> [UInt8] {
        guard let index = attachments.firstIndex(where: { $0.name == name }) else {
            throw DocumentError(kind: .damaged, path: objects.path, reason: "the message has no attachment \(name)")
        }
        if let size = attachments[index].size, size > limit {
            throw DocumentError(kind: .limitExceeded, path: objects.path,
                                reason: "\(name) is \(ArchiveListingText.bytes(size)), more than the maximum of \(ArchiveListingText.bytes(Int64(limit)))")
        }
        let api = objects.api
        let part = attachmentParts[index]
        guard let stream = api.g_mime_stream_mem_new() else { throw DocumentError(kind: .damaged, path: objects.path, reason: "cannot decode \(name)") }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        if attachments[index].size == nil {
            guard quire_gmime_is_a(UnsafeMutableRawPointer(part), api.g_mime_message_part_get_type()) != 0,
                  let message = api.g_mime_message_part_get_message(part),
                  api.g_mime_object_write_to_stream(message, nil, stream) >= 0 else {
                throw DocumentError(kind: .damaged, path: objects.path, reason: "cannot decode \(name)")
            }
        } else {
            guard let content = api.g_mime_part_get_content(part), api.g_mime_data_wrapper_write_to_stream(content, stream) >= 0 else {
                throw DocumentError(kind: .damaged, path: objects.path, reason: "cannot decode \(name)")
            }
        }
        guard let array = api.g_mime_stream_mem_get_byte_array(stream) else { return [] }
        let count = Int(array.pointee.len)
        guard count <= limit else {
            throw DocumentError(kind: .limitExceeded, path: objects.path,
                                reason: "\(name) is \(ArchiveListingText.bytes(Int64(count))), more than the maximum of \(ArchiveListingText.bytes(Int64(limit)))")
        }
        guard count > 0, let data = array.pointee.data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    private static func type(of object: OpaquePointer, api: quire_gmime_api) -> (String, String) {
        guard let type = api.g_mime_object_get_content_type(object) else { return ("text", "plain") }
        let media = api.g_mime_content_type_get_media_type(type).map { String(cString: $0).lowercased() } ?? "text"
        let subtype = api.g_mime_content_type_get_media_subtype(type).map { String(cString: $0).lowercased() } ?? "plain"
        return (media, subtype)
    }

    /// A plain text part's lines: blank lines as breaks, quoted lines (`>`) dimmed.
    static func plainLines(_ content: String) -> [MarkdownText.Line] {
        var lines: [MarkdownText.Line] = []
        // "\r\n" is one Character: split on both forms of line end.
        for raw in content.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw)
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if lines.last?.kind != .blank { lines.append(MarkdownText.Line(text: "", kind: .blank)) }
            } else if line.hasPrefix(">") {
                lines.append(MarkdownText.Line(text: line, kind: .body, runs: [MarkdownText.Run(start: 0, length: line.unicodeScalars.count, style: .dim)]))
            } else {
                lines.append(MarkdownText.Line(text: line, kind: .body))
            }
            if lines.count >= MarkdownText.maximumLines { break }
        }
        while lines.last?.kind == .blank { lines.removeLast() }
        return lines
    }

    // MARK: Sizes, streamed

    /// Bytes of a part's stream as stored (still encoded).
    private static func length(of stream: OpaquePointer, api: quire_gmime_api) -> Int64 {
        var total: Int64 = 0
        scan(stream, api: api) { total += Int64($0.count) }
        return total
    }

    /// The decoded size of a part's content: base64 from its length less line ends, quoted-printable
    /// from its escapes, anything else as stored.
    private static func decodedSize(of wrapper: OpaquePointer, api: quire_gmime_api) -> Int64 {
        guard let stream = api.g_mime_data_wrapper_get_stream(wrapper) else { return 0 }
        switch api.g_mime_data_wrapper_get_encoding(wrapper) {
        case GMIME_CONTENT_ENCODING_BASE64:
            // Base64 is its alphabet broken into lines, "=" padding only at the end: the bytes
            // less the line ends (counted with memchr) less the padding in the last bytes.
            var bytes: Int64 = 0, lineEnds: Int64 = 0
            var tail: [UInt8] = []
            scan(stream, api: api) { chunk in
                guard let base = chunk.baseAddress else { return }
                bytes += Int64(chunk.count)
                for separator in [UInt8(ascii: "\n"), UInt8(ascii: "\r")] {
                    var start = UnsafeRawPointer(base), left = chunk.count
                    while left > 0, let found = memchr(start, Int32(separator), left) {
                        lineEnds += 1
                        let skipped = UnsafeRawPointer(found) - start + 1
                        start = UnsafeRawPointer(found) + 1
                        left -= skipped
                    }
                }
                tail = Array((tail + chunk.suffix(8)).suffix(8))
            }
            let padding = Int64(tail.filter { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }.reversed().prefix { $0 == UInt8(ascii: "=") }.count)
            let symbols = bytes - lineEnds
            return max(0, symbols / 4 * 3 - padding)
        case GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE:
            // Each byte, "=XX" one byte, "=" at a line's end (a soft break) none, line ends one
            // byte each (CRLF as LF).
            var size: Int64 = 0
            var state = 0   // 0 text, 1 after "=", 2 after "=X", 3 after "=\r"
            scan(stream, api: api) { chunk in
                for byte in chunk {
                    switch (state, byte) {
                    case (0, UInt8(ascii: "=")): state = 1
                    case (0, UInt8(ascii: "\r")): break
                    case (0, _): size += 1
                    case (1, UInt8(ascii: "\r")): state = 3
                    case (1, UInt8(ascii: "\n")): state = 0
                    case (1, _): state = 2
                    case (2, _): size += 1; state = 0
                    default: state = 0   // after "=\r": the soft break's "\n"
                    }
                }
            }
            return size
        default:
            return length(of: stream, api: api)
        }
    }

    private static func scan(_ stream: OpaquePointer, api: quire_gmime_api, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        _ = api.g_mime_stream_reset(stream)
        var buffer = [CChar](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBufferPointer { api.g_mime_stream_read(stream, $0.baseAddress!, $0.count) }
            guard count > 0 else { break }
            buffer.withUnsafeBufferPointer { raw in
                raw.withMemoryRebound(to: UInt8.self) { body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            }
        }
        _ = api.g_mime_stream_reset(stream)
    }

    // MARK: Lines

    private mutating func layOut() {
        var lines: [MarkdownText.Line] = []
        let title = subject.map { $0.isEmpty ? "(no subject)" : $0 } ?? "(no subject)"
        lines.append(MarkdownText.Line(text: title, kind: .heading, level: 1))
        text.title = title
        text.headings = [(1, title)]
        for (label, value) in [("From", from), ("To", to), ("Cc", cc), ("Date", date)] {
            guard let value, !value.isEmpty else { continue }
            let line = "\(label): \(value)"
            lines.append(MarkdownText.Line(text: line, kind: .body, runs: [MarkdownText.Run(start: 0, length: label.count + 1, style: .bold)]))
        }
        lines.append(MarkdownText.Line(text: "", kind: .rule))
        lines += body.isEmpty ? [MarkdownText.Line(text: "(no text)", kind: .body, runs: [MarkdownText.Run(start: 0, length: 9, style: .dim)])] : body
        if !attachments.isEmpty {
            lines.append(MarkdownText.Line(text: "", kind: .blank))
            let heading = attachments.count == 1 ? "1 attachment" : "\(attachments.count) attachments"
            lines.append(MarkdownText.Line(text: heading, kind: .heading, level: 2))
            text.headings.append((2, heading))
            for attachment in attachments {
                let line = "• \(attachment.name) — " + (attachment.size.map { ArchiveListingText.bytes($0) + ", " } ?? "") + attachment.mimeType
                lines.append(MarkdownText.Line(text: line, kind: .body, runs: [MarkdownText.Run(start: 0, length: 2, style: .dim)]))
            }
        }
        for note in omitted {
            let line = "Not shown: \(note)"
            lines.append(MarkdownText.Line(text: line, kind: .body, runs: [MarkdownText.Run(start: 0, length: line.unicodeScalars.count, style: .dim)]))
        }
        text.lines = lines
        text.wordCount = lines.reduce(0) { $0 + $1.text.split(whereSeparator: \.isWhitespace).count }
    }
}

/// The GMime objects of one parsed message, released together.
private final class MailObjects {
    let api: quire_gmime_api
    let path: DocumentPath
    private let message: OpaquePointer

    init(file: InputFile, isMailbox: Bool, api: quire_gmime_api) throws(DocumentError) {
        self.api = api
        path = file.path
        let descriptor: FileDescriptor
        do { descriptor = try file.duplicateDescriptor() } catch { throw DocumentError(error) }
        // The stream owns the duplicate and closes it when the last object using it goes. Its
        // bounds are the whole file: the duplicate shares the descriptor's offset, wherever a
        // reader left it.
        guard let stream = api.g_mime_stream_fs_new_with_bounds(descriptor.rawValue, 0, -1) else {
            close(descriptor.rawValue)
            throw DocumentError(kind: .input, path: file.path, reason: "cannot read the message")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        guard let parser = api.g_mime_parser_new_with_stream(stream) else {
            throw DocumentError(kind: .input, path: file.path, reason: "cannot read the message")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(parser)) }
        if isMailbox { api.g_mime_parser_set_format(parser, GMIME_FORMAT_MBOX) }
        guard let message = api.g_mime_parser_construct_message(parser, nil) else {
            throw DocumentError(kind: .damaged, path: file.path,
                                reason: isMailbox ? "no message in the mailbox (it does not start with a \"From \" line)" : "not an e-mail message")
        }
        self.message = message
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(message)) }

    var subject: String? { api.g_mime_message_get_subject(message).map { String(cString: $0) } }

    var root: OpaquePointer? { api.g_mime_message_get_mime_part(message) }

    func addresses(_ type: GMimeAddressType) -> String? {
        guard let list = api.g_mime_message_get_addresses(message, type), api.internet_address_list_length(list) > 0,
              let text = api.internet_address_list_to_string(list, nil, 0) else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// The Date header as the sender's clock read it ("Tue, 3 Mar 2026 14:05 +0100").
    var date: String? {
        guard let date = api.g_mime_message_get_date(message), let text = g_date_time_format(date, "%a, %-d %b %Y %H:%M %z") else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
