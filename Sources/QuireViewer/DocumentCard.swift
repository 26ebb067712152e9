import Quire

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
    /// The PDF's author, when it names one.
    public let author: String?

    init(info: DocumentInfo?, document: Document, pages: Int?, lines: Int?) {
        let type = document.contentType
        iconName = type.iconName
        fileName = document.path.displayName
        let pdfTitle = info?.pdf?.title.flatMap { title in
            title.allSatisfy { $0.isWhitespace } ? nil : title
        }
        title = pdfTitle ?? fileName
        kind = type.localizedDescription
        mimeType = type.mimeType
        family = type.family
        size = document.file.size
        formattedSize = DocumentInfo.formatSize(document.file.size)
        self.pages = pages
        self.lines = lines
        imageWidth = info?.image?.width
        imageHeight = info?.image?.height
        author = info?.pdf?.author
    }
}
