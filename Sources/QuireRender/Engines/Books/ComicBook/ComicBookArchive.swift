internal import CArchive
import QuireTypes

/// The entries of a comic-book archive (`.cbz` zip, `.cbr` RAR, `.cb7` 7-Zip, `.cbt` tar),
/// read with libarchive: the image entries as pages in natural name order, the start of each
/// (its header: size and orientation) and `ComicInfo.xml`, in one pass; later, one page's bytes.
/// Entry names are only compared, never used as file names. Bounded: the entry count by
/// ``RenderLimits/maximumArchiveEntries``, a page's bytes by
/// ``RenderLimits/maximumInflatedBytes`` (zip bombs), the start of a page by ``headerBytes``.
struct ComicBookArchive {
    /// An image entry: where it is in the archive and the first bytes of it.
    struct Page {
        let name: String
        /// Its position among the archive's entries (names may repeat).
        let ordinal: Int
        let header: [UInt8]
    }

    let file: InputFile
    let limits: RenderLimits
    /// The pages, in natural name order ("page2" before "page10").
    private(set) var pages: [Page] = []
    /// `ComicInfo.xml` (the ComicRack metadata most comic archives carry), when present.
    private(set) var comicInfo: [UInt8]?

    /// Bytes read from the start of each page to learn its size: enough for a JPEG's EXIF block
    /// before its frame header.
    static let headerBytes = 128 << 10
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "avif", "jxl", "heic"]

    /// Reads the list of pages and (when `readingHeaders`) the start of each.
    /// - Throws: `damaged` when libarchive cannot read the archive, `limitExceeded` past the
    ///   entry limit, `unsupported` when it holds no image.
    init(file: InputFile, limits: RenderLimits, readingHeaders: Bool = true) throws(DocumentError) {
        self.file = file
        self.limits = limits
        let reader = try ArchiveReader(file, rawStreams: false)
        var ordinal = 0
        var found: [Page] = []
        var encrypted = false
        while true {
            var header: OpaquePointer?
            let status = reader.api.archive_read_next_header(reader.handle, &header)
            if status == ARCHIVE_EOF { break }
            guard status >= ARCHIVE_WARN, let header else {
                if found.isEmpty { throw reader.damaged() }
                break   // the pages before the damage are shown
            }
            ordinal += 1
            if ordinal > limits.maximumArchiveEntries {
                throw DocumentError(kind: .limitExceeded, path: file.path,
                                    reason: "comic book has " + Limit.entries.exceeded(limits.maximumArchiveEntries, "entries"),
                                    remedy: .raise(.entries))
            }
            let entry = ArchiveListing.entry(header, reader.api)
            guard entry.kind == .file else { continue }
            if entry.path == "ComicInfo.xml" || entry.path.hasSuffix("/ComicInfo.xml") {
                comicInfo = try? Self.readData(reader, limit: 1 << 20, name: entry.path, path: file.path)
                continue
            }
            guard Self.isPage(entry.path) else { continue }
            if entry.isEncrypted { encrypted = true; continue }
            let start = readingHeaders
                ? (try? Self.readData(reader, limit: Self.headerBytes, name: entry.path, path: file.path, cut: true)) ?? [] : []
            found.append(Page(name: entry.path, ordinal: ordinal, header: start))
        }
        guard !found.isEmpty else {
            throw DocumentError(kind: .unsupported, path: file.path,
                                reason: encrypted ? "the comic book's pages are encrypted" : "the comic book holds no image")
        }
        pages = found.sorted { NaturalNameOrder.areInIncreasingOrder($0.name, $1.name) }
    }

    /// An image entry that is a page: by extension, not hidden, not a macOS resource fork (an
    /// EPUB's first image is chosen the same way when it names no cover).
    static func isPage(_ name: String) -> Bool {
        let components = name.split(separator: "/")
        guard let last = components.last, !last.hasPrefix("."), !components.contains("__MACOSX") else { return false }
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return false }
        return imageExtensions.contains(last[last.index(after: dot)...].lowercased())
    }

    /// The whole of `page`, at most ``RenderLimits/maximumInflatedBytes``.
    func contents(of page: Page) throws(DocumentError) -> [UInt8] {
        let reader = try ArchiveReader(file, rawStreams: false)
        var ordinal = 0
        while true {
            var header: OpaquePointer?
            let status = reader.api.archive_read_next_header(reader.handle, &header)
            guard status != ARCHIVE_EOF else { break }
            guard status >= ARCHIVE_WARN, header != nil else { throw reader.damaged() }
            ordinal += 1
            if ordinal == page.ordinal {
                return try Self.readData(reader, limit: limits.maximumInflatedBytes, name: page.name, path: file.path)
            }
            _ = reader.api.archive_read_data_skip(reader.handle)
        }
        throw DocumentError(kind: .damaged, path: file.path, reason: "the archive changed while it was shown")
    }

    /// The current entry's data: refused past `limit` bytes, or cut there when `cut`.
    private static func readData(_ reader: ArchiveReader, limit: Int, name: String, path: DocumentPath,
                                 cut: Bool = false) throws(DocumentError) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count < limit || !cut {
            let read = chunk.withUnsafeMutableBytes { reader.api.archive_read_data(reader.handle, $0.baseAddress, $0.count) }
            if read == 0 { break }
            guard read > 0 else { throw reader.damaged() }
            if cut {
                data.append(contentsOf: chunk[0..<min(read, limit - data.count)])
                continue
            }
            guard data.count + read <= limit else {
                throw DocumentError(kind: .limitExceeded, path: path,
                                    reason: "zip bomb? \(TerminalEscaping.escaped(Array(name.utf8))) inflates to "
                                        + Limit.inflatedSize.exceeded(limit, "bytes"),
                                    remedy: .raise(.inflatedSize))
            }
            data.append(contentsOf: chunk[0..<read])
        }
        return data
    }
}
