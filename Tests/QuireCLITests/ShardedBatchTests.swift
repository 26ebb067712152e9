#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// Distributed batches: `--shard auto` from Slurm and Kubernetes Indexed Job variables,
/// `--cache-dir`, `--summary` and `--merge-summaries`, and a sharded run killed and re-run.
@Suite(.serialized) struct ShardedBatchTests {
    typealias Fixture = ThumbnailBatchTests.Fixture

    static func tree(_ count: Int, broken: Int = 0) throws -> Fixture {
        var files: [String: String] = [:]
        for index in 0..<count { files["dir\(index % 3)/f\(index).\(index % 2 == 0 ? "pdf" : "txt")"] = index % 2 == 0 ? "document.pdf" : "notes.txt" }
        for index in 0..<broken { files["broken\(index).pdf"] = "garbage.pdf" }
        return try Fixture(files)
    }

    static func slurm(_ task: Int, min: Int, count: Int) -> [String: String] {
        ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_MIN": "\(min)", "SLURM_ARRAY_TASK_COUNT": "\(count)"]
    }

    /// The paths of the file events of a run.
    static func paths(_ files: [[String: Any]]) -> [String] { files.compactMap { $0["path"] as? String } }

    @Test func slurmArrayTasksSplitTheTreeExactlyAndTheSummariesMerge() throws {
        let fixture = try Self.tree(24)
        let cache = fixture.directory.file("shared-cache")
        var seen: [String: Int] = [:]
        var summaries: [String] = []
        for task in 10..<14 {
            let summary = fixture.directory.file("summary-\(task).json")
            summaries.append(summary)
            let run = fixture.run(["-r", "--shard", "auto", "--cache-dir", cache, "--summary", summary, fixture.tree],
                                  extra: Self.slurm(task, min: 10, count: 4))
            #expect(run.result.status == 0, "\(run.result.standardError)")
            #expect(run.result.standardError.contains("shard \(task - 9)/4 from Slurm (SLURM_ARRAY_TASK_ID=\(task)"),
                    "\(run.result.standardError)")
            let shard = run.summary["shard"] as? [String: Any]
            #expect(shard?["index"] as? Int == task - 9 && shard?["count"] as? Int == 4 && shard?["source"] as? String == "slurm")
            for path in Self.paths(run.files) { seen[path, default: 0] += 1 }
        }
        #expect(seen.count == 24, "every file is in some shard")
        #expect(seen.values.allSatisfy { $0 == 1 }, "no file is in two shards")
        // The shared cache got every thumbnail; the user's cache none.
        let written = (FileManager.default.enumerator(atPath: cache + "/large")?.allObjects as? [String]) ?? []
        #expect(written.filter { $0.hasSuffix(".png") }.count == 24)
        #expect(fixture.cacheFiles().isEmpty)

