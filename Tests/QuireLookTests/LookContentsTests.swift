import Foundation
import QuireTestSupport
import Testing

/// A book's table of contents in the window (Xvfb): the header's sidebar button is "Contents"
/// for an EPUB shown as text; F9 shows its entries beside the text, the one the reader is in
/// chosen; a click goes to an entry (the text scrolls there), and scrolling the text moves the
/// choice along. A PDF's button is the page thumbnails again.
@Suite("quire look window: a book's contents (Xvfb)")
final class LookContentsTests {
    @Test func theSidebarListsTheContentsAndGoesThere() throws {
        let harness = try LookHarness("quire-look-contents")
        let bed = harness.bed
        let trace = harness.directory.file("trace")
        let viewer = try harness.look([Samples.path("old-book.epub"), Samples.path("document.pdf")],
                                      ProcessInfo.processInfo.environment, ["QUIRE_LOOK_TRACE": trace])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^old-book\\.epub$"))
        var tree = bed.waitForAccessible { $0.contains { $0.name == "Contents" && $0.role.hasSuffix("button") && $0.states.contains("visible") } }
        #expect(tree.contains { $0.role == "label" && $0.name.contains("2 chapters · 729 words") },
                "the card's counts say what they count: \(tree.filter { $0.role == "label" }.map(\.name))")
        let closed = try harness.screenshot("contents-closed", window: window) { $0.count { r, g, b in r < 128 && g < 128 && b < 128 } > 500 }
        bed.key("F9")
        tree = bed.waitForAccessible { $0.contains { $0.role == "list item" && $0.name == "Part Two" && $0.states.contains("showing") } }
        let rows = tree.filter { $0.role == "list item" }
        #expect(rows.map(\.name) == ["Part & One", "Its Second Scene", "Part Two"], "\(rows)")
        #expect(rows.first?.states.contains("selected") == true, "the reader is in part one: \(rows)")
        let open = try harness.screenshot("contents-open", window: window) { $0.differingPixels(from: closed) > 3_000 }
        #expect(open.differingPixels(from: closed) > 3_000, "the sidebar is drawn")
        // Its indented entry is drawn to the right of the top-level ones.
        let second = try #require(rows[1].extents), first = try #require(rows[0].extents)
        let textStart = { (box: WindowTestBed.Accessible.Extents, shot: Screenshot) -> Int? in
            (box.x..<(box.x + box.width)).first { x in
                shot.count(in: .init(x: x, y: box.y, width: 1, height: box.height)) { r, g, b in r < 110 && g < 110 && b < 110 } > 0
            }
        }
        let firstStart = try #require(textStart(first, open)), secondStart = try #require(textStart(second, open))
        #expect(secondStart > firstStart + 8, "level 2 indented: \(firstStart) → \(secondStart)")
        // A click on "Its Second Scene": the text scrolls to its line.
        bed.click(window: window, x: second.x + second.width / 2, y: second.y + second.height / 2)
        tree = bed.waitForAccessible { $0.contains { $0.role == "list item" && $0.name == "Its Second Scene" && $0.states.contains("selected") } }
        #expect(tree.contains { $0.role == "list item" && $0.name == "Its Second Scene" && $0.states.contains("selected") })
        let moved = try harness.screenshot("contents-moved", window: window) { $0.differingPixels(from: open) > 3_000 }
        #expect(moved.differingPixels(from: open) > 3_000, "the text scrolled")
        let marks = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        #expect(marks.contains("contents entry 2 chosen: line 123"), "\(marks)")
        // Scrolling the text to its end: the last entry is chosen.
        let text = try #require(tree.first { $0.role == "text" && $0.name == "Rendered Markdown" }?.extents, "\(tree.filter { $0.role == "text" })")
        bed.click(window: window, x: text.x + text.width / 2, y: text.y + text.height / 2)
        bed.key("ctrl+End")
        tree = bed.waitForAccessible { $0.contains { $0.role == "list item" && $0.name == "Part Two" && $0.states.contains("selected") } }
        #expect(tree.contains { $0.role == "list item" && $0.name == "Part Two" && $0.states.contains("selected") }, "\(tree.filter { $0.role == "list item" })")
        // A PDF: the same button shows the page thumbnails.
        bed.key("Right")
        _ = try #require(bed.waitForWindow(named: "^document\\.pdf$"))
        tree = bed.waitForAccessible { $0.contains { $0.name == "Page Thumbnails" && $0.role.hasSuffix("button") && $0.states.contains("visible") } }
        #expect(!tree.contains { $0.role == "list item" && $0.name == "Part Two" && $0.states.contains("showing") })
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
