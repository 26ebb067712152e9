#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import QuireTestSupport

/// Every command over every entry of the hostile corpus (`Samples/hostile.py`: damaged and
/// bit-flipped PDFs, pixel and zip bombs, path traversal in zips, hostile file names, FIFOs,
/// devices, symlink loops, empty and unreadable files) through the built `quire` binary.
///
/// Each run gets the corpus directory as its working directory, names passed as separate raw
/// argv entries after `--`, HOME/XDG/TMPDIR inside the scratch directory and a private CUPS scheduler.
/// Asserted per run: it exits within a bound, never by a signal, with a sysexits status; a
/// failure prints a `quire: NAME: reason` line naming the file in its escaped display form; the
/// output directory holds the promised files on success and nothing on failure. Asserted after
/// all runs: the corpus is byte-identical (same names, kinds, contents, timestamps), nothing new
/// appeared in it (no `pwned`), and nothing was written to the scratch HOME, TMPDIR or outside.
@Suite struct HostileCorpusTests {
    /// Statuses a run may end with: success, bad data, no input, unavailable service, time limit.
    static let allowedStatuses: Set<Int32> = [0, 65, 66, 69, 75]

    struct Run: Sendable {
        let entry: [UInt8]
        let command: String
        let arguments: [[UInt8]]
        let outputDirectory: String?
        let bound: Double
    }