        let merged = QuireBinary.run(["thumbnail", "--merge-summaries", "--json"] + summaries, environment: fixture.environment())
        #expect(merged.status == 0, "\(merged.standardError)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(merged.standardOutput)) as? [String: Any])
        #expect(record["total"] as? Int == 24 && record["generated"] as? Int == 24)
        #expect(record["complete"] as? Bool == true && record["shardCount"] as? Int == 4)
        #expect(record["shardsSeen"] as? [Int] == [1, 2, 3, 4])
        let human = QuireBinary.run(["thumbnail", "--merge-summaries"] + summaries, environment: fixture.environment())
        #expect(human.status == 0)
        #expect(human.standardOutputText.hasPrefix("4 of 4 shards: 24 files: 24 generated, 0 up to date, 0 failed, 0 skipped"),
                "\(human.standardOutputText)")

        // One summary missing: the merge says which, and fails.
        let partial = QuireBinary.run(["thumbnail", "--merge-summaries"] + summaries.dropLast(), environment: fixture.environment())
        #expect(partial.status == 65)
        #expect(partial.errorLines == ["quire: missing summaries of shard 4 of 4"], "\(partial.standardError)")
    }

    @Test func kubernetesIndexedJobsShardLikeTheExplicitForm() throws {
        let fixture = try Self.tree(18)
        for index in 0..<3 {
            let explicit = fixture.run(["-r", "--dry-run", "--shard", "\(index + 1)/3", fixture.tree])
            let fromOption = fixture.run(["-r", "--dry-run", "--shard", "auto", "--shard-count", "3", fixture.tree],
                                         extra: ["JOB_COMPLETION_INDEX": "\(index)"])
            let fromVariable = fixture.run(["-r", "--dry-run", "--shard", "auto", fixture.tree],
                                           extra: ["JOB_COMPLETION_INDEX": "\(index)", "QUIRE_SHARD_COUNT": "3"])
            #expect(explicit.result.status == 0, "\(explicit.result.standardError)")
            #expect(!Self.paths(explicit.files).isEmpty,
                    "shard \(index + 1)/3: \(explicit.result.standardOutputText.prefix(600)) \(explicit.result.standardError)")
            #expect(Self.paths(fromOption.files) == Self.paths(explicit.files))
            #expect(Self.paths(fromVariable.files) == Self.paths(explicit.files))
            #expect(fromOption.result.standardError.contains("shard \(index + 1)/3 from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=\(index), --shard-count 3)"))
            #expect(fromVariable.result.standardError.contains("QUIRE_SHARD_COUNT=3"))
        }
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        let label: String
        let arguments: [String]
        let environment: [String: String]
        let message: String
        var testDescription: String { label }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(label: "auto outside an array job", arguments: ["--shard", "auto"], environment: [:],
                  message: "not in a Slurm array job (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)"),
        UsageCase(label: "Kubernetes without a count", arguments: ["--shard", "auto"], environment: ["JOB_COMPLETION_INDEX": "1"],
                  message: "needs the number of completions: give --shard-count N or set QUIRE_SHARD_COUNT"),
        UsageCase(label: "index beyond the count", arguments: ["--shard", "auto", "--shard-count", "2"],
                  environment: ["JOB_COMPLETION_INDEX": "2"], message: "JOB_COMPLETION_INDEX=2 is not below the count 2"),
        UsageCase(label: "Slurm without its minimum", arguments: ["--shard", "auto"],
                  environment: ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"], message: "SLURM_ARRAY_TASK_MIN is not set"),
        UsageCase(label: "sparse Slurm array", arguments: ["--shard", "auto"],
                  environment: ["SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"],
                  message: "SLURM_ARRAY_TASK_ID=9 is not one of 3 evenly spaced tasks from 1"),
        UsageCase(label: "both engines", arguments: ["--shard", "auto"],
                  environment: ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "2",
                                "JOB_COMPLETION_INDEX": "0"], message: "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set"),
        UsageCase(label: "count without auto", arguments: ["--shard", "1/2", "--shard-count", "2"], environment: [:],
                  message: "--shard-count goes with --shard auto"),
        UsageCase(label: "bad explicit shard", arguments: ["--shard", "5/4"], environment: [:], message: "--shard must be K/N"),
        UsageCase(label: "a count that is not a number", arguments: ["--shard", "auto"],
                  environment: ["JOB_COMPLETION_INDEX": "0", "QUIRE_SHARD_COUNT": "many"], message: "QUIRE_SHARD_COUNT=many is not an integer"),
    ]

    @Test(arguments: usageCases)
    func unusableShardSettingsAreOneLineUsageErrors(_ usage: UsageCase) throws {
        let fixture = try Self.tree(2)
        var environment = fixture.environment()
        for name in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP",
                     "JOB_COMPLETION_INDEX", "QUIRE_SHARD_COUNT"] { environment.removeValue(forKey: name) }
        for (key, value) in usage.environment { environment[key] = value }
        let result = QuireBinary.run(["thumbnail", "--batch"] + usage.arguments + [fixture.tree], environment: environment)
        #expect(result.status == 64)
        let first = result.errorLines.first ?? ""
        #expect(first.contains(usage.message), "\(result.standardError)")
        #expect(fixture.cacheFiles().isEmpty, "nothing is done on a usage error")
    }

    @Test func mergedFailuresAndUnreadableSummaries() throws {
        let fixture = try Self.tree(6, broken: 2)
        var summaries: [String] = []
        for shard in 1...2 {
            let summary = fixture.directory.file("s\(shard).json")
            summaries.append(summary)
            let run = fixture.run(["-r", "--shard", "\(shard)/2", "--summary", summary, fixture.tree])
            #expect(run.result.status == 0 || run.result.status == 65)
        }
        let merged = QuireBinary.run(["thumbnail", "--merge-summaries", "--json"] + summaries, environment: fixture.environment())
        #expect(merged.status == 65, "a failed file makes the merge fail")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(merged.standardOutput)) as? [String: Any])
        #expect(record["total"] as? Int == 8 && record["failed"] as? Int == 2 && record["generated"] as? Int == 6)
        let failures = try #require(record["failures"] as? [[String: Any]])
        #expect(Set(failures.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } }) == ["broken0.pdf", "broken1.pdf"])
        #expect(record["complete"] as? Bool == true)

        let notSummary = QuireBinary.run(["thumbnail", "--merge-summaries", Samples.path("notes.txt")])
        #expect(notSummary.status == 65)
        #expect(notSummary.errorLines.count == 1 && notSummary.standardError.contains("not a quire batch summary"))
        let missing = QuireBinary.run(["thumbnail", "--merge-summaries", fixture.directory.file("none.json")])
        #expect(missing.status == 66)
        #expect(missing.errorLines.count == 1)
    }

    @Test func aKilledShardIsCompletedExactlyByItsRerun() throws {
        var files: [String: String] = [:]
        for index in 0..<160 { files["d\(index).pdf"] = index % 10 == 0 ? "thousand-pages.pdf" : "document.pdf" }
        let fixture = try Fixture(files)
        let cache = fixture.directory.file("shared-cache")
        let environment = fixture.environment(Self.slurm(1, min: 0, count: 2))
        // The shard's share, from a dry run.
        let plan = fixture.run(["-r", "--dry-run", "--shard", "2/2", "--cache-dir", cache, fixture.tree])
        let share = Set(Self.paths(plan.files))
        #expect(share.count > 40 && share.count < 120)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: QuireBinary.path)
        process.arguments = ["thumbnail", "--batch", "-r", "--jobs", "2", "--shard", "auto", "--cache-dir", cache, fixture.tree]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func pngs() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/large")) ?? [])
        }
        let deadline = Date().addingTimeInterval(60)
        while pngs().count < 10 && Date() < deadline && process.isRunning { usleep(2_000) }
        #expect(process.isRunning, "the shard was still running when killed (pre-empted)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        #expect(ThumbnailBatchTests.workersLeft(cacheHome: fixture.cacheHome).isEmpty, "workers die with their parent")
        // A writer killed between linking its temporary file and renaming it leaves the
        // temporary (named after its dead process, removed by the next run); nothing else but
        // whole thumbnails.
        let (left, leftovers) = ThumbnailBatchTests.thumbnailsAndLeftovers(pngs())
        #expect(leftovers.count <= 2, "at most one per worker: \(leftovers)")
        #expect(!left.isEmpty && left.count < share.count)
        for name in left {
            #expect(name.hasSuffix(".png") && !name.hasPrefix("."), "nothing but thumbnails: \(name)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cache + "/large/" + name)))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name)")
            #expect(Array(bytes.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82], "\(name) is whole")
        }

        let rerun = QuireBinary.run(["thumbnail", "--batch", "--json", "-r", "--shard", "auto", "--cache-dir", cache, fixture.tree],
                                    timeout: 300, environment: environment)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        var generated: [String] = [], upToDate: [String] = []
        for line in rerun.standardOutputText.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let path = object["path"] as? String else { continue }
            if object["status"] as? String == "generated" { generated.append(path) }
            if object["status"] as? String == "up-to-date" { upToDate.append(path) }
        }
        // Exactly the rest: what was written before the kill is up to date, everything else of the
        // share is generated now, and nothing outside the share is touched.
        #expect(upToDate.count == left.count)
        #expect(generated.count == share.count - left.count)
        #expect(Set(generated + upToDate) == share)
        #expect(pngs().filter { $0.hasSuffix(".png") }.count == share.count)
        #expect(pngs().allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") })
        #expect(ThumbnailBatchTests.workersLeft(cacheHome: fixture.cacheHome).isEmpty)
    }
}
