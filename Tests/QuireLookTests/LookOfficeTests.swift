import Foundation
import QuireTestSupport
import Testing

/// Office documents in the Quick Look window (Xvfb): laid out by LibreOffice in the window's
/// render worker, paged like any document.
@Suite("quire look window: office documents (Xvfb)")
struct LookOfficeTests {
    @Test func aDrawingAndADocxArePagedInTheWindow() throws {
        let harness = try LookHarness("quire-look-office")
        let viewer = try harness.look([Samples.path("office-drawing.odg"), Samples.path("office-report.docx")])
        defer { viewer.stop() }
        let window = harness.bed.waitForWindow(named: "^office-drawing\\.odg$")
        #expect(window != nil, "\(viewer.errorOutput)")
        var tree = harness.bed.waitForAccessible(timeout: 60) { tree in
            tree.contains { $0.role == "label" && $0.name == "page 1 of 1" }
        }
        #expect(tree.contains { $0.role == "label" && $0.name == "page 1 of 1" })
        // The drawing's red square, on white paper.
        let drawing = try harness.screenshot("office-drawing", window: window, timeout: 60) { $0.redPixels > 2000 }
        #expect(drawing.redPixels > 2000 && drawing.whitePixels > 50_000, "red: \(drawing.redPixels), white: \(drawing.whitePixels)")
        try drawing.keep(at: "QUIRE_OFFICE_SCREENSHOT")
        // The next file: 20 pages, text on page 1, Page Down to page 2.
        harness.bed.key("Right")
        #expect(harness.bed.waitForWindow(named: "^office-report\\.docx$") != nil)
        tree = harness.bed.waitForAccessible(timeout: 60) { tree in tree.contains { $0.role == "label" && $0.name == "page 1 of 20" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "page 1 of 20" })
        let page = try harness.screenshot("office-report", window: window, timeout: 60) { $0.darkPixels > 500 && $0.redPixels < 100 }
        #expect(page.darkPixels > 500, "text on page 1")
        harness.bed.key("Next")
        tree = harness.bed.waitForAccessible(timeout: 30) { tree in tree.contains { $0.role == "label" && $0.name == "page 2 of 20" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "page 2 of 20" })
        harness.bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// A 440-page document: page 1 is on screen, with "laying out…" beside its number, before
    /// LibreOffice has exported the rest; then the same page stays and every page can be reached.
    @Test func aLongDocumentShowsPageOneWhileTheRestIsLaidOut() throws {
        let harness = try LookHarness("quire-look-office-long")
        let viewer = try harness.look([Samples.path("office-long.docx")])
        defer { viewer.stop() }
        let window = harness.bed.waitForWindow(named: "^office-long\\.docx$")
        #expect(window != nil, "\(viewer.errorOutput)")
        func pageLabel(_ tree: [WindowTestBed.Accessible]) -> String? {
            tree.first { $0.role == "label" && $0.name.hasPrefix("page ") }?.name
        }
        var tree = harness.bed.waitForAccessible(timeout: 60) { tree in
            guard let label = pageLabel(tree) else { return false }
            return label.hasPrefix("page 1 of ") && !label.hasSuffix("laying out…")
        }
        let label = pageLabel(tree) ?? ""
        let count = Int(label.dropFirst("page 1 of ".count)) ?? 0
        #expect(count > 300, "laid out: \(label)")
        let page = try harness.screenshot("office-long", window: window, timeout: 60) { $0.darkPixels > 500 }
        #expect(page.darkPixels > 500, "text on page 1")
        harness.bed.key("End")
        tree = harness.bed.waitForAccessible(timeout: 30) { tree in pageLabel(tree) == "page \(count) of \(count)" }
        #expect(pageLabel(tree) == "page \(count) of \(count)")
        harness.bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
