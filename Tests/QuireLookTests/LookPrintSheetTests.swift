import Foundation
import QuireTestSupport
import Testing

/// The Print sheet against the test-bed cupsd with a monochrome printer (quire-office, the
/// default) and a colour one (quire-colour): colour mode only for the colour printer, submitted
/// as print-color-mode; the preview strip shows the pages the range selects.
@Suite("quire look print sheet: colour and preview (Xvfb + CUPS)")
final class LookPrintSheetTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-sheet")
    }

    static func pictures(_ tree: [WindowTestBed.Accessible]) -> [String] {
        tree.filter { $0.role == "image" && $0.name.hasPrefix("Page ") }.map(\.name)
    }

    static func colourControl(_ tree: [WindowTestBed.Accessible]) -> WindowTestBed.Accessible? {
        tree.first { $0.role == "combo box" && $0.name == "Colour" && $0.states.contains("visible") }
    }

    @Test func colourOnlyForTheColourPrinterMonochromeIsSubmittedAndTheStripFollowsTheRange() throws {
        let cups = try CUPSTestBed(.colour)
        let bed = harness.bed
        let document = cups.directory.file("colour-sheet.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("document.pdf"), toPath: document)
        let viewer = try harness.look([document], cups.environment())
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^colour-sheet\\.pdf$") != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Print" } }
        bed.key("ctrl+p")
        let sheet = bed.waitForWindow(named: "^Print colour-sheet\\.pdf$")
        #expect(sheet != nil)

        // The default printer prints in black and white only: no colour choice.
        var tree = bed.waitForAccessible { Self.pictures($0).count == 3 }
        #expect(tree.contains { $0.role == "list item" && $0.name.hasPrefix("quire-office (default)") && $0.states.contains("selected") })
        #expect(Self.colourControl(tree) == nil, "monochrome printer: no Colour control: \(tree.filter { $0.role == "combo box" })")
        // All pages: the strip shows the three, page 1's red rectangle among them.
        #expect(Self.pictures(tree) == ["Page 1", "Page 2", "Page 3"], "\(Self.pictures(tree))")
        #expect(tree.contains { $0.role == "label" && $0.name == "Preview — 3 pages" })
        let all = try harness.screenshot("strip-all", window: sheet) { $0.redPixels > 100 }
        #expect(all.redPixels > 100, "page 1's thumbnail is drawn")

        // Choosing quire-colour (AT-SPI selects the row) offers the colour choice.
        #expect(bed.select("quire-colour — idle"))
        tree = bed.waitForAccessible { Self.colourControl($0) != nil }
        #expect(tree.contains { $0.role == "list item" && $0.name.hasPrefix("quire-colour") && $0.states.contains("selected") })
        #expect(Self.colourControl(tree) != nil, "colour printer: the Colour control is offered")
        // Alt+O (the label's mnemonic) focuses it; Space opens it; the third choice is black and white.
        bed.key("alt+o", "space")
        // The arrows go to the list once it is open (its first row has the focus).
        tree = bed.waitForAccessible { tree in
            tree.contains { $0.role == "label" && $0.name == "Black and white" && $0.states.contains("visible") }
                && tree.contains { $0.role == "list item" && $0.states.contains("focused") }
        }
        #expect(tree.contains { $0.role == "label" && $0.name == "Black and white" }, "the Colour list is open")
        bed.key("Down", "Down", "Return")
        tree = bed.waitForAccessible { $0.contains { $0.name == "Preview — 3 pages, black and white" } }
        #expect(tree.contains { $0.name == "Preview — 3 pages, black and white" }, "\(tree.filter { $0.role == "label" })")
        let grey = try harness.screenshot("strip-grey", window: sheet) { $0.redPixels < 20 }
        #expect(grey.redPixels < 20, "the preview is drawn in grey: \(grey.redPixels) red pixels")

        // Alt+C: Copies; Enter goes on to the range: 2-3 leaves pages 2 and 3 in the strip.
        bed.key("alt+c", "Return")
        bed.type("2-3")
        tree = bed.waitForAccessible { Self.pictures($0) == ["Page 2", "Page 3"] }
        #expect(Self.pictures(tree) == ["Page 2", "Page 3"], "range 2-3: \(Self.pictures(tree))")
        #expect(tree.contains { $0.role == "label" && $0.name == "Preview — 2 pages, black and white" })
        bed.key("Return")
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("Sent to quire-colour — job ") } }
        #expect(tree.contains { $0.name.hasPrefix("Sent to quire-colour — job ") }, "\(tree.filter { $0.role == "label" })")
        let received = try #require(cups.waitForDocument(titled: "colour-sheet.pdf"))
        #expect(received.attributes["IPP_PRINT_COLOR_MODE"] == "monochrome", "\(received.attributes)")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2, "pages 2-3 only")

        bed.key("Escape")
        _ = bed.waitForAccessible { !$0.contains { $0.name.hasPrefix("Sent to") } }
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
        #expect(viewer.exitStatus == 0)
    }

    @Test func theStripIsBoundedAndCountsTheRest() throws {
        let cups = try CUPSTestBed(.full)
        let bed = harness.bed
        let document = cups.directory.file("twelve.pdf")
        try TestPDF.write(pages: 12, to: document)
        let viewer = try harness.look([document], cups.environment())
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^twelve\\.pdf$") != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Print" } }
        bed.key("ctrl+p")
        #expect(bed.waitForWindow(named: "^Print twelve\\.pdf$") != nil)
        var tree = bed.waitForAccessible { Self.pictures($0).count == 8 }
        #expect(Self.pictures(tree) == (1...8).map { "Page \($0)" }, "\(Self.pictures(tree))")
        #expect(tree.contains { $0.role == "label" && $0.name == "+4 more pages" })
        // A range in its own order: the first eight of it, then how many more.
        bed.key("Return")  // Copies → range entry
        bed.type("3-12,1")
        tree = bed.waitForAccessible { $0.contains { $0.name == "+3 more pages" } }
        #expect(Self.pictures(tree) == [3, 4, 5, 6, 7, 8, 9, 10].map { "Page \($0)" }, "in print order: \(Self.pictures(tree))")
        #expect(tree.contains { $0.name == "+3 more pages" })
        bed.key("ctrl+a")
        bed.type("13")
        tree = bed.waitForAccessible { Self.pictures($0).isEmpty }
        #expect(Self.pictures(tree).isEmpty, "a range past the end: no preview")
        #expect(tree.contains { $0.name.contains("beyond the last page") })
        bed.key("Escape")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    static func sides(_ tree: [WindowTestBed.Accessible]) -> [String] {
        tree.filter { $0.role == "image" && $0.name.hasPrefix("Side ") }.map(\.name)
    }

    @Test func pagesPerSheetShowsTheComposedSidesAndTheCountAndPrintsThem() throws {
        let cups = try CUPSTestBed(.full)
        let bed = harness.bed
        let document = cups.directory.file("nup.pdf")
        try TestPDF.write(pages: 12, to: document)
        let (viewer, title) = try openSheet(document, cups)
        defer { viewer.stop() }
        _ = bed.waitForAccessible { Self.pictures($0).count == 8 }
        // Alt+H: Pages per sheet; Space opens it; the second choice is 2.
        bed.key("alt+h", "space")
        _ = bed.waitForAccessible { tree in
            tree.contains { $0.role == "list item" && $0.states.contains("focused") }
        }
        bed.key("Down", "Return")
        var tree = bed.waitForAccessible { Self.sides($0).count == 6 }
        #expect(Self.sides(tree) == (1...6).map { "Side \($0)" }, "\(Self.sides(tree))")
        #expect(tree.contains { $0.role == "label" && $0.name == "Preview — 6 sheets of Letter, 6 sides" },
                "\(tree.filter { $0.role == "label" && $0.name.hasPrefix("Preview") })")
        // Pages 5–10: three sides, counted at once.
        bed.key("alt+g")
        bed.type("5-10")
        tree = bed.waitForAccessible { Self.sides($0).count == 3 && $0.contains { $0.name == "Preview — 3 sheets of Letter, 3 sides" } }
        #expect(Self.sides(tree) == ["Side 1", "Side 2", "Side 3"], "\(Self.sides(tree))")
        #expect(tree.contains { $0.role == "label" && $0.name == "Preview — 3 sheets of Letter, 3 sides" })
        let window = try #require(bed.waitForWindow(named: "^\(NSRegularExpression.escapedPattern(for: title))$"))
        let shot = try harness.screenshot("sheet-two-per-side", window: window)
        #expect(shot.image.width > 0, "\(shot.path)")
        try? FileManager.default.copyItem(atPath: shot.path, toPath: "/tmp/compose-sheet-two-per-side.png")
        bed.key("Return")
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("Sent to quire-office — job ") } }
        #expect(tree.contains { $0.name.hasPrefix("Sent to quire-office — job ") }, "\(tree.filter { $0.role == "label" })")
        let received = try #require(cups.waitForDocument(titled: "nup.pdf"))
        var numbers: [[Int]] = []
        for page in 1...3 {
            let text = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", String(page), "-l", String(page), received.path, "-"]).standardOutputText
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            numbers.append(zip(words, words.dropFirst()).compactMap { $0 == "Page" ? Int($1) : nil })
        }
        #expect(numbers == [[5, 6], [7, 8], [9, 10]])
        bed.key("Escape")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func saveAsPDFWritesTheComposedSidesAndRememberKeepsTheChoiceInLpoptions() throws {
        let cups = try CUPSTestBed(.full)
        let bed = harness.bed
        let document = cups.directory.file("saved.pdf")
        try TestPDF.write(pages: 6, to: document)
        let serverRoot = cups.directory.file("serverroot")
        try FileManager.default.createDirectory(atPath: serverRoot, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: cups.directory.file("home"), withIntermediateDirectories: true)
        let environment = cups.environment(["CUPS_SERVERROOT": serverRoot])
        let viewer = try harness.look([document], environment)
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^saved\\.pdf$") != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Print" } }
        bed.key("ctrl+p")
        #expect(bed.waitForWindow(named: "^Print saved\\.pdf$") != nil)
        _ = bed.waitForAccessible { Self.pictures($0).count == 6 }
        // Four per sheet (Alt+H: 1, 2, 4 — the third choice).
        bed.key("alt+h", "space")
        _ = bed.waitForAccessible { $0.contains { $0.role == "list item" && $0.states.contains("focused") } }
        bed.key("Down", "Down", "Return")
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Preview — 2 sheets of Letter, 2 sides" } }
        #expect(Self.sides(tree) == ["Side 1", "Side 2"], "\(Self.sides(tree))")
        // Remember for This Printer: saved where lp reads it.
        #expect(bed.press("Remember for This Printer"))
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("Remembered for quire-office") } }
        #expect(tree.contains { $0.name.hasPrefix("Remembered for quire-office") }, "\(tree.filter { $0.role == "label" })")
        let listed = ProcessRunner.run(["/usr/bin/lpoptions", "-p", "quire-office"], environment: environment).standardOutputText
        #expect(listed.contains("number-up=4"), "\(listed)")
        // Save as PDF (Alt+P): the button becomes Save; the file holds the two composed sides.
        bed.key("alt+p")
        tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Save" } }
        #expect(bed.press("Save"))
        let saved = cups.directory.file("home") + "/saved-print.pdf"
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("Saved 2 sides to ") } }
        #expect(tree.contains { $0.name == "Saved 2 sides to \(saved)" }, "\(tree.filter { $0.role == "label" })")
        #expect(CUPSTestBed.pageCount(ofPDF: saved) == 2)
        let first = ProcessRunner.run(["/usr/bin/pdftotext", "-layout", "-f", "1", "-l", "1", saved, "-"]).standardOutputText
        #expect(["Page 1", "Page 2", "Page 3", "Page 4"].allSatisfy(first.contains), "\(first)")
        #expect(cups.receivedDocuments().isEmpty, "Save as PDF sends nothing")
        bed.key("Escape")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    // MARK: What the sheet shows is what it sends (copies, pages, the buttons in view)

    /// The sheet window's own objects (the viewer's header has a "Print" button too).
    static func sheetObjects(_ tree: [WindowTestBed.Accessible], _ title: String) -> [WindowTestBed.Accessible] {
        WindowTestBed.subtree(tree) { $0.role == "frame" && $0.name == title }
    }

    static func printButton(_ sheet: [WindowTestBed.Accessible]) -> WindowTestBed.Accessible? {
        sheet.first { $0.role == "push button" && $0.name == "Print" }
    }

    /// The Copies field's text as the user sees it: selected and copied to the clipboard.
    func copiesText() -> String {
        harness.copied { harness.bed.key("alt+c", "ctrl+a", "ctrl+c") }
    }

    /// Opens `document`'s print sheet in a viewer on `cups`; the viewer and the sheet's title.
    func openSheet(_ document: String, _ cups: CUPSTestBed) throws -> (BackgroundProcess, String) {
        let viewer = try harness.look([document], cups.environment())
        let name = (document as NSString).lastPathComponent
        let escaped = NSRegularExpression.escapedPattern(for: name)
        #expect(harness.bed.waitForWindow(named: "^\(escaped)$") != nil, "\(viewer.errorOutput)")
        _ = harness.bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Print" } }
        harness.bed.key("ctrl+p")
        #expect(harness.bed.waitForWindow(named: "^Print \(escaped)$") != nil)
        return (viewer, "Print \(name)")
    }

    @Test func copiesHoldOnlyDigitsAnEmptyOrTooLargeCountDisablesPrintAndTheCountShownIsSent() throws {
        let cups = try CUPSTestBed(.full)
        let bed = harness.bed
        let document = cups.directory.file("copies.pdf")
        try TestPDF.write(pages: 5, to: document)
        let (viewer, title) = try openSheet(document, cups)
        defer { viewer.stop() }
        var tree = bed.waitForAccessible { Self.pictures($0).count == 5 }
        #expect(tree.contains { $0.role == "spin button" && $0.name == "Copies" && $0.states.contains("focused") },
                "Copies has the focus when the sheet opens")

        // A range typed into Copies: the dash never appears, so "22-3" cannot become 22 copies.
        bed.key("ctrl+a")
        bed.type("22-3")
        #expect(copiesText() == "223", "only the digits are in the field")
        bed.key("ctrl+a")
        bed.type("3x")
        #expect(copiesText() == "3", "letters are refused as they are typed")

        // Empty: the reason beside the field, and Print cannot be pressed.
        bed.key("ctrl+a", "BackSpace")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.hasPrefix("Enter the number of copies") } }
        var sheet = Self.sheetObjects(tree, title)
        #expect(sheet.contains { $0.role == "label" && $0.name.hasPrefix("Enter the number of copies (1 to ") },
                "\(sheet.filter { $0.role == "label" })")
        #expect(Self.printButton(sheet)?.states.contains("sensitive") == false, "Print is disabled: \(String(describing: Self.printButton(sheet)))")

        // More than the printer takes (its copies-supported, asked from the scheduler).
        bed.type("99999")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name.hasPrefix("copies must be a number from 1 to ") } }
        sheet = Self.sheetObjects(tree, title)
        #expect(sheet.contains { $0.role == "label" && $0.name.hasPrefix("copies must be a number from 1 to ") })
        #expect(Self.printButton(sheet)?.states.contains("sensitive") == false)

        // "3x" again: 3 shown, Print enabled; Enter goes to the range, Enter there prints.
        bed.key("ctrl+a")
        bed.type("3x")
        tree = bed.waitForAccessible { Self.printButton(Self.sheetObjects($0, title))?.states.contains("sensitive") == true }
        sheet = Self.sheetObjects(tree, title)
        #expect(!sheet.contains { $0.role == "label" && $0.name.hasPrefix("copies must") })
        #expect(Self.printButton(sheet)?.states.contains("sensitive") == true)
        bed.key("Return", "Return")
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("Sent to quire-office — job ") } }
        #expect(tree.contains { $0.name.hasPrefix("Sent to quire-office — job ") }, "\(tree.filter { $0.role == "label" })")
        let received = try #require(cups.waitForDocument(titled: "copies.pdf"))
        #expect(received.attributes["IPP_COPIES"] == "3", "the count shown is the count sent: \(received.attributes)")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 5)
        #expect(cups.receivedDocuments().count == 1, "nothing was sent before")
        bed.key("Escape")
        _ = bed.waitForAccessible { !$0.contains { $0.name.hasPrefix("Sent to") } }
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func choosingPagesPutsTheCursorInItsEntryAndAnEmptyRangeSendsNothing() throws {
        let cups = try CUPSTestBed(.full)
        let bed = harness.bed
        let document = cups.directory.file("pages.pdf")
        try TestPDF.write(pages: 5, to: document)
        let (viewer, title) = try openSheet(document, cups)
        defer { viewer.stop() }
        _ = bed.waitForAccessible { Self.pictures($0).count == 5 }

        // Alt+G chooses "Pages:" and the cursor goes into the range entry, not into Copies.
        bed.key("alt+g")
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Page Range" && $0.states.contains("focused") } }
        #expect(tree.contains { $0.name == "Page Range" && $0.states.contains("focused") },
                "focus: \(tree.filter { $0.states.contains("focused") })")
        var sheet = Self.sheetObjects(tree, title)
        #expect(sheet.contains { $0.role == "label" && $0.name == "Enter pages, e.g. 1-3,7" }, "\(sheet.filter { $0.role == "label" })")
        #expect(Self.printButton(sheet)?.states.contains("sensitive") == false, "an empty range cannot print")
        #expect(Self.pictures(tree).isEmpty, "no pages to preview")

        // Enter in the empty entry sends nothing.
        bed.key("Return")
        usleep(1_500_000)
        #expect(cups.receivedDocuments().isEmpty)
        #expect(!bed.accessibilityTree().contains { $0.name.hasPrefix("Sent to") })

        // What is typed next is the range: pages 2-3 preview and print.
        bed.type("2-3")
        tree = bed.waitForAccessible { Self.pictures($0) == ["Page 2", "Page 3"] }
        #expect(Self.pictures(tree) == ["Page 2", "Page 3"], "\(Self.pictures(tree))")
        #expect(copiesText() == "1", "nothing typed went into Copies")
        // "9" past the end: the reason, and Print disabled again.
        bed.key("alt+g", "End")
        bed.type(",9")
        tree = bed.waitForAccessible { $0.contains { $0.name.contains("beyond the last page (the document has 5 pages)") } }
        sheet = Self.sheetObjects(tree, title)
        #expect(sheet.contains { $0.name.contains("page range 9 is beyond the last page (the document has 5 pages)") })
        #expect(Self.printButton(sheet)?.states.contains("sensitive") == false)
        bed.key("BackSpace", "BackSpace")
        tree = bed.waitForAccessible { Self.printButton(Self.sheetObjects($0, title))?.states.contains("sensitive") == true }
        bed.key("Return")
        tree = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("Sent to quire-office — job ") } }
        #expect(tree.contains { $0.name.hasPrefix("Sent to quire-office — job ") }, "\(tree.filter { $0.role == "label" })")
        let received = try #require(cups.waitForDocument(titled: "pages.pdf"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2, "pages 2-3 only")
        #expect(received.attributes["IPP_COPIES"] ?? "1" == "1")
        #expect(cups.receivedDocuments().count == 1)
        bed.key("Escape")
        _ = bed.waitForAccessible { !$0.contains { $0.name.hasPrefix("Sent to") } }
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func theButtonsStayInViewAfterAJobIsSentWithALongQueueAndALongPrinterName() throws {
        let cups = try CUPSTestBed(.full)
        let bed = harness.bed
        let longName = "quire-" + String(repeating: "very-long-printer-name-", count: 4) + "on-the-third-floor"
        try cups.admin("lpadmin", "-p", longName, "-E", "-v", "file:///dev/null", "-D", "A printer with a long name")
        let document = cups.directory.file("queue.pdf")
        try TestPDF.write(pages: 2, to: document)
        for index in 1...12 {
            let held = QuireBinary.run(["print", "-H", "hold", "-t", "held-\(index)", document], environment: cups.environment())
            #expect(held.status == 0, "\(held.standardError)")
        }
        let (viewer, title) = try openSheet(document, cups)
        defer { viewer.stop() }
        var tree = bed.waitForAccessible { $0.filter { $0.role == "push button" && $0.name.hasPrefix("Cancel job") }.count == 12 }
        #expect(tree.filter { $0.role == "push button" && $0.name.hasPrefix("Cancel job") }.count == 12, "the queue lists the held jobs")
        #expect(tree.contains { $0.role == "list item" && $0.name.hasPrefix(longName) })

        bed.key("Return", "Return")
        tree = bed.waitForAccessible { $0.filter { $0.role == "push button" && $0.name.hasPrefix("Cancel job") }.count == 13 }
        #expect(tree.contains { $0.name.hasPrefix("Sent to quire-office — job ") }, "\(tree.filter { $0.role == "label" })")

        func inView(_ tree: [WindowTestBed.Accessible], _ label: String) {
            let sheet = Self.sheetObjects(tree, title)
            guard let frame = sheet.first?.extents else {
                Issue.record("\(label): no sheet window in \(sheet)")
                return
            }
            #expect(frame.height <= WindowTestBed.screen.height && frame.width <= 640, "\(label): the sheet fits a screen: \(frame)")
            for name in ["Print", "Close"] {
                let button = sheet.first { $0.role == "push button" && $0.name == name }
                #expect(button?.extents.map(frame.contains) == true,
                        "\(label): \(name) is inside the sheet \(frame): \(String(describing: button))")
            }
            let sent = sheet.first { $0.name.hasPrefix("Sent to quire-office") && $0.role == "label" }
            #expect(sent?.extents.map(frame.contains) == true, "\(label): the sent line is in view: \(String(describing: sent))")
        }
        inView(tree, "13 jobs")
        let window = try #require(bed.waitForWindow(named: "^\(NSRegularExpression.escapedPattern(for: title))$"))
        _ = try harness.screenshot("sheet-long-queue", window: window)
        // The smaller size a user may give it: the fields scroll, the buttons stay.
        bed.run(["/usr/bin/xdotool", "windowsize", window, "460", "420"])
        tree = bed.waitForAccessible { (Self.sheetObjects($0, title).first?.extents?.height ?? 999) <= 440 }
        #expect((Self.sheetObjects(tree, title).first?.extents?.height ?? 999) <= 440, "resized")
        inView(tree, "a 420-pixel-high sheet")
        _ = try harness.screenshot("sheet-small", window: window)

        bed.key("Escape")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
