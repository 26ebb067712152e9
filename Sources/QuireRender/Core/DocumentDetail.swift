/// One fact an engine knows of a document beyond its pages — a video's length, a font's
/// family, an archive's entry count — for the card both viewers show ("Duration", "0:06").
public struct DocumentDetail: Sendable, Hashable {
    public let label: String
    public let value: String

    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}
