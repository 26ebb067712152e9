import QuireTypes

/// One document of a print job: its bytes (an open file or data in memory), MIME type and name.
public struct PrintDocument: Sendable {
    public enum Source: Sendable {
        /// Sent as it is, read from the open file.
        case file(InputFile)
        /// Sent from memory (converted or page-selected PDF).
        case data([UInt8])
    }

    public let source: Source
    /// MIME type sent as `document-format` ("application/pdf").
    public let mimeType: String
    /// Document name shown in the queue.
    public let name: String

    public init(source: Source, mimeType: String, name: String) {
        self.source = source
        self.mimeType = mimeType
        self.name = name
    }
}
