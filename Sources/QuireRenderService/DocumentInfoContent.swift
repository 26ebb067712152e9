import QuireRender

extension DocumentInfo {
    /// What the render service read of a document's content for its info card: the facts of
    /// its family (at most one of them is set, photos' details beside an image's pixels), and a
    /// problem that left the card incomplete. Codable: it crosses a worker's pipe as JSON
    /// (``RenderRequestKind/info``).
    public struct Content: Sendable, Codable {
        /// PDF facts, for PDFs (and an office file's pages as LibreOffice lays them out).
        public var pdf: PDFInfo?
        /// Pixel facts, for images.
        public var image: ImageInfo?
        /// The faces of a font file (one, or each of a collection's).
        public var fontFaces: [FontFace]?
        /// An archive's entries (bounded; see ``ArchiveListing``).
        public var archive: ArchiveListing?
        /// A video or audio file's streams and tags (a cover picture as its presence only).
        public var media: MediaInfo?
        /// A delimited table's rows, columns, separator and encoding (CSV, TSV).
        public var table: TableInfo?
        /// An SQLite database's tables and views (read-only and immutable; see ``DatabaseSummary``).
        public var database: DatabaseSummary?
        /// A JSON (or JSON Lines) document's shape, or where it stops being JSON.
        public var json: JSONSummary?
        /// A Markdown file's title (first heading), headings and word count.
        public var markdown: MarkdownText?
        /// A notebook's kernel, language and cells by kind.
        public var notebook: NotebookText.Summary?
        /// A comic book's pages and what its ComicInfo.xml names (title, series, number…).
        public var comicBook: ComicBookSummary?
        /// An EPUB book's title, author, chapters, words and table of contents.
        public var ebook: EbookSummary?
        /// A DjVu document's pages, first page size and resolution.
        public var djvu: DjVuSummary?
        /// An e-mail message's headers and attachments.
        public var mail: MailSummary?
        /// An animated image's frames, duration and loops.
        public var animation: AnimationInfo?
        /// A photo's shot details (camera, lens, exposure…; a camera RAW file's, from LibRaw).
        public var photo: PhotoDetails?
        /// A problem that left the card incomplete (a password is needed, a book is
        /// DRM-protected), if any. On the wire as its kind, reason and remedy.
        public var problem: DocumentError? = nil

        public init() {}

        private enum CodingKeys: String, CodingKey {
            case pdf, image, fontFaces, archive, media, table, database, json, markdown, notebook, comicBook, ebook, djvu, mail,
                 animation, photo
        }
    }
}
