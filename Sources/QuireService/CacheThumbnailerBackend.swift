import FoundationEssentials
import Quire
import QuireSystem
import QuireThumbnails
import QuireRenderService
import Synchronization

/// The service's backend: the batch machinery (isolated worker processes, atomic cache writes,
/// failure markers) applied to the URIs of each request, and the cache operations of `Cache1`.
public struct CacheThumbnailerBackend: ThumbnailerBackend {
    public let cache: ThumbnailCache
    public let worker: WorkerCommand
    public let jobs: Int
    public let timeout: Double
    public let supportedMimeTypes: [String]
    public var flavors: [String] { ThumbnailFlavor.allCases.map(\.rawValue) }

    public init(cache: ThumbnailCache = ThumbnailCache(), worker: WorkerCommand,
                jobs: Int = 2, timeout: Double = 15) {
        self.cache = cache
        self.worker = worker
        self.jobs = jobs
        self.timeout = timeout
        self.supportedMimeTypes = SupportedTypes.thumbnailable
    }

    public func thumbnail(uris: [String], flavor: String) async -> [ThumbnailOutcome] {
        guard let flavorValue = ThumbnailFlavor(rawValue: flavor) else {
            return uris.map { ThumbnailOutcome(uri: $0, error: (.unsupported, "unsupported flavor \(flavor)")) }
        }
        var outcomes: [String: ThumbnailOutcome] = [:]
        var canonical: [String: String] = [:]  // requested URI → canonical URI
        var paths: [DocumentPath] = []
        for uri in uris {
            guard let key = ThumbnailKey(uri: uri) else {
                outcomes[uri] = ThumbnailOutcome(uri: uri, error: (.unsupported, "not a local file:// URI"))
                continue
            }
            canonical[uri] = key.uri
            paths.append(key.canonicalPath)
        }
        if !paths.isEmpty {
            let options = BatchOptions(flavors: [flavorValue], jobs: max(1, min(jobs, paths.count)),
                                       timeout: timeout, limits: worker.limits)
            let runner = BatchRunner(options: options, cache: cache, worker: worker)
            let results = ResultBox()
            // The runner blocks (its worker slots wait on child processes): a thread of its own,
            // not one of the cooperative pool's.
            let requested = paths
            _ = await BlockingWork.run {
                runner.run(requested) { event in
                    if case .file(let result) = event { results.append(result) }
                }
            }
            var byURI: [String: BatchFileResult] = [:]
            for result in results.all {
                if let uri = result.uri ?? ThumbnailKey(path: result.path)?.uri { byURI[uri] = result }
            }
            for (requested, key) in canonical {
                outcomes[requested] = Self.outcome(for: requested, result: byURI[key])
            }
        }
        return uris.map { outcomes[$0] ?? ThumbnailOutcome(uri: $0, error: (.failed, "no result")) }
    }

    static func outcome(for uri: String, result: BatchFileResult?) -> ThumbnailOutcome {
        guard let result else { return ThumbnailOutcome(uri: uri, error: (.unreadable, "the file could not be read")) }
        let reason = result.failure?.reason ?? result.status.rawValue
        switch result.failure?.kind {
        case .notFound?, .unreadable?, .notRegular?, .directory?, .invalidPath?:
            return ThumbnailOutcome(uri: uri, error: (.unreadable, reason))
        case .unsupported?:
            return ThumbnailOutcome(uri: uri, error: (.unsupported, reason))
        default:
            break
        }
        switch result.status {
        case .generated, .upToDate, .wouldGenerate:
            return ThumbnailOutcome(uri: uri)
        case .failed:
            return ThumbnailOutcome(uri: uri, error: (.failed, reason))
        case .skipped:
            return ThumbnailOutcome(uri: uri, error: (.failed, reason))
        }
    }

    public func move(from: [String], to: [String]) async {
        for (source, destination) in zip(from, to) {
            guard let old = key(source), let new = key(destination) else { continue }
            _ = try? cache.move(from: old, to: new)
        }
    }

    public func copy(from: [String], to: [String]) async {
        for (source, destination) in zip(from, to) {
            guard let old = key(source), let new = key(destination) else { continue }
            _ = try? cache.copy(from: old, to: new)
        }
    }

    public func delete(uris: [String]) async {
        for uri in uris { if let key = key(uri) { _ = cache.delete(key) } }
    }

    /// Removes entries whose files are gone, for originals at or below `base_uris` (all when
    /// empty) with `Thumb::MTime` at or before `since` (any when 0). Unlike tumbler, thumbnails of
    /// files that still exist are kept whatever the arguments: regenerating them costs the user.
    public func cleanup(baseURIs: [String], since: UInt32) async {
        cache.cleanup(baseURIs: baseURIs, since: Int64(since))
    }

    private func key(_ uri: String) -> ThumbnailKey? {
        ThumbnailKey(uri: uri)
    }
}

/// Collects batch results from the runner's (serial) event handler.
private final class ResultBox: Sendable {
    private let results = Mutex<[BatchFileResult]>([])
    func append(_ result: BatchFileResult) { results.withLock { $0.append(result) } }
    var all: [BatchFileResult] { results.withLock { $0 } }
}
