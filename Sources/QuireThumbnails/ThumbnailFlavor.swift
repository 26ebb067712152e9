/// A thumbnail size class of the freedesktop Thumbnail Managing Standard 0.9.
///
/// Each flavor has its own directory under the cache root and a maximum edge length in pixels.
public enum ThumbnailFlavor: String, Sendable, Hashable, CaseIterable, Codable {
    case normal
    case large
    case xLarge = "x-large"
    case xxLarge = "xx-large"

    /// Maximum width and height in pixels: 128, 256, 512 or 1024.
    public var pixelSize: Int {
        switch self {
        case .normal: return 128
        case .large: return 256
        case .xLarge: return 512
        case .xxLarge: return 1024
        }
    }

    /// The directory name under `$XDG_CACHE_HOME/thumbnails`.
    public var directoryName: String { rawValue }

    /// Parses a command-line name (`normal`, `large`, `x-large`, `xx-large`).
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }
}
