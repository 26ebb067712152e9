/// The work behind the D-Bus thumbnailer service: making thumbnails into the freedesktop cache
/// and keeping the cache in step with renamed and deleted files.
public protocol ThumbnailerBackend: Sendable {
    /// MIME types the backend can thumbnail (answered by `GetSupported`).
    var supportedMimeTypes: [String] { get }
    /// Flavors (`normal`, `large`, …) the backend writes.
    var flavors: [String] { get }
    /// Thumbnails each URI into the cache for `flavor`; one outcome per URI, in order.
    func thumbnail(uris: [String], flavor: String) async -> [ThumbnailOutcome]
    /// Moves cache entries from the old URIs to the new ones (files renamed).
    func move(from: [String], to: [String]) async
    /// Copies cache entries (files copied).
    func copy(from: [String], to: [String]) async
    /// Deletes cache entries of these URIs.
    func delete(uris: [String]) async
    /// Deletes entries under the base URIs whose files are gone (or, with `since` > 0, older
    /// than `since` seconds since the epoch).
    func cleanup(baseURIs: [String], since: UInt32) async
}

/// The result of thumbnailing one URI.
public struct ThumbnailOutcome: Sendable, Equatable {
    /// Error codes sent in the `Error` signal.
    public enum Code: Int32, Sendable {
        /// The URI scheme or file type is not supported.
        case unsupported = 1
        /// The file could not be read (missing, not a regular file, permission).
        case unreadable = 2
        /// The content is damaged or could not be rendered.
        case failed = 3
    }

    public let uri: String
    /// nil on success.
    public let error: (code: Code, message: String)?

    public init(uri: String, error: (code: Code, message: String)? = nil) {
        self.uri = uri
        self.error = error
    }

    public static func == (lhs: ThumbnailOutcome, rhs: ThumbnailOutcome) -> Bool {
        lhs.uri == rhs.uri && lhs.error?.code == rhs.error?.code && lhs.error?.message == rhs.error?.message
    }
}
