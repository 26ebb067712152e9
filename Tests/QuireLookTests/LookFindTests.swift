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

/// Find in a text file in the window: the worker's lines, marked in the text view.
@Suite("quire look find in text (Xvfb)")
final class LookFindTextTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-find-text")
    }

    @Test func aTextFileIsSearchedAndTheMatchMarked() throws {
        let bed = harness.bed
        let notes = harness.directory.file("notes.txt")
        try ((1...300).map { "line \($0): nothing to see" } + ["here is the Zébra"] + (1...20).map { "tail \($0)" })
            .joined(separator: "\n").write(toFile: notes, atomically: true, encoding: .utf8)
        let viewer = try harness.look([notes])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^notes\\.txt$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.name == "Text" } }
        bed.key("ctrl+f")
        _ = bed.waitForAccessible { $0.contains { $0.name == "Find in Document" && $0.states.contains("focused") } }
        bed.type("zebra")
        let tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "1 of 1" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "1 of 1" }, "\(tree.filter { $0.role == "label" }.map(\.name))")
        // Line 301 is scrolled into view and the word marked (orange, the current match).
        let shot = try harness.screenshot("find-text", window: window) { $0.count { r, g, b in r > 230 && g > 140 && g < 190 && b < 80 } > 50 }
        #expect(shot.count { r, g, b in r > 230 && g > 140 && g < 190 && b < 80 } > 50, "the match is marked in the text")
        bed.key("Escape", "Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}

/// Selecting and copying a PDF page's text in the window (Xvfb): double and triple click, a
/// drag, Ctrl+A, Ctrl+C read back from the clipboard with xclip; Ctrl+Shift+C puts the page
/// there as a PNG.
@Suite("quire look select and copy (Xvfb)")
final class LookSelectionTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-select")
    }

    /// The page's white rectangle in a screenshot of the window (the first page, fitted): its
    /// left, top and width in window pixels, found by scanning the middle row and column.
    static func pageRectangle(_ shot: Screenshot) -> (left: Int, top: Int, width: Int)? {
        let image = shot.image
        func white(_ x: Int, _ y: Int) -> Bool {
            let offset = (y * image.width + x) * 4
            return image.pixels[offset] > 250 && image.pixels[offset + 1] > 250 && image.pixels[offset + 2] > 250
        }
        // Outwards from a point well inside the page (below its few lines of text), then up
        // the page's left margin (what is across its middle — a form's fields — is not white).
        let row = image.height * 2 / 3, column = image.width / 2
        guard white(column, row) else { return nil }
        var left = column, right = column, top = row
        while left > 0, white(left - 1, row) { left -= 1 }
        while right + 1 < image.width, white(right + 1, row) { right += 1 }
        while top > 0, white(left + 4, top - 1) { top -= 1 }
        return (left, top, right - left + 1)
    }

    /// Where page point (x, y) of the page (A4) is in the window.
    static func windowPoint(_ page: (left: Int, top: Int, width: Int), x: Double, y: Double) -> (Int, Int) {
        let scale = Double(page.width) / 595
        return (page.left + Int(x * scale), page.top + Int(y * scale))
    }

    @Test func clicksDragsAndCtrlAPutThePagesTextOnTheClipboard() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("find-cases.pdf")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^find-cases\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } }
        let before = try harness.screenshot("select-before", window: window) { $0.count { r, g, b in r < 60 && g < 60 && b < 60 } > 100 }
        let area = try #require(Self.pageRectangle(before))

        // Double click in "résumé" (first line: 78–88 pt down; the word from 98 to 135 pt).
        let word = Self.windowPoint(area, x: 116, y: 83)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(word.0)", "\(word.1)", "click", "--repeat", "2", "--delay", "80", "1"])
        #expect(harness.copied { bed.key("ctrl+c") } == "résumé", "a double click selects the word")
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(word.0)", "\(word.1)", "click", "--repeat", "3", "--delay", "80", "1"])
        #expect(harness.copied { bed.key("ctrl+c") } == "Café résumé naïve", "a triple click selects the line")
        let shot = try harness.screenshot("select-line", window: window) { $0.count { r, g, b in b > 180 && r < 200 && b > r + 40 } > 100 }
        #expect(shot.count { r, g, b in b > 180 && r < 200 && b > r + 40 } > 100, "the selection is drawn")

        // A drag from the start of the second line to the middle of the first.
        let from = Self.windowPoint(area, x: 70, y: 97), to = Self.windowPoint(area, x: 100, y: 83)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(from.0)", "\(from.1)", "mousedown", "1",
                 "mousemove", "--window", window, "\(from.0 + 10)", "\(from.1)", "sleep", "0.1",
                 "mousemove", "--window", window, "\(to.0)", "\(to.1)", "sleep", "0.1", "mouseup", "1"])
        let dragged = harness.copied { bed.key("ctrl+c") }
        #expect(dragged.hasPrefix("résumé naïve\n"), "from résumé's r to the start of the second line: \(dragged.debugDescription)")
        #expect(dragged.hasSuffix("\nL"), "\(dragged.debugDescription)")

        bed.key("ctrl+a")
        let all = harness.copied { bed.key("ctrl+c") }
        #expect(all.hasPrefix("Café résumé naïve\nLiteral a.b*c (x+y) [z]? here\nThe end"), "\(all.debugDescription)")

        // The page as a picture.
        let png = bed.run(["/bin/sh", "-c", "sleep 0.3; xdotool key ctrl+shift+c; sleep 0.5; xclip -selection clipboard -t image/png -o | head -c 24 | od -An -tx1"])
        #expect(png.standardOutputText.replacingOccurrences(of: " ", with: "").hasPrefix("89504e470d0a1a0a"),
                "a PNG on the clipboard: \(png.standardOutputText) \(png.standardError)")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}

