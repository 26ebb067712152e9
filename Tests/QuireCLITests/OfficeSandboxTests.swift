#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import QuireRender
import QuireThumbnails
import Testing

/// One-shot commands (`preview`, `info`, `thumbnail FILE OUT`) on an office file: LibreOffice
/// runs in a render worker under bubblewrap, never in the command's own process — watched from
/// outside while the command runs (its children in /proc, and whether LibreOffice's library is
/// mapped into it). Without a working bubblewrap the command converts in its own process, as
/// before (the control, which also shows the watching can see LibreOffice in the command).
@Suite("One-shot commands run LibreOffice and GStreamer in the worker sandbox", .serialized)
struct OfficeSandboxTests {
    struct Observation {
        var status: Int32?
        var standardError = ""
        var standardOutput = ""
        /// A `bwrap` child of the command was seen.
        var sandboxedChild = false
        /// The `bwrap` children that ran a render worker (their process ids).
        var workers: Set<pid_t> = []
        /// LibreOffice's merged library was mapped into the command's own process.
        var officeInCommand = false
        /// GStreamer was mapped into the command's own process.
        var gstreamerInCommand = false
        /// The command's peak resident size (VmHWM), in kB, as last seen.
        var peakResidentKB = 0
    }

    /// Runs `quire ARGUMENTS` and watches it every few milliseconds until it ends.
    static func observe(_ arguments: [String], environment extra: [String: String] = [:], in scratch: TemporaryDirectory) throws -> Observation {
        let environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let process = try BackgroundProcess([QuireBinary.path] + arguments, environment: environment, directory: scratch.path)
        var seen = Observation()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline {
            let maps = String(decoding: Self.read("/proc/\(process.pid)/maps"), as: UTF8.self)
            if maps.contains("libmergedlo.so") { seen.officeInCommand = true }
            if maps.contains("libgstreamer-1.0.so") { seen.gstreamerInCommand = true }
            let status = String(decoding: Self.read("/proc/\(process.pid)/status"), as: UTF8.self)
            if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
               let kB = Int(line.split(separator: " ").dropFirst().first ?? "") {
                seen.peakResidentKB = max(seen.peakResidentKB, kB)
            }
            for (child, name) in Self.children(of: process.pid) where name == "bwrap" {
                seen.sandboxedChild = true
                if String(decoding: Self.read("/proc/\(child)/cmdline"), as: UTF8.self).contains("__render-worker") {
                    seen.workers.insert(child)
                }
            }
            usleep(5_000)
        }
        #expect(process.waitForExit(timeout: 1), "quire \(arguments) did not end")
        seen.status = process.exitStatus
        seen.standardError = process.errorOutput
        seen.standardOutput = process.output
        return seen
    }

