import QuireRenderService

/// What the render thread hands back to the front-end's thread.
public enum RenderDelivery: Sendable {
    /// A file opened in the worker: its facts, or why it cannot be shown.
    case opened(OpenJob, Result<DocumentFacts, RenderProblem>)
    /// A file prepared for print (``OpenJob/Want/printable``), or why it cannot print.
    case printable(OpenJob, Result<PrintableDocument, RenderProblem>)
    /// A page, or its problem.
    case page(PageRenderJob, Result<PagePixels, ViewerProblem>)
}
