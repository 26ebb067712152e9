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
    /// The render time limit is not what is tested here: it is raised, because opening this file
    /// takes 5 s on an idle machine and CI runs dozens of windows on two cores (once more than the
    /// default 30 s, and the window rightly said so instead of showing the page).
    @Test func aLongDocumentShowsPageOneWhileTheRestIsLaidOut() throws {
        let harness = try LookHarness("quire-look-office-long")
        let viewer = try harness.look(["--timeout", "300", Samples.path("office-long.docx")])
        defer { viewer.stop() }
        let window = harness.bed.waitForWindow(named: "^office-long\\.docx$")
        #expect(window != nil, "\(viewer.errorOutput)")
        func pageLabel(_ tree: [WindowTestBed.Accessible]) -> String? {
            tree.first { $0.role == "label" && $0.name.hasPrefix("page ") }?.name
        }
        var tree = harness.bed.waitForAccessible(timeout: 240) { tree in
            guard let label = pageLabel(tree) else { return false }
            return label.hasPrefix("page 1 of ") && !label.hasSuffix("laying out…")
        }
        let label = pageLabel(tree) ?? ""
        let count = Int(label.dropFirst("page 1 of ".count)) ?? 0
        #expect(count > 300, "laid out: \(label); the window's labels: \(tree.filter { $0.role == "label" }.map(\.name))")
        let page = try harness.screenshot("office-long", window: window, timeout: 60) { $0.darkPixels > 500 }
        #expect(page.darkPixels > 500, "text on page 1")
        harness.bed.key("End")
        tree = harness.bed.waitForAccessible(timeout: 30) { tree in pageLabel(tree) == "page \(count) of \(count)" }
        #expect(pageLabel(tree) == "page \(count) of \(count)")
        harness.bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// A renderer stopped at its time limit is said to be that, not a damaged file: the file may be
    /// fine (a long document on a busy machine). `--timeout 1` is far below the 5 s this file takes.
    @Test func aRendererOverItsTimeLimitIsSaidSoNotCalledDamaged() throws {
        let harness = try LookHarness("quire-look-office-slow")
        let viewer = try harness.look(["--timeout", "1", Samples.path("office-long.docx")])
        defer { viewer.stop() }
        #expect(harness.bed.waitForWindow(named: "^office-long\\.docx$") != nil, "\(viewer.errorOutput)")
        let expected = "The renderer took longer than 1 s opening the file."
        let tree = harness.bed.waitForAccessible(timeout: 60) { tree in tree.contains { $0.name == expected } }
        let labels = tree.filter { $0.role == "label" }.map(\.name)
        #expect(labels.contains("Cannot Open “office-long.docx”"), "\(labels)")
        #expect(labels.contains(expected), "\(labels)")
        #expect(!labels.contains { $0.contains("damaged") }, "\(labels)")
        harness.bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
