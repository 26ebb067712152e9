#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes
import Synchronization
import QuireSystem
import QuireRenderService

/// Runs a batch: walks the paths, skips what is current (or known to fail), sends the rest —
/// largest first — to a pool of sandboxed, long-lived worker processes, and writes what they
/// return into the cache atomically. A file that fails, crashes its worker or times out is
/// recorded with a failure marker and the batch goes on.
public final class BatchRunner: Sendable {
    public let options: BatchOptions
    public let cache: ThumbnailCache
    let worker: WorkerCommand
    private let givenSandbox: WorkerSandbox?

    /// What the run shares with `cancel()` and the pool's slot threads.
    private struct State {
        var summary = BatchSummary()
        var cancelled = false
        var pool: WorkerPool?
        var usedSandbox: WorkerSandbox?
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - worker: how to start one worker (normally the running `quire` with the render
    ///     service's hidden word); the batch's limits (``BatchOptions/limits``) replace its own.
    ///   - sandbox: the confinement of workers; detected when nil (and `useSandbox`).
    public init(options: BatchOptions, cache: ThumbnailCache, worker: WorkerCommand, sandbox: WorkerSandbox? = nil) {
        self.options = options
        self.cache = cache
        self.worker = worker
        self.givenSandbox = sandbox
    }

    /// Stops the batch: no new files are started, running workers are killed, and `run`
    /// returns its summary (with `cancelled` set). Safe to call from a signal-handling queue.
    public func cancel() {
        let pool = state.withLock { state in
            state.cancelled = true
            return state.pool
        }
        pool?.cancel()
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Why no thumbnail can be made of `path`'s type (an unknown binary, an empty file), or nil
    /// when its type has one (or the file cannot be read here: the run would say why).
    static func unthumbnailableReason(_ path: DocumentPath) -> String? {
        guard let file = try? InputFile(path: path, allowEmpty: true), let type = try? ContentType.detect(file) else { return nil }
        if case .unsupported(let reason) = type.capabilities.thumbnail {
            return reason
        }
        return nil
    }

    private struct Pending {
        var key: ThumbnailKey
        var size: Int64
        var modificationTime: Int64
        var flavors: [ThumbnailFlavor]
    }

    /// Runs the batch over `paths`, calling `onEvent` for each event (serially).
    public func run(_ paths: [DocumentPath], onEvent: @escaping @Sendable (BatchEvent) -> Void) -> BatchSummary {
        let start = Date()
        let (found, handled) = plan(paths, onEvent)
        if options.dryRun {
            for item in found {
                // What the workers would skip is not "to generate": the type, sniffed here as the
                // worker would (name and first bytes only; nothing is decoded).
                if let reason = Self.unthumbnailableReason(item.key.canonicalPath) {
                    report(BatchFileResult(path: item.key.canonicalPath, status: .skipped,
                                           failure: ThumbnailFailure(.unsupported, reason), size: item.size), onEvent)
                    continue
                }
                report(BatchFileResult(path: item.key.canonicalPath, status: .wouldGenerate,
                                       detail: "needs " + item.flavors.map(\.rawValue).joined(separator: ", "),
                                       thumbnails: item.flavors.map { cache.path(for: item.key, flavor: $0) }, size: item.size,
                                       uri: item.key.uri),
                       onEvent)
            }
            return finish(start)
        }
        // Largest first: the long files start early and the tail of the run stays short.
        let pending = found.sorted {
            $0.size != $1.size ? $0.size > $1.size : $0.key.canonicalPath.bytes.lexicographicallyPrecedes($1.key.canonicalPath.bytes)
        }
        let sandbox = pending.isEmpty ? WorkerSandbox.disabled("no file needed rendering") : resolvedSandbox()
        state.withLock { _ in onEvent(.planned(toGenerate: pending.count, alreadyHandled: handled, sandbox: sandbox)) }
        guard !pending.isEmpty else { return finish(start) }

        // The cache must be writable before any work is done (else every file would fail alike).
        if let problem = cacheProblem() {
            account(notRendered: pending.count, as: .cacheUnwritable, cacheProblem: problem)
            return finish(start)
        }
        if isCancelled {
            // Interrupted while walking: what was found but not rendered is reported as skipped.
            account(notRendered: pending.count, as: .cancelled)
            return finish(start)
        }
        dispatch(pending, given: paths, sandbox: sandbox, expectedTotal: handled + pending.count, onEvent)
        return finish(start)
    }

    // MARK: Plan

    /// Walks `paths`: reports what needs no worker (skipped, unusable, current in the cache,
    /// known to fail) and returns the rest, with the count of files reported.
    private func plan(_ paths: [DocumentPath], _ onEvent: @Sendable (BatchEvent) -> Void) -> (pending: [Pending], handled: Int) {
        var pending: [Pending] = []
        var handled = 0
        BatchPlanner(options: options, cache: cache).walk(paths, shouldStop: { isCancelled }) { found in
            switch found {
            case let .skipped(path, failure, size):
                report(BatchFileResult(path: path, status: .skipped, failure: failure, size: size), onEvent)
                handled += 1
            case let .unusable(path, failure):
                report(BatchFileResult(path: path, status: .failed, failure: failure), onEvent)
                handled += 1
            case let .candidate(candidate):
                if let result = checkCache(candidate) {
                    report(result, onEvent)
                    handled += 1
                } else {
                    pending.append(Pending(key: candidate.key, size: candidate.size,
                                           modificationTime: candidate.modificationTime,
                                           flavors: neededFlavors(candidate)))
                }
            }
        }
        return (pending, handled)
    }

    /// The sandbox given, else the one detected (only when some file needs rendering: the probe
    /// starts a process).
    private func resolvedSandbox() -> WorkerSandbox {
        if let givenSandbox { return givenSandbox }
        return options.useSandbox ? WorkerSandbox.detect(environment: worker.environment) : .disabled("turned off (useSandbox is false)")
    }

    // MARK: Cache check

    /// Why the cache cannot take thumbnails (directories not creatable or not writable), if so.
    private func cacheProblem() -> String? {
        for directory in options.flavors.map(cache.directory(for:)) + [cache.failureDirectory] {
            do { try ThumbnailCache.makeDirectory(directory) } catch { return error.description }
            if access(directory, W_OK | X_OK) != 0 {
                return "\(directory): not writable (\(Errno.current))"
            }
        }
        return nil
    }

    private func neededFlavors(_ candidate: BatchPlanner.Candidate) -> [ThumbnailFlavor] {
        if options.force { return options.flavors }
        return options.flavors.filter { !isCurrent(candidate, $0) }
    }

    private func isCurrent(_ candidate: BatchPlanner.Candidate, _ flavor: ThumbnailFlavor) -> Bool {
        if cache.lookup(candidate.key, flavor: flavor, modificationTime: candidate.modificationTime, size: candidate.size).isCurrent {
            return true
        }
        return cache.sharedThumbnail(for: candidate.key, flavor: flavor, modificationTime: candidate.modificationTime,
                                     size: candidate.size) != nil
    }

    /// The result for a candidate that needs no worker, or nil when it must be rendered.
    private func checkCache(_ candidate: BatchPlanner.Candidate) -> BatchFileResult? {
        let path = candidate.key.canonicalPath
        if options.force { return nil }
        if options.flavors.allSatisfy({ isCurrent(candidate, $0) }) {
            return BatchFileResult(path: path, status: .upToDate,
                                   thumbnails: options.flavors.map { cache.path(for: candidate.key, flavor: $0) },
                                   size: candidate.size, uri: candidate.key.uri)
        }
        if cache.lookupFailure(candidate.key, modificationTime: candidate.modificationTime, size: candidate.size).isCurrent {
            return BatchFileResult(path: path, status: .skipped,
                                   failure: ThumbnailFailure(.knownFailure, "failed before and unchanged since", remedy: .force),
                                   size: candidate.size, uri: candidate.key.uri)
        }
        return nil
    }

    // MARK: Dispatch

    /// Renders `pending` with a pool of workers, storing what they return.
    private func dispatch(_ pending: [Pending], given paths: [DocumentPath], sandbox: WorkerSandbox, expectedTotal: Int,
                          _ onEvent: @escaping @Sendable (BatchEvent) -> Void) {
        // Temporary files of writers that died (only possible in the instant between link
        // and rename) are removed before new ones are written; not on runs with nothing to do,
        // so that an up-to-date rerun never lists the cache directories.
        cache.removeLeftovers()
        var command = worker
        command.limits = options.limits
        let pool = WorkerPool(configuration: .init(
            command: command, sandbox: sandbox,
            readable: Self.readableRoots(given: paths, pending: pending.map(\.key.canonicalPath)),
            workerCount: max(1, options.jobs), timeout: options.timeout))
        let stopNow = state.withLock { state in
            state.pool = pool
            state.usedSandbox = sandbox
            return state.cancelled
        }
        if stopNow { pool.cancel() }
        let jobs = pending.enumerated().map { index, item in
            WorkerPool.Job(index: index, request: ThumbnailRequest(
                path: item.key.canonicalPath.bytes, uri: item.key.uri,
                sizes: item.flavors.map(\.pixelSize), maximumFileSize: options.maximumFileSize))
        }
        pool.run(jobs) { [self] job, outcome in
            report(complete(pending[job.index], outcome), onEvent)
        }
        account(finishedPool: pool, expectedTotal: expectedTotal)
    }

    /// What the sandboxed workers may read: the canonical paths given, plus the directory of any
    /// file to render that resolved outside them (a symbolic link leading elsewhere).
    static func readableRoots(given: [DocumentPath], pending: [DocumentPath]) -> [String] {
        // Only directories and regular files: a FIFO, a device or a /proc entry given on the
        // command line is never rendered, and must not become a mount in the sandbox.
        var roots = given.compactMap { ThumbnailKey(path: $0)?.canonicalPath }.filter { path in
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0 else { return false }
            let kind = info.st_mode & S_IFMT
            let text = path.string
            return (kind == S_IFDIR || kind == S_IFREG) && text == path.description
                && !["/proc", "/dev", "/sys"].contains { text == $0 || text.hasPrefix($0 + "/") }
        }.map(\.string)
        for file in pending where file.string == file.description {
            let path = file.string
            if !roots.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
                roots.append(DirectoryPath.parent(of: path))
            }
        }
        return WorkerSandbox.minimalRoots(roots)
    }

    /// Stores what a worker returned (thumbnails or a failure marker) and says what became of the file.
    private func complete(_ item: Pending, _ outcome: WorkerPool.JobOutcome) -> BatchFileResult {
        let path = item.key.canonicalPath
        switch outcome {
        case .cancelled:
            return BatchFileResult(path: path, status: .skipped, failure: ThumbnailFailure(.cancelled, "the batch was interrupted"),
                                   size: item.size, uri: item.key.uri)
        case let .response(.rendered(_, _, _, pngs)):
            var written: [String] = []
            for flavor in item.flavors {
                guard let png = pngs[flavor.pixelSize] else {
                    return BatchFileResult(path: path, status: .failed,
                                           failure: ThumbnailFailure(.render, "no \(flavor.rawValue) thumbnail was produced"),
                                           thumbnails: written, size: item.size, uri: item.key.uri)
                }
                do {
                    written.append(try cache.store(png: png, for: item.key, flavor: flavor))
                } catch {
                    return BatchFileResult(path: path, status: .failed, failure: ThumbnailFailure(.cacheWrite, error.description),
                                           thumbnails: written, size: item.size, uri: item.key.uri)
                }
            }
            // A stale failure marker from an older version of the file is now wrong.
            unlink(cache.failurePath(for: item.key))
            return BatchFileResult(path: path, status: .generated, thumbnails: written, size: item.size, uri: item.key.uri)
        case let .response(.failed(failure, mtime, size)):
            let marker = recordFailure(item, failure,
                                       modificationTime: mtime >= 0 ? mtime : item.modificationTime, size: size >= 0 ? size : item.size)
            return BatchFileResult(path: path, status: failure.kind == .unsupported ? .skipped : .failed, failure: failure,
                                   thumbnails: marker, size: item.size, uri: item.key.uri)
        case let .failed(failure) where failure.kind == .workerUnavailable:
            return BatchFileResult(path: path, status: .skipped, failure: failure, size: item.size, uri: item.key.uri)
        case let .failed(failure):
            let marker = recordFailure(item, failure, modificationTime: item.modificationTime, size: item.size)
            return BatchFileResult(path: path, status: .failed, failure: failure, thumbnails: marker, size: item.size, uri: item.key.uri)
        }
    }

    private func recordFailure(_ item: Pending, _ failure: ThumbnailFailure, modificationTime: Int64, size: Int64) -> [String] {
        // A file that vanished or became unreadable is not "known bad".
        if failure.kind.isTransient { return [] }
        guard let path = try? cache.storeFailure(for: item.key, modificationTime: modificationTime, size: size,
                                                 reason: "\(failure.kind): \(failure.reason)") else { return [] }
        return [path]
    }

    // MARK: Accounting

    /// Records one file and passes it on; serialised, so events never overlap.
    private func report(_ result: BatchFileResult, _ onEvent: @Sendable (BatchEvent) -> Void) {
        state.withLock { state in
            state.summary.record(result)
            onEvent(.file(result))
        }
    }

    /// Counts `count` files found but not rendered as skipped for `kind`.
    private func account(notRendered count: Int, as kind: ThumbnailFailure.Kind, cacheProblem: String? = nil) {
        state.withLock { state in
            state.summary.skipped += count
            state.summary.skippedByKind[kind.rawValue, default: 0] += count
            if let cacheProblem { state.summary.cacheProblem = cacheProblem }
        }
    }

    /// After the pool is done: files never handed out (a cancel, or no worker could start) count
    /// as skipped; the pool's figures go into the summary.
    private func account(finishedPool pool: WorkerPool, expectedTotal: Int) {
        let startFailure = pool.startFailure
        let workersStarted = pool.workersStarted
        state.withLock { state in
            let missing = expectedTotal - state.summary.total
            if missing > 0 {
                let kind: ThumbnailFailure.Kind = startFailure == nil ? .cancelled : .workerUnavailable
                state.summary.skipped += missing
                state.summary.skippedByKind[kind.rawValue, default: 0] += missing
            }
            state.summary.workerProblem = startFailure
            state.summary.workersStarted = workersStarted
            state.pool = nil
        }
    }

    private func finish(_ start: Date) -> BatchSummary {
        state.withLock { state in
            state.summary.elapsed = Date().timeIntervalSince(start)
            state.summary.cancelled = state.cancelled
            state.summary.sandbox = state.usedSandbox ?? .disabled("no file needed rendering")
            return state.summary
        }
    }
}
