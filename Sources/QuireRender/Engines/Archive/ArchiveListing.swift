#if canImport(Glibc)
import Glibc
#endif
internal import CArchive
import QuireTypes

/// What an archive holds, as libarchive lists it (zip, tar with any compression, 7-Zip, RAR,
/// cpio, ar and .deb, ISO images…): entries with sizes, dates and kinds, read from the headers
/// without unpacking anything to disk. Bounded: at most ``maximumEntries`` are listed and at
/// most ``maximumStreamBytes`` of a compressed stream are read to reach them (a tar.gz has to
/// be decompressed to be listed; a gzip bomb stops there, said so).
public struct ArchiveListing: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable { case file, directory, symlink, other }

    public struct Entry: Sendable, Hashable, Codable {
        /// The path as stored (UTF-8; undecodable bytes replaced).
        public var path: String
        public var kind: Kind
        /// Unpacked size in bytes, when the header gives it.
        public var size: Int64?
        /// Modification time, seconds since 1970 (UTC).
        public var modified: Int64?
        /// A symbolic link's target, or a hard link's (``isHardLink``: a path in the archive).
        public var linkTarget: String?
        public var isEncrypted: Bool
        /// A path that would land outside a folder it was unpacked into: absolute, `..`, a
        /// symbolic link that points out, an entry that unpacks through a symbolic link listed
        /// before it (`linkdir -> /tmp`, then `linkdir/x.txt`), or a hard link to a path outside
        /// (`/etc/passwd`).
        public var isUnsafe: Bool
        /// A hard link to ``linkTarget``.
        public var isHardLink = false
    }

    /// libarchive's name for the format ("ZIP 2.0 (deflation)", "GNU tar format"). libarchive
    /// names a zip after the entry it read last (a folder is stored, "uncompressed"): this is
    /// the name it gave the entries that hold data — the one holding the most bytes when they
    /// differ — and the last header's only when no entry holds data.
    public var format: String
    /// Compression filters, outermost first ("gzip"); empty when none.
    public var filters: [String]
    public var entries: [Entry]
    /// Why the listing stops before the end, when it does.
    public var truncation: String?
    /// The archive's size on disk.
    public var packedSize: Int64

    public var totalSize: Int64 { entries.reduce(0) { $0 + ($1.size ?? 0) } }
    public var fileCount: Int { entries.count { $0.kind == .file } }

    /// Entries listed from one archive.
    public static let maximumEntries = 100_000
    /// Bytes of a decompressed stream read to reach the headers.
    public static let maximumStreamBytes: Int64 = 4 << 30

    /// Lists `file`'s entries.
    /// - Throws: ``DocumentError`` `damaged` when libarchive cannot read the archive at all.
    public static func read(_ file: InputFile, maximumEntries: Int = maximumEntries) throws(DocumentError) -> ArchiveListing {
        let reader = try ArchiveReader(file)
        let api = reader.api, handle = reader.handle
        var listing = ArchiveListing(format: "", filters: [], entries: [], truncation: nil, packedSize: file.size)
        // Bytes held by the entries under each of the format names libarchive gave them.
        var bytesByFormat: [(name: String, bytes: Int64)] = []
        while true {
            if listing.entries.count >= maximumEntries {
                listing.truncation = "the listing stops at \(maximumEntries) entries"
                break
            }
            if api.archive_filter_bytes(handle, 0) > maximumStreamBytes {
                listing.truncation = "the listing stops after \(maximumStreamBytes >> 30) GB of unpacked data"
                break
            }
            var header: OpaquePointer?
            let status = api.archive_read_next_header(handle, &header)
            if status == ARCHIVE_EOF { break }
            guard status >= ARCHIVE_WARN, let header else {
                if listing.entries.isEmpty { throw reader.damaged() }
                listing.truncation = "the archive is damaged after entry \(listing.entries.count)"
                break
            }
            let listed = entry(header, api)
            listing.entries.append(listed)
            if listed.kind == .file, let size = listed.size, size > 0,
               let name = api.archive_format_name(handle).map({ String(cString: $0) }) {
                if let slot = bytesByFormat.firstIndex(where: { $0.name == name }) {
                    bytesByFormat[slot].bytes += size
                } else {
                    bytesByFormat.append((name, size))
                }
            }
            _ = api.archive_read_data_skip(handle)
        }
        markEntriesThroughLinks(&listing.entries)
        listing.format = Self.dataFormat(bytesByFormat)
            ?? api.archive_format_name(handle).map { String(cString: $0) } ?? "archive"
        let filterCount = Int(api.archive_filter_count(handle))
        for index in 0..<max(0, filterCount) {
            guard let name = api.archive_filter_name(handle, Int32(index)).map({ String(cString: $0) }), name != "none" else { continue }
            listing.filters.append(name)
        }
        return listing
    }

    /// The format name of the entries holding the most bytes (the first such on a tie), or nil
    /// when no entry holds data.
    static func dataFormat(_ bytesByFormat: [(name: String, bytes: Int64)]) -> String? {
        var best: (name: String, bytes: Int64)?
        for candidate in bytesByFormat where candidate.bytes > (best?.bytes ?? 0) { best = candidate }
        return best?.name
    }

    static func entry(_ header: OpaquePointer, _ api: quire_archive_api) -> Entry {
        let raw = api.archive_entry_pathname_utf8(header).map { String(cString: $0) }
            ?? api.archive_entry_pathname(header).map { String(decoding: Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map(UInt8.init(bitPattern:)), as: UTF8.self) }
            ?? ""
        let kind: Kind
        switch api.archive_entry_filetype(header) {
        case 0o100000: kind = .file
        case 0o040000: kind = .directory
        case 0o120000: kind = .symlink
        default: kind = .other
        }
        let symlinkTarget = kind == .symlink ? api.archive_entry_symlink_utf8(header).map { String(cString: $0) } : nil
        let hardLinkTarget = kind == .symlink ? nil : api.archive_entry_hardlink_utf8(header).map { String(cString: $0) }
        let size = api.archive_entry_size_is_set(header) != 0 ? Int64(api.archive_entry_size(header)) : nil
        let modified = Int64(api.archive_entry_mtime(header))
        return Entry(path: raw, kind: kind, size: kind == .file || kind == .other ? size : nil, modified: modified > 0 ? modified : nil,
                     linkTarget: symlinkTarget ?? hardLinkTarget, isEncrypted: api.archive_entry_is_encrypted(header) > 0,
                     isUnsafe: isUnsafe(path: raw, linkTarget: symlinkTarget) || hardLinkTarget.map(isUnsafeHardLink) == true,
                     isHardLink: hardLinkTarget != nil)
    }

    /// Whether a hard link's target (a path from the folder the archive is unpacked into, as
    /// tar stores it) lies outside that folder: absolute, or climbing out with `..`.
    static func isUnsafeHardLink(_ target: String) -> Bool {
        isUnsafe(path: target, linkTarget: nil)
    }

    /// Marks the entries that would unpack through a symbolic link listed before them: with
    /// `linkdir -> /tmp` unpacked first, `linkdir/x.txt` lands in `/tmp`, wherever the link
    /// seems to point (links can be chained).
    static func markEntriesThroughLinks(_ entries: inout [Entry]) {
        var links = Set<[Substring]>()
        for index in entries.indices {
            let parts = entries[index].path.split(separator: "/").filter { $0 != "." }
            if !entries[index].isUnsafe, parts.count > 1,
               (1..<parts.count).contains(where: { links.contains(Array(parts[0..<$0])) }) {
                entries[index].isUnsafe = true
            }
            if entries[index].kind == .symlink { links.insert(parts) }
        }
    }

    /// Whether unpacking `path` (or following its link) would leave the destination folder.
    static func isUnsafe(path: String, linkTarget: String?) -> Bool {
        if path.hasPrefix("/") { return true }
        var depth = 0
        for part in path.split(separator: "/") {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            if depth < 0 { return true }
        }
        guard let linkTarget else { return false }
        if linkTarget.hasPrefix("/") { return true }
        // The link is resolved from its own folder.
        depth = max(0, path.split(separator: "/").count - 1)
        for part in linkTarget.split(separator: "/") {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            if depth < 0 { return true }
        }
        return false
    }
}

