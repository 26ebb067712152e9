/// One file of an index sheet (the grid of all the viewer's files): its name, and once the
/// worker has opened it, its kind and size, or why it cannot be shown.
public struct IndexEntry: Sendable, Hashable {
    /// The model's file index.
    public let file: Int
    public let name: String
    /// The file's card, once opened (kind, size, icon).
    public let card: DocumentCard?
    /// Why it cannot be shown (missing, vanished, damaged), if it cannot.
    public let problem: String?
    /// Still being opened by the worker.
    public let isOpening: Bool
    /// Whether its first page can be drawn as a tile (paged content that opened).
    public let hasPages: Bool
    /// A text file's first lines, for a tile that shows text as text (at most a dozen).
    public var firstLines: [String] = []

    /// "PDF document · 1.2 MB", or the problem, or "opening…".
    public var detail: String {
        if let problem { return problem }
        if let card { return "\(card.kind) · \(card.formattedSize)" }
        return isOpening ? "opening…" : ""
    }
}
