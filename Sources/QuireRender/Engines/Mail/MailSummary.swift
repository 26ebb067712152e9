import QuireTypes

/// What `info` says of an e-mail message: its headers and its attachments (names, types,
/// decoded sizes), read as ``MailMessage`` reads them.
public struct MailSummary: Sendable, Hashable, Codable {
    public struct Attachment: Sendable, Hashable, Codable {
        public var name: String
        public var mimeType: String
        /// Decoded bytes; absent for an attached message.
        public var size: Int64?
    }

    public var subject: String?
    public var from: String?
    public var to: String?
    public var cc: String?
    /// The Date header as the sender's clock read it.
    public var date: String?
    public var attachments: [Attachment]

    /// - Throws: ``DocumentError`` `unsupported` when GMime is not installed, `damaged` when the
    ///   file holds no message.
    public static func read(_ file: InputFile, mimeType: String, limits: RenderLimits = .standard) throws(DocumentError) -> MailSummary {
        let message = try MailMessage(file: file, isMailbox: mimeType == "application/mbox", limits: limits)
        return MailSummary(subject: message.subject, from: message.from, to: message.to, cc: message.cc, date: message.date,
                           attachments: message.attachments.map { Attachment(name: $0.name, mimeType: $0.mimeType, size: $0.size) })
    }
}