    /// A /proc file, whole (its size says 0: read to the end).
    static func read(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return bytes }
            bytes += buffer.prefix(count)
        }
    }

    /// The processes whose parent is `pid`, with their command names (`comm`).
    static func children(of pid: pid_t) -> [(pid: pid_t, name: String)] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var names: [(pid: pid_t, name: String)] = []
        for entry in entries where entry.first?.isNumber == true {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if fields.count > 1, Int32(fields[1]) == pid, let child = pid_t(entry) {
                names.append((child, String(stat[stat.index(after: open)..<close])))
            }
        }
        return names
    }

    @Test(arguments: ["preview", "info", "thumbnail"])
    func officeRunsInTheSandboxedWorker(command: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap"), "bubblewrap: make test installs it")
        let scratch = TemporaryDirectory()
        let document = Samples.path("office-report.docx")   // no preview image inside: LibreOffice lays it out
        let arguments: [String]
        switch command {
        case "preview": arguments = ["preview", document, "--page", "2", "--width", "300", "-o", scratch.file("page.png")]
        case "info": arguments = ["info", document, Samples.path("office-sheet.xlsx")]
        default: arguments = ["thumbnail", "-s", "128", document, scratch.file("thumb.png")]
        }
        let sandboxed = try Self.observe(arguments, in: scratch)
        #expect(sandboxed.status == 0, "\(sandboxed.standardError)")
        #expect(sandboxed.standardError.isEmpty, "\(sandboxed.standardError)")
        #expect(sandboxed.sandboxedChild, "no bubblewrap child while quire \(command) converted the document")
        #expect(!sandboxed.officeInCommand, "LibreOffice was loaded into quire \(command) itself")
        switch command {
        case "info":
            #expect(sandboxed.standardOutput.contains("Quarterly Report"), "\(sandboxed.standardOutput)")
            // Both files through one warm worker: LibreOffice started once, as in-process.
            #expect(sandboxed.workers.count == 1, "\(sandboxed.workers.count) workers for two office files")
        case "preview": #expect(FileManager.default.fileExists(atPath: scratch.file("page.png")))
        default: #expect(FileManager.default.fileExists(atPath: scratch.file("thumb.png")))
        }

        // The control: no working bubblewrap, so the command converts in its own process.
        let unconfined = try Self.observe(arguments, environment: ["QUIRE_BWRAP": "/nonexistent/bwrap"], in: scratch)
        #expect(unconfined.status == 0, "\(unconfined.standardError)")
        #expect(unconfined.officeInCommand, "the watch did not see LibreOffice in the command, so the test proves nothing")
        #expect(!unconfined.sandboxedChild)
    }

    /// Errors LibreOffice reports inside the worker reach the command as the same one line: a
    /// password-protected document, with and without a (wrong) password.
    @Test func passwordErrorsCrossTheSandboxUnchanged() throws {
        let scratch = TemporaryDirectory()
        let none = QuireBinary.run(["preview", Samples.path("office-password.odt"), "-o", scratch.file("a.png")], timeout: 60)
        #expect(none.status == 65 && none.errorLines.count == 1, "\(none.standardError)")
        #expect(none.standardError.contains("the document is password-protected (give the password with --password)"), "\(none.standardError)")
        let wrong = QuireBinary.run(["preview", Samples.path("office-password.odt"), "--password", "nope", "-o", scratch.file("b.png")], timeout: 60)
        #expect(wrong.status == 65 && wrong.standardError.contains("the password is not correct for this document"), "\(wrong.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    /// A worker killed on its timeout outside bubblewrap leaves its private directory and
    /// LibreOffice's `lu<pid>…tmp` directories in TMPDIR: the next office to start (here an
    /// in-process one) removes both; LibreOffice directories of a process that ran no Quire
    /// office stay.
    @Test func killedOfficesLeftoversAreSweptByTheNextOffice() throws {
        let scratch = TemporaryDirectory()
        let temporary = scratch.file("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        func deadProcess() throws -> pid_t {
            let process = try BackgroundProcess(["/bin/true"], environment: [:], directory: scratch.path)
            #expect(process.waitForExit(timeout: 10))
            return process.pid
        }
        let killed = try deadProcess(), stranger = try deadProcess()
        for directory in ["quire-lok-\(killed)-AbC123/profile/user", "lu\(killed)gq1x.tmp/lu\(killed)gq1y.tmp",
                          "lu\(stranger)gq2z.tmp"] {
            try FileManager.default.createDirectory(atPath: temporary + "/" + directory, withIntermediateDirectories: true)
        }
        let result = QuireBinary.run(["preview", Samples.path("office-report.docx"), "--page", "1", "-o", scratch.file("page.png")],
                                     timeout: 120,
                                     environment: ProcessInfo.processInfo.environment.merging(
                                        ["TMPDIR": temporary, "QUIRE_BWRAP": "/nonexistent/bwrap"]) { $1 })
        #expect(result.status == 0, "\(result.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(left == ["lu\(stranger)gq2z.tmp"], "\(left)")
    }

    /// A batch without bubblewrap whose office worker is killed on its time limit (a ~440-page
    /// document, one second) leaves nothing in TMPDIR: the batch removes the dead office's
    /// files when its workers have ended.
    @Test func unsandboxedBatchLeavesNothingOfAKilledOffice() throws {
        let scratch = TemporaryDirectory()
        let temporary = scratch.file("tmp"), tree = scratch.file("tree")
        for directory in [temporary, tree] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: Samples.path("office-long.docx"), toPath: tree + "/long.docx")
        let result = QuireBinary.run(["thumbnail", "--batch", "--no-sandbox", "--jobs", "1", "--timeout", "1", tree], timeout: 120,
                                     environment: ProcessInfo.processInfo.environment.merging(
                                        ["TMPDIR": temporary, "XDG_CACHE_HOME": scratch.file("cache")]) { $1 })
        #expect(result.status == 65 && result.standardError.contains("timed out"), "\(result.status) \(result.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(left.isEmpty, "left in TMPDIR: \(left)")
    }

    /// `quire info` on video and audio: GStreamer's discoverer (which decodes to learn the
    /// streams) runs in the sandboxed worker, never in the command, and the facts are the same
    /// as read in-process (the control, without bubblewrap, shows GStreamer in the command).
    @Test func infoReadsVideoAndAudioInTheWorker() throws {
        let scratch = TemporaryDirectory()
        let files = [Samples.path("media/song.mp3"), Samples.path("media/clip.webm"), Samples.path("media/long.flac")]
        let sandboxed = try Self.observe(["info"] + files, in: scratch)
        #expect(sandboxed.status == 0, "\(sandboxed.standardError)")
        #expect(sandboxed.sandboxedChild && sandboxed.workers.count == 1, "one sandboxed worker for the three files")
        #expect(!sandboxed.gstreamerInCommand, "GStreamer was loaded into the command")
        #expect(sandboxed.standardOutput.contains("10:00:00") && sandboxed.standardOutput.contains("Cover:"),
                "\(sandboxed.standardOutput)")
        let control = try Self.observe(["info"] + files, environment: ["QUIRE_BWRAP": "/nonexistent/bwrap"], in: scratch)
        #expect(control.status == 0 && control.gstreamerInCommand && !control.sandboxedChild)
        #expect(control.standardOutput == sandboxed.standardOutput)
    }

    /// A decoder bomb — a VP8 key frame that claims 16000×16000 — through `quire info`: one
    /// line and exit 65, and the decoder's ~890 MB frame is the sandboxed worker's, not the
    /// command's (the control, without bubblewrap and with a 16 GiB limit, shows the command
    /// growing that large).
    @Test func aDecoderBombInInfoCostsTheWorkerNotTheCommand() throws {
        let scratch = TemporaryDirectory()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Samples.path("media/clip.webm"))))
        let start = try #require((0..<(bytes.count - 7)).first { bytes[$0] == 0x9D && bytes[$0 + 1] == 0x01 && bytes[$0 + 2] == 0x2A })
        bytes[(start + 3)...(start + 6)] = [0x80, 0x3E, 0x80, 0x3E]   // 16000 × 16000, little-endian
        let bomb = scratch.file("bomb.webm")
        try Data(bytes).write(to: URL(fileURLWithPath: bomb))
        let sandboxed = try Self.observe(["info", bomb], in: scratch)
        #expect(sandboxed.status == 65)
        #expect(sandboxed.standardError.split(separator: "\n").count == 1, "\(sandboxed.standardError)")
        #expect(sandboxed.peakResidentKB > 0 && sandboxed.peakResidentKB < 200_000, "the command peaked at \(sandboxed.peakResidentKB) kB")
        // The control also lifts the command's own memory limit (2 GiB of address space, which
        // GStreamer's threads and buffers reach before the frame is drawn).
        let control = try Self.observe(["info", bomb], environment: ["QUIRE_BWRAP": "/nonexistent/bwrap", "QUIRE_MEMORY_LIMIT": "16384"],
                                       in: scratch)
        #expect(control.status == 65)
        #expect(control.peakResidentKB > 500_000, "the bomb did not inflate in-process either (\(control.peakResidentKB) kB): the test proves nothing")
    }
}

