import ArgumentParser
import QuireThumbnails

/// The options of `quire thumbnail --batch`.
struct ThumbnailBatchOptions: ParsableArguments {
    @Flag(name: .long, help: "Fill the freedesktop thumbnail cache for every PATH (files, and the files directly in a directory; with -r, whole trees).")
    var batch = false

    @Flag(name: [.short, .long], help: "Descend into sub-directories.")
    var recursive = false

    @Option(name: .long, help: ArgumentHelp("Worker processes (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(name: .long, help: "Regenerate current thumbnails and retry files that failed before.")
    var force = false

    @Option(name: .customLong("timeout"), help: ArgumentHelp(
        "Per-file time limit in seconds; a worker over it is killed, a single thumbnail gives up with status 75 (default 15; env QUIRE_TIMEOUT).",
        valueName: "seconds"))
    var timeoutOption: Double?

    /// The per-file time limit: --timeout, else `QUIRE_TIMEOUT`, else 15 s (checked by
    /// ``validateTimeout()``).
    var timeout: Double {
        if let timeoutOption { return timeoutOption }
        return (try? Watchdog.environmentSeconds(allowZero: false)) ?? Double(Self.defaultTimeout)
    }

    /// The per-file time limit when neither --timeout nor `QUIRE_TIMEOUT` is given, in seconds.
    static let defaultTimeout = 15

    /// --timeout and `QUIRE_TIMEOUT` must be finite, positive and at most ``Watchdog/maximumSeconds``.
    func validateTimeout() throws {
        if let timeoutOption { _ = try Watchdog.validated(timeoutOption, name: "--timeout", allowZero: false) }
        _ = try Watchdog.environmentSeconds(allowZero: false)
    }

    @Flag(name: .long, help: "Include files and directories whose names start with a dot.")
    var includeHidden = false

    @Option(name: .long, help: ArgumentHelp(
        "Only this share of the files, K of N (deterministic by path); auto reads it from a Slurm array job (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX with --shard-count or QUIRE_SHARD_COUNT).",
        valueName: "K/N|auto"))
    var shard: String?

    @Option(name: .long, help: ArgumentHelp("With --shard auto on Kubernetes: the Indexed Job's number of completions (else QUIRE_SHARD_COUNT).",
                                            valueName: "n"))
    var shardCount: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Thumbnail cache directory to fill instead of $XDG_CACHE_HOME/thumbnails (e.g. a cache shared over NFS or CephFS by the shards of a run); the same atomic writes.",
        valueName: "dir"))
    var cacheDir: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also write the run's JSON summary (the --json summary object) to FILE, atomically, for --merge-summaries.",
        valueName: "file"))
    var summary: String?

    @Flag(name: .long, help: "Read the --summary files given as arguments (one per shard) and print their combined totals and failures.")
    var mergeSummaries = false

    @Flag(name: .long, help: "Print one JSON object per file, then a summary object (JSON Lines).")
    var json = false

    @Flag(name: .long, help: "Report what would be generated; write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Print every file's result and the sandbox in use.")
    var verbose = false

    @Flag(name: .long, help: "Do not run workers under bubblewrap even when it is installed.")
    var noSandbox = false

    /// The flavors named by `--size` values (default: large).
    static func flavors(_ sizes: [String]) throws -> [ThumbnailFlavor] {
        var out: [ThumbnailFlavor] = []
        for name in sizes {
            if name.lowercased() == "all" {
                out.append(contentsOf: ThumbnailFlavor.allCases)
            } else if let flavor = ThumbnailFlavor(name: name) {
                out.append(flavor)
            } else if let pixels = Int(name), let flavor = ThumbnailFlavor.allCases.first(where: { $0.pixelSize == pixels }) {
                out.append(flavor)
            } else {
                throw ValidationError("Unknown thumbnail size '\(name)' for --batch: use normal, large, x-large, xx-large or all.")
            }
        }
        if out.isEmpty { out = [.large] }
        var seen = Set<ThumbnailFlavor>()
        return out.filter { seen.insert($0).inserted }
    }

    /// The shard: explicit K/N, or from the array job's environment with `auto`.
    func resolvedShard(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ShardResolver.Resolved? {
        do {
            return try ShardResolver.resolve(shard, count: shardCount, environment: environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func shardSpec() throws -> ShardSpec? { try resolvedShard()?.spec }

    func validateBatch() throws {
        _ = try shardSpec()
        if mergeSummaries { throw ValidationError("--merge-summaries and --batch are separate runs: give one of them.") }
        if let cacheDir, cacheDir.isEmpty { throw ValidationError("--cache-dir needs a directory.") }
        if let summary, summary.isEmpty { throw ValidationError("--summary needs a file name.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
    }
}

import FoundationEssentials
