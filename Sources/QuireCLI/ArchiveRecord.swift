import Quire

/// An archive in `info --json`: what it holds in sum (the listing itself is `quire preview`'s).
struct ArchiveRecord: Encodable {
    var format: String
    var filters: [String]
    var entries: Int
    var files: Int
    var folders: Int
    var unpackedSize: Int64
    var packedSize: Int64
    var unsafeEntries: Int
    var encryptedEntries: Int
    /// Why the listing stopped early, when it did.
    var truncation: String?

    init(_ listing: ArchiveListing) {
        format = listing.format
        filters = listing.filters
        entries = listing.entries.count
        files = listing.fileCount
        folders = listing.entries.count { $0.kind == .directory }
        unpackedSize = listing.totalSize
        packedSize = listing.packedSize
        unsafeEntries = listing.entries.count { $0.isUnsafe }
        encryptedEntries = listing.entries.count { $0.isEncrypted }
        truncation = listing.truncation
    }
}
