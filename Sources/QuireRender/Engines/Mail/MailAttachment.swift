import QuireTypes

/// An attachment of an e-mail message opened in a viewer, as a file in an archive is: its
/// decoded bytes, by the name the message's listing gives it.
public enum MailAttachment {
    /// - Throws: ``DocumentError`` `limitExceeded` past `limits.maximumInflatedBytes` (checked
    ///   before decoding when the size is known), `damaged` when there is no such attachment.
    public static func contents(of name: String, in file: InputFile, mimeType: String, limits: RenderLimits) throws(DocumentError) -> [UInt8] {
        let message = try MailMessage(file: file, isMailbox: mimeType == "application/mbox", limits: limits)
        return try message.contents(of: name, limit: limits.maximumInflatedBytes)
    }
}