/// The page sidebar (Xvfb): F9 and the header's button show a column of page thumbnails (the
/// sample's pages each carry a red rectangle, so drawn thumbnails are red in the column), the
/// current page marked; a click goes to a page; a 1000-page file is laid out without making
/// anything per page.
@Suite("quire look page sidebar (Xvfb)")
final class LookSidebarTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-sidebar")
    }

    /// Red pixels in the window's left column (where the sidebar is), and blue (the mark).
    static func column(_ shot: Screenshot, _ matches: (UInt8, UInt8, UInt8) -> Bool) -> Int {
        var count = 0
        let image = shot.image
        for y in 60..<(image.height - 60) {
            for x in 0..<min(170, image.width) {
                let offset = (y * image.width + x) * 4
                if matches(image.pixels[offset], image.pixels[offset + 1], image.pixels[offset + 2]) { count += 1 }
            }
        }
        return count
    }
    static func red(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r > 200 && g < 60 && b < 60 }
    static func blue(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool { r < 80 && g > 110 && g < 160 && b > 200 }

    @Test func f9ShowsThumbnailsAndAClickGoesToThePage() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("thousand-pages.pdf")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^thousand-pages\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 1000" } }
        let before = try harness.screenshot("sidebar-before", window: window) { $0.redPixels > 1000 }
        #expect(Self.column(before, Self.red) == 0, "no sidebar yet")
        bed.key("F9")
        _ = bed.waitForAccessible { $0.contains { $0.name == "Page Thumbnails" && $0.role == "filler" && $0.states.contains("showing") } }
        // (Ends as soon as they are drawn; a starved machine took over 40 s.)
        let shown = try harness.screenshot("sidebar-shown", window: window, timeout: 90) { Self.column($0, Self.red) > 500 }
        #expect(Self.column(shown, Self.red) > 500, "thumbnails drawn in the column")
        #expect(Self.column(shown, Self.blue) > 200, "the current page is marked")
        var tree = bed.accessibilityTree()
        #expect(tree.contains { $0.name == "Page Thumbnails" && $0.role.hasSuffix("button") }, "the header's button")
        #expect(tree.contains { $0.name == "Page Thumbnails" && $0.role == "filler" && $0.states.contains("visible") },
                "\(tree.filter { $0.name == "Page Thumbnails" })")
        // The third thumbnail: thumbnails of A4 are 150 px tall, 8 px apart, with a 16 px label.
        let area = try #require(tree.first { $0.name == "Page Thumbnails" && $0.role == "filler" }?.extents)
        let third = area.y + 8 + 2 * (150 + 16 + 8) + 75
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, "\(area.x + area.width / 2)", "\(third)", "click", "1"])
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 3 of 1000" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "page 3 of 1000" })
        // The last page: the column follows it.
        bed.key("End")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1000 of 1000" } }
        let end = try harness.screenshot("sidebar-end", window: window, timeout: 60) { Self.column($0, Self.red) > 500 && Self.column($0, Self.blue) > 200 }
        #expect(Self.column(end, Self.red) > 500 && Self.column(end, Self.blue) > 200, "the last pages' thumbnails, the last marked")
        // The button hides it again.
        #expect(bed.press("Page Thumbnails"))
        let hidden = try harness.screenshot("sidebar-hidden", window: window) { Self.column($0, Self.red) == 0 }
        #expect(Self.column(hidden, Self.red) == 0)
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}

