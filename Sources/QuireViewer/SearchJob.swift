import QuireRenderService

/// A search the model wants the render thread to run: the word, the document, and the runs of
/// pages (or lines) to scan in order — from the page the search started on to the end, then
/// from the start back to it. The render thread asks the worker one short request at a time
/// (``SearchRequest``), so pages in view are still rendered between them and a new search (or
/// none) stops this one after at most one request.
public struct SearchJob: Sendable, Hashable {
    /// Tells one search from the next (a new query, another file).
    public let generation: Int
    /// The model's file index.
    public let file: Int
    public let document: DocumentRequest
    public let query: String
    /// Runs of pages (or lines), scanned in this order.
    public let runs: [Range<Int>]
    /// Matches wanted at most (the rest are not looked for).
    public let maximumMatches: Int
    /// The runs are a table's rows past the window in view, not lines (``SearchRequest/tableRows``).
    public var tableRows = false
    /// Each run is searched from its end down (``SearchRequest/backward``; table rows only).
    public var backward = false

    public init(generation: Int, file: Int, document: DocumentRequest, query: String, runs: [Range<Int>], maximumMatches: Int) {
        self.generation = generation
        self.file = file
        self.document = document
        self.query = query
        self.runs = runs.filter { !$0.isEmpty }
        self.maximumMatches = maximumMatches
    }
}
