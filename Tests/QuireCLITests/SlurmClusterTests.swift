import Foundation
import QuireTestSupport
import Testing

/// A real Slurm array job on a private single-node cluster (Tests/Support/slurm-testbed.sh):
/// four array tasks each run `quire thumbnail --batch --shard auto` over the same tree into one
/// shared cache, and a final `--merge-summaries` accounts for every file.
@Suite(.serialized) struct SlurmClusterTests {
    @Test func anArrayJobOfFourShardsThumbnailsEveryFileExactlyOnce() throws {
        var files: [String: String] = [:]
        for index in 0..<40 {
            files["set\(index % 4)/doc\(index).\(["pdf", "txt", "png", "pdf"][index % 4])"] =
                ["document.pdf", "notes.txt", "quadrants.png", "shading-function.pdf"][index % 4]
        }
        files["broken.pdf"] = "garbage.pdf"
        let fixture = try ThumbnailBatchTests.Fixture(files)
        let bed = try SlurmTestBed()
        let runs = fixture.directory.file("runs")
        let cache = fixture.directory.file("shared-cache")
        try FileManager.default.createDirectory(atPath: runs, withIntermediateDirectories: true)
        // The job script takes everything from its environment (sbatch exports the submitter's).
        let script = fixture.directory.file("thumbnails.sbatch")
        try """
            #!/bin/bash
            exec "$QUIRE_TEST_BINARY" thumbnail --batch -r --json --jobs 1 --timeout 10 --shard auto \\
                --cache-dir "$QUIRE_TEST_CACHE" --summary "$QUIRE_TEST_RUNS/summary-$SLURM_ARRAY_TASK_ID.json" -- "$QUIRE_TEST_TREE"

            """.write(toFile: script, atomically: true, encoding: .utf8)
        let environment = bed.environment(fixture.environment([
            "QUIRE_TEST_BINARY": QuireBinary.path, "QUIRE_TEST_CACHE": cache, "QUIRE_TEST_RUNS": runs,
            "QUIRE_TEST_TREE": fixture.tree]).merging(["SLURM_CONF": bed.configuration]) { $1 })
        let submitted = ProcessRunner.run(["/usr/bin/sbatch", "--wait", "--array=0-3", "--job-name=quire-test",
                                           "--output=\(runs)/out-%a.jsonl", "--error=\(runs)/err-%a.txt",
                                           "--chdir=\(runs)", script],
                                          environment: environment, timeout: 300)
        // A task whose share holds broken.pdf exits 65, which sbatch --wait reports as a failed array.
        #expect(!submitted.timedOut && [0, 1, 65].contains(submitted.status), "\(submitted.standardError)\n\(bed.logs())")
        #expect(submitted.standardOutputText.hasPrefix("Submitted batch job"), "\(submitted.standardOutputText)")

        var seen: [String: Int] = [:]
        var sources: [String] = []
        for task in 0..<4 {
            let output = try String(contentsOfFile: "\(runs)/out-\(task).jsonl", encoding: .utf8)
            let errors = (try? String(contentsOfFile: "\(runs)/err-\(task).txt", encoding: .utf8)) ?? ""
            #expect(errors.contains("quire: shard \(task + 1)/4 from Slurm (SLURM_ARRAY_TASK_ID=\(task), SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=4)"),
                    "\(errors)")
            for line in output.split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if object["event"] as? String == "summary" {
                    sources.append((object["shard"] as? [String: Any])?["source"] as? String ?? "")
                } else if let path = object["path"] as? String {
                    seen[path, default: 0] += 1
                    let status = object["status"] as? String
                    #expect(status == "generated" || (path.hasSuffix("/broken.pdf") && status == "failed"), "\(path): \(status ?? "")")
                }
            }
        }
        #expect(sources == ["slurm", "slurm", "slurm", "slurm"])
        #expect(seen.count == 41, "every file was handled by some task")
        #expect(seen.values.allSatisfy { $0 == 1 }, "no file was handled twice")
        let pngs = ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/large")) ?? []).filter { $0.hasSuffix(".png") }
        #expect(pngs.count == 40)

        let summaries = (0..<4).map { "\(runs)/summary-\($0).json" }
        let merged = QuireBinary.run(["thumbnail", "--merge-summaries", "--json"] + summaries, environment: fixture.environment())
        #expect(merged.status == 65, "the broken file is a failure: \(merged.standardError)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(merged.standardOutput)) as? [String: Any])
        #expect(record["total"] as? Int == 41)
        #expect(record["generated"] as? Int == 40 && record["failed"] as? Int == 1)
        #expect(record["complete"] as? Bool == true && record["shardsSeen"] as? [Int] == [1, 2, 3, 4])
        #expect(((record["failures"] as? [[String: Any]])?.first?["path"] as? String)?.hasSuffix("/broken.pdf") == true)

        // The same array again: everything is current, nothing is rendered.
        let again = ProcessRunner.run(["/usr/bin/sbatch", "--wait", "--array=0-3", "--output=\(runs)/again-%a.jsonl",
                                       "--error=\(runs)/again-err-%a.txt", "--chdir=\(runs)", script],
                                      environment: environment, timeout: 300)
        #expect(!again.timedOut && [0, 1, 65].contains(again.status))
        let second = QuireBinary.run(["thumbnail", "--merge-summaries", "--json"] + summaries, environment: fixture.environment())
        let secondRecord = try #require(try JSONSerialization.jsonObject(with: Data(second.standardOutput)) as? [String: Any])
        #expect(secondRecord["generated"] as? Int == 0 && secondRecord["upToDate"] as? Int == 40, "\(secondRecord)")
        #expect((secondRecord["skippedByKind"] as? [String: Int])?["known-failure"] == 1)
    }
}
