#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// `quire look` in a terminal, driven in tmux (100×40, private socket per test) with
/// send-keys and read back with capture-pane.
@Suite("quire look in a terminal (tmux)")
final class LookCommandTests {
    let directory = TemporaryDirectory("quire-look")
    let threePages: String
    let notes: String
    let noteLine = "line 7: the quick brown fox jumps over the lazy dog"

    init() throws {
        threePages = directory.file("three.pdf")
        try TestPDF.write(pages: 3, to: threePages)
        notes = directory.file("notes.txt")
        let text = (1...120).map { "line \($0): the quick brown fox jumps over the lazy dog\n" }.joined()
        try text.write(toFile: notes, atomically: true, encoding: .utf8)
    }

    /// A private state directory (resume) and no printers reachable unless `extra` says so.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        env["NO_COLOR"] = nil
        env["QUIRE_GRAPHICS"] = nil
        env["DISPLAY"] = nil
        env["WAYLAND_DISPLAY"] = nil
        for (key, value) in extra { env[key] = value }
        return env
    }

    func look(_ files: [String], _ extra: [String: String] = [:]) throws -> TmuxSession {
        try TmuxSession([QuireBinary.path, "look"] + files, environment: environment(extra))
    }

    /// The page area (all rows but the status line), with colours.
    func pageArea(_ session: TmuxSession) -> String {
        session.capture(escapes: true).split(separator: "\n", omittingEmptySubsequences: false).dropLast(2).joined(separator: "\n")
    }

    @Test func pagesFilesInfoCardTextAndQuit() throws {
        let session = try look([threePages, notes])
        // The status line comes first; the page once the worker has drawn it (later under load).
        var screen = session.wait { $0.contains("page 1 of 3") && $0.contains("▀") && !$0.contains("rendering page") }
        #expect(screen.contains("page 1 of 3"))
        #expect(screen.contains("three.pdf"))
        #expect(screen.contains("file 1 of 2"))
        #expect(screen.contains("▀"), "the page is drawn with half-block cells in tmux")
        #expect(session.alternateOn)
        let firstPage = pageArea(session)

        session.send("PageDown")
        screen = session.wait { $0.contains("page 2 of 3") && !$0.contains("rendering page") }
        #expect(screen.contains("page 2 of 3"))
        _ = session.wait { _ in self.pageArea(session) != firstPage }
        let secondPage = pageArea(session)
        #expect(firstPage != secondPage, "page 2 is drawn, not page 1 again")

        session.send("Right")
        // "file 2 of 2" shows with "opening…" first; the text once the worker has read it.
        screen = session.wait { $0.contains("file 2 of 2") && $0.contains("line 1 of 120") }
        #expect(screen.contains("notes.txt"))
        #expect(screen.contains(noteLine), "the text file's own lines, as text")
        #expect(screen.contains("line 1 of 120"))

        session.send("i")
        screen = session.wait(for: "Size")
        let size = try FileManager.default.attributesOfItem(atPath: notes)[.size] as! Int
        #expect(screen.contains("(\(size) bytes)"))
        #expect(screen.contains("plain text document"))
        #expect(screen.contains(noteLine), "the card is beside the text, which does not scroll away")

        session.send("q")
        screen = session.wait(for: "EXIT=")
        #expect(screen.contains("EXIT=0"))
        #expect(!session.alternateOn)
        #expect(TmuxSession.lastLine(session.wait { TmuxSession.lastLine($0).hasPrefix(TmuxSession.prompt.trimmingCharacters(in: .whitespaces)) })
            .hasPrefix("READY$"))
    }

    /// A video, a song, a font and an archive in the terminal: the card (i) says what the
    /// engines know beyond the pages (length, codecs, tags, family, entries), and the video's
    /// frames page (poster, then the strip across the duration).
    @Test func mediaFontAndArchiveCardsSayWhatTheyAre() throws {
        let session = try look([Samples.path("media/clip.webm"), Samples.path("media/song.mp3"),
                                Samples.path("fonts/collection.ttc"), Samples.path("archives/project.tar.gz")])
        var screen = session.wait(for: "page 1 of 9")
        session.send("i")
        screen = session.wait(for: "Duration")
        #expect(screen.contains("Duration 0:04"), "\(screen)")
        #expect(screen.contains("Video  VP8, 320 × 240, 25 fps"), "\(screen)")
        session.send("PageDown")
        screen = session.wait(for: "page 2 of 9")
        session.send("Right")
        screen = session.wait { $0.contains("file 2 of 4") && $0.contains("Album") }
        #expect(screen.contains("Quire Test Tone"), "the song's title from its tags: \(screen)")
        #expect(screen.contains("Author The Samples"), "\(screen)")
        #expect(screen.contains("Album  Generated, track 7"), "\(screen)")
        session.send("Right")
        screen = session.wait { $0.contains("file 3 of 4") && $0.contains("Family") }
        #expect(screen.contains("Family DejaVu Sans"), "\(screen)")
        #expect(screen.contains("Faces  2"), "\(screen)")
        #expect(screen.contains("page 1 of 2"), "a specimen page per face")
        session.send("Right")
        screen = session.wait { $0.contains("file 4 of 4") && $0.contains("Entries") }
        #expect(screen.contains("Entries 5"), "\(screen)")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// `o` on an archive lists its files (s sorts them), Enter opens one as a file of its own.
    @Test func anArchivesFilesAreListedOneOpensAndEscapeBacksOut() throws {
        let session = try look([Samples.path("archives/project.zip")])
        var screen = session.wait(for: "page 1 of 1")
        session.send("o")
        screen = session.wait(for: "sorted by name")
        #expect(screen.contains("1 of 4 files"))
        #expect(screen.contains("6.0 kB  2023-11-14 22:13  project/docs/guide.txt"), "\(screen)")
        session.send("s")
        screen = session.wait(for: "sorted by size")
        session.send("Home")
        session.send("Enter")
        screen = session.wait { $0.contains("file 2 of 2") && $0.contains("line 1 of 1000") }
        #expect(screen.contains("guide.txt") && screen.contains("line 1 of 1000"), "the largest file, guide.txt, as text: \(screen)")
        // Esc backs out one level: from the file opened from the list to the list, from the
        // list to the archive, and at the top it closes.
        session.send("Escape")
        screen = session.wait(for: "sorted by size")
        #expect(screen.contains("project/docs/guide.txt") && session.alternateOn, "back on the list: \(screen)")
        session.send("Escape")
        screen = session.wait { TmuxSession.lastLine($0).contains("project.zip") && !$0.contains("sorted by") }
        #expect(TmuxSession.lastLine(screen).contains("project.zip │ page 1 of 1"), "\(TmuxSession.lastLine(screen))")
        session.send("Escape")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// less's keys: Space and b page, G and g go to the ends, a number and Enter go to a page;
    /// ? shows the keys that apply (from the viewer-command table) and any key goes back.
    @Test func lessKeysAndTheHelpScreen() throws {
        let session = try look([threePages])
        session.wait(for: "page 1 of 3")
        session.send("Space")
        session.wait(for: "page 2 of 3")
        session.send("b")
        session.wait(for: "page 1 of 3")
        session.send("G")
        session.wait(for: "page 3 of 3")
        session.send("g")
        session.wait(for: "page 1 of 3")
        session.type("3")
        session.send("Enter")
        session.wait(for: "page 3 of 3")
        session.send("?")
        var screen = session.wait(for: "Keys for three.pdf")
        #expect(screen.contains("Space, PgDn, f") && screen.contains("next page"), "\(screen)")
        #expect(screen.contains("find a word in the file") && !screen.contains("list an archive's files"),
                "only what applies to a PDF: \(screen)")
        #expect(TmuxSession.lastLine(screen).contains("any key: back"))
        session.send("Space")
        screen = session.wait { TmuxSession.frameIsWhole($0) && !$0.contains("Keys for three.pdf") }
        #expect(TmuxSession.lastLine(screen).contains("page 3 of 3"), "Space only closed the help: \(TmuxSession.lastLine(screen))")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// SIGTERM and SIGHUP end the viewer; SIGSEGV stands for a crash inside a renderer. Each
    /// way out gives the terminal back: main screen, cursor, cooked mode (the prompt works).
    @Test(arguments: [SIGTERM, SIGHUP, SIGSEGV])
    func signalsRestoreTheTerminal(signal: Int32) throws {
        let session = try look([threePages])
        session.wait(for: "page 1 of 3")
        #expect(session.alternateOn)
        let pid = try #require(session.programPID)
        #expect(kill(pid, signal) == 0)
        let screen = session.wait(for: "EXIT=")
        #expect(screen.contains("EXIT=\(128 + signal)"))
        #expect(!session.alternateOn)
        #expect(TmuxSession.lastLine(session.wait { TmuxSession.lastLine($0).hasPrefix("READY$") }).hasPrefix("READY$"))
        // Cooked mode is back: a typed command runs.
        session.type("echo back-$((40+2))")
        session.send("Enter")
        #expect(session.wait(for: "back-42").contains("back-42"))
    }

    @Test func ctrlCClosesAndRestoresTheTerminal() throws {
        let session = try look([notes])
        session.wait(for: "line 1 of 120")
        session.send("C-c")
        #expect(session.wait(for: "EXIT=").contains("EXIT=130"))
        #expect(!session.alternateOn)
    }

    @Test func reopeningAFileResumesAtItsPage() throws {
        do {
            let session = try look([threePages])
            session.wait(for: "page 1 of 3")
            session.send("End")
            session.wait(for: "page 3 of 3")
            session.send("q")
            #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
        }
        let again = try look([threePages])
        #expect(again.wait(for: "page 3 of 3").contains("page 3 of 3"))
        again.send("g")
        again.type("2")
        again.send("Enter")
        #expect(again.wait(for: "page 2 of 3").contains("page 2 of 3"))
        again.send("Escape")
        #expect(again.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func withNoPrinterThePrintKeyIsAbsentAndSaysWhy() throws {
        let bed = try CUPSTestBed(.empty)
        let session = try TmuxSession([QuireBinary.path, "look", threePages],
                                      environment: bed.environment(["XDG_STATE_HOME": directory.file("state")]))
        var screen = session.wait(for: "page 1 of 3")
        #expect(screen.contains("i info"))
        #expect(!screen.contains("p print"))
        session.send("p")
        screen = session.wait(for: "cannot print")
        #expect(TmuxSession.lastLine(screen).contains("cannot print: no printers"))
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func printsPagesTwoToThreeTwiceFromTheInlineSheet() throws {
        let bed = try CUPSTestBed(.full)
        let document = bed.directory.file("look-print.pdf")
        try TestPDF.write(pages: 3, to: document)
        let session = try TmuxSession([QuireBinary.path, "look", document],
                                      environment: bed.environment(["XDG_STATE_HOME": directory.file("state")]))
        var screen = session.wait(for: "page 1 of 3")
        #expect(screen.contains("p print"))
        session.send("p")
        screen = session.wait(for: "Copies")
        #expect(screen.contains("quire-office (default): idle"))
        #expect(screen.contains("quire-stopped"))
        #expect(screen.contains("not selectable"))
        session.send("Tab")
        session.type("2")
        session.send("Tab")
        session.type("5")
        session.send("Enter")
        screen = session.wait(for: "✗")
        #expect(screen.contains("page range 5 is beyond the last page"), "a range past the document's 3 pages is refused inline: \(screen)")
        session.send("BSpace")
        session.type("2-3")
        session.send("Enter")
        screen = session.wait(for: "Sent to")
        #expect(TmuxSession.lastLine(screen).contains("Sent to quire-office — job "))
        let received = try #require(bed.waitForDocument(titled: "look-print.pdf"))
        #expect(received.attributes["IPP_COPIES"] == "2")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2)
        // Printed without the viewer reading the PDF: still no poppler in its process.
        let viewer = try #require(session.programPID)
        #expect(!ProcFile.mappedLibraries(of: viewer).contains { $0.contains("libpoppler") }, "the viewer printed without poppler")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func theInlineSheetComposesTwoPerSideRemembersItForThePrinterAndTheNextSheetStartsFromIt() throws {
        let bed = try CUPSTestBed(.full)
        let document = bed.directory.file("look-nup.pdf")
        try TestPDF.write(pages: 3, to: document)
        // Root's saved options go to $CUPS_SERVERROOT/lpoptions (libcups, as lpoptions does): the bed's.
        let serverRoot = bed.directory.file("serverroot")
        try FileManager.default.createDirectory(atPath: serverRoot, withIntermediateDirectories: true)
        let environment = bed.environment(["XDG_STATE_HOME": directory.file("state"), "CUPS_SERVERROOT": serverRoot])
        try FileManager.default.createDirectory(atPath: bed.directory.file("home"), withIntermediateDirectories: true)
        var session = try TmuxSession([QuireBinary.path, "look", document], environment: environment)
        session.wait(for: "page 1 of 3")
        session.send("p")
        // The summary follows the fields once the sheet has counted the pages: wait for it, not for a field.
        var screen = session.wait(for: "Will print:")
        #expect(screen.contains("Will print: 3 sheets, 3 sides"), "\(screen)")
        // Printer → Copies → Pages → Sides → Paper → Turn → Scale → Per side; → gives 2.
        for _ in 0..<7 { session.send("Tab") }
        session.send("Right")
        // The printer's paper joins the summary after the choice (with the capabilities): wait for all of it.
        screen = session.wait { $0.contains("Will print: 2 sheets of Letter, 2 sides (composed by Quire)") && Self.row($0, "Per side").contains(" 2 ") }
        #expect(Self.row(screen, "Per side").contains(" 2 "), "\(Self.row(screen, "Per side"))")
        #expect(screen.contains("Will print: 2 sheets of Letter, 2 sides (composed by Quire)"), "\(screen)")
        session.send("C-r")
        screen = session.wait(for: "Remembered for")
        let listed = ProcessRunner.run(["/usr/bin/lpoptions", "-p", "quire-office"], environment: environment).standardOutputText
        #expect(listed.contains("number-up=2"), "\(listed)")
        session.send("Enter")
        screen = session.wait(for: "Sent to")
        let received = try #require(bed.waitForDocument(titled: "look-nup.pdf"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2)
        let first = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", "1", "-l", "1", received.path, "-"]).standardOutputText
        #expect(first.contains("Page 1") && first.contains("Page 2"), "\(first)")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
        // The next sheet starts from the saved choice.
        session = try TmuxSession([QuireBinary.path, "look", document], environment: environment)
        session.wait(for: "page 1 of 3")
        session.send("p")
        // The remembered choice and the printer's paper come with its capabilities, after the
        // form's first drawing ("Will print: 2 sheets, 2 sides" without the paper): wait for both.
        screen = session.wait { Self.row($0, "Per side").contains("[2]") && $0.contains("Will print: 2 sheets of Letter, 2 sides") }
        #expect(Self.row(screen, "Per side").contains("[2]"), "\(Self.row(screen, "Per side"))")
        #expect(screen.contains("Will print: 2 sheets of Letter, 2 sides"), "\(screen)")
        // Send to, the last field (Shift+Tab from the first goes round to it): Save as PDF (→),
        // Enter writes the composed job to $HOME/NAME-print.pdf.
        session.send("BTab")
        session.send("Right")
        screen = session.wait(for: "PDF file")
        session.send("Enter")
        screen = session.wait(for: "Saved 2 sides to")
        let saved = bed.directory.file("home") + "/look-nup-print.pdf"
        #expect(TmuxSession.lastLine(screen).contains("Saved 2 sides to /"), "\(TmuxSession.lastLine(screen))")
        #expect(CUPSTestBed.pageCount(ofPDF: saved) == 2)
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// The line of the screen that holds `label` ("" when none).
    static func row(_ screen: String, _ label: String) -> String {
        screen.split(separator: "\n").first { $0.contains(label) }.map(String.init) ?? ""
    }

    @Test func theInlineSheetRefusesWhatTheWindowRefuses() throws {
        let bed = try CUPSTestBed(.full)
        let document = bed.directory.file("look-refuse.pdf")
        try TestPDF.write(pages: 3, to: document)
        let session = try TmuxSession([QuireBinary.path, "look", document],
                                      environment: bed.environment(["XDG_STATE_HOME": directory.file("state")]))
        session.wait(for: "page 1 of 3")
        session.send("p")
        session.wait(for: "Copies")
        // Copies: a range typed there keeps only its digits.
        session.send("Tab")
        session.type("22-3x")
        var screen = session.wait { Self.row($0, "Copies").contains("223") }
        #expect(Self.row(screen, "Copies").contains(" 223 ") && !screen.contains("22-3"), "\(Self.row(screen, "Copies"))")
        // Emptied: the reason beside it, and Enter sends nothing.
        session.send("BSpace", "BSpace", "BSpace")
        screen = session.wait { Self.row($0, "Copies").contains("Enter the number of copies") }
        #expect(Self.row(screen, "Copies").contains("✗ Enter the number of copies (1 to "), "\(screen)")
        session.send("Enter")
        // Enter: the form's last row repeats the reason; nothing goes out.
        screen = session.wait { $0.split(separator: "\n").filter { $0.contains("Enter the number of copies") }.count >= 2 }
        #expect(screen.split(separator: "\n").contains { $0.hasPrefix("✗ Enter the number of copies") }, "\(screen)")
        #expect(!screen.contains("Sent to"))
        session.type("3")
        // Pages: ←/→ choose all, the current page, a range; a range left empty cannot print.
        session.send("Tab")
        session.send("Right")
        screen = session.wait { Self.row($0, "Pages").contains("current page (1)") }
        #expect(Self.row(screen, "Pages").contains("current page (1)"))
        session.send("Right")
        screen = session.wait { Self.row($0, "Pages").contains("Enter pages, e.g. 1-3,7") }
        #expect(Self.row(screen, "Pages").contains("✗ Enter pages, e.g. 1-3,7"), "\(screen)")
        session.send("Enter")
        screen = session.wait { $0.split(separator: "\n").filter { $0.contains("Enter pages") }.count >= 2 }
        #expect(!screen.contains("Sent to"))
        usleep(1_000_000)
        #expect(bed.receivedDocuments().isEmpty, "nothing was sent")
        session.type("2-3")
        session.send("Enter")
        screen = session.wait(for: "Sent to")
        #expect(TmuxSession.lastLine(screen).contains("Sent to quire-office — job "))
        let received = try #require(bed.waitForDocument(titled: "look-refuse.pdf"))
        #expect(received.attributes["IPP_COPIES"] == "3", "the count shown: \(received.attributes)")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2)
        #expect(bed.receivedDocuments().count == 1)
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func damagedFilesAndPasswordsAreHandledInTheStatusLine() throws {
        let session = try look([Samples.path("truncated.pdf"), Samples.path("encrypted.pdf")])
        var screen = session.wait(for: "damaged")
        #expect(TmuxSession.lastLine(screen).contains("truncated.pdf"))
        #expect(TmuxSession.lastLine(screen).contains("damaged"))
        session.send("Right")
        screen = session.wait(for: "Password for encrypted.pdf")
        session.type("wrong")
        session.send("Enter")
        screen = session.wait(for: "wrong password")
        #expect(TmuxSession.lastLine(screen).contains("wrong password"))
        session.type("secret")
        session.send("Enter")
        screen = session.wait(for: "page 1 of")
        #expect(TmuxSession.lastLine(screen).contains("encrypted.pdf │ page 1 of"))
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func zoomEnlargesThePageAndPans() throws {
        let session = try look([threePages])
        // Each page area once the worker has drawn it: the status line changes first (under
        // load the blank area of a page being drawn was once read as both).
        func drawn(_ status: String) -> String {
            session.wait { $0.contains(status) && $0.contains("▀") && !$0.contains("rendering page") }
        }
        _ = drawn("page 1 of 3 │ fit")
        let fit = pageArea(session)
        session.send("+")
        #expect(drawn("125%").contains("page 1 of 3 │ 125%"))
        let zoomed = pageArea(session)
        #expect(zoomed != fit)
        session.send("Down")
        session.wait(timeout: 5) { _ in self.pageArea(session) != zoomed }
        #expect(pageArea(session) != zoomed, "panning shows another part of the page")
        #expect(session.capture().contains("page 1 of 3"), "panning is not turning the page")
        session.send("0")
        #expect(session.wait(for: "│ fit").contains("page 1 of 3 │ fit"))
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    /// Whether bytes wait unread in the standard input (a pipe) of process `pid`, polled for up
    /// to `timeout` seconds (FIONREAD on the pipe, opened again through /proc).
    static func waitForPendingInput(of pid: pid_t, timeout: Double = 15) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let fd = open("/proc/\(pid)/fd/0", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 {
                var count: CInt = 0
                let asked = ioctl(fd, UInt(FIONREAD), &count)
                close(fd)
                if asked == 0 && count > 0 { return true }
            }
            usleep(20_000)
        } while Date() < deadline
        return false
    }

    /// Whether worker `pid` sat waiting for a request — asleep, nothing in its input pipe, no
    /// CPU time used — for `quiet` seconds in a row, within `timeout`.
    static func waitUntilIdle(_ pid: pid_t, quiet: Double = 0.6, timeout: Double = 30) -> Bool {
        func sample() -> (asleep: Bool, cpu: String)? {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 13 else { return nil }
            // After the name: state, then utime and stime are the 12th and 13th fields.
            return (fields[0] == "S", "\(fields[11]) \(fields[12])")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var quietSince: Date?
        var lastCPU = ""
        while Date() < deadline {
            guard let now = sample() else { return false }
            let idle = now.asleep && now.cpu == lastCPU && !waitForPendingInput(of: pid, timeout: 0)
            lastCPU = now.cpu
            if !idle { quietSince = nil } else if quietSince == nil { quietSince = Date() }
            if let since = quietSince, Date().timeIntervalSince(since) >= quiet { return true }
            usleep(100_000)
        }
        return false
    }

    /// Pages are rendered in a worker process: a renderer that hangs or crashes costs one
    /// page (said in the status line), the viewer stays, and the next page gets a new worker.
    @Test func aHangingOrCrashingRendererCostsOnePageNotTheViewer() throws {
        let session = try TmuxSession([QuireBinary.path, "look", "--timeout", "2", threePages], environment: environment())
        session.wait { $0.contains("page 1 of 3") && $0.contains("▀") }
        let viewer = try #require(session.programPID)
        let firstWorker = try #require(TmuxSession.renderWorkers(of: viewer, executable: QuireBinary.path).first)
        // Page 2 is rendered ahead into the cache meanwhile: only once the worker is idle does
        // page 3 meet the hang (under load a late page 2 met it, and page 3 a new worker).
        #expect(Self.waitUntilIdle(firstWorker), "the worker finished page 1 and page 2")
        // A hang: the worker stops answering; after --timeout it is replaced.
        #expect(kill(firstWorker, SIGSTOP) == 0)
        session.send("End")
        var screen = session.wait(for: "took longer than 2 s")
        #expect(TmuxSession.lastLine(screen).contains("the renderer took longer than 2 s on page 3"))
        #expect(session.alternateOn)
        session.send("+")
        screen = session.wait { $0.contains("page 3 of 3 │ 125%") && !$0.contains("took longer") && $0.contains("▀") }
        #expect(screen.contains("▀"), "page 3 drawn by a new worker")
        let secondWorker = try #require(TmuxSession.renderWorkers(of: viewer, executable: QuireBinary.path).first)
        #expect(secondWorker != firstWorker)
        // A crash while rendering: the worker dies of SIGSEGV in the middle of a page.
        #expect(kill(secondWorker, SIGSTOP) == 0)
        session.send("+")
        // The crash must come while the worker holds the request: wait until the request is
        // in its (stopped) input pipe, not for a guessed delay.
        #expect(Self.waitForPendingInput(of: secondWorker), "the viewer sent the request to the worker")
        #expect(kill(secondWorker, SIGSEGV) == 0)
        #expect(kill(secondWorker, SIGCONT) == 0)
        screen = session.wait(for: "crashed")
        #expect(TmuxSession.lastLine(screen).contains("the renderer crashed (segmentation fault) on page 3"))
        #expect(!screen.contains("Backtrace"), "the worker's messages stay off the screen")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
        #expect(!session.alternateOn)
        #expect(TmuxSession.renderWorkers(of: viewer, executable: QuireBinary.path).isEmpty)
    }

    /// The render service keeps the keys: a PostScript file that loops for ever between two good
    /// files neither holds the keys back nor the viewer open.
    @Test func aFileThatNeverFinishesIsPassedAndQuitIsAtOnce() throws {
        let session = try look([threePages, Samples.path("infinite-loop.ps"), Samples.path("format.jpg")])
        session.wait(for: "page 1 of 3")
        let start = Date()
        session.send("n")
        session.send("n")
        let screen = session.wait(timeout: 10) { TmuxSession.lastLine($0).contains("format.jpg │ page 1 of 1") && $0.contains("▀") }
        let elapsed = Date().timeIntervalSince(start)
        #expect(TmuxSession.lastLine(screen).contains("format.jpg │ page 1 of 1 │ fit │ file 3 of 3"), "\(TmuxSession.lastLine(screen))")
        #expect(elapsed < 2, "n, n reach the third file in \(elapsed) s")
        // Back on the looping file: its page renders for ever; q quits at once all the same.
        session.send("N")
        session.wait(for: "infinite-loop.ps │ page 1 of 1")
        usleep(300_000)
        let viewer = try #require(session.programPID)
        let quit = Date()
        session.send("q")
        let exited = session.wait(timeout: 5) { $0.contains("EXIT=") }
        #expect(exited.contains("EXIT=0"))
        #expect(Date().timeIntervalSince(quit) < 1, "q quits within 1 s: \(Date().timeIntervalSince(quit)) s")
        #expect(!session.alternateOn, "the terminal is restored")
        #expect(TmuxSession.renderWorkers(of: viewer, executable: QuireBinary.path).isEmpty)
    }

    /// The document is parsed only in the worker: with page 1 of a PDF on screen, the viewer's
    /// own process has no poppler (nor any other document library) mapped. A worker killed in
    /// the middle of a page is said in the status line; the keys still work and the next file
    /// renders in a new worker.
    @Test func theViewerNeverParsesAndAKilledWorkerCostsOnePage() throws {
        let second = directory.file("second.pdf")
        try TestPDF.write(pages: 2, to: second)
        let session = try look([threePages, second])
        session.wait { $0.contains("page 1 of 3") && $0.contains("▀") }
        let viewer = try #require(session.programPID)
        let maps = ProcFile.mappedLibraries(of: viewer)
        #expect(maps.contains { $0.contains("libswiftCore") || $0.contains("libc.so") }, "the maps were read: \(maps.count)")
        for library in ["libpoppler", "librsvg", "libgdk_pixbuf", "libspectre", "libarchive", "libcairo", "libpango"] {
            #expect(!maps.contains { $0.contains(library) }, "the viewer maps \(library)")
        }
        let worker = try #require(TmuxSession.renderWorkers(of: viewer, executable: QuireBinary.path).first)
        #expect(ProcFile.mappedLibraries(of: worker).contains { $0.contains("libpoppler") }, "the worker is where the PDF was read")
        // Killed while a page is in it: the page's problem is said, the viewer goes on.
        #expect(kill(worker, SIGSTOP) == 0)
        session.send("End")
        usleep(400_000)
        #expect(kill(worker, SIGKILL) == 0)
        var screen = session.wait(for: "killed")
        #expect(TmuxSession.lastLine(screen).contains("the renderer was killed"), "\(TmuxSession.lastLine(screen))")
        #expect(session.alternateOn)
        session.send("Right")
        screen = session.wait { TmuxSession.lastLine($0).contains("second.pdf │ page 1 of 2") && $0.contains("▀") }
        #expect(TmuxSession.lastLine(screen).contains("second.pdf │ page 1 of 2"), "the next file renders: \(TmuxSession.lastLine(screen))")
        let replaced = TmuxSession.renderWorkers(of: viewer, executable: QuireBinary.path)
        #expect(!replaced.isEmpty && !replaced.contains(worker), "in a new worker")
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func aResizedWindowIsLaidOutAgain() throws {
        let session = try look([threePages])
        // The page once the worker has drawn it (the status line comes first, sooner under load).
        var screen = session.wait { $0.contains("page 1 of 3") && $0.split(separator: "\n").filter { $0.contains("▀") }.count > 30 }
        let rowsBefore = screen.split(separator: "\n").filter { $0.contains("▀") }.count
        #expect(rowsBefore > 30)
        session.resize(width: 60, height: 20)
        screen = session.wait { screen in
            (1...19).contains(screen.split(separator: "\n").filter { $0.contains("▀") }.count) && screen.contains("page 1 of 3")
        }
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.filter { $0.contains("▀") }.count <= 19, "the page fits the smaller window")
        #expect(TmuxSession.lastLine(screen).contains("page 1 of 3"))
        #expect(rows.allSatisfy { $0.count <= 60 })
        session.send("q")
        #expect(session.wait(for: "EXIT=").contains("EXIT=0"))
    }

    @Test func withoutATerminalItSaysSoInOneLine() throws {
        let result = QuireBinary.run(["look", threePages], environment: environment(["DISPLAY": ""]))
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1)
        #expect(result.standardError.contains("terminal"))
        #expect(result.standardOutput.isEmpty)
        let forced = QuireBinary.run(["look", "--terminal", threePages], environment: environment())
        #expect(forced.status == 69)
        #expect(forced.errorLines.count == 1)
    }
}
