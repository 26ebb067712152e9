import ArgumentParser
import QuireThumbnails

/// The options of `quire thumbnail --batch`.
struct ThumbnailBatchOptions: ParsableArguments {
    @Flag(name: .long, help: "Fill the freedesktop thumbnail cache for every PATH (files and, with -r, directory trees).")
    var batch = false

    @Flag(name: [.short, .long], help: "Walk directories recursively.")
    var recursive = false

    @Option(name: .long, help: ArgumentHelp("Worker processes (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(name: .long, help: "Regenerate current thumbnails and retry files that failed before.")
    var force = false

    @Option(name: .long, help: ArgumentHelp("Per-file time limit in seconds; a worker over it is killed, a single thumbnail gives up with status 75 (default 15).",
                                            valueName: "seconds"))
    var timeout: Double = 15

    @Option(name: .long, help: ArgumentHelp("Skip files larger than this (bytes, or with K, M, G suffix; default 1G).",
                                            valueName: "size"))
    var maxFileSize: String = "1G"

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

    func maximumFileSize() throws -> Int64 {
        let text = maxFileSize.trimmingCharacters(in: .whitespaces).uppercased()
        let multipliers: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(text)
        var multiplier: Int64 = 1
        if let last = text.last, let factor = multipliers[last] {
            multiplier = factor
            digits = text.dropLast()
        }
        guard let value = Int64(digits), value > 0 else {
            throw ValidationError("--max-file-size must be a positive number of bytes, optionally with K, M or G.")
        }
        return value.multipliedReportingOverflow(by: multiplier).overflow ? Int64.max : value * multiplier
    }

    func shardSpec() throws -> ShardSpec? {
        guard let shard else { return nil }
        guard let spec = ShardSpec(shard) else {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N, e.g. 2/4.")
        }
        return spec
    }

    func validateBatch() throws {
        _ = try maximumFileSize()
        _ = try shardSpec()
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1.") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds.") }
        if memoryLimit < 64 { throw ValidationError("--memory-limit must be at least 64 MiB.") }
    }
}

import Foundation
