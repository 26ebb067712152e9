import QuireRender
import QuireTypes

/// The info card of a document (`quire info`): the file's facts, what Quire can do with it, and
/// what the render service read of its content (``Content``: a PDF's metadata, an image's
/// pixels, an archive's entries…). The content's facts are read by the render service
/// (``RenderClient/info(_:showLocation:)``); the file's are the caller's. A content fact reads
/// as a property of the card (`info.pdf`, `info.problem`).
@dynamicMemberLookup
public struct DocumentInfo: Sendable {
    public let path: DocumentPath
    public let contentType: ContentType
    /// Size in bytes.
    public let size: Int64
    public let modified: FileTime
    public let capabilities: Capabilities
    /// What the render service read of the content.
    public let content: Content

    public init(path: DocumentPath, contentType: ContentType, size: Int64, modified: FileTime,
                capabilities: Capabilities, content: Content) {
        self.path = path
        self.contentType = contentType
        self.size = size
        self.modified = modified
        self.capabilities = capabilities
        self.content = content
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Value>) -> Value {
        content[keyPath: keyPath]
    }

    /// The file name for display (one line, escaped).
    public var name: String { path.displayName }

    /// Size for people: "1.2 MB" (SI units, as GNOME's file manager shows them).
    public var formattedSize: String { Self.formatSize(size) }

    public static func formatSize(_ bytes: Int64) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units = ["kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return DecimalText.fixed(value, 1) + " " + units[unit]
    }
}
