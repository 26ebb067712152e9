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
    /// EPUB books (cover image from the OPF manifest).
    case ebook
    /// Comic-book archives (first image in name order).
    case comicBook = "comic-book"
    /// Empty files.
    case empty
    /// Anything else (archives, executables, unknown data).
    case other

    /// Base types whose subtypes belong to a family, checked in order with `is-a`.
    static let baseTypes: [(DocumentFamily, [String])] = [
        (.empty, ["application/x-zerosize"]),
        (.pdf, ["application/pdf"]),
        (.postscript, ["application/postscript", "image/x-eps"]),
        (.svg, ["image/svg+xml", "image/svg+xml-compressed"]),
        (.ebook, ["application/epub+zip"]),
        (.comicBook, ["application/vnd.comicbook+zip"]),
        (.officeDocument, [
            "application/vnd.apple.pages", "application/vnd.apple.keynote", "application/vnd.apple.numbers",
            "application/x-iwork-pages-sffpages", "application/x-iwork-keynote-sffkey",
            "application/x-iwork-numbers-sffnumbers",
            // Legacy binary Office formats and RTF: LibreOffice reads them (no preview image inside).
            "application/msword", "application/msword-template", "application/rtf",
        ]),
    ]

    /// Vendor prefixes of the office container formats (OpenDocument, Office Open XML).
    static let officePrefixes = [
        "application/vnd.oasis.opendocument.",
        "application/vnd.openxmlformats-officedocument.",
        "application/vnd.ms-word", "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
    ]

    /// Whether an office type is a zip container that may carry a preview image (OpenDocument,
    /// OOXML, iWork) rather than a format that never does (.doc, .xls, .ppt, RTF).
    public static func carriesPreviewImage(_ mimeType: String) -> Bool {
        mimeType.hasPrefix("application/vnd.oasis.opendocument.")
            || mimeType.hasPrefix("application/vnd.openxmlformats-officedocument.")
            || mimeType.lowercased().contains("macroenabled")   // .docm, .xlsm, .pptm: OOXML zips
            || mimeType.contains("apple") || mimeType.contains("iwork")
    }
}