extension ArchiveListing {
    /// The bytes of the entry listed as `path` (the same decoding the listing shows), read
    /// from the archive — nothing written anywhere. Bounded: at most `limit` bytes inflated.
    /// - Throws: ``DocumentError``: `unsupported` when no file entry has that path or it is
    ///   encrypted, `limitExceeded` when it inflates past `limit`, `damaged` when libarchive
    ///   cannot read it.
    public static func contents(of path: String, in file: InputFile, limit: Int) throws(DocumentError) -> [UInt8] {
        let reader = try ArchiveReader(file)
        let api = reader.api, handle = reader.handle
        var seen = 0
        while seen < maximumEntries {
            var header: OpaquePointer?
            let status = api.archive_read_next_header(handle, &header)
            if status == ARCHIVE_EOF { break }
            guard status >= ARCHIVE_WARN, let header else { throw reader.damaged() }
            seen += 1
            let found = entry(header, api)
            guard found.path == path, found.kind == .file else { continue }
            if found.isEncrypted {
                throw DocumentError(kind: .unsupported, path: file.path, reason: "\(path) is encrypted in the archive")
            }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let read = chunk.withUnsafeMutableBytes { api.archive_read_data(handle, $0.baseAddress, $0.count) }
                if read == 0 { break }
                guard read > 0 else { throw reader.damaged() }
                guard bytes.count + read <= limit else {
                    throw DocumentError(kind: .limitExceeded, path: file.path,
                                        reason: "\(path) unpacks to more than \(limit >> 20) MB")
                }
                bytes.append(contentsOf: chunk[0..<read])
            }
            return bytes
        }
        throw DocumentError(kind: .unsupported, path: file.path, reason: "the archive has no file \(path)")
    }
}
