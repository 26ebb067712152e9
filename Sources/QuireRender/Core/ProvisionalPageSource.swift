import QuireTypes

/// A page source that can show its first page before the rest is laid out (an office document
/// opened for a viewer: page 1 painted from LibreOffice's layout while the PDF export is still
/// to come). Only page 1 may be rastered; ``complete()`` gives the source of every page.
protocol ProvisionalPageSource: PageSource {
    /// The document's full source (its pages as they print), after the rest of the work.
    func complete() throws(DocumentError) -> RenderEngine.Opened
}
