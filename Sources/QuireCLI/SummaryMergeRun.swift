import ArgumentParser
import FoundationEssentials
import QuireThumbnails
import QuireTypes

/// Runs `quire thumbnail --merge-summaries FILE...`: the final step of a distributed batch.
/// Prints the combined totals, skips and failures of the shards' `--summary` files (human text,
/// or one JSON object with `--json`). Exit status 65 when a file failed, a shard is missing or
/// reported twice, or a shard was interrupted; 66 when a summary cannot be read.
struct SummaryMergeRun {
    let json: Bool
    let files: [String]

    struct Record: Encodable {
        let event = "merged"
        let summaries: Int
        let total: Int
        let generated: Int
        let upToDate: Int
        let failed: Int
        let skipped: Int
        let wouldGenerate: Int
        let skippedByKind: [String: Int]
        let failures: [SummaryMerger.ShardSummary.Failure]
        let longestElapsedSeconds: Double
        let cancelledShards: Int
        let shardCount: Int?
        let shardsSeen: [Int]
        let missingShards: [Int]
        let duplicateShards: [Int]
        let inconsistentShardCounts: Bool
        let complete: Bool
    }

    func run() throws {
        var summaries: [SummaryMerger.ShardSummary] = []
        for name in files {
            let path = RawArguments.path(name)
            let bytes: [UInt8]
            do {
                let file = try InputFile(path: path)
                bytes = try file.read(upTo: 64 << 20)
            } catch {
                Terminal.error(error.description)
                throw ExitStatus.noInput.exitCode
            }
            do {
                summaries.append(try SummaryMerger.decode(bytes, name: path.description))
            } catch {
                Terminal.error(error.description + " (write one with thumbnail --batch --summary FILE)")
                throw ExitStatus.dataError.exitCode
            }
        }
        let merged = SummaryMerger.merge(summaries)
        if json {
            Terminal.out(BatchRecord.line(Record(
                summaries: merged.summaries, total: merged.total, generated: merged.generated, upToDate: merged.upToDate,
                failed: merged.failed, skipped: merged.skipped, wouldGenerate: merged.wouldGenerate,
                skippedByKind: merged.skippedByKind, failures: merged.failures,
                longestElapsedSeconds: (merged.longestElapsed * 1000).rounded() / 1000, cancelledShards: merged.cancelled,
                shardCount: merged.shardCount, shardsSeen: merged.shardsSeen, missingShards: merged.missingShards,
                duplicateShards: merged.duplicateShards, inconsistentShardCounts: merged.inconsistent,
                complete: merged.isComplete)))
        } else {
            Terminal.out(Self.text(merged))
        }
        if !merged.missingShards.isEmpty {
            Terminal.error("missing summaries of shard\(merged.missingShards.count == 1 ? "" : "s") "
                           + merged.missingShards.map(String.init).joined(separator: ", ") + " of \(merged.shardCount ?? 0)")
        }
        if !merged.duplicateShards.isEmpty {
            Terminal.error("more than one summary of shard" + (merged.duplicateShards.count == 1 ? " " : "s ")
                           + merged.duplicateShards.map(String.init).joined(separator: ", "))
        }
        if merged.inconsistent { Terminal.error("the summaries come from runs with different --shard counts") }
        if merged.cancelled > 0 { Terminal.error("\(merged.cancelled) shard\(merged.cancelled == 1 ? " was" : "s were") interrupted") }
        if !merged.isComplete || merged.failed > 0 { throw ExitStatus.dataError.exitCode }
    }

    static func text(_ merged: SummaryMerger.Merged) -> String {
        let shards = merged.shardCount.map { "\(merged.shardsSeen.count) of \($0) shards" } ?? "\(merged.summaries) summaries"
        var text = "\(shards): \(merged.total) files: \(merged.generated) generated, \(merged.upToDate) up to date, "
            + "\(merged.failed) failed, \(merged.skipped) skipped"
        if merged.wouldGenerate > 0 { text += ", \(merged.wouldGenerate) to generate (dry run)" }
        text += "; longest shard \(DecimalText.fixed(merged.longestElapsed, 2)) s\n"
        if !merged.failures.isEmpty {
            text += "Failed:\n"
            for failure in merged.failures { text += "  \(failure.path): \(failure.reason)\n" }
        }
        if !merged.skippedByKind.isEmpty {
            text += "Skipped: " + merged.skippedByKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + "\n"
        }
        return text
    }
}
