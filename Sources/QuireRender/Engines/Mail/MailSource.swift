import QuireTypes

extension RenderEngine {
    /// E-mail messages (`.eml`, an mbox's first message): headers, text and the attachment list
    /// laid out as Markdown pages are (``MailMessage``); printable as shown.
    static let mail = RenderEngine(name: "mail", families: [.mail]) { (input) throws(DocumentError) in
        let message = try MailMessage(file: input.file, isMailbox: input.contentType.mimeType == "application/mbox", limits: input.limits)
        var opened = Opened(source: try MarkdownSource(path: input.file.path, markdown: message.text,
                                                       maximumPages: input.limits.maximumPages, limits: input.limits))
        opened.title = message.text.title
        opened.author = message.from
        var details: [CardRow] = []
        if let from = message.from { details.append(CardRow("From", from)) }
        if let to = message.to { details.append(CardRow("To", to)) }
        if let cc = message.cc { details.append(CardRow("Cc", cc)) }
        if let date = message.date { details.append(CardRow("Date", date)) }
        for attachment in message.attachments {
            details.append(CardRow("Attachment", attachment.name + (attachment.size.map { " (\(ArchiveListingText.bytes($0)))" } ?? "")))
        }
        opened.details = details
        // Opened from the viewer's list as an archive's files are (``MailAttachment``).
        opened.entries = message.attachments.map { ArchiveEntryFact(path: $0.name, size: $0.size, modified: nil) }
        opened.viewText = message.text.lines.map(\.text)
        opened.markdown = message.text
        return opened
    }
}