/// The index sheet (Xvfb): with several files, Ctrl+Up shows a grid of them (first page or
/// icon, name, kind and size), Enter opens the selected one; a file that vanishes while the
/// sheet is open says so on its tile, and opening it shows why it cannot be shown.
@Suite("quire look index sheet (Xvfb)")
final class LookIndexSheetTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-index")
    }

    @Test func ctrlUpShowsEveryFileAndEnterOpensOne() throws {
        let bed = harness.bed
        let gone = harness.directory.file("gone.pdf")
        try FileManager.default.copyItem(atPath: Samples.path("find-cases.pdf"), toPath: gone)
        let viewer = try harness.look([Samples.path("thousand-pages.pdf"), Samples.path("find-cases.pdf"), Samples.path("hello.c"), gone])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^thousand-pages\\.pdf$"), "\(viewer.errorOutput)")
        _ = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 1000" } }
        bed.key("ctrl+Up")
        var tree = bed.waitForAccessible { tree in
            ["thousand-pages.pdf, PDF document", "find-cases.pdf, PDF document", "hello.c, C source code", "gone.pdf, PDF document"]
                .allSatisfy { prefix in tree.contains { $0.name.hasPrefix(prefix) } }
        }
        for prefix in ["thousand-pages.pdf, PDF document · 774", "find-cases.pdf, PDF document · 1.3 kB", "hello.c, C source code", "gone.pdf, PDF document"] {
            #expect(tree.contains { $0.name.hasPrefix(prefix) }, "a tile for \(prefix): \(tree.filter { $0.name.contains(", ") }.map(\.name))")
        }
        let shot = try harness.screenshot("index-sheet", window: window) { $0.redPixels > 100 }
        #expect(shot.redPixels > 100, "the first page of thousand-pages.pdf (its red rectangle) on its tile")

        // The fourth file vanishes while the sheet is open: its tile says so.
        try FileManager.default.removeItem(atPath: gone)
        tree = bed.waitForAccessible { $0.contains { $0.name == "gone.pdf, the file is no longer there" } }
        #expect(tree.contains { $0.name == "gone.pdf, the file is no longer there" }, "\(tree.filter { $0.name.hasPrefix("gone") }.map(\.name))")

        // Right (the grid's own keys) to find-cases.pdf, Enter opens it.
        bed.key("Right")
        bed.key("Return")
        #expect(bed.waitForWindow(named: "^find-cases\\.pdf$", timeout: 10) != nil)
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "page 1 of 3" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "page 1 of 3" })
        #expect(tree.contains { $0.role == "label" && $0.name == "2 of 4" }, "the file indicator")

        // The vanished one, opened from the sheet, says why it cannot be shown.
        bed.key("ctrl+Up")
        _ = bed.waitForAccessible { $0.contains { $0.name.hasPrefix("gone.pdf,") } }
        bed.key("Right", "Right")
        bed.key("Return")
        #expect(bed.waitForWindow(named: "^gone\\.pdf$", timeout: 10) != nil)
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "Cannot Open “gone.pdf”" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "Cannot Open “gone.pdf”" },
                "\(tree.filter { $0.role == "label" }.map(\.name))")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
