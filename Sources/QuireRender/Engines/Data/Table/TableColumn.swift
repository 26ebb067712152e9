/// One column of a delimited table: its name (the header's cell, or "Column N"), the kind of
/// value its sampled cells hold, and the width to show it at (in characters, from a sample).
public struct TableColumn: Sendable, Hashable, Codable {
    public let name: String
    public let kind: ColumnKind
    /// Characters: the widest sampled cell (the name included), at most ``maximumWidth``.
    public let width: Int

    /// Widest a column is shown (longer cells are cut on screen, in full when copied).
    public static let maximumWidth = 40

    public init(name: String, kind: ColumnKind, width: Int) {
        self.name = name
        self.kind = kind
        self.width = width
    }
}
