import FoundationEssentials

/// The Quick Look info card of a document.
public struct DocumentInfo: Sendable {
    public let path: DocumentPath
    public let contentType: ContentType
    /// Size in bytes.
    public let size: Int64
    public let modified: FileTime
    public let capabilities: Capabilities
    /// PDF facts, for PDFs.
    public let pdf: PDFInfo?
    /// Pixel facts, for images.
    public let image: ImageInfo?
    /// The faces of a font file (one, or each of a collection's).
    public var fontFaces: [FontFace]? = nil
    /// An archive's entries (bounded; see ``ArchiveListing``).
    public var archive: ArchiveListing? = nil
    /// A video or audio file's streams and tags.
    public var media: MediaInfo? = nil
    /// A delimited table's rows, columns, separator and encoding (CSV, TSV).
    public var table: TableInfo? = nil
    /// An SQLite database's tables and views (read-only and immutable; see ``DatabaseSummary``).
    public var database: DatabaseSummary? = nil
    /// A JSON (or JSON Lines) document's shape, or where it stops being JSON.
    public var json: JSONSummary? = nil
    /// A Markdown file's title (first heading), headings and word count.
    public var markdown: MarkdownText? = nil
    /// A notebook's kernel, language and cells by kind.
    public var notebook: NotebookText.Summary? = nil
    /// A comic book's pages and what its ComicInfo.xml names (title, series, number…).
    public var comicBook: ComicBookSummary? = nil
    /// An EPUB book's title, author, chapters, words and table of contents.
    public var ebook: EbookSummary? = nil
    /// A DjVu document's pages, first page size and resolution.
    public var djvu: DjVuSummary? = nil
    public var mail: MailSummary? = nil
    public var animation: AnimationInfo? = nil
    /// A photo's shot details (camera, lens, exposure…; a camera RAW file's, from LibRaw).
    public var photo: PhotoDetails? = nil
    /// A problem that left the card incomplete (e.g. a password is needed), if any.
    public let problem: DocumentError?

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
