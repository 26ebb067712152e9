import Quire
import QuireRenderService

/// The file's card as Quick Look shows it in its header: icon, title, kind, size, pages.
public struct DocumentCard: Sendable, Hashable {
    /// The freedesktop icon name for the type (e.g. "application-pdf").
    public let iconName: String
    /// The document's own title (PDF metadata) or else the file name.
    public let title: String
    /// The file name, escaped for display.
    public let fileName: String
    /// The type for people ("PDF document").
    public let kind: String
    public let mimeType: String
    public let family: DocumentFamily
    /// Size in bytes, and for people ("1.2 MB").
    public let size: Int64
    public let formattedSize: String
    /// Pages, when the document is paged and could be opened.
    public let pages: Int?
    /// Lines, for text shown as text.
    public let lines: Int?
    /// Pixel size of images.
    public let imageWidth: Int?
    public let imageHeight: Int?
    /// The PDF's author, when it names one (a song's artist, a font's designer).
    public let author: String?
    /// What the engine knows beyond the pages: a video's length, a font's family, an archive's entries.
    public let details: [CardRow]
    /// A book's table of contents (EPUB).
    public let contents: TableOfContents

    /// The card of `path` from what the render worker found: its type, and for a document it
    /// could open, its facts (pages, title, author, image size); the size from the file.
    init(path: DocumentPath, contentType type: ContentType, size: Int64, facts: OpenedDocument?) {
        iconName = type.iconName
        fileName = path.displayName
        title = facts?.title ?? fileName
        kind = type.localizedDescription
        mimeType = type.mimeType
        family = type.family
        self.size = size
        formattedSize = DocumentInfo.formatSize(size)
        pages = facts.flatMap { $0.text == nil ? $0.pageCount : nil }
        lines = facts?.text?.lineCount
        imageWidth = facts?.imageWidth
        imageHeight = facts?.imageHeight
        author = facts?.author
        details = facts?.details ?? []
        contents = facts?.contents ?? TableOfContents()
    }
}
