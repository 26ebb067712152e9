#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Dispatch
import FoundationEssentials
import Quire
import QuireThumbnails
import QuireRenderService

/// Runs `quire thumbnail --batch`: builds the batch from the options, shows progress (on a
/// terminal only), prints results and the summary, and maps the outcome to the exit status —
/// after everything else is done.
struct ThumbnailBatchRun {
    let options: ThumbnailBatchOptions
    let limits: LimitOptions
    let flavors: [ThumbnailFlavor]
    let arguments: [String]

    /// Output state shared by the event handler (events arrive serially).
    final class Output: Sendable {
        let json: Bool
        let verbose: Bool
        let progress: BatchProgressBar?

        init(json: Bool, verbose: Bool, progress: BatchProgressBar?) {
            self.json = json
            self.verbose = verbose
            self.progress = progress
        }

        func handle(_ event: BatchEvent) {
            switch event {
            case let .planned(toGenerate, _, sandbox):
                if let notice = sandbox.degradedNotice {
                    progress?.clear()
                    Terminal.warning(notice)
                }
                if verbose && !json {
                    progress?.clear()
                    Terminal.out("sandbox: \(sandbox.summary)\nto render: \(toGenerate) files\n")
                }
                progress?.plan(total: toGenerate)
            case let .file(result):
                if json {
                    progress?.clear()
                    Terminal.out(BatchRecord.file(result))
                } else if verbose {
                    progress?.clear()
                    let detail = [result.kind, result.failure?.hinted ?? result.detail].compactMap { $0 }.joined(separator: ": ")
                    Terminal.out("\(result.status.rawValue): \(result.path)\(detail.isEmpty ? "" : " (\(detail))")\n")
                } else if result.status == .failed {
                    progress?.clear()
                    Terminal.error("\(result.path): \(result.failure?.hinted ?? "failed")")
                }
                switch result.status {
                case .generated: progress?.finishedOne(generated: true, failed: false)
                case .failed: progress?.finishedOne(generated: false, failed: true)
                case .skipped where result.failure?.kind == .unsupported || result.failure?.kind == .cancelled:
                    progress?.finishedOne(generated: false, failed: false)
                default: progress?.scannedOne()
                }
            }
        }
    }

    func run() throws {
        let cache = ThumbnailCache(root: options.cacheDir.map(Self.absolute))
        let shard = try options.resolvedShard()
        if let shard, shard.source != .explicit || options.verbose { Terminal.error(shard.description) }
        var batch = BatchOptions(
            flavors: flavors, recursive: options.recursive,
            jobs: options.jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount),
            force: options.force, timeout: options.timeout, maximumFileSize: try limits.maximumFileSize(),
            includeHidden: options.includeHidden, shard: shard?.spec, dryRun: options.dryRun,
            useSandbox: !options.noSandbox)
        batch.limits = .init(memoryBytes: UInt64(try limits.memoryMiB()) << 20,
                             cpuSecondsPerRequest: max(30, Int(options.timeout.rounded(.up)) * 2))
        let worker = WorkerCommand(executable: ProcessControl.ownExecutable, renderLimits: try limits.renderLimits(),
                                   limits: batch.limits)
        let runner = BatchRunner(options: batch, cache: cache, worker: worker,
                                 sandbox: options.noSandbox ? .disabled("--no-sandbox") : nil)

        // Ctrl-C (or SIGTERM): stop cleanly — workers are killed, nothing partial is left, the
        // summary is printed. A second Ctrl-C ends the process at once.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let signalQueue = DispatchQueue(label: "quire.signals")
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            source.setEventHandler {
                runner.cancel()
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
            }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        let showProgress = Terminal.isTerminal(STDERR_FILENO) && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        let output = Output(json: options.json, verbose: options.verbose, progress: showProgress ? BatchProgressBar() : nil)
        let paths = arguments.map(RawArguments.path)
        let summary = runner.run(paths) { output.handle($0) }
        // Workers killed on their timeout outside bubblewrap leave their office's private files
        // in TMPDIR; none of this batch's workers runs any more.
        if !summary.sandbox.isActive { OfficeProcessState.removeFilesOfDeadOffices() }
        output.progress?.clear()

        let record = BatchRecord.summary(summary, jobs: batch.jobs, cache: cache, flavors: flavors, shard: shard)
        if let file = options.summary {
            do {
                try OutputFile.write(Array(record.utf8), to: RawArguments.path(file), permissions: 0o644)
            } catch {
                Terminal.error("cannot write the summary: \(error.description)")
                throw ExitStatus.cannotCreate.exitCode
            }
        }
        if options.json {
            Terminal.out(record)
        } else {
            Terminal.out(Self.summaryText(summary, flavors: flavors, cache: cache, verbose: options.verbose, dryRun: options.dryRun))
        }
        if let problem = summary.cacheProblem {
            Terminal.error("cannot write the thumbnail cache: \(problem)")
            throw ExitStatus.cannotCreate.exitCode
        }
        if let problem = summary.workerProblem {
            Terminal.error("cannot run thumbnail workers: \(problem)")
            throw ExitStatus.unavailable.exitCode
        }
        if summary.cancelled { throw ExitCode(130) }
        // A file or folder named on the command line that is not there is 66, as everywhere.
        let named = Set(paths.map { Self.absolute($0.string) })
        let missing: Set<ThumbnailFailure.Kind> = [.notFound, ThumbnailFailure.Kind(input: .notFound)]
        if summary.failures.contains(where: { missing.contains($0.failure.kind) && named.contains(Self.absolute($0.path)) }) {
            throw ExitStatus.noInput.exitCode
        }
        if summary.failed > 0 { throw ExitStatus.dataError.exitCode }
    }

    static func summaryText(_ summary: BatchSummary, flavors: [ThumbnailFlavor], cache: ThumbnailCache,
                            verbose: Bool, dryRun: Bool) -> String {
        var parts = ["\(summary.generated) generated", "\(summary.upToDate) up to date",
                     "\(summary.failed) failed", "\(summary.skipped) skipped"]
        if dryRun { parts.insert("\(summary.wouldGenerate) to generate (dry run)", at: 0) }
        var text = (summary.cancelled ? "Interrupted: " : "") + parts.joined(separator: ", ")
        text += " in \(DecimalText.fixed(summary.elapsed, 2)) s (\(DecimalText.fixed(summary.filesPerSecond, 1)) files/s); "
            + "\(flavors.map(\.rawValue).joined(separator: ", ")) in \(cache.root)\n"
        // Each failure was said once as it happened (standard error; with --verbose, its line
        // above): the summary counts them.
        if !summary.skippedByKind.isEmpty {
            text += "Skipped: " + summary.skippedByKind.sorted { $0.key < $1.key }
                .map { "\($0.value) \($0.key)" }.joined(separator: ", ") + "\n"
        }
        if verbose { text += "Workers started: \(summary.workersStarted); sandbox: \(summary.sandbox.summary)\n" }
        return text
    }

    /// `path` made absolute against the working directory (the cache root is compared with
    /// the canonical paths of the files walked).
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (directory == "/" ? "" : directory) + "/" + path
    }
}
