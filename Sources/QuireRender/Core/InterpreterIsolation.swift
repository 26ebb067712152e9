import QuireTypes
import Synchronization

/// Where an interpreter's pages come from in `quire`'s one-shot commands (`thumbnail FILE
/// OUT`, `preview`, `info`, `print`): Ghostscript runs a PostScript document's program, which
/// may try to read, write and delete files, and GStreamer runs whatever decoders a video or
/// audio file picks, so those commands have a render worker under bubblewrap (no network, a
/// private `/tmp`, the system read-only) open the document and draw its pages
/// (``IsolatedPageSource``), as they have LibreOffice convert office documents there
/// (``OfficeConversion``). QuireRenderService installs the opener (``openInIsolation(_:)``);
/// without one, or where bubblewrap does not work, the engine runs in this process (Ghostscript
/// with its own guard: ``PostScriptSource``'s private `$TMPDIR`).
public enum InterpreterIsolation {
    /// A document opened elsewhere: its page sizes and a way to have a page drawn.
    public struct Pages: Sendable {
        public var sizes: [PageSize]
        /// Whether pages have a pixel size of their own (a video frame): not enlarged.
        public var isRaster = false
        /// What the engine knew beyond the pages (a video's length), and the file's own title
        /// and author (a song's artist).
        public var details: [DocumentDetail] = []
        public var title: String?
        public var author: String?
        /// False when only page 1 was made and the document's page count is not known.
        public var pageCountIsKnown = true
        /// Page `index` (0-based) drawn to fit `width`×`height` pixels (straight RGBA).
        public var render: @Sendable (_ index: Int, _ width: Int, _ height: Int) throws(DocumentError) -> RenderedImage

        public init(sizes: [PageSize],
                    render: @escaping @Sendable (_ index: Int, _ width: Int, _ height: Int) throws(DocumentError) -> RenderedImage) {
            self.sizes = sizes
            self.render = render
        }
    }

    /// Opens `file` (a PostScript document, a video or audio file) outside this process with
    /// `tool` (for messages: "Ghostscript", "GStreamer"), or returns nil when there is nowhere to
    /// do that (the engine then runs here).
    /// `firstPageOnly`: only page 1 is wanted (a thumbnail, `preview` of page 1): an office
    /// document laid out and page 1 painted, never exported whole.
    public typealias Opener = @Sendable (_ file: InputFile, _ tool: String, _ firstPageOnly: Bool) throws(DocumentError) -> Pages?

    private static let opener = Mutex<Opener?>(nil)
    private static let privateTMPDIR = Atomic<Bool>(false)

    /// Makes this process run Ghostscript with `$TMPDIR` naming an empty directory of its own,
    /// made for each call and removed after it (``PostScriptSource``). It changes the process's
    /// environment while Ghostscript runs, so it is for processes where nothing else reads
    /// `$TMPDIR` meanwhile (`quire`'s commands and its render worker, set at start-up), not for
    /// a test runner whose other tests make temporary files at the same time.
    public static func givePostScriptAPrivateTMPDIR() {
        privateTMPDIR.store(true, ordering: .relaxed)
    }

    static var postScriptHasAPrivateTMPDIR: Bool { privateTMPDIR.load(ordering: .relaxed) }

    /// Sends this process's PostScript documents to `opener` (set once, at start-up).
    public static func openInIsolation(_ opener: @escaping Opener) {
        self.opener.withLock { $0 = opener }
    }

    /// The document's pages from the installed opener, nil when there is none or it declined.
    static func pages(_ file: InputFile, tool: String, firstPageOnly: Bool = false) throws(DocumentError) -> Pages? {
        guard let opener = opener.withLock({ $0 }) else { return nil }
        return try opener(file, tool, firstPageOnly)
    }

    /// The engine's result for pages opened elsewhere.
    static func opened(_ pages: Pages, path: DocumentPath) -> RenderEngine.Opened {
        var opened = RenderEngine.Opened(source: IsolatedPageSource(path: path, pages: pages))
        opened.details = pages.details
        opened.title = pages.title
        opened.author = pages.author
        opened.pageCountIsKnown = pages.pageCountIsKnown
        return opened
    }
}