extension OfficeSandboxTests {
    /// Quire's own per-file limit for the ~440-page document's commands: these tests check what
    /// is drawn and exported, not how fast, and a loaded machine lays the document out past the
    /// thumbnail's default 15 s (exit 75 was seen with a load average of 12 on two cores).
    static let officeSeconds = "150"

    /// A thumbnail of an office document is page 1 from LibreOffice's layout: the whole
    /// document is never exported for it (a ~440-page document, in the batch's worker and in the
    /// one-shot command), while a PDF of every page is (the control that the log works).
    @Test func anOfficeThumbnailNeverExportsTheWholeDocument() throws {
        let scratch = TemporaryDirectory()
        let tree = scratch.file("tree"), log = scratch.file("exports.log")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Samples.path("office-long.docx"), toPath: tree + "/long.docx")
        let environment = ProcessInfo.processInfo.environment.merging(
            ["QUIRE_OFFICE_EXPORT_LOG": log, "XDG_CACHE_HOME": scratch.file("cache"), "QUIRE_BWRAP": "/nonexistent/bwrap"]) { $1 }
        let batch = QuireBinary.run(["thumbnail", "--batch", "--no-sandbox", "--json", "--timeout", Self.officeSeconds, tree], timeout: 180, environment: environment)
        #expect(batch.status == 0 && batch.standardOutputText.contains("\"generated\":1"), "\(batch.standardError)")
        let one = QuireBinary.run(["thumbnail", "-s", "256", "--timeout", Self.officeSeconds, tree + "/long.docx", scratch.file("one.png")], timeout: 180, environment: environment)
        #expect(one.status == 0, "\(one.standardError)")
        #expect(!FileManager.default.fileExists(atPath: log), "exported: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        // (`info` counts the pages as they print: it exports.)
        let pages = QuireBinary.run(["info", "--timeout", Self.officeSeconds, tree + "/long.docx"], timeout: 180, environment: environment)
        // The thumbnail carries the layout's page count, LibreOffice's own.
        let count = ThumbnailCache.metadata(at: scratch.file("one.png"))?.pageCount
        #expect(count != nil && pages.standardOutputText.contains("Pages:      \(count ?? -1)"), "\(String(describing: count)) vs \(pages.standardOutputText)")
        // The control: a PDF of every page is an export, and is logged.
        let pdf = QuireBinary.run(["preview", "--format", "pdf", "--pages", "1", "--timeout", Self.officeSeconds, tree + "/long.docx", "-o", scratch.file("all.pdf")],
                                  timeout: 180, environment: environment)
        #expect(pdf.status == 0, "\(pdf.standardError)")
        #expect(((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("long.docx"), "the export log recorded nothing")
    }

    /// In the sandboxed one-shot worker, page 1 is drawn there from the layout: the same pixels
    /// as in the command's own process.
    @Test func aSandboxedOfficeThumbnailIsTheInProcessOne() throws {
        let scratch = TemporaryDirectory()
        let sandboxed = QuireBinary.run(["thumbnail", "-s", "128", "--timeout", Self.officeSeconds, Samples.path("office-long.docx"), scratch.file("a.png")], timeout: 180)
        #expect(sandboxed.status == 0, "\(sandboxed.standardError)")
        let control = QuireBinary.run(["thumbnail", "-s", "128", "--timeout", Self.officeSeconds, Samples.path("office-long.docx"), scratch.file("b.png")], timeout: 180,
                                      environment: ProcessInfo.processInfo.environment.merging(["QUIRE_BWRAP": "/nonexistent/bwrap"]) { $1 })
        #expect(control.status == 0, "\(control.standardError)")
        let a = try IsolationRuleTests.decodePNG(scratch.file("a.png")), b = try IsolationRuleTests.decodePNG(scratch.file("b.png"))
        #expect(a.width == b.width && a.height == b.height && a.pixels == b.pixels)
    }
}
