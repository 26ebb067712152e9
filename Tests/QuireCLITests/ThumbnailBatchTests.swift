#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import QuireThumbnails
import Testing
import QuireRender

/// `quire thumbnail --batch` end to end: real files, real worker processes, a temporary
/// `XDG_CACHE_HOME`.
@Suite(.serialized) struct ThumbnailBatchTests {
    /// A tree of sample documents and a private cache.
    final class Fixture: @unchecked Sendable {
        let directory = TemporaryDirectory("quire-batch")
        var tree: String { directory.file("tree") }
        var cacheHome: String { directory.file("cache") }
        var thumbnails: String { cacheHome + "/thumbnails" }

        init(_ files: [String: String]) throws {
            try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
            for (name, sample) in files {
                let destination = tree + "/" + name
                try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: Samples.path(sample), toPath: destination)
            }
        }

        func environment(_ extra: [String: String] = [:]) -> [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["XDG_CACHE_HOME"] = cacheHome
            env["NO_COLOR"] = "1"
            env.removeValue(forKey: "QUIRE_TEST_WORKER_CRASH_ON")
            env.removeValue(forKey: "QUIRE_TEST_WORKER_HANG_ON")
            env.removeValue(forKey: "QUIRE_TEST_WORKER_FAIL_START")
            for (key, value) in extra { env[key] = value }
            return env
        }

