import QuireRenderService
/// Totals of a batch run.
public struct BatchSummary: BatchCounts, Sendable {
    /// Files whose thumbnails were written.
    public var generated = 0
    /// Files whose thumbnails (every requested flavor) were already current.
    public var upToDate = 0
    /// Files that failed (render error, crash, timeout, cache write).
    public var failed = 0
    /// Files not attempted (see ``skippedByKind``).
    public var skipped = 0
    /// `--dry-run`: files that would be generated.
    public var wouldGenerate = 0
    /// Failures as (display path, why), in the order they happened.
    public var failures: [(path: String, failure: ThumbnailFailure)] = []
    /// Skips by reason kind (e.g. `hidden`, `too-large`), with counts.
    public var skippedByKind: [String: Int] = [:]
    public var elapsed: Double = 0
    public var cancelled = false
    public var workersStarted = 0
    /// Set when worker processes could not be started; the batch stopped early.
    public var workerProblem: String?
    /// Set when the cache could not be written; nothing was rendered.
    public var cacheProblem: String?
    public var sandbox: WorkerSandbox = .disabled("not started")

    public init() {}

    /// Files handled per second of elapsed time.
    public var filesPerSecond: Double { elapsed > 0 ? Double(total) / elapsed : 0 }

    mutating func record(_ result: BatchFileResult) {
        switch result.status {
        case .generated: generated += 1
        case .upToDate: upToDate += 1
        case .wouldGenerate: wouldGenerate += 1
        case .failed:
            failed += 1
            failures.append((result.path.description, result.failure ?? ThumbnailFailure(.render, "failed")))
        case .skipped:
            skipped += 1
            skippedByKind[result.failure?.kind.rawValue ?? "other", default: 0] += 1
        }
    }
}
