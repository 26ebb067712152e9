import QuireTypes

/// Where an interpreter's pages come from in `quire`'s one-shot commands (`thumbnail FILE
/// OUT`, `preview`, `info`, `print`): Ghostscript runs a PostScript document's program, which
/// may try to read, write and delete files, and GStreamer runs whatever decoders a video or
/// audio file picks, so those commands have a render worker under bubblewrap (no network, a
/// private `/tmp`, the system read-only) open the document and draw its pages
/// (``IsolatedPageSource``), as they have LibreOffice convert office documents there
/// (``OfficeConversion``). The caller gives the place (``Interpreters/host``); without one, or
/// where bubblewrap does not work, the engine runs in this process (Ghostscript with its own
/// guard: ``PostScriptSource``'s private `$TMPDIR`).
public enum InterpreterIsolation {
    /// A document opened elsewhere: its page sizes and a way to have a page drawn.
    public struct Pages: Sendable {
        public var sizes: [PageSize]
        /// Whether pages have a pixel size of their own (a video frame): not enlarged.
        public var isRaster = false
        /// What the engine knew beyond the pages (a video's length), and the file's own title
        /// and author (a song's artist).
        public var details: [CardRow] = []
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
