import Foundation
import QuireTestSupport
import Testing

/// Find in the window (Xvfb + AT-SPI): Ctrl+F opens the search bar, the match count and the
/// page indicator follow the search, Enter/Shift+Enter/F3 move between matches across pages,
/// "No matches", and a page without text says it is an image.
@Suite("quire look find (Xvfb)")
final class LookFindTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-find")
    }

    static func label(_ text: String) -> ([WindowTestBed.Accessible]) -> Bool {
        { tree in tree.contains { $0.role == "label" && $0.name == text } }
    }

    @Test func aWordOnPage900IsFoundFromTheSearchBar() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("find-1000.pdf")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^find-1000\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible(Self.label("page 1 of 1000"))
        bed.key("ctrl+f")
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Find in Document" && $0.states.contains("focused") } }
        #expect(tree.contains { $0.name == "Find in Document" && $0.states.contains("focused") }, "the search bar has the focus")
        bed.type("xylophone")
        tree = bed.waitForAccessible(timeout: 30) { Self.label("1 of 1")($0) && Self.label("page 900 of 1000")($0) }
        #expect(Self.label("1 of 1")(tree), "the match count: \(tree.filter { $0.role == "label" })")
        #expect(Self.label("page 900 of 1000")(tree), "the view went to page 900")
        // The match is marked on the page: orange pixels where there were none.
        let shot = try harness.screenshot("find-page-900", window: window) { $0.count { r, g, b in r > 230 && g > 120 && g < 190 && b < 80 } > 200 }
        #expect(shot.count { r, g, b in r > 230 && g > 120 && g < 190 && b < 80 } > 200, "the current match is highlighted")
        // Esc ends the search (the bar closes), the next one closes the window.
        bed.key("Escape")
        tree = bed.waitForAccessible { !$0.contains { $0.name == "Find in Document" && $0.states.contains("showing") } }
        #expect(!tree.contains { $0.name == "Find in Document" && $0.states.contains("showing") }, "the bar is hidden")
        #expect(!tree.contains { $0.role == "label" && $0.name == "1 of 1" }, "the count has gone")
        #expect(bed.hasWindow(named: "^find-1000\\.pdf$"))
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func enterShiftEnterAndF3MoveBetweenMatchesAcrossPages() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("find-cases.pdf")])
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^find-cases\\.pdf$") != nil, "\(viewer.errorOutput)")
        _ = bed.waitForAccessible(Self.label("page 1 of 3"))
        bed.key("ctrl+f")
        _ = bed.waitForAccessible { $0.contains { $0.name == "Find in Document" && $0.states.contains("focused") } }
        bed.type("cafe")
        var tree = bed.waitForAccessible(Self.label("1 of 2"))
        #expect(Self.label("1 of 2")(tree), "Café and CAFE: \(tree.filter { $0.role == "label" })")
        #expect(Self.label("page 1 of 3")(tree))
        bed.key("Return")
        tree = bed.waitForAccessible { Self.label("2 of 2")($0) && Self.label("page 3 of 3")($0) }
        #expect(Self.label("2 of 2")(tree) && Self.label("page 3 of 3")(tree), "Enter: the next match, on page 3")
        bed.key("shift+Return")
        tree = bed.waitForAccessible { Self.label("1 of 2")($0) && Self.label("page 1 of 3")($0) }
        #expect(Self.label("1 of 2")(tree) && Self.label("page 1 of 3")(tree), "Shift+Enter: back to page 1")
        bed.key("F3")
        tree = bed.waitForAccessible { Self.label("2 of 2")($0) && Self.label("page 3 of 3")($0) }
        #expect(Self.label("2 of 2")(tree) && Self.label("page 3 of 3")(tree), "F3: the next match")
        // Regex characters are text; a word that is nowhere says so.
        bed.key("ctrl+a")
        bed.type("a.b*c (x+y)")
        tree = bed.waitForAccessible { Self.label("1 of 1")($0) && Self.label("page 1 of 3")($0) }
        #expect(Self.label("1 of 1")(tree), "\(tree.filter { $0.role == "label" })")
        bed.key("ctrl+a")
        bed.type("a.c")
        tree = bed.waitForAccessible(Self.label("No matches"))
        #expect(Self.label("No matches")(tree), "\(tree.filter { $0.role == "label" })")
        // Page 2 is a drawing: no text there.
        bed.key("ctrl+a")
        bed.type("fox")
        _ = bed.waitForAccessible { Self.label("1 of 2")($0) && Self.label("page 3 of 3")($0) }
        #expect(bed.press("Previous Page"))
        tree = bed.waitForAccessible(Self.label("1 of 2 — no text on this page — it is an image"))
        #expect(Self.label("1 of 2 — no text on this page — it is an image")(tree), "\(tree.filter { $0.role == "label" })")
        bed.key("Escape", "Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
