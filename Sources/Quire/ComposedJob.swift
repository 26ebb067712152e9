/// A print job Quire composed itself (``DocumentPrinter/compose(_:pageRanges:sheet:)``): the PDF
/// that is sent (or saved), and what it holds.
public struct ComposedJob: Sendable {
    /// The composed document: one PDF page per side, vector.
    public let pdf: [UInt8]
    /// The document pages chosen (1-based, in order), before imposition.
    public let pages: [Int]
    /// The document's page count.
    public let pageCount: Int
    /// Sides in the job, and the sheets of paper they take.
    public let sides: Int
    public let sheets: Int
    /// "3 sheets of A4, 6 sides".
    public let summary: String
}
