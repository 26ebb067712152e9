#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireRender
import QuireTestSupport
import QuireTypes
import Testing

/// Issue 41, against the built `quire`: a PostScript file cannot read, delete or create files in
/// `$TMPDIR` through a one-file command, with bubblewrap (the sandboxed worker draws the pages)
/// or without (Ghostscript gets an empty `$TMPDIR` of its own); a document with no page is "has
/// no pages", never a picture of memory; the one-file commands read documents under the batch's
/// memory limit and name `--memory-limit` when it is hit.
@Suite("The isolation rule, memory limits and uninitialised pixels (issue 41)", .serialized)
struct IsolationRuleTests {
    /// A private `$TMPDIR` under /tmp, named as `evil-tmpdir.ps` looks for it
    /// (`/tmp/quire-evil-N/quire-secret.txt`, N < 64), holding the secret and the file to delete.
    final class EvilTemporaryDirectory {
        let path: String
        var secret: String { path + "/quire-secret.txt" }
        var victim: String { path + "/quire-victim.txt" }
        var planted: String { path + "/quire-planted.txt" }

        init() throws {
            // The first free /tmp/quire-evil-N (mkdir is atomic: suites running at once get their own).
            var free: String?
            for number in 0..<64 {
                let candidate = "/tmp/quire-evil-\(number)"
                if mkdir(candidate, 0o700) == 0 { free = candidate; break }
            }
            path = try #require(free, "no free /tmp/quire-evil-N directory")
            try Data("the secret\n".utf8).write(to: URL(fileURLWithPath: secret))
            try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: victim))
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    /// A PNG read back through the image renderer, at its own size.
    static func decodePNG(_ path: String) throws -> RenderedImage {
        let file = try InputFile(path: DocumentPath(path))
        return try Renderer(file: file, contentType: try ContentType.detect(file)).render(page: 0, size: .longestSide(4096),
                                                                                        allowUpscaling: false)
    }

    static func arguments(_ command: String, _ document: String, _ output: String) -> [String] {
        command == "thumbnail" ? ["thumbnail", "-s", "256", document, output]
                               : ["preview", document, "--width", "256", "-o", output]
    }

