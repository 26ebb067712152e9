import Quire
import QuireRenderService

/// What the render thread hands back to the front-end's thread.
public enum RenderDelivery: Sendable {
    /// A file opened in the worker: its facts, or why it cannot be shown.
    case opened(OpenJob, Result<OpenedDocument, RenderProblem>)
    /// A file prepared for print (``OpenJob/Want/printable``), or why it cannot print.
    case printable(OpenJob, Result<PrintableDocument, RenderProblem>)
    /// A page, or its problem.
    case page(PageRenderJob, Result<PagePixels, RenderProblem>)
    /// An animation's frame (a job with ``PageRenderJob/frame``), or its problem.
    case frame(PageRenderJob, Result<AnimationFrame, RenderProblem>)
    /// What one request of a search found (`run`: which of the job's runs it scanned), and
    /// whether the search is over (every run scanned, the match limit reached, or a problem).
    case found(SearchJob, run: Int, Result<SearchChunk, RenderProblem>, finished: Bool)
    /// A page's text with its boxes, or why there is none.
    case pageText(TextJob, Result<PageText, RenderProblem>)
    /// An archive entry's bytes (``OpenJob/Want/entry(_:)``), or why they cannot be read.
    case entry(OpenJob, Result<[UInt8], RenderProblem>)
    /// A PDF's form (``OpenJob/Want/form``), or why it cannot be read.
    case form(OpenJob, Result<FormFacts, RenderProblem>)
}
