import Foundation
import QuireTestSupport
import Testing

/// The Quick Look window (`quire look` with a display runs quire-look), for real: Xvfb and a
/// private session bus from Tests/Support/x11-testbed.sh, keys from xdotool, screenshots
/// checked by pixels, controls and indicators read through AT-SPI.
@Suite("quire look window (Xvfb)")
final class LookWindowTests {
    let directory = TemporaryDirectory("quire-look-window")
    /// The desktop entry the tests' mimeapps.list makes the PDF default (evince is in DEB_TEST).
    let documentViewer: String?

    init() throws {
        documentViewer = try WindowTestBed.preferDocumentViewer(configHome: directory.file("config"))
    }

    func environment(_ bed: WindowTestBed, _ base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        bed.environment(base, ["XDG_STATE_HOME": directory.file("state"), "XDG_CONFIG_HOME": directory.file("config"), "NO_COLOR": "1"]
                        .merging(base["CUPS_SERVER"] == nil ? ["CUPS_SERVER": "127.0.0.1:1"] : [:]) { a, _ in a })
    }

    func look(_ files: [String], _ bed: WindowTestBed, _ base: [String: String] = ProcessInfo.processInfo.environment) throws -> BackgroundProcess {
        try BackgroundProcess([QuireBinary.path, "look"] + files, environment: environment(bed, base), directory: directory.path)
    }

    /// Screenshots of window `window` (an X id) until `condition` holds (a page is painted
    /// after the window maps).
    func screenshot(_ bed: WindowTestBed, _ name: String, window: String?, timeout: Double = 20,
                    until condition: (Screenshot) -> Bool = { _ in true }) throws -> Screenshot {
        try bed.waitForScreenshot(name, window: window, timeout: timeout, until: condition)
    }

    static func label(_ tree: [WindowTestBed.Accessible], _ text: String) -> Bool {
        tree.contains { $0.role == "label" && $0.name == text }
    }

