import FoundationEssentials
import QuireThumbnails

/// JSON Lines records of `thumbnail --batch --json`: one `file` object per file, then one
/// `summary` object.
enum BatchRecord {
    struct File: Encodable {
        let event = "file"
        let path: String
        let status: String
        let kind: String?
        let reason: String?
        let thumbnails: [String]
        let size: Int64
        let uri: String?
    }

    struct Summary: Encodable {
        struct Sandbox: Encodable {
            let used: Bool
            let kind: String
            let reason: String?
            /// Set when bubblewrap was wanted but is missing or broken: workers ran under
            /// resource limits only.
            let notice: String?
        }
        let event = "summary"
        let generated: Int
        let upToDate: Int
        let failed: Int
        let skipped: Int
        let wouldGenerate: Int
        let skippedByKind: [String: Int]
        /// The record `--merge-summaries` reads back.
        let failures: [SummaryMerger.ShardSummary.Failure]
        let elapsedSeconds: Double
        let filesPerSecond: Double
        let cancelled: Bool
        let workers: Int
        let workersStarted: Int
        let workerProblem: String?
        let cacheProblem: String?
        let sandbox: Sandbox
        let cache: String
        let flavors: [String]
        /// The share of the files this run took (`--shard`), and where it came from.
        let shard: SummaryMerger.ShardSummary.Shard?
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func line(_ value: some Encodable) -> String {
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func file(_ result: BatchFileResult) -> String {
        line(File(path: result.path.string, status: result.status.rawValue, kind: result.kind, reason: result.failure?.hinted ?? result.detail,
                  thumbnails: result.thumbnails, size: result.size, uri: result.uri))
    }

    static func summary(_ summary: BatchSummary, jobs: Int, cache: ThumbnailCache, flavors: [ThumbnailFlavor],
                        shard: ShardResolver.Resolved? = nil) -> String {
        line(Summary(
            generated: summary.generated, upToDate: summary.upToDate, failed: summary.failed, skipped: summary.skipped,
            wouldGenerate: summary.wouldGenerate, skippedByKind: summary.skippedByKind,
            failures: summary.failures.map { SummaryMerger.ShardSummary.Failure(path: $0.path, kind: $0.failure.kind.rawValue, reason: $0.failure.hinted) },
            elapsedSeconds: (summary.elapsed * 1000).rounded() / 1000,
            filesPerSecond: (summary.filesPerSecond * 10).rounded() / 10,
            cancelled: summary.cancelled, workers: jobs, workersStarted: summary.workersStarted,
            workerProblem: summary.workerProblem,
            cacheProblem: summary.cacheProblem,
            sandbox: Summary.Sandbox(used: summary.sandbox.isActive,
                                     kind: summary.sandbox.isActive ? "bubblewrap" : "none",
                                     reason: summary.sandbox.reasonUnavailable,
                                     notice: summary.sandbox.degradedNotice),
            cache: cache.root, flavors: flavors.map(\.rawValue),
            shard: shard.map { .init(index: $0.spec.index, count: $0.spec.count, source: $0.source.rawValue) }))
    }
}
