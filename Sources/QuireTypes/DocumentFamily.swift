/// The families of documents Quire knows how to handle, each served by one renderer.
/// Derived from the content type's is-a relations, never from file extensions.
public enum DocumentFamily: String, Sendable, Hashable, Codable, CaseIterable {
    case pdf
    case postscript
    case svg
    case image
    case text
    /// Office documents (Word, Excel, PowerPoint, OpenDocument, RTF, iWork): every page through
    /// LibreOffice when it is installed, else the preview image zip-based ones may carry.
    case officeDocument = "office-document"
    /// EPUB books: the cover, then the chapters in reading order.
    case ebook
    /// DjVu documents (scanned books and papers): every page, the hidden text layer.
    case djvu
    /// E-mail messages (`.eml`, a single-message mbox): headers, text, the attachment list.
    case mail
    /// Comic-book archives (CBZ, CBR, CB7, CBT): the images as pages in natural name order.
    case comicBook = "comic-book"
    /// Fonts: TrueType, OpenType, WOFF, collections, PostScript Type 1 (a specimen per face).
    case font
    /// Archives: zip, tar (plain or compressed), 7-Zip, RAR, .deb, cpio, ISO images (a listing).
    case archive
    /// Video (GStreamer): a poster frame and frames across the duration.
    case video
    /// Audio (GStreamer): the cover art, else a card of its tags.
    case audio
    /// Jupyter notebooks (nbformat 4): cells in order, outputs with their pictures.
    case notebook
    /// JSON documents (and its subtypes: GeoJSON, glTF, notebooks…): pretty-printed, foldable.
    case json
    /// Markdown (CommonMark with GitHub's extensions): rendered pages, styled text in a terminal.
    case markdown
    /// SQLite databases (read-only and immutable: the table list and each table's first rows).
    case database
    /// Empty files.
    case empty
    /// Anything else (archives, executables, unknown data).
    case other

    /// Base types whose subtypes belong to a family, checked in order with `is-a`.
    static let baseTypes: [(DocumentFamily, [String])] = [
        (.empty, ["application/x-zerosize"]),
        (.pdf, ["application/pdf"]),
        // Before PostScript: a Type 1 font (.pfa/.t1) is-a application/postscript.
        (.font, ["font/ttf", "font/otf", "font/woff", "font/woff2", "font/collection", "application/x-font-type1"]),
        (.postscript, ["application/postscript", "image/x-eps"]),
        (.svg, ["image/svg+xml", "image/svg+xml-compressed"]),
        (.ebook, ["application/epub+zip"]),
        (.mail, ["message/rfc822", "application/mbox"]),
        (.database, ["application/vnd.sqlite3"]),
        (.notebook, ["application/x-ipynb+json"]),
        (.json, ["application/json"]),
        (.markdown, ["text/markdown"]),
        (.djvu, ["image/vnd.djvu", "image/vnd.djvu+multipage"]),
        (.comicBook, ["application/vnd.comicbook+zip", "application/vnd.comicbook-rar", "application/x-cb7", "application/x-cbt"]),
        (.officeDocument, [
            "application/vnd.apple.pages", "application/vnd.apple.keynote", "application/vnd.apple.numbers",
            "application/x-iwork-pages-sffpages", "application/x-iwork-keynote-sffkey",
            "application/x-iwork-numbers-sffnumbers",
            // Legacy binary Office formats and RTF: LibreOffice reads them (no preview image inside).
            "application/msword", "application/msword-template", "application/rtf",
        ]),
    ]

    /// Archive types whose subtypes are archives too — checked after every family above and the
    /// office prefixes, because OOXML, OpenDocument, EPUB and comic books are zip files as well.
    static let archiveTypes = [
        "application/zip", "application/x-tar", "application/x-compressed-tar", "application/x-bzip-compressed-tar",
        "application/x-bzip2-compressed-tar", "application/x-xz-compressed-tar", "application/x-zstd-compressed-tar",
        "application/x-lzma-compressed-tar", "application/x-lz4-compressed-tar", "application/x-lzip-compressed-tar",
        "application/x-7z-compressed", "application/vnd.rar", "application/x-rar", "application/x-cpio",
        "application/vnd.debian.binary-package", "application/x-rpm", "application/x-archive",
        "application/x-iso9660-image", "application/java-archive", "application/x-xar", "application/x-lha",
        "application/x-cd-image",
        // Single compressed files: a tar inside is listed as a tar (GNOME's thumbnail sandbox
        // names its copy of a .tar.gz "….gz"); anything else as its one entry.
        "application/gzip", "application/x-bzip", "application/x-bzip2", "application/x-xz", "application/zstd",
        "application/x-lzma", "application/x-lz4", "application/x-lzip", "application/x-compress",
    ]

    /// Vendor prefixes of the office container formats (OpenDocument, Office Open XML).
    static let officePrefixes = [
        "application/vnd.oasis.opendocument.",
        "application/vnd.openxmlformats-officedocument.",
        "application/vnd.ms-word", "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
    ]

    /// Whether an office type is a zip container that may carry a preview image (OpenDocument,
    /// OOXML, iWork) rather than a format that never does (.doc, .xls, .ppt, RTF, and flat
    /// OpenDocument — `.fodt .fods .fodp .fodg`, one XML file, no zip).
    public static func carriesPreviewImage(_ mimeType: String) -> Bool {
        if mimeType.hasSuffix("-flat-xml") { return false }
        return mimeType.hasPrefix("application/vnd.oasis.opendocument.")
            || mimeType.hasPrefix("application/vnd.openxmlformats-officedocument.")
            || mimeType.lowercased().contains("macroenabled")   // .docm, .xlsm, .pptm: OOXML zips
            || mimeType.contains("apple") || mimeType.contains("iwork")
    }
}
