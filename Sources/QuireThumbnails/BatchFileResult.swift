import QuireRenderService
import QuireTypes

/// What happened to one file of a batch.
public struct BatchFileResult: Sendable {
    public enum Status: String, Sendable, Codable {
        /// Thumbnails were written.
        case generated
        /// Every requested flavor was already current (or a shared thumbnail was).
        case upToDate = "up-to-date"
        /// Rendering failed, crashed or timed out; a failure marker was written.
        case failed
        /// Not attempted: hidden, too large, empty, inside the cache, outside the shard, a
        /// known failure, an unsupported type, or the run was cancelled.
        case skipped
        /// `--dry-run`: would be generated.
        case wouldGenerate = "would-generate"
    }

    /// The file as found (canonical absolute path).
    public let path: DocumentPath
    public let status: Status
    /// Why the file failed or was skipped (nil when it was not).
    public let failure: ThumbnailFailure?
    /// For `wouldGenerate`: what would be generated.
    public let detail: String?
    /// Cache files written (or, when up to date, found).
    public let thumbnails: [String]
    /// Size of the original in bytes.
    public let size: Int64
    /// The file's canonical `file://` URI (lossless, unlike a display of ``path``), when known.
    public let uri: String?

    public init(path: DocumentPath, status: Status, failure: ThumbnailFailure? = nil, detail: String? = nil,
                thumbnails: [String] = [], size: Int64 = 0, uri: String? = nil) {
        self.path = path
        self.status = status
        self.failure = failure
        self.detail = detail
        self.thumbnails = thumbnails
        self.size = size
        self.uri = uri
    }

    /// The failure's stable word for scripts (`timeout`, `crash`, `damaged`, `too-large`…).
    public var kind: String? { failure?.kind.rawValue }
}
