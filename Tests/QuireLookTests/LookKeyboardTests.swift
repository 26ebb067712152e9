import Foundation
import QuireTestSupport
import Testing

/// Every control of the window's header bar and bottom bar, and of the Print sheet, has an
/// accessible name and is reached with the keyboard (Tab), as AT-SPI reports the focus.
@Suite("quire look keyboard and accessible names (Xvfb + CUPS)")
final class LookKeyboardTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-keys")
    }

    /// Roles of things a user operates.
    static let controlRoles: Set<String> = ["push button", "toggle button", "combo box", "text", "password text",
                                            "spin button", "check box", "radio button", "list item", "entry"]

    static func unnamedControls(_ tree: [WindowTestBed.Accessible]) -> [WindowTestBed.Accessible] {
        tree.filter { controlRoles.contains($0.role) && $0.states.contains("visible") && $0.name.isEmpty }
    }

    @Test func everyControlHasANameAndIsReachedWithTab() throws {
        let cups = try CUPSTestBed(.colour)
        let bed = harness.bed
        let document = cups.directory.file("keys.pdf")
        try TestPDF.write(pages: 3, to: document)
        let viewer = try harness.look([document, Samples.path("hello.c")], cups.environment())
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^keys\\.pdf$") != nil, "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { $0.contains { $0.role == "push button" && $0.name == "Print" } }
        #expect(Self.unnamedControls(tree).isEmpty, "controls without a name: \(Self.unnamedControls(tree))")

        // Tab goes round every control of the window (on page 2, so that Previous Page is enabled).
        bed.key("Next")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 2 of 3" } }
        let window = Set(harness.tabCycle(19).map(\.name))
        for control in ["Open with Document Viewer", "Copy", "Show in Folder", "Share", "Print", "Next File", "Previous Page",
                        "Next Page", "Go to Page", "Zoom Out", "Zoom In", "Fit Page", "Fit Width"] {
            #expect(window.contains(control), "Tab reaches \(control): \(window.sorted())")
        }

        // The same in the Print sheet (with the colour printer chosen, so that every field shows).
        bed.key("ctrl+p")
        #expect(bed.waitForWindow(named: "^Print keys\\.pdf$") != nil)
        _ = bed.waitForAccessible { $0.contains { $0.name == "Copies" && $0.states.contains("focused") } }
        #expect(bed.select("quire-colour — idle"))
        tree = bed.waitForAccessible { $0.contains { $0.role == "combo box" && $0.name == "Colour" && $0.states.contains("visible") } }
        #expect(tree.contains { $0.role == "list item" && $0.name == "quire-colour — idle" && $0.states.contains("selected") },
                "\(tree.filter { $0.role == "list item" })")
        #expect(Self.unnamedControls(tree).isEmpty, "controls without a name: \(Self.unnamedControls(tree))")
        let sheet = Set(harness.tabCycle(27).map(\.name))
        for control in ["quire-colour — idle", "Copies", "All pages", "Page Range", "Two-sided", "Colour",
                        "Paper", "Pages per sheet", "Scaling", "Orientation", "Only print", "Booklet", "Reverse order",
                        "Save as PDF", "PDF File",
                        "Pages to print", "Refresh Queue", "Remember for This Printer", "Close", "Print"] {
            #expect(sheet.contains(control), "Tab reaches \(control) in the sheet: \(sheet.sorted())")
        }
        bed.key("Escape")
        _ = bed.waitForAccessible { !$0.contains { $0.name == "Refresh Queue" } }
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
