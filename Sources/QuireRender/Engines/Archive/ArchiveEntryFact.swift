/// A file in an archive as a viewer lists it to open: its path as listed, unpacked size and
/// modification time (seconds since 1970, UTC).
public struct ArchiveEntryFact: Sendable, Hashable {
    public let path: String
    public let size: Int64?
    public let modified: Int64?
    /// What the entry is, said in a list instead of its size and date, for an entry that is not
    /// a file (a database's table: "table · 1,204 rows"); nil for an archive's files.
    public var summary: String? = nil

    public init(path: String, size: Int64?, modified: Int64?) {
        self.path = path
        self.size = size
        self.modified = modified
    }

    /// The last part of the path ("report.pdf" of "docs/report.pdf").
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The name the entry's bytes are opened under: an archive file's own name; a database
    /// table's text, its name with "/" made "_" and ".txt" added (the bytes are its text).
    public var fileName: String {
        summary == nil ? name : path.replacing("/", with: "_") + ".txt"
    }

    /// "12.3 kB" (SI units, as file managers show sizes).
    public static func sizeText(_ bytes: Int64) -> String { ArchiveListingText.bytes(bytes) }

    /// "2024-05-01 13:45" (UTC), or nil.
    public var modifiedText: String? { modified.map(ArchiveListingText.date) }
}