    /// The control: plain Ghostscript with `-dSAFER` and the same `$TMPDIR` does all three, so the
    /// sample attacks what the commands must refuse.
    @Test func theSampleReadsDeletesAndCreatesUnderGhostscriptsSafer() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/gs"), "Ghostscript (gs): make deps installs it")
        let evil = try EvilTemporaryDirectory()
        let scratch = TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = evil.path
        let result = ProcessRunner.run(["/usr/bin/gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-r36",
                                        "-o", scratch.file("page.png"), Samples.path("evil-tmpdir.ps")],
                                       environment: environment, timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: evil.victim), "the sample did not delete under plain -dSAFER")
        #expect(FileManager.default.fileExists(atPath: evil.planted), "the sample did not create under plain -dSAFER")
    }

    /// `thumbnail` and `preview` of the hostile PostScript, with and without bubblewrap: the page
    /// renders (its grey bar), but the secret is not read (no black band at the top), the victim
    /// is still there and nothing was planted; without bubblewrap Ghostscript's own temporary
    /// directory is gone afterwards.
    @Test(arguments: [("thumbnail", true), ("thumbnail", false), ("preview", true), ("preview", false)])
    func postScriptCannotReadDeleteOrCreateInTMPDIR(command: String, sandboxed: Bool) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap: make test installs it")
        let evil = try EvilTemporaryDirectory()
        let scratch = TemporaryDirectory()
        let output = scratch.file("out.png")
        var environment = ["TMPDIR": evil.path]
        if !sandboxed { environment["QUIRE_BWRAP"] = "/nonexistent/bwrap" }
        let seen = try OfficeSandboxTests.observe(Self.arguments(command, Samples.path("evil-tmpdir.ps"), output),
                                                  environment: environment, in: scratch)
        #expect(seen.status == 0, "\(seen.standardError)")
        #expect(seen.sandboxedChild == sandboxed, "bubblewrap child seen: \(seen.sandboxedChild)")
        #expect(evil.names == ["quire-secret.txt", "quire-victim.txt"], "TMPDIR after quire \(command): \(evil.names)")
        #expect(try String(contentsOfFile: evil.victim, encoding: .utf8) == "keep me\n")
        let image = try Self.decodePNG(output)
        let bar = image.pixel(x: 2, y: image.height / 2)
        #expect(bar.red > 90 && bar.red < 170, "the page did not render (left bar \(bar)), so the test proves nothing")
        for y in [image.height / 6, image.height / 2, image.height * 5 / 6] {
            let band = image.pixel(x: image.width * 3 / 5, y: y)
            #expect(band.red > 240 && band.green > 240, "an attempt succeeded: black band at y \(y) (\(band))")
        }
    }

    /// GStreamer decodes a video for `thumbnail` and `preview` in the sandboxed worker, never in
    /// the command (the control, without bubblewrap, shows the watch sees it in the command).
    @Test(arguments: ["thumbnail", "preview"])
    func videoFramesAreDecodedInTheSandboxedWorker(command: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap: make test installs it")
        let scratch = TemporaryDirectory()
        let arguments = Self.arguments(command, Samples.path("media/clip.webm"), scratch.file("out.png"))
        let sandboxed = try OfficeSandboxTests.observe(arguments, in: scratch)
        #expect(sandboxed.status == 0, "\(sandboxed.standardError)")
        #expect(sandboxed.sandboxedChild && !sandboxed.gstreamerInCommand, "GStreamer was loaded into quire \(command)")
        let image = try Self.decodePNG(scratch.file("out.png"))
        #expect(image.longestSide == 256)
        let control = try OfficeSandboxTests.observe(arguments, environment: ["QUIRE_BWRAP": "/nonexistent/bwrap"], in: scratch)
        #expect(control.status == 0 && control.gstreamerInCommand && !control.sandboxedChild,
                "control: status \(control.status), GStreamer seen in the command \(control.gstreamerInCommand), bwrap child \(control.sandboxedChild), peak \(control.peakResidentKB) kB: \(control.standardError)")
    }

    /// A PostScript file that never outputs a page: "has no pages", exit 65, one line, nothing
    /// written — in the sandboxed worker and in the command's own process, at a size whose
    /// buffer comes from malloc's heap and one whose buffer is a fresh mapping.
    @Test(arguments: [("thumbnail", true), ("thumbnail", false), ("preview", true), ("preview", false)])
    func aPostScriptFileWithoutAPageHasNoPages(command: String, sandboxed: Bool) throws {
        let scratch = TemporaryDirectory()
        let environment = sandboxed ? nil : ProcessInfo.processInfo.environment.merging(["QUIRE_BWRAP": "/nonexistent/bwrap"]) { $1 }
        for size in ["64", "1024"] {
            let arguments = command == "thumbnail"
                ? ["thumbnail", "-s", size, Samples.path("no-pages.ps"), scratch.file("out.png")]
                : ["preview", Samples.path("no-pages.ps"), "--width", size, "-o", scratch.file("out.png")]
            let result = QuireBinary.run(arguments, timeout: 60, environment: environment)
            #expect(result.status == 65, "\(size): \(result.standardError)")
            #expect(result.errorLines.count == 1 && result.standardError.contains("has no pages"), "\(result.standardError)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        }
    }

    /// One warm worker (`--jobs 1`) first draws a page of a known colour, then gets the page-less
    /// file (no thumbnail: failed) and a blank page (white, with none of the colour): what a
    /// worker held before never reaches a later thumbnail, at every flavor.
    @Test func aWarmWorkerNeverHandsAnEarlierPageToALaterThumbnail() throws {
        let fixture = try ThumbnailBatchTests.Fixture(["a-pattern.pdf": "pattern.pdf", "b-no-pages.ps": "no-pages.ps",
                                                       "c-blank.ps": "blank-page.ps", "d-no-pages.ps": "no-pages.ps"])
        let run = fixture.run(["--jobs", "1", "--size", "all", fixture.tree], timeout: 180)
        #expect(run.result.status == 65, "\(run.result.standardError)")
        #expect(fixture.status(of: run.files, "a-pattern.pdf") == "generated")
        #expect(fixture.status(of: run.files, "c-blank.ps") == "generated")
        #expect(fixture.status(of: run.files, "b-no-pages.ps") == "failed")
        #expect(fixture.status(of: run.files, "d-no-pages.ps") == "failed")
        #expect(run.summary["workersStarted"] as? Int == 1, "one warm worker drew them all")
        var patterned = 0, blank = 0
        for name in fixture.cacheFiles() where name.hasSuffix(".png") && !name.hasPrefix("fail/") {   // not the failure markers
            let image = try Self.decodePNG(fixture.thumbnails + "/" + name)
            var pattern = 0, white = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let pixel = image.pixel(x: x, y: y)
                    if abs(Int(pixel.red) - 201) < 8 && abs(Int(pixel.green) - 13) < 8 && abs(Int(pixel.blue) - 177) < 8 { pattern += 1 }
                    if pixel.red == 255 && pixel.green == 255 && pixel.blue == 255 { white += 1 }
                }
            }
            if pattern == image.width * image.height { patterned += 1 } else {
                #expect(pattern == 0, "\(name): \(pattern) pixels of the earlier page's colour")
                #expect(white == image.width * image.height, "\(name) is not the blank page's white")
                blank += 1
            }
        }
        #expect(patterned == 4 && blank == 4, "\(patterned) pattern and \(blank) blank thumbnails")
    }

    /// The deep-`q` PDF and the 24000² image PDF through `thumbnail` and `preview` with
    /// `--memory-limit 512`: the command's peak stays under it; the deep-`q` one fails with one
    /// line naming the limit and its option (the image one may be drawn in bounded memory).
    @Test(arguments: [("thumbnail", "deep-q.pdf"), ("preview", "deep-q.pdf"), ("thumbnail", "big-image.pdf"), ("preview", "big-image.pdf")])
    func oneFileCommandsStayUnderTheMemoryLimit(command: String, name: String) throws {
        let scratch = TemporaryDirectory()
        let output = scratch.file("out.png")
        let arguments = Self.arguments(command, Samples.path(name), output) + ["--memory-limit", "512", "--timeout", "120"]
        let seen = try OfficeSandboxTests.observe(arguments, in: scratch)
        #expect(seen.peakResidentKB > 0 && seen.peakResidentKB < 512 * 1024, "peak \(seen.peakResidentKB) kB")
        if name == "deep-q.pdf" {
            #expect(seen.status == 65, "\(seen.standardError)")
            #expect(seen.standardError == "quire: \(Samples.path(name)): needs more memory than the limit of 512 MiB (--memory-limit)\n")
            #expect(!FileManager.default.fileExists(atPath: output))
        } else if seen.status != 0 {
            #expect(seen.standardError.split(separator: "\n").count == 1, "\(seen.standardError)")
        }
    }

    /// The thumbnailer contract's line (no options) takes the limit from `QUIRE_MEMORY_LIMIT`.
    @Test func theContractLineTakesTheLimitFromTheEnvironment() throws {
        let scratch = TemporaryDirectory()
        let seen = try OfficeSandboxTests.observe(["thumbnail", "-s", "128", Samples.path("deep-q.pdf"), scratch.file("t.png")],
                                                  environment: ["QUIRE_MEMORY_LIMIT": "384"], in: scratch)
        #expect(seen.status == 65)
        #expect(seen.standardError.hasSuffix("needs more memory than the limit of 384 MiB (--memory-limit)\n"), "\(seen.standardError)")
        #expect(seen.peakResidentKB < 384 * 1024, "peak \(seen.peakResidentKB) kB")
    }

    /// The batch's worker past its limit: the file fails and the reason names `--memory-limit`
    /// (not "worker crashed (aborted)"); the other file is drawn.
    @Test func theBatchNamesTheMemoryLimit() throws {
        let fixture = try ThumbnailBatchTests.Fixture(["deep-q.pdf": "deep-q.pdf", "fine.pdf": "document.pdf"])
        let run = fixture.run(["--jobs", "1", "--memory-limit", "256", fixture.tree])
        #expect(run.result.status == 65)
        #expect(fixture.status(of: run.files, "fine.pdf") == "generated")
        let record = try #require(run.files.first { ($0["path"] as? String)?.hasSuffix("/deep-q.pdf") == true })
        #expect(record["status"] as? String == "failed")
        let reason = record["reason"] as? String ?? ""
        #expect(reason.contains("more memory than its limit") && reason.hasSuffix("(--memory-limit)"), "\(reason)")
    }

    /// `info` of an archive counts, and its listing (the page `preview` draws and the viewers
    /// show) marks, the entry that unpacks through a symbolic link to /tmp and the hard link to
    /// /etc/passwd; the viewers' list of entries to open leaves both out and keeps the plain file.
    @Test func theArchiveListingMarksEntriesThroughLinksAndHardLinksOutside() throws {
        let archive = Samples.path("archives/links-outside.tar")
        let info = QuireBinary.run(["info", archive])
        #expect(info.status == 0, "\(info.standardError)")
        // linkdir (a link to /tmp) was marked before; linkdir/x.txt and passwd-link are new.
        #expect(info.standardOutputText.contains("3 entries would unpack outside the folder"), "\(info.standardOutputText)")
        let file = try InputFile(path: DocumentPath(archive))
        let renderer = try Renderer(file: file, contentType: try ContentType.detect(file))
        let lines = (try renderer.text(page: 0) ?? "").split(separator: "\n")
        #expect(lines.contains { $0.hasSuffix("!linkdir/x.txt") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("!passwd-link (hard link to /etc/passwd)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix(" ok.txt") && !$0.contains("!") }, "\(lines)")
        #expect(renderer.entries.map(\.path) == ["ok.txt"])
    }

    /// Flat OpenDocument (one XML file, no zip) opens through LibreOffice: info and a thumbnail.
    @Test(arguments: ["office-flat.fodt", "office-flat.fods"])
    func flatOpenDocumentOpens(name: String) throws {
        let scratch = TemporaryDirectory()
        let info = QuireBinary.run(["info", Samples.path(name)], timeout: 120)
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutputText.contains("Pages:"), "\(info.standardOutputText)")
        let thumbnail = QuireBinary.run(["thumbnail", "-s", "128", Samples.path(name), scratch.file("t.png")], timeout: 120)
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        #expect(FileManager.default.fileExists(atPath: scratch.file("t.png")))
    }
}