    @Test func everyCommandSurvivesEveryHostileFile() throws {
        let scratch = TemporaryDirectory("quire-hostile")
        let corpus = scratch.file("corpus")
        let generated = ProcessRunner.run(
            ["/usr/bin/env", "python3", Samples.repositoryRoot.appendingPathComponent("Samples/hostile.py").path,
             corpus, Samples.directory.path], timeout: 120)
        try #require(generated.status == 0, "hostile.py failed: \(generated.standardError)")
        let entries = try DirectorySnapshot.names(in: corpus)
        try #require(entries.count > 60, "the corpus is unexpectedly small: \(entries.count)")
        let before = try DirectorySnapshot(directory: corpus)

        for name in ["home", "tmp", "cache", "runtime", "out", "config", "data"] {
            try FileManager.default.createDirectory(atPath: scratch.file(name), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = scratch.file("home")
        env["TMPDIR"] = scratch.file("tmp")
        env["XDG_CACHE_HOME"] = scratch.file("cache")
        env["XDG_RUNTIME_DIR"] = scratch.file("runtime")
        env["XDG_CONFIG_HOME"] = scratch.file("config")
        env["XDG_DATA_HOME"] = scratch.file("data")
        // A private scheduler with a default queue, so that print --dry-run goes as far as it
        // can (conversion of text and images included); nothing is sent.
        let bed = try CUPSTestBed(.full)
        env["CUPS_SERVER"] = bed.server
        env["NO_COLOR"] = "1"
        for key in ["PRINTER", "LPDEST", "QUIRE_GRAPHICS"] { env[key] = nil }
        for key in env.keys where key.hasPrefix("QUIRE_") { env[key] = nil }

        var runs: [Run] = []
        for (index, entry) in entries.enumerated() {
            func out(_ command: String) -> String {
                let directory = scratch.file("out/\(index)-\(command)")
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
                return directory
            }
            let a = { (s: String) in Array(s.utf8) }
            runs.append(Run(entry: entry, command: "info", arguments: [a("info"), a("--"), entry],
                            outputDirectory: nil, bound: 20))
            let preview = out("preview")
            runs.append(Run(entry: entry, command: "preview",
                            arguments: [a("preview"), a("--timeout"), a("10"), a("-o"), a(preview + "/out.png"), a("--"), entry],
                            outputDirectory: preview, bound: 15))
            let thumbnail = out("thumbnail")
            runs.append(Run(entry: entry, command: "thumbnail",
                            arguments: [a("thumbnail"), a("-s"), a("128"), a("--timeout"), a("10"), a("--"), entry,
                                        a(thumbnail + "/out.png")],
                            outputDirectory: thumbnail, bound: 15))
            runs.append(Run(entry: entry, command: "actions", arguments: [a("actions"), a("--"), entry],
                            outputDirectory: nil, bound: 20))
            runs.append(Run(entry: entry, command: "print", arguments: [a("print"), a("--dry-run"), a("--"), entry],
                            outputDirectory: nil, bound: 20))
        }
        let binary = Array(QuireBinary.path.utf8)
        let environment = env
        let results = Parallel.map(runs, width: 8) { run in
            ProcessRunner.run(bytes: [binary] + run.arguments, environment: environment, timeout: 30,
                              workingDirectory: corpus)
        }
        for (run, result) in zip(runs, results) {
            check(run, result)
        }
        // Specific outcomes: a PDF whose page tree yields no page is not printable (it used to be
        // planned and submitted as a 0-page job); bombs are refused by their limits.
        func outcome(_ command: String, _ name: String) -> ProcessRunner.Result? {
            zip(runs, results).first { $0.0.command == command && $0.0.entry == Array(name.utf8) }?.1
        }
        #expect(outcome("print", "huge-page-count.pdf")?.standardError
                == "quire: huge-page-count.pdf: the PDF has no pages\n")
        for (name, option) in [("pixel-bomb.png", "--max-pixels"), ("pixel-bomb.jpg", "--max-pixels"), ("bomb.odt", "--max-inflated-size"),
                               ("bomb.epub", "--max-inflated-size"), ("bomb.cbz", "--max-inflated-size"),
                               ("many-entries.cbz", "--max-entries"), ("sparse-huge.pdf", "--max-file-size")] {
            let result = outcome("thumbnail", name)
            #expect(result?.status == 65 && result?.standardError.contains("(\(option))") == true,
                    "thumbnail \(name): \(result?.standardError ?? "not run")")
        }
        if ProcessInfo.processInfo.environment["QUIRE_HOSTILE_DEBUG"] != nil {
            for (run, result) in zip(runs, results) {
                print("DEBUG \(run.command) \(Display.escaped(run.entry)) status=\(result.status) t=\(String(format: "%.2f", result.elapsed)) err=\(result.standardError.prefix(150).debugDescription)")
            }
        }

        // info --json: all entries in one process (a per-file time limit each); one object per
        // entry, in order, and every failure named on stderr.
        let info = ProcessRunner.run(bytes: [binary] + [Array("info".utf8), Array("--json".utf8), Array("--".utf8)] + entries,
                                     environment: environment, timeout: 120, workingDirectory: corpus)
        #expect(!info.timedOut && info.signal == nil && [0, 65, 66].contains(info.status),
                "info --json: status \(info.status), signal \(info.signal ?? 0): \(info.standardError)")
        let records = (try? JSONSerialization.jsonObject(with: Data(info.standardOutput))) as? [[String: Any]] ?? []
        #expect(records.count == entries.count, "info --json printed \(records.count) objects for \(entries.count) files")
        for (entry, record) in zip(entries, records) where record["ok"] as? Bool == false {
            #expect(info.errorLines.contains { $0.hasPrefix("quire: \(Display.escaped(entry)): ") },
                    "info --json: no stderr line for \(Display.escaped(entry))")
        }

        // Batch: all entries at once, into a scratch cache; under bubblewrap when it works here,
        // and with --no-sandbox (resource limits only).
        for (cacheName, extra) in [("cache", [String]()), ("cache-unsandboxed", ["--no-sandbox"])] {
            var batchEnvironment = environment
            batchEnvironment["XDG_CACHE_HOME"] = scratch.file(cacheName)
            let batch = ProcessRunner.run(
                bytes: [binary] + (["thumbnail", "--batch", "--verbose", "--size", "normal", "--timeout", "3"] + extra + ["--"])
                    .map { (s: String) in Array(s.utf8) } + entries,
                environment: batchEnvironment, timeout: 120, workingDirectory: corpus)
            let label = "batch \(extra.joined())"
            #expect(!batch.timedOut && batch.elapsed < 90, "\(label) took \(batch.elapsed) s")
            #expect(batch.signal == nil, "\(label) died of signal \(batch.signal ?? 0)")
            // 66: an entry named on the command line is not there (a dangling link).
            #expect([0, 65, 66].contains(batch.status), "\(label): status \(batch.status): \(batch.standardError)")
            if batch.status == 66 {
                // (--verbose: each file's line is on standard output.)
                #expect((batch.standardOutputText + batch.standardError).contains("no such file"),
                        "\(label): 66 without a missing file: \(batch.standardOutputText)")
            }
            let batchReport = batch.standardOutputText + batch.standardError
            for entry in entries {
                #expect(batchReport.contains(Display.escaped(entry)), "\(label) did not report \(Display.escaped(entry))")
            }
            for line in batch.errorLines {
                #expect(line.hasPrefix("quire: "), "\(label): unexpected stderr line \(line)")
            }
            let cacheFiles = (try? DirectorySnapshot.files(under: scratch.file(cacheName))) ?? []
            #expect(!cacheFiles.isEmpty, "\(label) wrote no thumbnails")
            for file in cacheFiles {
                #expect(file.hasPrefix("thumbnails/") && file.hasSuffix(".png"), "\(label) left \(file) in the cache")
            }
        }

        // Afterwards: the corpus is untouched and nothing strayed.
        let after = try DirectorySnapshot(directory: corpus)
        #expect(after.entries.keys.sorted { $0.lexicographicallyPrecedes($1) }
                == before.entries.keys.sorted { $0.lexicographicallyPrecedes($1) },
                "entries appeared or disappeared in the corpus")
        for (name, state) in before.entries {
            #expect(after.entries[name] == state, "\(Display.escaped(name)) changed")
        }
        for directory in ["home", "tmp", "runtime", "config", "data"] {
            let left = try DirectorySnapshot.files(under: scratch.file(directory))
            #expect(left.isEmpty, "files left in \(directory): \(left)")
        }
        withExtendedLifetime(bed) {}   // the scheduler runs until every command is done
        let scratchTop = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        #expect(scratchTop == ["cache", "cache-unsandboxed", "config", "corpus", "data", "home", "out", "runtime", "tmp"])
        for stray in ["/tmp/pwned", "/tmp/pwned.png", "/pwned.png", "/tmp/quire-absolute-pwned.png",
                      FileManager.default.currentDirectoryPath + "/pwned", scratch.file("pwned"), scratch.file("pwned.png")] {
            #expect(!FileManager.default.fileExists(atPath: stray), "\(stray) was created")
        }
    }

    /// Mode 000 means nothing to root, so as root the commands run as `nobody` (setpriv): every
    /// command refuses the file with status 66 and one line naming it, and writes nothing.
    @Test func unreadableFileIsRefusedByEveryCommand() throws {
        let scratch = TemporaryDirectory("quire-unreadable")
        #expect(chmod(scratch.path, 0o777) == 0)
        let file = scratch.file("unreadable -x.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: file)
        #expect(chmod(file, 0) == 0)
        let before = try DirectorySnapshot(directory: scratch.path)
        let out = scratch.file("out.png")
        let prefix = getuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", QuireBinary.path]
            : [QuireBinary.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CUPS_SERVER"] = "127.0.0.1:1"
        environment["HOME"] = scratch.path
        environment["XDG_CACHE_HOME"] = scratch.path
        for arguments in [["info", "--", file], ["preview", "-o", out, "--", file], ["thumbnail", "--", file, out],
                          ["actions", "--", file], ["print", "--dry-run", "--", file]] {
            let result = ProcessRunner.run(prefix + arguments, environment: environment, timeout: 30)
            #expect(result.status == 66, "\(arguments[0]): \(result.status) \(result.standardError)")
            #expect(result.errorLines == ["quire: \(file): permission denied (the file is not readable)"],
                    "\(arguments[0]): \(result.standardError)")
        }
        let after = try DirectorySnapshot(directory: scratch.path)
        #expect(after.entries == before.entries, "the directory changed")
    }

    /// The per-run assertions.
    private func check(_ run: Run, _ result: ProcessRunner.Result) {
        let name = Display.escaped(run.entry)
        let label = "\(run.command) \(name)"
        #expect(!result.timedOut, "\(label): hung (killed after \(result.elapsed) s)")
        #expect(result.elapsed < run.bound, "\(label): took \(result.elapsed) s")
        #expect(result.signal == nil, "\(label): died of signal \(result.signal ?? 0): \(result.standardError)")
        #expect(Self.allowedStatuses.contains(result.status), "\(label): status \(result.status): \(result.standardError)")
        #expect(!result.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" },
                "\(label): raw control characters on stderr: \(result.standardError.debugDescription)")
        if result.status != 0 {
            let naming = result.errorLines.filter { $0.hasPrefix("quire: \(name): ") && $0.count > "quire: \(name): ".count }
            #expect(!naming.isEmpty,
                    "\(label): status \(result.status) without a 'quire: \(name): reason' line: \(result.standardError)")
        }
        guard let directory = run.outputDirectory else { return }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if result.status == 0 {
            #expect(left == ["out.png"], "\(label): output directory holds \(left)")
        } else {
            #expect(left.isEmpty, "\(label): failed but left \(left)")
        }
    }
}
