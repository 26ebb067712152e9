#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import QuireTypes

/// Runs a batch: walks the paths, skips what is current (or known to fail), sends the rest —
/// largest first — to a pool of sandboxed, long-lived worker processes, and writes what they
/// return into the cache atomically. A file that fails, crashes its worker or times out is
/// recorded with a failure marker and the batch goes on.
public final class BatchRunner: @unchecked Sendable {
    /// How to start one worker: normally the running `quire` binary with its hidden subcommand.
    public struct WorkerCommand: Sendable {
        public var executable: String
        public var arguments: [String]
        public var environment: [String: String]
        /// Send workers' standard error to /dev/null (C libraries can be chatty).
        public var quietStandardError: Bool

        public init(executable: String, arguments: [String],
                    environment: [String: String] = ProcessInfo.processInfo.environment,
                    quietStandardError: Bool = true) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.quietStandardError = quietStandardError
        }
    }

    public let options: BatchOptions
    public let cache: ThumbnailCache
    let worker: WorkerCommand
    private let givenSandbox: WorkerSandbox?
    /// Detected only when some file needs rendering (the probe starts a process).
    private lazy var sandbox: WorkerSandbox = {
        if let givenSandbox { return givenSandbox }
        return options.useSandbox ? WorkerSandbox.detect(environment: worker.environment) : .disabled("--no-sandbox")
    }()

    private let lock = Lock()
    private var summary = BatchSummary()
    private var cancelled = false
    private var pool: WorkerPool?
    private var usedSandbox: WorkerSandbox?

    /// - Parameter sandbox: the confinement of workers; detected when nil (and `useSandbox`).
    public init(options: BatchOptions, cache: ThumbnailCache, worker: WorkerCommand, sandbox: WorkerSandbox? = nil) {
        self.options = options
        self.cache = cache
        self.worker = worker
        self.givenSandbox = sandbox
    }

    /// Stops the batch: no new files are started, running workers are killed, and `run`
    /// returns its summary (with `cancelled` set). Safe to call from a signal-handling queue.
    public func cancel() {
        lock.lock()
        cancelled = true
        let pool = self.pool
        lock.unlock()
        pool?.cancel()
    }

    private var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
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
        var pending: [Pending] = []
        var handled = 0
        let planner = BatchPlanner(options: options, cache: cache)
        planner.walk(paths, shouldStop: { isCancelled }) { found in
            switch found {
            case let .skipped(path, kind, reason, size):
                report(BatchFileResult(path: path, status: .skipped, kind: kind, reason: reason, size: size), onEvent)
                handled += 1
            case let .unusable(path, kind, reason):
                report(BatchFileResult(path: path, status: .failed, kind: kind, reason: reason), onEvent)
                handled += 1
            case let .candidate(candidate):
                if let result = check(candidate) {
                    report(result, onEvent)
                    handled += 1
                } else {
                    pending.append(Pending(key: candidate.key, size: candidate.size,
                                           modificationTime: candidate.modificationTime,
                                           flavors: neededFlavors(candidate)))
                }
            }
        }
        if options.dryRun {
            for item in pending {
                report(BatchFileResult(path: item.key.canonicalPath, status: .wouldGenerate,
                                       reason: "needs " + item.flavors.map(\.rawValue).joined(separator: ", "),
                                       thumbnails: item.flavors.map { cache.path(for: item.key, flavor: $0) }, size: item.size,
                                       uri: item.key.uri),
                       onEvent)
            }
            return finish(start)
        }
        // Largest first: the long files start early and the tail of the run stays short.
        let sandbox = pending.isEmpty ? WorkerSandbox.disabled("no file needed rendering") : self.sandbox
        pending.sort { $0.size != $1.size ? $0.size > $1.size : $0.key.canonicalPath.bytes.lexicographicallyPrecedes($1.key.canonicalPath.bytes) }
        lock.lock()
        onEvent(.planned(toGenerate: pending.count, alreadyHandled: handled, sandbox: sandbox))
        lock.unlock()

        // The cache must be writable before any work is done (else every file would fail alike).
        if !pending.isEmpty, let problem = cacheProblem() {
            lock.lock()
            summary.cacheProblem = problem
            summary.skipped += pending.count
            summary.skippedByKind["cache-unwritable", default: 0] += pending.count
            lock.unlock()
            return finish(start)
        }
        if !pending.isEmpty && isCancelled {
            // Interrupted while walking: what was found but not rendered is reported as skipped.
            lock.lock()
            summary.skipped += pending.count
            summary.skippedByKind["cancelled", default: 0] += pending.count
            lock.unlock()
        }
        if !pending.isEmpty && !isCancelled {
            // Temporary files of writers that died (only possible in the instant between link
            // and rename) are removed before new ones are written; not on runs with nothing to do,
            // so that an up-to-date rerun never lists the cache directories.
            cache.removeLeftovers()
            let pool = WorkerPool(configuration: .init(
                executable: worker.executable, arguments: worker.arguments, environment: worker.environment,
                sandbox: sandbox, readable: Self.readableRoots(given: paths, pending: pending.map(\.key.canonicalPath)),
                workerCount: max(1, options.jobs), timeout: options.timeout,
                quietStandardError: worker.quietStandardError))
            lock.lock()
            self.pool = pool
            usedSandbox = sandbox
            let stopNow = cancelled
            lock.unlock()
            if stopNow { pool.cancel() }
            let jobs = pending.enumerated().map { index, item in
                WorkerPool.Job(index: index, request: WorkerRequest(
                    path: item.key.canonicalPath.bytes, uri: item.key.uri,
                    sizes: item.flavors.map(\.pixelSize), maximumFileSize: options.maximumFileSize))
            }
            let items = pending
            pool.run(jobs) { [self] job, outcome in
                report(complete(items[job.index], outcome), onEvent)
            }
            // Files never handed out because of a cancel.
            lock.lock()
            let done = summary.total
            lock.unlock()
            let expected = handled + pending.count
            let startFailure = pool.startFailure
            if done < expected {
                lock.lock()
                summary.skipped += expected - done
                summary.skippedByKind[startFailure == nil ? "cancelled" : "worker-unavailable", default: 0] += expected - done
                lock.unlock()
            }
            lock.lock()
            summary.workerProblem = startFailure
            lock.unlock()
            lock.lock()
            summary.workersStarted = pool.workersStarted
            self.pool = nil
            lock.unlock()
        }
        return finish(start)
    }

    /// Why the cache cannot take thumbnails (directories not creatable or not writable), if so.
    private func cacheProblem() -> String? {
        for directory in options.flavors.map(cache.directory(for:)) + [cache.failureDirectory] {
            do { try ThumbnailCache.makeDirectory(directory) } catch { return error.description }
            if access(directory, W_OK | X_OK) != 0 {
                return "\(directory): not writable (\(String(cString: strerror(errno))))"
            }
        }
        return nil
    }

    private func finish(_ start: Date) -> BatchSummary {
        lock.lock()
        defer { lock.unlock() }
        summary.elapsed = Date().timeIntervalSince(start)
        summary.cancelled = cancelled
        summary.sandbox = usedSandbox ?? .disabled("no file needed rendering")
        return summary
    }

    private func report(_ result: BatchFileResult, _ onEvent: @Sendable (BatchEvent) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        summary.record(result)
        onEvent(.file(result))
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
    private func check(_ candidate: BatchPlanner.Candidate) -> BatchFileResult? {
        let path = candidate.key.canonicalPath
        if options.force { return nil }
        if options.flavors.allSatisfy({ isCurrent(candidate, $0) }) {
            return BatchFileResult(path: path, status: .upToDate,
                                   thumbnails: options.flavors.map { cache.path(for: candidate.key, flavor: $0) },
                                   size: candidate.size, uri: candidate.key.uri)
        }
        if cache.lookupFailure(candidate.key, modificationTime: candidate.modificationTime, size: candidate.size).isCurrent {
            return BatchFileResult(path: path, status: .skipped, kind: "known-failure",
                                   reason: "failed before and unchanged since (use --force to retry)", size: candidate.size,
                                   uri: candidate.key.uri)
        }
        return nil
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

    private func complete(_ item: Pending, _ outcome: WorkerPool.JobOutcome) -> BatchFileResult {
        let path = item.key.canonicalPath
        switch outcome {
        case .cancelled:
            return BatchFileResult(path: path, status: .skipped, kind: "cancelled", reason: "the batch was interrupted", size: item.size, uri: item.key.uri)
        case let .response(.rendered(_, _, _, pngs)):
            var written: [String] = []
            for flavor in item.flavors {
                guard let png = pngs[flavor.pixelSize] else {
                    return BatchFileResult(path: path, status: .failed, kind: "render",
                                           reason: "no \(flavor.rawValue) thumbnail was produced", thumbnails: written, size: item.size, uri: item.key.uri)
                }
                do {
                    written.append(try cache.store(png: png, for: item.key, flavor: flavor))
                } catch {
                    return BatchFileResult(path: path, status: .failed, kind: "cache-write", reason: error.description,
                                           thumbnails: written, size: item.size, uri: item.key.uri)
                }
            }
            // A stale failure marker from an older version of the file is now wrong.
            unlink(cache.failurePath(for: item.key))
            return BatchFileResult(path: path, status: .generated, thumbnails: written, size: item.size, uri: item.key.uri)
        case let .response(.failed(kind, reason, mtime, size)):
            let marker = recordFailure(item, kind: kind, reason: reason,
                                       modificationTime: mtime >= 0 ? mtime : item.modificationTime, size: size >= 0 ? size : item.size)
            if kind == "unsupported" {
                return BatchFileResult(path: path, status: .skipped, kind: kind, reason: reason, thumbnails: marker, size: item.size, uri: item.key.uri)
            }
            return BatchFileResult(path: path, status: .failed, kind: kind, reason: reason, thumbnails: marker, size: item.size, uri: item.key.uri)
        case let .failed(kind, reason) where kind == "worker":
            return BatchFileResult(path: path, status: .skipped, kind: "worker-unavailable", reason: reason, size: item.size, uri: item.key.uri)
        case let .failed(kind, reason):
            let marker = recordFailure(item, kind: kind, reason: reason, modificationTime: item.modificationTime, size: item.size)
            return BatchFileResult(path: path, status: .failed, kind: kind, reason: reason, thumbnails: marker, size: item.size, uri: item.key.uri)
        }
    }

    private func recordFailure(_ item: Pending, kind: String, reason: String, modificationTime: Int64, size: Int64) -> [String] {
        // A file that vanished or became unreadable is not "known bad".
        if kind == "input-not-found" || kind == "input-permission-denied" || kind == "worker" { return [] }
        guard let path = try? cache.storeFailure(for: item.key, modificationTime: modificationTime, size: size,
                                                 reason: "\(kind): \(reason)") else { return [] }
        return [path]
    }
}
