import QuireRender
import QuireTypes

/// Why one file of the thumbnail pipeline got no thumbnail: a stable ``Kind`` for scripts, a
/// reason for the user that says what went wrong, and — when changing a setting would change the
/// outcome — which setting (``Remedy``). The same value is thrown by renderers, carried over the
/// worker pipe, reported by the pool and recorded in batch results; front-ends turn the remedy
/// into their own words (the CLI names its flag).
public struct ThumbnailFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable word for scripts (`timeout`, `crash`, `damaged`, `too-large`, `known-failure`…).
    /// Its raw value is what `--json` prints and what the worker pipe carries.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A document failure (`damaged`, `unsupported`, `password-required`, `limit-exceeded`…).
        public init(_ document: DocumentError.Kind) { rawValue = document.rawValue }
        /// The file could not be opened or read: `input-not-found`, `input-too-large`…
        public init(input: InputError.Kind) { rawValue = "input-" + input.rawValue }

        public var description: String { rawValue }

        // Rendering, in the worker.
        /// No renderer for this type: the file is skipped, not failed.
        public static let unsupported = Kind(DocumentError.Kind.unsupported)
        /// Rendering failed for a reason no more specific kind covers.
        public static let render = Kind(rawValue: "render")
        /// The rendered image could not be encoded as a PNG.
        public static let encoding = Kind(rawValue: "encoding")
        /// The answer of a worker started as a sandbox probe (tests).
        public static let probe = Kind(rawValue: "probe")

        // The worker process, seen by the pool.
        /// The file took longer than the per-file time limit; its worker was killed.
        public static let timeout = Kind(rawValue: "timeout")
        /// The worker died (signal, CPU or memory limit) or answered garbage.
        public static let crash = Kind(rawValue: "crash")
        /// No worker could be started, so the file was not tried.
        public static let workerUnavailable = Kind(rawValue: "worker-unavailable")
        /// The batch was cancelled before the file was done.
        public static let cancelled = Kind(rawValue: "cancelled")

        // The walk of a batch.
        public static let invalidPath = Kind(rawValue: "invalid-path")
        public static let notFound = Kind(rawValue: "not-found")
        public static let unreadable = Kind(rawValue: "unreadable")
        public static let directory = Kind(rawValue: "directory")
        public static let notRegular = Kind(rawValue: "not-regular")
        public static let insideCache = Kind(rawValue: "inside-cache")
        public static let empty = Kind(rawValue: "empty")
        public static let tooLarge = Kind(rawValue: "too-large")

        // The cache.
        /// A failure marker says the unchanged file failed before.
        public static let knownFailure = Kind(rawValue: "known-failure")
        /// The thumbnail could not be written into the cache.
        public static let cacheWrite = Kind(rawValue: "cache-write")
        /// The cache directories cannot be written: nothing was rendered.
        public static let cacheUnwritable = Kind(rawValue: "cache-unwritable")

        /// The file vanished or became unreadable: not "known bad", so no failure marker.
        package var isTransient: Bool {
            self == Kind(input: .notFound) || self == Kind(input: .permissionDenied) || self == .workerUnavailable
        }
    }

    public var kind: Kind
    /// What went wrong, for the user (names no setting: see ``remedy``).
    public var reason: String
    public var remedy: Remedy?
    /// The document or input error it was made from, on the in-process road.
    public private(set) var underlying = UnderlyingError(nil)

    public init(_ kind: Kind, _ reason: String, remedy: Remedy? = nil) {
        self.kind = kind
        self.reason = reason
        self.remedy = remedy
    }

    /// A document failure (from the renderer) in this vocabulary.
    public init(_ error: DocumentError) {
        self.init(Kind(error.kind), error.reason, remedy: error.remedy)
        underlying = UnderlyingError(error)
    }

    /// A failure to open or read the input in this vocabulary.
    public init(_ error: InputError) {
        self.init(Kind(input: error.kind), error.reason, remedy: error.remedy)
        underlying = UnderlyingError(error)
    }

    public var description: String { reason }
}
