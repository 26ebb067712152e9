import FoundationEssentials

/// Combines the JSON summaries that the shards of a distributed run wrote with `--summary FILE`
/// (the same object as the last line of `--json`) into one account: totals, skips by kind, every
/// failure, and which shards reported — so a final step of an array job can tell whether the
/// whole tree was done.
public enum SummaryMerger {
    /// The fields of a shard's summary the merge reads (others are ignored).
    public struct ShardSummary: Decodable, Sendable {
        public struct Failure: Codable, Sendable, Hashable {
            public let path: String
            public let kind: String
            public let reason: String

            public init(path: String, kind: String, reason: String) {
                self.path = path
                self.kind = kind
                self.reason = reason
            }
        }
        public struct Shard: Codable, Sendable, Hashable {
            public let index: Int
            public let count: Int
            public let source: String?

            public init(index: Int, count: Int, source: String?) {
                self.index = index
                self.count = count
                self.source = source
            }
        }
        public let event: String?
        public let generated: Int
        public let upToDate: Int
        public let failed: Int
        public let skipped: Int
        public let wouldGenerate: Int?
        public let skippedByKind: [String: Int]?
        public let failures: [Failure]?
        public let elapsedSeconds: Double?
        public let cancelled: Bool?
        public let shard: Shard?
    }

    /// The combined account.
    public struct Merged: BatchCounts, Sendable {
        public var summaries = 0
        public var generated = 0
        public var upToDate = 0
        public var failed = 0
        public var skipped = 0
        public var wouldGenerate = 0
        public var skippedByKind: [String: Int] = [:]
        public var failures: [ShardSummary.Failure] = []
        /// The longest shard's elapsed time (shards run side by side).
        public var longestElapsed = 0.0
        /// Shards that were interrupted.
        public var cancelled = 0
        /// The shard count the summaries name (nil when none was sharded or they disagree).
        public var shardCount: Int?
        /// 1-based indices of the shards that reported.
        public var shardsSeen: [Int] = []
        /// Shards of `shardCount` with no summary.
        public var missingShards: [Int] = []
        /// Shards that reported more than once.
        public var duplicateShards: [Int] = []
        /// Summaries that disagree about the shard count (or mix sharded and unsharded runs).
        public var inconsistent = false

        /// Whether every shard reported exactly once, none was interrupted and nothing failed.
        public var isComplete: Bool { missingShards.isEmpty && duplicateShards.isEmpty && !inconsistent && cancelled == 0 }
    }

    /// A summary file that cannot be used, one line.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Decodes one summary (a JSON object, or JSON Lines whose last `summary` object counts).
    public static func decode(_ bytes: [UInt8], name: String) throws(Failure) -> ShardSummary {
        let lines = bytes.split(separator: 0x0A).filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x0D || $0 == 0x09 } }
        let decoder = JSONDecoder()
        for line in lines.reversed() {
            if let summary = try? decoder.decode(ShardSummary.self, from: Data(line)), summary.event == nil || summary.event == "summary" {
                return summary
            }
        }
        throw Failure(description: "\(name): not a quire batch summary")
    }

    public static func merge(_ summaries: [ShardSummary]) -> Merged {
        var merged = Merged()
        var counts = Set<Int?>()
        var seen: [Int: Int] = [:]
        for summary in summaries {
            merged.summaries += 1
            merged.generated += summary.generated
            merged.upToDate += summary.upToDate
            merged.failed += summary.failed
            merged.skipped += summary.skipped
            merged.wouldGenerate += summary.wouldGenerate ?? 0
            for (kind, count) in summary.skippedByKind ?? [:] { merged.skippedByKind[kind, default: 0] += count }
            merged.failures += summary.failures ?? []
            merged.longestElapsed = max(merged.longestElapsed, summary.elapsedSeconds ?? 0)
            if summary.cancelled == true { merged.cancelled += 1 }
            counts.insert(summary.shard?.count)
            if let shard = summary.shard { seen[shard.index, default: 0] += 1 }
        }
        merged.shardsSeen = seen.keys.sorted()
        merged.duplicateShards = seen.filter { $0.value > 1 }.keys.sorted()
        if counts.count == 1, let only = counts.first, let count = only {
            merged.shardCount = count
            merged.missingShards = (1...count).filter { seen[$0] == nil }
        } else if counts.count > 1 {
            merged.inconsistent = true
        }
        return merged
    }
}