    @Test func pagesZoomFilesAndEscape() throws {
        let bed = try WindowTestBed()
        let pdf = Samples.path("document.pdf"), source = Samples.path("hello.c")
        let viewer = try look([pdf, source], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^document\\.pdf$")
        #expect(window != nil, "the window is titled with the file name: \(viewer.errorOutput)")

        // Print and Open With are looked up once the first page is painted: the card's
        // description says whether printing can work from then on.
        var tree = bed.waitForAccessible { Self.label($0, "page 1 of 3") && $0.contains { $0.detail.hasPrefix("Cannot print:") } }
        // Page 1 is painted: the sample's red rectangle on white paper.
        let first = try screenshot(bed, "page1", window: window) { $0.redPixels > 2000 }
        // The window alone, not the whole screen.
        #expect(first.image.width < WindowTestBed.screen.width && first.image.height < WindowTestBed.screen.height,
                "cropped to the window: \(first.image.width)×\(first.image.height)")
        #expect(first.redPixels > 2000, "page 1's red rectangle is on screen")
        #expect(first.whitePixels > 100_000, "paper, not a blank window")
        try first.keep(at: "QUIRE_DOCS_SCREENSHOT")
        #expect(Self.label(tree, "page 1 of 3"), "indicator: \(tree.filter { $0.role == "label" })")
        #expect(Self.label(tree, "1 of 2"), "the file among the files")
        #expect(tree.contains { $0.name == "Quire Sample Document: PDF document, 19.2 kB, 3 pages" || $0.name.hasPrefix("Quire Sample Document: PDF document") },
                "the card: title, kind, size, pages")
        #expect(!tree.contains { $0.role == "push button" && $0.name == "Print" }, "no printer: no Print button")
        #expect(tree.contains { $0.detail.hasPrefix("Cannot print:") }, "the reason is in the window")
        // Fit page: nothing to scroll across, so no bar for it (a bare GtkScrollbar is drawn
        // even with nothing to scroll); the bar down the pages is there.
        #expect(!tree.contains { $0.name == "Scroll across the page" && $0.states.contains("visible") },
                "no horizontal scroll bar at fit page: \(tree.filter { $0.name.hasPrefix("Scroll") })")
        #expect(tree.contains { $0.name == "Scroll pages" && $0.states.contains("visible") })
        for control in ["Previous Page", "Next Page", "Go to Page", "Zoom In", "Zoom Out", "Fit Page", "Fit Width", "Copy", "Show in Folder"] {
            #expect(tree.contains { $0.name == control }, "\(control) has an accessible name")
        }
        // Open With names GIO's default application for PDF: here the document viewer the
        // test's mimeapps.list prefers (evince, "Document Viewer"), not imagemagick's display.
        #expect(documentViewer == "org.gnome.Evince.desktop", "evince is installed (DEB_TEST)")
        #expect(tree.contains { $0.role == "push button" && $0.name == "Open with Document Viewer" },
                "\(tree.filter { $0.role == "push button" })")

        // Page Down: page 2, other pixels.
        bed.key("Next")
        tree = bed.waitForAccessible { Self.label($0, "page 2 of 3") }
        #expect(Self.label(tree, "page 2 of 3"))
        // Page 2 has no red rectangle (libadwaita's thinner scroll bar moves fewer pixels than
        // GTK's own did, so the count of changed pixels is lower than it was).
        let second = try screenshot(bed, "page2", window: window) { $0.differingPixels(from: first) > 15_000 && $0.redPixels < first.redPixels / 10 }
        #expect(second.differingPixels(from: first) > 15_000 && second.redPixels < first.redPixels / 10, "page 2 is drawn")
        bed.key("Home")
        tree = bed.waitForAccessible { Self.label($0, "page 1 of 3") }
        #expect(Self.label(tree, "page 1 of 3"))

        // Zoom in: the page is drawn larger (more red pixels), then fit again.
        bed.key("ctrl+plus")
        tree = bed.waitForAccessible { Self.label($0, "125%") }
        #expect(Self.label(tree, "125%"))
        let zoomed = try screenshot(bed, "zoomed", window: window) { Double($0.redPixels) > Double(first.redPixels) * 1.3 }
        #expect(Double(zoomed.redPixels) > Double(first.redPixels) * 1.3, "zoomed: \(zoomed.redPixels) vs \(first.redPixels) red pixels")
        tree = bed.waitForAccessible { $0.contains { $0.name == "Scroll across the page" && $0.states.contains("visible") } }
        #expect(tree.contains { $0.name == "Scroll across the page" && $0.states.contains("visible") }, "zoomed in: the page can be scrolled across")
        bed.key("ctrl+0")
        tree = bed.waitForAccessible { Self.label($0, "fit") && !$0.contains { $0.name == "Scroll across the page" && $0.states.contains("visible") } }
        #expect(Self.label(tree, "fit"))
        #expect(!tree.contains { $0.name == "Scroll across the page" && $0.states.contains("visible") }, "fit again: the bar is gone")

        // Right: the next file (text shown as text), titled with its name; Left comes back.
        bed.key("Right")
        #expect(bed.waitForWindow(named: "^hello\\.c$") != nil)
        tree = bed.waitForAccessible { Self.label($0, "2 of 2") }
        #expect(Self.label(tree, "2 of 2"))
        #expect(tree.contains { $0.role == "text" && $0.name == "Text" }, "a text view, not a picture")
        let text = try screenshot(bed, "text", window: window) { $0.redPixels < 100 }
        #expect(text.redPixels < 100 && text.differingPixels(from: first) > 20_000, "the PDF is gone from the screen")
        bed.key("Left")
        #expect(bed.waitForWindow(named: "^document\\.pdf$") != nil)

        // Escape closes, exit 0.
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0, "\(viewer.errorOutput)")
    }

    /// The page view is lazy (placeholders sized from the pages, pages rendered off the main
    /// loop as they come into view): a 1000-page PDF opens, End goes to page 1000 and paints
    /// it, Page Up paints page 999.
    @Test func aThousandPagePDFGoesToItsEndAndPaintsThePagesInView() throws {
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("thousand-pages.pdf")], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^thousand-pages\\.pdf$")
        #expect(window != nil, "\(viewer.errorOutput)")
        let first = try screenshot(bed, "first", window: window) { $0.redPixels > 2000 }
        #expect(first.redPixels > 2000, "page 1 is painted")
        var tree = bed.waitForAccessible { Self.label($0, "page 1 of 1000") }
        #expect(Self.label(tree, "page 1 of 1000"), "\(tree.filter { $0.role == "label" })")

        bed.key("End")
        tree = bed.waitForAccessible { Self.label($0, "page 1000 of 1000") }
        #expect(Self.label(tree, "page 1000 of 1000"))
        let last = try screenshot(bed, "last", window: window) { $0.redPixels > 2000 && $0.differingPixels(from: first) > 2000 }
        #expect(last.redPixels > 2000, "page 1000 is painted, not left a placeholder")
        #expect(last.differingPixels(from: first) > 2000, "page 1000's text is not page 1's")

        bed.key("Page_Up")
        tree = bed.waitForAccessible { Self.label($0, "page 999 of 1000") }
        #expect(Self.label(tree, "page 999 of 1000"))
        let previous = try screenshot(bed, "previous", window: window) { $0.redPixels > 2000 && $0.differingPixels(from: last) > 2000 }
        #expect(previous.redPixels > 2000 && previous.differingPixels(from: last) > 2000, "Page Up paints page 999")

        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0, "\(viewer.errorOutput)")
    }

    /// The window never parses a document: with page 1 of a PDF painted, quire-look has no
    /// poppler mapped (the worker has). A worker killed in the middle of a page is said in the
    /// status line, the window goes on answering keys, and the next file renders in a new worker.
    @Test func theWindowNeverParsesAndAKilledWorkerCostsOnePage() throws {
        let bed = try WindowTestBed()
        let first = directory.file("twelve.pdf"), second = directory.file("second.pdf")
        try TestPDF.write(pages: 12, to: first)
        try TestPDF.write(pages: 2, to: second)
        let viewer = try look([first, second], bed)
        defer { viewer.stop() }
        let window = bed.waitForWindow(named: "^twelve\\.pdf$")
        let painted = try screenshot(bed, "parsed-elsewhere", window: window) { $0.whitePixels > 100_000 && $0.darkPixels > 20 }
        #expect(painted.whitePixels > 100_000 && painted.darkPixels > 20, "page 1 is painted")
        let maps = ProcFile.mappedLibraries(of: viewer.pid)
        #expect(maps.contains { $0.contains("libgtk-4") }, "the maps were read: \(maps.count)")
        for library in ["libpoppler", "librsvg", "libspectre", "libarchive"] {
            #expect(!maps.contains { $0.contains(library) }, "the window maps \(library)")
        }
        let worker = try #require(TmuxSession.renderWorkers(of: viewer.pid, executable: QuireBinary.path).first)
        #expect(ProcFile.mappedLibraries(of: worker).contains { $0.contains("libpoppler") }, "the worker read the PDF")
        usleep(800_000)  // the pages read ahead are done: the worker is idle when it is stopped
        #expect(kill(worker, SIGSTOP) == 0)
        bed.key("End")
        usleep(400_000)
        #expect(kill(worker, SIGKILL) == 0)
        // The page in the worker then (page 3, or page 2 read ahead as the view passed it).
        var tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.contains("cannot be shown") } }
        #expect(tree.contains { $0.name.hasPrefix("Page ") && $0.name.contains("cannot be shown: the renderer was killed") },
                "\(tree.filter { $0.role == "label" })")
        bed.key("Right")
        let next = bed.waitForWindow(named: "^second\\.pdf$")
        #expect(next != nil, "the window answers keys")
        tree = bed.waitForAccessible { Self.label($0, "page 1 of 2") }
        #expect(Self.label(tree, "page 1 of 2"))
        let shot = try screenshot(bed, "after-kill", window: next) { $0.whitePixels > 100_000 && $0.darkPixels > 50 }
        #expect(shot.whitePixels > 100_000 && shot.darkPixels > 50, "the next file's page is painted (paper and text)")
        let replaced = TmuxSession.renderWorkers(of: viewer.pid, executable: QuireBinary.path)
        #expect(!replaced.isEmpty && !replaced.contains(worker), "by a new worker")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// Show in Folder asks the file manager on the session bus (FileManager1.ShowItems, through
    /// QuireGIO's DBusConnection) to show the file's URI, and says it did.
    @Test func showInFolderAsksTheFileManagerOnTheSessionBus() throws {
        let bed = try WindowTestBed()
        let document = directory.file("shown here.pdf")
        try TestPDF.write(pages: 1, to: document)
        let viewer = try look([document], bed)
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^shown here\\.pdf$") != nil, "\(viewer.errorOutput)")
        // A file manager on the test's own bus (before anything could start Nautilus by D-Bus
        // activation): it is asked to show the file's URI.
        let record = directory.file("shown.txt")
        let script = Samples.repositoryRoot.appendingPathComponent("Tests/Support/file-manager-stand-in.py").path
        let manager = try BackgroundProcess(["/usr/bin/python3", script, record], environment: bed.environment(), directory: directory.path)
        defer { manager.stop() }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: record + ".ready") && Date() < deadline { usleep(50_000) }
        #expect(bed.press("Show in Folder"))
        let tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "Shown in the file manager" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "Shown in the file manager" })
        let shown = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        #expect(shown == "file://" + document.replacingOccurrences(of: " ", with: "%20") + "\n", "\(shown)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func printsPagesTwoToThreeTwiceFromTheSheet() throws {
        let cups = try CUPSTestBed(.full)
        let bed = try WindowTestBed()
        let document = cups.directory.file("look-print.pdf")
        try TestPDF.write(pages: 3, to: document)
        let viewer = try look([document], bed, cups.environment())
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^look-print\\.pdf$") != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Print" } }
        #expect(tree.contains { $0.role == "push button" && $0.name == "Print" }, "a printer accepts jobs: Print is offered")

        bed.key("ctrl+p")
        #expect(bed.waitForWindow(named: "^Print look-print\\.pdf$") != nil)
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("quire-stopped") } }
        let office = tree.first { $0.name.hasPrefix("quire-office (default) — idle") }
        let stopped = tree.first { $0.name.hasPrefix("quire-stopped — ") }
        #expect(office?.states.contains("selected") == true, "the default printer is chosen: \(tree.filter { $0.role == "list item" })")
        #expect(stopped != nil && stopped?.states.contains("sensitive") == false, "a stopped printer is listed but cannot be chosen: \(String(describing: stopped))")
        #expect(stopped?.name.contains("paper jam") == true, "with its reason")
        #expect(tree.contains { $0.name == "Two-sided" }, "the test printer prints on both sides: Two-sided is offered")
        // Two-sided printing and printing only the odd or even sides are named apart.
        #expect(tree.contains { $0.name == "Only print" } && !tree.contains { $0.name == "Sides" || $0.name == "Print sides" },
                "\(tree.filter { $0.role == "label" }.map(\.name))")

        // Keyboard: Copies has the focus; Enter goes on to the page range; Enter prints.
        bed.key("ctrl+a")
        bed.type("2")
        bed.key("Return")
        bed.type("5")
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("beyond the last page") } }
        #expect(tree.contains { $0.name.contains("beyond the last page") }, "a range past page 3 is refused inline")
        bed.key("BackSpace")
        bed.type("2-3")
        bed.key("Return")
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("Sent to quire-office — job ") } }
        #expect(tree.contains { $0.name.hasPrefix("Sent to quire-office — job ") }, "\(tree.filter { $0.role == "label" })")
        let received = try #require(cups.waitForDocument(titled: "look-print.pdf"))
        #expect(received.attributes["IPP_COPIES"] == "2")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2, "pages 2-3 only")

        bed.key("Escape")  // the sheet
        tree = bed.waitForAccessible { !$0.contains { $0.name.hasPrefix("Sent to") } }
        bed.key("Escape")  // the window
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0)
    }

    @Test func aNonPrintableFileHasNoPrintButtonAndAnEncryptedOneAsksForItsPassword() throws {
        let cups = try CUPSTestBed(.full)
        let bed = try WindowTestBed()
        let viewer = try look([Samples.path("garbage.pdf"), Samples.path("encrypted.pdf")], bed, cups.environment())
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^garbage\\.pdf$") != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Cannot Open “garbage.pdf”" } && $0.contains { $0.detail.hasPrefix("Cannot print:") } }
        #expect(tree.contains { $0.role == "label" && $0.name == "Cannot Open “garbage.pdf”" }, "\(tree.filter { $0.role == "label" })")
        #expect(!tree.contains { $0.role == "push button" && $0.name == "Print" }, "a damaged file cannot print: no Print button")
        #expect(tree.contains { $0.detail.hasPrefix("Cannot print:") })
        bed.key("Right")
        let window = bed.waitForWindow(named: "^encrypted\\.pdf$")
        #expect(window != nil)
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("Is Password-Protected") } }
        #expect(tree.contains { $0.role == "password text" && $0.name == "Password" }, "a password field")
        // The field has the focus: a wrong password says so, the right one shows the pages.
        bed.type("wrong")
        bed.key("Return")
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("password is not correct") } }
        #expect(tree.contains { $0.name.contains("password is not correct") })
        bed.type("secret")
        bed.key("Return")
        tree = bed.waitForAccessible { Self.label($0, "page 1 of 3") }
        #expect(Self.label(tree, "page 1 of 3"), "unlocked: \(tree.filter { $0.role == "label" })")
        let unlocked = try screenshot(bed, "unlocked", window: window) { $0.redPixels > 2000 }
        #expect(unlocked.redPixels > 2000, "the decrypted page is painted")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0)
    }

    @Test func jumpToPageAndResumeWhereItWasLeft() throws {
        let bed = try WindowTestBed()
        let document = directory.file("resume.pdf")
        try TestPDF.write(pages: 3, to: document)
        var viewer = try look([document], bed)
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^resume\\.pdf$") != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { Self.label($0, "page 1 of 3") }
        #expect(Self.label(tree, "page 1 of 3"))
        // Ctrl+G: the jump-to-page entry; a page past the end is refused, then 3 Enter jumps.
        bed.key("ctrl+g")
        bed.type("9")
        bed.key("Return")
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("there is no page 9") } }
        #expect(tree.contains { $0.name.contains("there is no page 9: 3 pages") }, "\(tree.filter { $0.role == "label" })")
        bed.key("ctrl+a")
        bed.type("3")
        bed.key("Return")
        tree = bed.waitForAccessible { Self.label($0, "page 3 of 3") }
        #expect(Self.label(tree, "page 3 of 3"))
        bed.key("Page_Up", "ctrl+plus")
        tree = bed.waitForAccessible { Self.label($0, "page 2 of 3") && Self.label($0, "125%") }
        #expect(Self.label(tree, "page 2 of 3") && Self.label(tree, "125%"))
        bed.key("space")
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0, "Space closes too")

        // Reopened: the page and zoom it was left at.
        viewer = try look([document], bed)
        #expect(bed.waitForWindow(named: "^resume\\.pdf$") != nil)
        tree = bed.waitForAccessible { Self.label($0, "page 2 of 3") }
        #expect(Self.label(tree, "page 2 of 3"), "resumed: \(tree.filter { $0.role == "label" })")
        #expect(Self.label(tree, "125%"))
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0)
    }

    @Test func theQueueViewListsTheChosenPrintersJobsAndCancelsOne() throws {
        let cups = try CUPSTestBed(.full)
        let bed = try WindowTestBed()
        let document = cups.directory.file("queued.pdf")
        try TestPDF.write(pages: 1, to: document)
        // A job held on the default printer, so that it waits in the queue.
        let held = QuireBinary.run(["print", "--hold", "hold", "-d", "quire-office", document], environment: cups.environment())
        try #require(held.status == 0, "\(held.standardError)")
        let digits = held.standardOutputText.split(separator: "-").last?.prefix { $0.isNumber } ?? ""
        let id = try #require(Int(digits), "job id in: \(held.standardOutputText)")

        let viewer = try look([document], bed, cups.environment())
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^queued\\.pdf$") != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Print" } }
        bed.key("ctrl+p")
        #expect(bed.waitForWindow(named: "^Print queued\\.pdf$") != nil)
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Cancel job \(id)" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "Job \(id) — queued.pdf — held" }, "\(tree.filter { $0.role == "label" })")
        #expect(bed.press("Cancel job \(id)"))
        // The status says so, and the row goes when the queue is read again (after CUPS has
        // taken the cancel): wait for both, not only the first.
        tree = bed.waitForAccessible { tree in
            tree.contains { $0.name == "Job \(id) cancelled" } && !tree.contains { $0.name == "Cancel job \(id)" }
        }
        #expect(tree.contains { $0.name == "Job \(id) cancelled" })
        #expect(!tree.contains { $0.name == "Cancel job \(id)" }, "the cancelled job leaves the queue view")
        let state = QuireBinary.run(["job", "--json", String(id)], environment: cups.environment())
        #expect(state.standardOutputText.contains("\"canceled\""), "CUPS says the job is cancelled: \(state.standardOutputText)")
        bed.key("Escape")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
