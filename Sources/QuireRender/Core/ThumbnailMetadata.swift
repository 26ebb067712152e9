/// The tEXt keys of a freedesktop thumbnail: `Thumb::URI` and `Thumb::MTime` are required,
/// the others optional.
public struct ThumbnailMetadata: Sendable, Hashable {
    /// `Thumb::URI`: the canonical URI of the original file.
    public var uri: String
    /// `Thumb::MTime`: the original's modification time in whole seconds since 1970.
    public var modificationTime: Int64
    /// `Thumb::Size`: the original's size in bytes.
    public var size: Int64?
    /// `Thumb::Mimetype`.
    public var mimeType: String?
    /// `Software`: the program that made the thumbnail.
    public var software: String?
    /// `Thumb::Image::Width` / `Thumb::Image::Height`: the original image's pixel size.
    public var imageWidth: Int?
    public var imageHeight: Int?
    /// `Thumb::Document::Pages`.
    public var pageCount: Int?

    public init(uri: String, modificationTime: Int64, size: Int64? = nil, mimeType: String? = nil,
                software: String? = nil, imageWidth: Int? = nil, imageHeight: Int? = nil, pageCount: Int? = nil) {
        self.uri = uri
        self.modificationTime = modificationTime
        self.size = size
        self.mimeType = mimeType
        self.software = software
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.pageCount = pageCount
    }

    /// The keys in the order they are written.
    public var textEntries: [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = [("Thumb::URI", uri), ("Thumb::MTime", String(modificationTime))]
        if let size { entries.append(("Thumb::Size", String(size))) }
        if let mimeType { entries.append(("Thumb::Mimetype", mimeType)) }
        if let software { entries.append(("Software", software)) }
        if let imageWidth { entries.append(("Thumb::Image::Width", String(imageWidth))) }
        if let imageHeight { entries.append(("Thumb::Image::Height", String(imageHeight))) }
        if let pageCount { entries.append(("Thumb::Document::Pages", String(pageCount))) }
        return entries
    }

    /// Reads the keys back from tEXt chunks; nil when a required key is missing.
    public init?(text: [String: String]) {
        guard let uri = text["Thumb::URI"], let mtime = text["Thumb::MTime"].flatMap({ Int64($0) }) else { return nil }
        self.init(uri: uri, modificationTime: mtime, size: text["Thumb::Size"].flatMap { Int64($0) },
                  mimeType: text["Thumb::Mimetype"], software: text["Software"],
                  imageWidth: text["Thumb::Image::Width"].flatMap { Int($0) },
                  imageHeight: text["Thumb::Image::Height"].flatMap { Int($0) },
                  pageCount: text["Thumb::Document::Pages"].flatMap { Int($0) })
    }

    /// Whether a thumbnail with this metadata is current for a file with the given mtime and
    /// size (the Size key is compared only when present).
    public func isCurrent(modificationTime mtime: Int64, size fileSize: Int64) -> Bool {
        modificationTime == mtime && (size == nil || size == fileSize)
    }
}
