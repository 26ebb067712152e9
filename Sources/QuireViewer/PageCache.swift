import Quire
import QuireRenderService

/// Rendered pages kept for reuse, least recently used dropped first, bounded in bytes so
/// paging through a 1000-page document keeps memory flat.
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

    public let byteLimit: Int
    private var images: [Key: RenderedImage] = [:]
    private var order: [Key] = []  // least recently used first
    public private(set) var byteCount = 0

    public init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    public var count: Int { images.count }

    public mutating func image(for key: Key) -> RenderedImage? {
        guard let image = images[key] else { return nil }
        if let index = order.firstIndex(of: key) { order.remove(at: index) }
        order.append(key)
        return image
    }

    public func contains(_ key: Key) -> Bool { images[key] != nil }

    public mutating func insert(_ image: RenderedImage, for key: Key) {
        if let old = images.updateValue(image, forKey: key) {
            byteCount -= old.pixels.count
            order.removeAll { $0 == key }
        }
        order.append(key)
        byteCount += image.pixels.count
        // Keep at least the newest image, even if it alone is over the limit.
        while byteCount > byteLimit, order.count > 1 {
            let oldest = order.removeFirst()
            if let dropped = images.removeValue(forKey: oldest) { byteCount -= dropped.pixels.count }
        }
    }

    public mutating func removeAll(file: Int) {
        for key in order where key.file == file {
            if let dropped = images.removeValue(forKey: key) { byteCount -= dropped.pixels.count }
        }
        order.removeAll { $0.file == file }
    }
}
