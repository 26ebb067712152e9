import Quire
import QuireRenderService

/// A PDF's form fields, for the card: asked of the worker once per file, when the card is
/// shown (walking a long document's pages for its fields is not paid by opening it).
extension ViewerModel {
    /// The current file's form: its fields (none for a PDF without a form), or why it cannot be
    /// read; nil for a file that is not a PDF or is not open.
    public func formFacts() -> Result<FormFacts, RenderProblem>? {
        let file = current
        guard file.contentType?.family == .pdf, file.facts != nil else { return nil }
        if let known = file.form { return known }
        let job = OpenJob(file: fileIndex, request: documentRequest(file), want: .form)
        let result: Result<FormFacts, RenderProblem>
        if case .form(_, let answer)? = answer(to: job) {
            result = answer
        } else {
            result = .failure(RenderProblem(.workerFailed, "the renderer did not read the form in time"))
        }
        file.form = result
        return result
    }
}
