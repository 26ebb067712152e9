/// A file in an archive as a viewer lists it to open: its path as listed, unpacked size and
/// modification time (seconds since 1970, UTC).
public struct ArchiveEntryFact: Sendable, Hashable {
    public let path: String
    public let size: Int64?
    public let modified: Int64?

    public init(path: String, size: Int64?, modified: Int64?) {
        self.path = path
        self.size = size
        self.modified = modified
    }

    /// The last part of the path ("report.pdf" of "docs/report.pdf").
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// "12.3 kB" (SI units, as file managers show sizes).
    public static func sizeText(_ bytes: Int64) -> String { ArchiveListingText.bytes(bytes) }

    /// "2024-05-01 13:45" (UTC), or nil.
    public var modifiedText: String? { modified.map(ArchiveListingText.date) }
}