        /// Runs the batch with `--json` and returns the file records and the summary.
        func run(_ arguments: [String], extra: [String: String] = [:], timeout: Double = 120)
            -> (result: ProcessRunner.Result, files: [[String: Any]], summary: [String: Any]) {
            let result = QuireBinary.run(["thumbnail", "--batch", "--json"] + arguments, timeout: timeout,
                                         environment: environment(extra))
            var files: [[String: Any]] = []
            var summary: [String: Any] = [:]
            for line in result.standardOutputText.split(separator: "\n") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if object["event"] as? String == "summary" { summary = object } else { files.append(object) }
            }
            return (result, files, summary)
        }

        func status(of files: [[String: Any]], _ name: String) -> String? {
            files.first { ($0["path"] as? String)?.hasSuffix("/" + name) == true }?["status"] as? String
        }

        func kind(of files: [[String: Any]], _ name: String) -> String? {
            files.first { ($0["path"] as? String)?.hasSuffix("/" + name) == true }?["kind"] as? String
        }

        /// The failure markers written.
        func failureMarkers() -> [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: thumbnails + "/fail/quire-\(QuireThumbnailsInfo.version)")) ?? []
        }

        /// Every file under the cache (relative paths).
        func cacheFiles() -> [String] {
            (FileManager.default.enumerator(atPath: thumbnails)?.allObjects as? [String] ?? []).filter {
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: thumbnails + "/" + $0, isDirectory: &isDirectory)
                return !isDirectory.boolValue
            }
        }
    }

    /// PIDs of worker processes (or their bubblewrap parents) still alive from the batch whose
    /// thumbnail cache is `cacheHome`, after up to 10 s for them to go (they die with their
    /// parent, but a loaded machine may take a moment to reap them). Other suites run batches
    /// in parallel, so a machine-wide search would see their workers: this one matches the
    /// worker's environment.
    static func workersLeft(cacheHome: String) -> String {
        let marker = Array("XDG_CACHE_HOME=\(cacheHome)".utf8)
        var found: [String] = []
        for _ in 0..<100 {
            found = []
            let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for pid in pids where pid.allSatisfy(\.isNumber) {
                guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                      String(decoding: cmdline, as: UTF8.self).contains("__render-worker"),
                      let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { continue }
                let variables = [UInt8](environ).split(separator: 0)
                if variables.contains(where: { Array($0) == marker }) { found.append(pid) }
            }
            if found.isEmpty { break }
            usleep(100_000)
        }
        return found.joined(separator: " ")
    }

    /// Cache file names (or paths relative to the cache) split into thumbnails and the
    /// temporary files of writers killed between linking and renaming them
    /// (`.quire-tmp-PID-N`, which the next batch removes). Anything else is left in neither.
    static func thumbnailsAndLeftovers(_ names: [String]) -> (thumbnails: [String], leftovers: [String]) {
        var thumbnails: [String] = [], leftovers: [String] = []
        for name in names {
            let last = name.split(separator: "/").last.map(String.init) ?? name
            if last.hasPrefix(".quire-tmp-") {
                leftovers.append(name)
            } else {
                thumbnails.append(name)
            }
        }
        return (thumbnails, leftovers)
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    static func mtime(_ path: String) -> Int {
        var info = stat()
        _ = stat(path, &info)
        return Int(info.st_mtim.tv_sec)
    }

    static func md5(_ text: String, _ fixture: Fixture) -> String {
        let file = fixture.directory.file("uri-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return String(ProcessRunner.run(["/usr/bin/md5sum", file]).standardOutputText.prefix(32))
    }

    /// The tEXt chunks of a PNG in file order (keyword, text).
    static func orderedText(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var offset = 8
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        while offset + 12 <= bytes.count {
            let length = u32(offset)
            if bytes[(offset + 4)..<(offset + 8)].elementsEqual("tEXt".utf8) {
                out.append(String(decoding: bytes[(offset + 8)..<(offset + 8 + length)], as: UTF8.self))
            }
            offset += 12 + length
        }
        return out
    }

    /// One way to write a thumbnail's metadata: the one-file thumbnailer (what file managers
    /// run) and the batch write the same keys, in the same order, in the same place.
    @Test func oneFileAndBatchThumbnailsCarryTheSameMetadata() throws {
        let fixture = try Fixture(["doc.pdf": "document.pdf", "photo.png": "format.png"])
        let run = fixture.run(["-r", "--size", "large", fixture.tree])
        #expect(run.result.status == 0, "\(run.result.standardError)")
        for name in ["doc.pdf", "photo.png"] {
            let input = fixture.tree + "/" + name
            let uri = "file://" + input
            let batch = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.thumbnails + "/large/" + Self.md5(uri, fixture) + ".png")))
            let output = fixture.directory.file("\(name).one.png")
            let single = QuireBinary.run(["thumbnail", "-s", "256", input, output])
            #expect(single.status == 0, "\(single.standardError)")
            let one = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
            let batchText = Self.orderedText(batch), oneText = Self.orderedText(one)
            #expect(batchText.count >= 5 && batchText.first?.hasPrefix("Thumb::URI\0") == true, "\(name): \(batchText)")
            #expect(oneText == batchText, "\(name): one-file \(oneText) vs batch \(batchText)")
        }
    }

    @Test func writtenThumbnailsConformToTheStandardAndASecondRunIsUpToDate() throws {
        let fixture = try Fixture(["doc.pdf": "document.pdf", "photo.jpg": "photo.jpg", "sub/notes.txt": "notes.txt"])
        let first = fixture.run(["-r", "--size", "normal", "--size", "large", fixture.tree])
        #expect(first.result.status == 0, "\(first.result.standardError)")
        #expect(first.summary["generated"] as? Int == 3)
        #expect((first.summary["sandbox"] as? [String: Any])?["kind"] != nil)

        for (name, mime) in [("doc.pdf", "application/pdf"), ("photo.jpg", "image/jpeg"), ("sub/notes.txt", "text/plain")] {
            let original = fixture.tree + "/" + name
            let uri = "file://" + original
            for flavor in ["normal", "large"] {
                let path = fixture.thumbnails + "/\(flavor)/" + Self.md5(uri, fixture) + ".png"
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                #expect(Self.mode(path) == 0o600)
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                // IHDR: 8-bit, colour type 6 (RGBA), not interlaced, fitted in the flavor's box.
                let width = Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19])
                let height = Int(bytes[20]) << 24 | Int(bytes[21]) << 16 | Int(bytes[22]) << 8 | Int(bytes[23])
                #expect(bytes[24] == 8 && bytes[25] == 6 && bytes[28] == 0)
                #expect(max(width, height) <= (flavor == "normal" ? 128 : 256) && min(width, height) > 0)
                let keys = try #require(PNGChunks.textChunks(bytes), "tEXt chunks of \(path)")
                #expect(keys["Thumb::URI"] == uri)
                #expect(keys["Thumb::MTime"] == "\(Self.mtime(original))")
                #expect(keys["Thumb::Size"] == "\(try FileManager.default.attributesOfItem(atPath: original)[.size] as! Int)")
                #expect(keys["Thumb::Mimetype"] == mime)
                #expect(keys["Software"]?.hasPrefix("Quire") == true)
            }
        }
        for directory in ["", "/normal", "/large"] {
            #expect(Self.mode(fixture.thumbnails + directory) == 0o700)
        }

        let second = fixture.run(["-r", "--size", "normal", "--size", "large", fixture.tree])
        #expect(second.result.status == 0)
        #expect(second.summary["upToDate"] as? Int == 3)
        #expect(second.summary["generated"] as? Int == 0)
        #expect(second.summary["workersStarted"] as? Int == 0)
    }

    @Test func touchingAFileMakesItsThumbnailStale() throws {
        let fixture = try Fixture(["a.pdf": "document.pdf", "b.pdf": "document.pdf"])
        #expect(fixture.run(["-r", fixture.tree]).summary["generated"] as? Int == 2)
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: fixture.tree + "/b.pdf")
        let again = fixture.run(["-r", fixture.tree])
        #expect(fixture.status(of: again.files, "a.pdf") == "up-to-date")
        #expect(fixture.status(of: again.files, "b.pdf") == "generated")
    }

    @Test func failedFilesGetAMarkerAndAreNotRetriedUntilTheyChange() throws {
        let fixture = try Fixture(["good.pdf": "document.pdf", "bad.pdf": "garbage.pdf"])
        let first = fixture.run(["-r", fixture.tree])
        #expect(first.result.status == 65, "a failure makes the exit status non-zero")
        #expect(fixture.status(of: first.files, "good.pdf") == "generated")
        #expect(fixture.status(of: first.files, "bad.pdf") == "failed")
        let marker = fixture.thumbnails + "/fail/quire-\(QuireThumbnailsInfo.version)/" + Self.md5("file://" + fixture.tree + "/bad.pdf", fixture) + ".png"
        #expect(FileManager.default.fileExists(atPath: marker))
        #expect(Self.mode(marker) == 0o600)

        let second = fixture.run(["-r", fixture.tree])
        #expect(second.result.status == 0)
        #expect(fixture.kind(of: second.files, "bad.pdf") == "known-failure")
        #expect(second.summary["workersStarted"] as? Int == 0, "a known failure is not sent to a worker")

        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(7)], ofItemAtPath: fixture.tree + "/bad.pdf")
        let third = fixture.run(["-r", fixture.tree])
        #expect(fixture.status(of: third.files, "bad.pdf") == "failed", "retried after it changed")
        #expect(fixture.status(of: third.files, "good.pdf") == "up-to-date")
    }

    @Test func aCrashingWorkerAndAHangingWorkerFailAloneAndTheRestSucceed() throws {
        var files: [String: String] = [:]
        for index in 0..<6 { files["doc\(index).pdf"] = "document.pdf" }
        let fixture = try Fixture(files)
        let start = Date()
        let run = fixture.run(["-r", "--jobs", "2", "--timeout", "2", fixture.tree],
                              extra: ["QUIRE_TEST_WORKER_CRASH_ON": "doc1.pdf", "QUIRE_TEST_WORKER_HANG_ON": "doc4.pdf"])
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(run.result.status == 65)
        #expect(fixture.status(of: run.files, "doc1.pdf") == "failed")
        #expect(fixture.kind(of: run.files, "doc1.pdf") == "crash")
        #expect(fixture.status(of: run.files, "doc4.pdf") == "failed")
        #expect(fixture.kind(of: run.files, "doc4.pdf") == "timeout")
        for index in [0, 2, 3, 5] {
            #expect(fixture.status(of: run.files, "doc\(index).pdf") == "generated")
        }
        #expect(run.summary["generated"] as? Int == 4)
        #expect(run.summary["failed"] as? Int == 2)
        #expect((run.summary["workersStarted"] as? Int ?? 0) >= 3, "crashed and hung workers were replaced")
        #expect(fixture.failureMarkers().count == 2, "both are recorded")
        // Recorded: the next run does not send them to a worker again.
        let again = fixture.run(["-r", fixture.tree])
        #expect(fixture.kind(of: again.files, "doc1.pdf") == "known-failure")
        #expect(fixture.kind(of: again.files, "doc4.pdf") == "known-failure")
        #expect(again.summary["upToDate"] as? Int == 4)
        // No worker outlives the batch.
        #expect(Self.workersLeft(cacheHome: fixture.cacheHome).isEmpty)
    }

    @Test func killingTheParentLeavesNoPartialThumbnailAndARerunFinishes() throws {
        var files: [String: String] = [:]
        for index in 0..<150 { files["d\(index).pdf"] = index % 10 == 0 ? "thousand-pages.pdf" : "document.pdf" }
        let fixture = try Fixture(files)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: QuireBinary.path)
        process.arguments = ["thumbnail", "--batch", "-r", "--jobs", "2", "--size", "all", fixture.tree]
        process.environment = fixture.environment()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it while it is writing: once some thumbnails exist.
        let deadline = Date().addingTimeInterval(60)
        while fixture.cacheFiles().count < 12 && Date() < deadline && process.isRunning { usleep(2_000) }
        #expect(process.isRunning, "the batch was still running when killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        #expect(Self.workersLeft(cacheHome: fixture.cacheHome).isEmpty, "workers die with their parent")
        // A writer killed between linking its temporary file and renaming it leaves the
        // temporary (named after its dead process); the rerun removes it.
        let (written, leftovers) = Self.thumbnailsAndLeftovers(fixture.cacheFiles())
        #expect(leftovers.count <= 2, "at most one per worker: \(leftovers)")
        #expect(!written.isEmpty)
        for name in written {
            #expect(name.hasSuffix(".png"), "nothing but thumbnails: \(name)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.thumbnails + "/" + name)))
            // Whole PNG: signature, IHDR first, IEND last, nothing after it.
            #expect(bytes.count > 57 && bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name)")
            #expect(Array(bytes.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82], "\(name) is whole")
        }
        let rerun = fixture.run(["-r", "--size", "all", fixture.tree], timeout: 300)
        #expect(rerun.result.status == 0, "\(rerun.result.standardError)")
        let generated = rerun.summary["generated"] as? Int ?? 0
        let upToDate = rerun.summary["upToDate"] as? Int ?? 0
        #expect(generated + upToDate == 150)
        #expect(upToDate > 0)
        #expect(Self.thumbnailsAndLeftovers(fixture.cacheFiles()).leftovers.isEmpty, "the rerun removed the dead writers' files")
    }

    @Test func interruptStopsCleanlyWithASummary() throws {
        var files: [String: String] = [:]
        for index in 0..<150 { files["d\(index).pdf"] = index % 10 == 0 ? "thousand-pages.pdf" : "document.pdf" }
        let fixture = try Fixture(files)
        let output = fixture.directory.file("stdout.jsonl")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: QuireBinary.path)
        process.arguments = ["thumbnail", "--batch", "--json", "-r", "--jobs", "2", "--size", "all", fixture.tree]
        process.environment = fixture.environment()
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while fixture.cacheFiles().count < 12 && Date() < deadline && process.isRunning { usleep(2_000) }
        #expect(process.isRunning)
        let interrupted = Date()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(interrupted) < 5, "stops promptly")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        let summary = try #require(lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(summary["event"] as? String == "summary")
        #expect(summary["cancelled"] as? Bool == true)
        #expect(summary["failed"] as? Int == 0, "files cut off by the interrupt are not failures")
        #expect((summary["generated"] as? Int ?? 0) > 0 && (summary["generated"] as? Int ?? 0) < 150)
        #expect(fixture.failureMarkers().isEmpty, "no failure markers for interrupted files")
        for name in fixture.cacheFiles() {
            #expect(name.hasSuffix(".png"), "no temporary file: \(name)")
        }
        #expect(Self.workersLeft(cacheHome: fixture.cacheHome).isEmpty, "no worker survives")
    }

    @Test func workersThatCannotStartStopTheBatchWithoutMarkingFiles() throws {
        var files: [String: String] = [:]
        for index in 0..<5 { files["doc\(index).pdf"] = "document.pdf" }
        let fixture = try Fixture(files)
        let run = fixture.run(["-r", fixture.tree], extra: ["QUIRE_TEST_WORKER_FAIL_START": "1"])
        #expect(run.result.status == 69)
        #expect(run.result.standardError.contains("cannot run thumbnail workers"))
        #expect(run.summary["failed"] as? Int == 0)
        #expect(run.summary["skipped"] as? Int == 5)
        #expect(run.summary["workerProblem"] as? String != nil)
        #expect(fixture.failureMarkers().isEmpty, "no file is blamed")
        // Once workers start again, everything is done.
        #expect(fixture.run(["-r", fixture.tree]).summary["generated"] as? Int == 5)
    }

    @Test func namesWithNewlinesAndInvalidUTF8AreThumbnailedUnderTheirExactURI() throws {
        let fixture = try Fixture(["plain.pdf": "document.pdf"])
        let source = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Samples.path("document.pdf"))))
        let name: [UInt8] = Array("odd\nna me".utf8) + [0xFF] + Array(".pdf".utf8)
        let path = Array(fixture.tree.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer { $0.baseAddress!.withMemoryRebound(to: CChar.self, capacity: path.count) {
            open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) } }
        #expect(fd >= 0)
        _ = source.withUnsafeBytes { write(fd, $0.baseAddress, source.count) }
        close(fd)
        let run = fixture.run(["-r", "--max-file-size", "100M", fixture.tree])
        #expect(run.result.status == 0, "\(run.result.standardError)")
        #expect(run.summary["generated"] as? Int == 2)
        let uri = "file://" + fixture.tree + "/odd%0Ana%20me%FF.pdf"
        #expect(run.files.contains { $0["uri"] as? String == uri }, "JSON carries the lossless URI")
        let thumbnail = fixture.thumbnails + "/large/" + Self.md5(uri, fixture) + ".png"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: thumbnail)))
        // Read as PNG text chunks, not as one decoded string: String.contains compares
        // characters, and a CRC byte after the URI that decodes to a combining mark joins the
        // URI's last letter into another character (the test failed that way now and then).
        #expect(ThumbnailCommandTests.textChunks(bytes)["Thumb::URI"] == uri)

        let small = fixture.run(["-r", "--force", "--max-file-size", "1K", fixture.tree])
        #expect(small.summary["skipped"] as? Int == 2)
        #expect(small.files.allSatisfy { $0["kind"] as? String == "too-large" })
    }

    @Test func anUnwritableCacheStopsBeforeRendering() throws {
        let fixture = try Fixture(["a.pdf": "document.pdf"])
        // A regular file where the cache directory should be.
        try FileManager.default.createDirectory(atPath: fixture.cacheHome, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: fixture.thumbnails, contents: Data("x".utf8))
        let run = fixture.run(["-r", fixture.tree])
        #expect(run.result.status == 73)
        #expect(run.result.standardError.contains("cannot write the thumbnail cache"))
        #expect(run.summary["cacheProblem"] as? String != nil)
        #expect(run.summary["workersStarted"] as? Int == 0)
    }

    @Test func shardsSplitTheTreeExactly() throws {
        var files: [String: String] = [:]
        for index in 0..<40 { files["dir\(index % 3)/f\(index).txt"] = "notes.txt" }
        let fixture = try Fixture(files)
        var seen: [String: Int] = [:]
        for shard in 1...3 {
            let run = fixture.run(["-r", "--dry-run", "--shard", "\(shard)/3", fixture.tree])
            #expect(run.result.status == 0)
            for file in run.files { seen[file["path"] as? String ?? "", default: 0] += 1 }
        }
        #expect(seen.count == 40)
        #expect(seen.values.allSatisfy { $0 == 1 })
        #expect(fixture.cacheFiles().isEmpty, "--dry-run writes nothing")
    }

    @Test func aDirectoryWithoutRecursiveProcessesOnlyItsOwnFiles() throws {
        let fixture = try Fixture(["top.pdf": "document.pdf", "top.txt": "notes.txt",
                                   "sub/inner.pdf": "document.pdf", "sub/deeper/deep.txt": "notes.txt"])
        let flat = fixture.run([fixture.tree])
        #expect(flat.result.status == 0, "\(flat.result.standardError)")
        #expect(flat.summary["generated"] as? Int == 2)
        #expect(fixture.status(of: flat.files, "top.pdf") == "generated")
        #expect(fixture.status(of: flat.files, "top.txt") == "generated")
        #expect(fixture.status(of: flat.files, "inner.pdf") == nil, "sub-directories are not entered without -r")
        #expect(fixture.status(of: flat.files, "deep.txt") == nil)
        #expect(flat.summary["skippedByKind"] as? [String: Int] ?? [:] == [:], "the directory itself is not reported as skipped")
        let deep = fixture.run(["-r", fixture.tree])
        #expect(deep.result.status == 0)
        #expect(deep.summary["generated"] as? Int == 2)
        #expect(deep.summary["upToDate"] as? Int == 2)
        #expect(fixture.status(of: deep.files, "deep.txt") == "generated")
        // A directory with nothing to do says so, and points at -r when it has sub-directories.
        try FileManager.default.createDirectory(atPath: fixture.tree + "/empty", withIntermediateDirectories: true)
        let empty = fixture.run([fixture.tree + "/empty", fixture.tree + "/sub"])
        #expect(empty.result.status == 0)
        let reasons = empty.files.filter { $0["kind"] as? String == "directory" }.compactMap { $0["reason"] as? String }
        #expect(reasons == ["no files in the directory"], "\(empty.files)")
        #expect(fixture.status(of: empty.files, "empty") == "skipped")
        #expect(fixture.status(of: empty.files, "inner.pdf") == "up-to-date", "sub/ has a file of its own")
        let onlyDirectories = fixture.run([fixture.directory.path])
        #expect(onlyDirectories.files.first?["reason"] as? String == "no files directly in it, only 2 sub-directories (use -r to walk it)",
                "\(onlyDirectories.files)")
    }

    @Test func aFunctionShadingCairoIsSlowOnIsThumbnailedWellWithinAShortTimeout() throws {
        // poppler's cairo backend needs more than 15 s for this page; the batch draws it with Splash.
        let fixture = try Fixture(["shading.pdf": "shading-function.pdf", "text.pdf": "document.pdf"])
        let run = fixture.run(["--timeout", "4", fixture.tree])
        #expect(run.result.status == 0, "\(run.result.standardError)")
        #expect(fixture.status(of: run.files, "shading.pdf") == "generated", "\(run.files)")
        #expect(fixture.status(of: run.files, "text.pdf") == "generated")
        #expect(fixture.failureMarkers().isEmpty)
        #expect(Self.workersLeft(cacheHome: fixture.cacheHome).isEmpty)
    }

    @Test func hiddenFilesAndTheCacheItselfAreLeftAlone() throws {
        let fixture = try Fixture(["shown.pdf": "document.pdf", ".hidden.pdf": "document.pdf", ".dir/inner.pdf": "document.pdf"])
        let plain = fixture.run(["-r", fixture.tree])
        #expect(plain.summary["generated"] as? Int == 1)
        let hidden = fixture.run(["-r", "--include-hidden", fixture.tree])
        #expect(hidden.summary["generated"] as? Int == 2)
        #expect(hidden.summary["upToDate"] as? Int == 1)
        // Pointing the batch at the cache thumbnails nothing.
        let inside = fixture.run(["-r", "--include-hidden", fixture.cacheHome])
        #expect(inside.summary["generated"] as? Int == 0)
        #expect(inside.files.allSatisfy { $0["kind"] as? String == "inside-cache" })
    }

    @Test func aMissingPathIsAnErrorButTheRestIsDone() throws {
        let fixture = try Fixture(["a.pdf": "document.pdf"])
        let run = fixture.run([fixture.tree + "/a.pdf", fixture.tree + "/missing.pdf"])
        // A file named on the command line that is not there: 66, as in every command.
        #expect(run.result.status == 66)
        #expect(fixture.status(of: run.files, "a.pdf") == "generated")
        #expect(fixture.kind(of: run.files, "missing.pdf") == "not-found")
        #expect(fixture.failureMarkers().isEmpty)
    }

    @Test func usageErrors() {
        #expect(QuireBinary.run(["thumbnail", "--batch", "--size", "huge", "/tmp"]).status == 64)
        #expect(QuireBinary.run(["thumbnail", "--batch", "--shard", "4/3", "/tmp"]).status == 64)
        #expect(QuireBinary.run(["thumbnail", "--batch"]).status == 64)
    }
}
