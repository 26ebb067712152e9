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

    @Option(name: .long, help: ArgumentHelp("Only this share of the files, K of N (deterministic by path).", valueName: "K/N"))
    var shard: String?

    @Flag(name: .long, help: "Print one JSON object per file, then a summary object (JSON Lines).")
    var json = false

    @Flag(name: .long, help: "Report what would be generated; write nothing.")
    var dryRun = false

    @Flag(name: .long, help: "Print every file's result and the sandbox in use.")
    var verbose = false

    @Flag(name: .long, help: "Do not run workers under bubblewrap even when it is installed.")
    var noSandbox = false

    @Option(name: .long, help: ArgumentHelp("Memory limit per worker in MiB (default 2048).", valueName: "MiB"))
    var memoryLimit: Int = 2048

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

    func shardSpec() throws -> ShardSpec? {
        guard let shard else { return nil }
        guard let spec = ShardSpec(shard) else {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, e.g. 2/4.")
        }
        return spec
    }

    func validateBatch() throws {
        _ = try shardSpec()
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if memoryLimit < 64 { throw ValidationError("--memory-limit must be at least 64 MiB.") }
    }
}

import FoundationEssentials
