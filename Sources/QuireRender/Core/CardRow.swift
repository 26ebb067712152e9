/// One row of a document's card: a fact an engine knows beyond the pages — a video's length, a
/// font's family, an archive's entry count — as both viewers' cards and `quire info` show it
/// ("Duration", "0:06").
public struct CardRow: Sendable, Hashable {
    public let label: String
    public let value: String

    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}
