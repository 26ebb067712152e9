import QuireRenderService

/// A file for the render worker to read: its facts (to show it) or the document as it prints;
/// the answer comes back to the model.
public struct OpenJob: Sendable, Hashable {
    /// What is wanted of the file.
    public enum Want: Sendable, Hashable {
        /// Its facts: pages and their sizes, card facts, a text file's lines.
        case facts
        /// The document as it prints (``PrintableDocument``).
        case printable
        /// The print job composed as the sheet says (``SheetRequest``): its PDF, and its sides
        /// as the page count.
        case composed(SheetRequest)
        /// An archive entry's bytes (its path as listed), to open as a file of its own.
        case entry(String)
        /// A PDF's form fields (``FormFacts``), for the card.
        case form
    }

    /// The model's file index.
    public let file: Int
    public let request: DocumentRequest
    public var want: Want = .facts
}
