import Foundation
import QuireRenderService
import QuireTestSupport
import QuireTypes
import Testing

/// Office documents through the built `quire` with the real LibreOffice: the thumbnailer
/// contract, `preview` of any page, `info`, bad input, the no-network guarantee (a local
/// listener that must see no request) and a worker killed in the middle of a document.
@Suite("Office documents through quire", .serialized)
struct OfficeCommandTests {
    /// Writes one of Samples/office.py's documents made in a test's own directory (the one whose
    /// image link points at a local listener, the one whose macro writes a marker).
    static func makeHostileSample(_ kind: String, _ arguments: String...) throws {
        let made = ProcessRunner.run(["/usr/bin/python3", "-I", Samples.repositoryRoot.appendingPathComponent("Samples/office.py").path,
                                      kind] + arguments, timeout: 30)
        try #require(made.status == 0, "\(made.standardError)")
    }

    /// The freedesktop thumbnailer contract on a .docx without a preview image inside: page 1
    /// laid out by LibreOffice, longest side SIZE, the page count in the PNG's metadata.
    @Test func thumbnailerContractOnADocx() throws {
        let scratch = TemporaryDirectory()
        let output = scratch.file("thumb.png")
        let uri = URL(fileURLWithPath: Samples.path("office-report.docx")).absoluteString
        let result = QuireBinary.run(["thumbnail", "-s", "128", uri, output], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.isEmpty, "nothing from LibreOffice on standard error: \(result.standardError)")
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let width = Int(png[16]) << 24 | Int(png[17]) << 16 | Int(png[18]) << 8 | Int(png[19])
        let height = Int(png[20]) << 24 | Int(png[21]) << 16 | Int(png[22]) << 8 | Int(png[23])
        #expect(max(width, height) == 128 && width < height, "\(width)×\(height): an A4 page")
        #expect(png[24] == 8 && png[25] == 6, "8-bit RGBA")
        let text = String(decoding: png, as: UTF8.self)
        #expect(text.contains("Thumb::Document::Pages\u{0}20"))
    }

