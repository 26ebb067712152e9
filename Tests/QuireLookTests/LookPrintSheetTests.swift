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
        usleep(400_000)
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
}
