import QuireTypes

/// One family's engine: how its documents are opened into pages (a ``PageSource``, the one
/// protocol every engine speaks: page count and sizes, draw a page, raster it at a size, the
/// text of a page). ``RenderEngine/table`` lists every engine; ``Renderer`` — and through it
/// the render service's worker, the batch, the one-file thumbnailer, `preview` and both viewers
/// — reaches an engine only through the table. Adding an engine is one file (its source and
/// its `RenderEngine` value) plus one row in the table.
struct RenderEngine: Sendable {
    /// What an engine opens a document with.
    struct Input {
        let file: InputFile
        let contentType: ContentType
        let password: String?
        let limits: RenderLimits
        /// Lay out at most this many bytes of a text file.
        let textByteLimit: Int
        /// A thumbnail is wanted: an office file's own preview image, when it carries one, is
        /// used instead of laying the document out.
        var preferEmbeddedPreview = false
        /// A viewer opens it: an engine that can show page 1 before the rest is laid out (an
        /// office document) gives a ``ProvisionalPageSource``.
        var firstPageFirst = false
        /// Only page 1 will ever be drawn (a thumbnail, `preview` of page 1): an office document
        /// is laid out and page 1 painted from the layout, or — a spreadsheet, whose printed
        /// pages only the export makes — page 1 alone exported; never every page. The page
        /// limit does not apply (it bounds what is rendered, and this renders one page).
        var firstPageOnly = false
        /// Delimited text (CSV, TSV) laid out by LibreOffice Calc (``SpreadsheetText``).
        var csvAsSpreadsheet = false
        /// A camera RAW file: its sensor data developed at full size, not the camera's preview.
        var developRaw = false
        /// Where LibreOffice, GStreamer and Ghostscript run for this document.
        var interpreters = Interpreters.here
    }

    /// An opened document: its pages, and what the engine learned opening it.
    struct Opened {
        let source: any PageSource
        /// For containers: the entry the preview image came from.
        var embeddedPreviewName: String? = nil
        /// Whether a text file was cut at the byte limit.
        var isTruncated = false
        /// What the engine knows beyond the pages, for the card (a video's length, a font's family).
        var details: [CardRow] = []
        /// The document's own title and author (a song's title and artist), when it names them.
        var title: String? = nil
        var author: String? = nil
        /// Files inside that a viewer can open, by path: an archive's (sorted), a message's attachments.
        var entries: [ArchiveEntryFact] = []
        /// The document as lines of text for a viewer that shows text as text (a database's
        /// overview), when the engine has such a form; nil: the pages are what is shown.
        var viewText: [String]? = nil
        /// For JSON: what each line of ``viewText`` is in the tree (to fold it, to copy a path).
        var outline: JSONOutline? = nil
        /// For Markdown: the styled lines of ``viewText`` (kinds and runs).
        var markdown: MarkdownText? = nil
        /// False when ``source`` holds fewer pages than the document has and the count is
        /// unknown (a spreadsheet's page 1 exported alone).
        var pageCountIsKnown = true
        /// An animated image's frames, length and loops (read from its blocks, no frame decoded).
        var animation: AnimationInfo? = nil
        /// A book's table of contents, placed in ``markdown``'s lines.
        var contents = TableOfContents()
    }

    /// A short name for messages and notes ("pdf", "image").
    let name: String
    /// The document families it opens.
    let families: Set<DocumentFamily>
    let open: @Sendable (Input) throws(DocumentError) -> Opened
    /// For an engine that takes only some types of its families (the table engine: delimited
    /// text among text): whether it takes this one. Nil: every type of its families.
    var accepts: (@Sendable (ContentType, DocumentPath) -> Bool)? = nil

    /// Every engine, in one table.
    static let table: [RenderEngine] = [.pdf, .postScript, .svg, .image, .text, .font, .archive, .media, .office, .containerPreview,
                                        .delimited, .database, .json, .markdown, .notebook, .comicBook, .djvu, .cameraRaw, .jpegXL, .heif, .ebook, .mail]

    /// The engine for `family`, nil when no engine shows it.
    static func engine(for family: DocumentFamily) -> RenderEngine? {
        table.first { $0.families.contains(family) && $0.accepts == nil }
    }

    /// The engine for a file of `type` named `path`: one that takes this type in particular
    /// (``accepts``), else the engine of its family.
    static func engine(for type: ContentType, path: DocumentPath) -> RenderEngine? {
        table.first { $0.families.contains(type.family) && $0.accepts?(type, path) == true }
            ?? table.first { $0.families.contains(type.family) && $0.accepts == nil }
    }

    /// The engines' names by family (for `docs` and tests: which families have an engine).
    static var families: Set<DocumentFamily> { table.reduce(into: []) { $0.formUnion($1.families) } }
}