    /// `preview` of page 2 of a spreadsheet (the second sheet), as PNG and as PDF; a page past
    /// the end is a usage error.
    @Test func previewAnyPage() throws {
        let scratch = TemporaryDirectory()
        let png = scratch.file("sheet.png")
        let second = QuireBinary.run(["preview", Samples.path("office-sheet.xlsx"), "--page", "2", "--width", "300", "-o", png], timeout: 60)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(FileManager.default.fileExists(atPath: png))
        let pdf = scratch.file("slides.pdf")
        let all = QuireBinary.run(["preview", Samples.path("office-slides.pptx"), "--format", "pdf", "-o", pdf], timeout: 60)
        #expect(all.status == 0, "\(all.standardError)")
        #expect(CUPSTestBed.pageCount(ofPDF: pdf) == 3)
        let past = QuireBinary.run(["preview", Samples.path("office-sheet.xlsx"), "--page", "3", "-o", png], timeout: 60)
        #expect(past.status == 64, "\(past.standardError)")
        #expect(past.errorLines.count == 1 && past.standardError.contains("there is no page 3 (the document has 2 pages)"),
                "\(past.standardError)")
    }

    /// `info`: pages, page size, title and author from the document's properties.
    @Test func infoCard() throws {
        let result = QuireBinary.run(["info", Samples.path("office-report.docx")], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let card = result.standardOutputText
        for row in ["Pages:", "20", "A4", "Title:", "Quarterly Report", "Author:", "Ada Lovelace", "converted to PDF"] {
            #expect(card.contains(row), "\(row) missing from \(card)")
        }
        #expect(!card.contains("Encrypted"), "a PDF row on an office card: \(card)")
    }

    /// Damaged, truncated, password-protected and zip-bomb files: one line, a sysexits status,
    /// nothing written.
    @Test(arguments: [
        ("office-truncated.docx", "damaged zip container"), ("office-garbage.doc", "damaged compound document"),
        ("office-bomb.docx", "zip bomb"), ("office-password.odt", "password-protected (give the password with --password)"),
    ])
    func badInputIsOneLine(sample: String, reason: String) throws {
        let scratch = TemporaryDirectory()
        let output = scratch.file("out.png")
        let result = QuireBinary.run(["preview", Samples.path(sample), "-o", output], timeout: 60)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.errorLines.count == 1 && result.standardError.contains(reason), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func passwordOpensTheDocument() throws {
        let scratch = TemporaryDirectory()
        let output = scratch.file("out.png")
        let right = QuireBinary.run(["preview", Samples.path("office-password.odt"), "--password", "secret", "-o", output], timeout: 60)
        #expect(right.status == 0, "\(right.standardError)")
        let wrong = QuireBinary.run(["preview", Samples.path("office-password.odt"), "--password", "nope", "-o", output + "2"], timeout: 60)
        #expect(wrong.status == 65 && wrong.standardError.contains("not correct"), "\(wrong.standardError)")
    }

    /// A .docx that links its image from a local listener. LibreOffice itself fetches it when it
    /// converts the file (the control); Quire — one file in-process, and the batch's sandboxed
    /// workers — shows the document and the listener sees no request.
    @Test func linkedImagesAreNotFetched() throws {
        let scratch = TemporaryDirectory()
        let log = scratch.file("requests.log")
        let listener = try BackgroundProcess(["/usr/bin/python3", "-c", Self.listenerScript, log],
                                             environment: ProcessInfo.processInfo.environment, directory: scratch.path)
        defer { listener.stop() }
        var port = ""
        for _ in 0..<100 where port.isEmpty {
            usleep(50_000)
            port = listener.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try #require(!port.isEmpty, "the listener did not start: \(listener.errorOutput)")
        let document = scratch.file("linked.docx")
        try Self.makeHostileSample("linked", port, document)

        let preview = QuireBinary.run(["preview", document, "-o", scratch.file("linked.png")], timeout: 60)
        #expect(preview.status == 0, "\(preview.standardError)")
        let batch = QuireBinary.run(["thumbnail", "--batch", document], timeout: 60,
                                    environment: ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": scratch.file("cache")]) { $1 })
        #expect(batch.status == 0, "\(batch.standardError)")
        usleep(300_000)
        let seen = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(seen.isEmpty, "Quire's office fetched a link: \(seen)")

        // The control: LibreOffice as Sushi runs it does fetch the image.
        let profile = scratch.file("profile")
        let control = ProcessRunner.run(["/usr/bin/soffice", "-env:UserInstallation=file://\(profile)", "--headless", "--norestore",
                                         "--convert-to", "pdf", "--outdir", scratch.file("control"), document], timeout: 120)
        #expect(control.status == 0, "\(control.standardError)")
        usleep(300_000)
        let fetched = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(fetched.contains("/linked.png"), "the control did not fetch the image, so the test proves nothing")
    }

    /// An .odt whose Basic macro, bound to the load event, writes a marker file. LibreOffice
    /// opening it with macro security "low" runs it (the control); Quire — `preview`, `info`,
    /// one thumbnail and the batch's sandboxed workers — shows the document and no marker appears.
    @Test func documentMacrosDoNotRun() throws {
        let scratch = TemporaryDirectory()
        let marker = scratch.file("macro-ran")
        let document = scratch.file("macro.odt")
        try Self.makeHostileSample("macro", marker, document)

        let preview = QuireBinary.run(["preview", document, "-o", scratch.file("macro.png")], timeout: 60)
        #expect(preview.status == 0, "\(preview.standardError)")
        let info = QuireBinary.run(["info", document], timeout: 60)
        #expect(info.status == 0 && info.standardOutputText.contains("1"), "\(info.standardError)")
        let thumbnail = QuireBinary.run(["thumbnail", "-s", "128", document, scratch.file("macro-thumb.png")], timeout: 60)
        #expect(thumbnail.status == 0, "\(thumbnail.standardError)")
        let batch = QuireBinary.run(["thumbnail", "--batch", document], timeout: 60,
                                    environment: ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": scratch.file("cache")]) { $1 })
        #expect(batch.status == 0, "\(batch.standardError)")
        #expect(!FileManager.default.fileExists(atPath: marker), "a document macro ran in Quire's office")

        // The control: LibreOffice itself, macro security low, opening the document runs it.
        let profile = scratch.file("profile")
        try FileManager.default.createDirectory(atPath: profile + "/user", withIntermediateDirectories: true)
        try Self.lowMacroSecurity.write(toFile: profile + "/user/registrymodifications.xcu", atomically: true, encoding: .utf8)
        // The macro ends the office once it has written the marker (LibreOffice may abort on the
        // way out: the status is not the point, the marker is).
        let control = ProcessRunner.run(["/usr/bin/soffice", "-env:UserInstallation=file://\(profile)", "--headless", "--norestore", document],
                                        timeout: 120)
        let ran = FileManager.default.fileExists(atPath: marker)
        #expect(ran, "LibreOffice did not run the macro either, so the test proves nothing (status \(control.status): \(control.standardError.prefix(300)))")
    }

    /// Macro security "low" and macros enabled: the control's profile.
    static let lowMacroSecurity = """
        <?xml version="1.0" encoding="UTF-8"?>
        <oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
        <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>0</value></prop></item>
        <item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>false</value></prop></item>
        <item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>
        </oor:items>

        """

    /// An HTTP listener on a free port: prints the port, appends each request line to argv[1].
    static let listenerScript = """
        import http.server, sys
        log = sys.argv[1]
        class Handler(http.server.BaseHTTPRequestHandler):
            def handle_one_request(self):
                self.raw_requestline = self.rfile.readline(65537)
                if self.raw_requestline:
                    with open(log, "a") as f: f.write(self.raw_requestline.decode("latin-1"))
                    self.wfile.write(b"HTTP/1.0 404 Not Found\\r\\nContent-Length: 0\\r\\n\\r\\n")
                self.close_connection = True
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// The viewers' worker killed while LibreOffice lays a document out: that request fails
    /// with a reason, the process is gone, and the next request opens the document in a fresh
    /// worker.
    @Test func workerKilledMidDocument() throws {
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60)
        defer { client.stop() }
        let document = DocumentRequest(path: DocumentPath(Samples.path("office-long.docx")))
        try client.start(for: [document.path])
        let killSwitch = client.killSwitch
        let first = try #require(killSwitch.pid)
        let killer = Thread {
            usleep(400_000)   // inside the layout of ~440 pages (about a second; the office starts in ~0.1 s)
            killSwitch.kill()
        }
        killer.start()
        #expect(throws: RenderProblem.self) { try client.open(document) }
        usleep(100_000)
        #expect(kill(first, 0) != 0 && errno == ESRCH, "the killed worker was reaped")
        let facts = try client.open(document)
        #expect(facts.pageCount > 300 && facts.title == "Quarterly Report", "\(facts.pageCount) pages")
        #expect(client.workerPID != nil && client.workerPID != first)
    }

    /// A worker recycles itself after its office has converted a number of documents; the
    /// client's next request goes to a fresh worker and succeeds.
    @Test func officeWorkerIsRecycled() throws {
        var command = WorkerCommand(executable: QuireBinary.path)
        command.environment["QUIRE_OFFICE_RECYCLE_DOCUMENTS"] = "2"
        let client = RenderClient(command: command, timeout: 60)
        defer { client.stop() }
        var workers: [pid_t] = []
        for name in ["office-report.docx", "office-sheet.xlsx", "office-slides.pptx", "office-drawing.odg"] {
            let facts = try client.open(DocumentRequest(path: DocumentPath(Samples.path(name))))
            #expect(facts.pageCount > 0, "\(name)")
            if let pid = client.workerPID { workers.append(pid) }
        }
        #expect(Set(workers).count == 2, "two documents per worker: \(workers)")
    }

    /// Without LibreOffice (its directory pointed elsewhere), capabilities say what is true of
    /// each file: a preview image inside, or none and what to install; Print says why not.
    @Test func withoutLibreOfficeCapabilitiesTellTheTruth() {
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_OFFICE_PROGRAM"] = "/nonexistent/libreoffice/program"
        func actions(_ name: String) -> String {
            QuireBinary.run(["actions", Samples.path(name)], environment: environment).standardOutputText
        }
        let carrying = actions("office-report.odt")     // LibreOffice writes a thumbnail into .odt
        #expect(carrying.contains("Preview    yes (the preview image inside the file; install LibreOffice (libreoffice-writer"), "\(carrying)")
        let card = QuireBinary.run(["info", "--json", Samples.path("office-report.odt")], environment: environment).standardOutputText
        #expect(card.contains(#""note" : "the preview image inside the file; install LibreOffice"#), "\(card)")
        #expect(carrying.contains("Print      no: Quire prints") && carrying.contains("libreoffice-writer"), "\(carrying)")
        let none = actions("office-report.docx")
        #expect(none.contains("Preview    no: the file carries no preview image; install LibreOffice"), "\(none)")
        let legacy = actions("office-report.doc")
        #expect(legacy.contains("Preview    no:") && legacy.contains("install LibreOffice"), "\(legacy)")
        // And the commands keep to it: the preview image, or one line saying what is missing.
        let scratch = TemporaryDirectory()
        let shown = QuireBinary.run(["preview", Samples.path("office-report.odt"), "-o", scratch.file("a.png")], environment: environment)
        #expect(shown.status == 0, "\(shown.standardError)")
        let refused = QuireBinary.run(["preview", Samples.path("office-report.doc"), "-o", scratch.file("b.png")], environment: environment)
        #expect(refused.status != 0 && refused.errorLines.count == 1 && refused.standardError.contains("install LibreOffice"),
                "\(refused.standardError)")
    }

    /// The terminal viewer (quire look without a display) pages through a presentation and on
    /// to a 20-page .docx, every page laid out by LibreOffice in its warm worker.
    @Test func terminalViewerPagesThroughOfficeFiles() throws {
        let scratch = TemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = scratch.file("state")
        environment["CUPS_SERVER"] = "127.0.0.1:1"
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["QUIRE_GRAPHICS"] = "blocks"
        let session = try TmuxSession([QuireBinary.path, "look", Samples.path("office-slides.pptx"), Samples.path("office-report.docx")],
                                      environment: environment)
        #expect(TmuxSession.lastLine(session.wait(for: "page 1 of 3", timeout: 60)).contains("office-slides.pptx"))
        session.send("PageDown")
        #expect(session.wait(for: "page 2 of 3", timeout: 30).contains("page 2 of 3"))
        session.send("Right")
        #expect(session.wait(for: "page 1 of 20", timeout: 60).contains("office-report.docx"))
        // The status line comes first; the page once the worker has drawn it (under load, after
        // "rendering page 1…"): wait for the page, not for a moment.
        let screen = session.wait(timeout: 60) { $0.contains("page 1 of 20") && ($0.contains("▀") || $0.contains("▄")) }
        #expect(screen.contains("▀") || screen.contains("▄"), "a page was drawn: \(screen)")
        session.send("q")
    }
}
