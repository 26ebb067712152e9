import Quire
import QuireRenderService

/// Rendered pages kept for reuse by file, page and size (``RecentlyUsed``: least recently used
/// dropped first, bounded in bytes).
public struct PageCache: Sendable {
    /// One rendered page: which file, which page, at which pixel size.
    public struct Key: Sendable, Hashable {
        public let file: Int
        public let page: Int
        public let width: Int
        public let height: Int
        /// What the page was rendered for (a print preview of text is another page).
        public let purpose: Int
        /// The composed job, when `page` is one of its sides.
        public let sheet: SheetRequest?

        public init(file: Int, page: Int, width: Int, height: Int, purpose: Int = 0, sheet: SheetRequest? = nil) {
            self.file = file
            self.page = page
            self.width = width
            self.height = height
            self.purpose = purpose
            self.sheet = sheet
        }
    }

    private var images: RecentlyUsed<Key, RenderedImage>

    public init(byteLimit: Int) {
        images = RecentlyUsed(byteLimit: byteLimit)
    }

    public var byteLimit: Int { images.byteLimit }
    public var byteCount: Int { images.byteCount }
    public var count: Int { images.count }

    public mutating func image(for key: Key) -> RenderedImage? { images.use(key) }

    public func contains(_ key: Key) -> Bool { images.contains(key) }

    public mutating func insert(_ image: RenderedImage, for key: Key) {
        images.insert(image, bytes: image.pixels.count, for: key)
    }

    public mutating func removeAll(file: Int) {
        images.removeAll { $0.file == file }
    }
}
