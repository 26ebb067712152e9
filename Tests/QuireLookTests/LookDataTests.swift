import Foundation
import QuireTestSupport
import Testing

/// Data and notes in the window (issue 38): a CSV file as a column view sorted by a click on a
/// header (the render worker sorts), rows copied as tab-separated text; an SQLite database as
/// its table list beside the chosen table's rows; JSON as an expandable tree whose node's path
/// is copied; Markdown rendered (a heading drawn larger than the text, code on a grey ground),
/// not shown as source.
@Suite("quire look window: tables, databases, JSON, Markdown (Xvfb)")
final class LookDataTests {
    let harness: LookHarness

    init() throws {
        harness = try LookHarness("quire-look-data")
    }

    /// Labels whose name starts with `prefix` drawn inside the list named `list`, top to
    /// bottom (GTK 4.8 says "visible", not "showing", of every cell the list keeps, in view or not).
    static func rows(_ tree: [WindowTestBed.Accessible], prefix: String, list: String = "Table rows") -> [String] {
        guard let area = tree.first(where: { $0.name == list && $0.role != "label" })?.extents else { return [] }
        return tree.filter { $0.role == "label" && $0.name.hasPrefix(prefix) && $0.extents.map(area.contains) == true }
            .sorted { ($0.extents?.y ?? 0) < ($1.extents?.y ?? 0) }.map(\.name)
    }

    /// The JSON tree's path line (a label named by the path it shows).
    static func selectedPath(_ tree: [WindowTestBed.Accessible]) -> String? {
        tree.first { $0.role == "label" && $0.detail == "Path of the selected node" }?.name
    }

    static func header(_ tree: [WindowTestBed.Accessible], _ name: String) -> WindowTestBed.Accessible? {
        tree.first { $0.name == name && $0.role != "label" && $0.detail.contains("ort") }
    }

    @Test func aCSVTableIsAColumnViewSortedByClickingAHeaderAndRowsCopy() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("table.csv")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^table\\.csv$"), "\(viewer.errorOutput)")
        // The table's tree is large (~1,500 objects: 2 s a read on an idle machine, past 30 s
        // under CI's load), so its reads get room (as the SQLite test's).
        func waitForTable(_ condition: ([WindowTestBed.Accessible]) -> Bool) -> [WindowTestBed.Accessible] {
            bed.waitForAccessible(timeout: 240, readTimeout: 120, condition)
        }
        var tree = waitForTable { Self.header($0, "Amount") != nil && !Self.rows($0, prefix: "Item ").isEmpty }
        // One column per table column, each header named and clickable to sort.
        for name in ["Item", "City", "Amount"] {
            #expect(Self.header(tree, name)?.detail == "Click to sort by \(name)", "\(tree.filter { $0.name == name })")
        }
        #expect(Self.rows(tree, prefix: "Item ").first == "Item 001", "file order first: \(Self.rows(tree, prefix: "Item "))")
        #expect(tree.contains { $0.role == "label" && $0.name == "Paris, France" }, "a quoted cell holding the separator")
        #expect(tree.contains { $0.name.hasPrefix("Rows 1–300 of 300 rows") }, "\(tree.filter { $0.name.hasPrefix("Rows") }.map(\.name))")
        // A cell's context menu: Copy Cell copies the cell under the pointer.
        let paris = try #require(tree.first { $0.role == "label" && $0.name == "Paris, France" }?.extents)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, String(paris.x + 10), String(paris.y + paris.height / 2), "click", "3"])
        let menu = bed.waitForAccessible { $0.contains { $0.name == "Copy Cell" && $0.role == "menu item" && $0.states.contains("focused") } }
        #expect(menu.contains { $0.name == "Copy Selected Rows" && $0.role == "menu item" })
        #expect(harness.copied { bed.key("Return") } == "Paris, France")

        // The rows (n = 1…300) hold n·7 mod 1000 as the amount: smallest n = 143 (1), largest n = 857 is
        // not in the file, so the largest is found the same way.
        let amount = { (n: Int) in n * 7 % 1000 }
        let smallest = (1...300).min { amount($0) < amount($1) }!, largest = (1...300).max { amount($0) < amount($1) }!
        let cities = ["Zürich", "Lyon", "Kraków", "Porto", "Bergen"]
        let headerBox = try #require(Self.header(tree, "Amount")?.extents)
        bed.click(window: window, x: headerBox.x + headerBox.width / 2, y: headerBox.y + headerBox.height / 2)
        tree = waitForTable { $0.contains { $0.name.contains("sorted by Amount (ascending)") } }
        #expect(Self.rows(tree, prefix: "Item ").first == String(format: "Item %03d", smallest), "\(Self.rows(tree, prefix: "Item ").prefix(3))")
        #expect(Self.header(tree, "Amount")?.detail == "Sorted ascending; click to reverse")
        // The second click waits out the double-click time (two quick clicks are one double press).
        usleep(600_000)
        bed.click(window: window, x: headerBox.x + headerBox.width / 2, y: headerBox.y + headerBox.height / 2)
        tree = waitForTable { $0.contains { $0.name.contains("sorted by Amount (descending)") } }
        let first = String(format: "Item %03d", largest)
        #expect(Self.rows(tree, prefix: "Item ").first == first, "\(Self.rows(tree, prefix: "Item ").prefix(3))")
        #expect(Self.header(tree, "Amount")?.detail == "Sorted descending; click to reverse")

        // A click selects the first row; Ctrl+C copies it as tab-separated cells.
        let row = try #require(tree.first { $0.role == "label" && $0.name == first }?.extents)
        bed.click(window: window, x: row.x + row.width / 2, y: row.y + row.height / 2)
        let copied = harness.copied { bed.key("ctrl+c") }
        #expect(copied == "\(first)\t\(cities[largest % 5])\t\(amount(largest))", "\(copied)")

        // Find (Ctrl+F) selects the row of the current match; Esc, then Ctrl+C copies it.
        bed.key("ctrl+f")
        _ = waitForTable { $0.contains { $0.name == "Find in Document" && $0.states.contains("focused") } }
        bed.type("Item 150")
        _ = waitForTable { $0.contains { $0.role == "label" && $0.name == "1 of 1" } }
        // (Keys are taken in order: Ctrl+C comes after the bar has closed and given back the focus.)
        bed.key("Escape")
        let found = harness.copied { bed.key("ctrl+c") }
        #expect(found == "Item 150\t\(cities[0])\t\(amount(150))", "\(found)")

        let shot = try harness.screenshot("data-csv-table", window: window) { $0.darkPixels > 500 }
        #expect(shot.darkPixels > 500, "the table is painted")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// The column view starts with a screen's worth of rows and takes the rest of the worker's
    /// window once that screen is drawn: wheeled to the bottom, the last of 300 rows is there.
    @Test func theRowsPastTheFirstScreenAreAddedOnceItIsDrawn() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("table.csv")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^table\\.csv$"), "\(viewer.errorOutput)")
        let tree = bed.waitForAccessible(timeout: 240, readTimeout: 120) { !Self.rows($0, prefix: "Item ").isEmpty }
        #expect(Self.rows(tree, prefix: "Item ").first == "Item 001")
        let list = try #require(tree.first { $0.name == "Table rows" && $0.role != "label" }?.extents)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, String(list.x + list.width / 2), String(list.y + list.height / 2),
                 "click", "--repeat", "300", "--delay", "2", "5"])
        // The list view recycles its rows' widgets: AT-SPI lists them in no screen order (under
        // load "Item 199", "Item 300", "Item 254" came last), so the last row is looked for
        // anywhere; without the rest added, the model stops at row 64.
        let bottom = bed.waitForAccessible(timeout: 240, readTimeout: 120) { Self.rows($0, prefix: "Item ").contains("Item 300") }
        #expect(Self.rows(bottom, prefix: "Item ").contains("Item 300"), "\(Self.rows(bottom, prefix: "Item ").suffix(3))")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    /// A table larger than the window of rows the worker sends (2 MiB): End asks for the window
    /// that ends with the last row, Home for the first; scrolling to the top of a later window
    /// asks for the rows before it.
    @Test func rowsBeyondTheLoadedWindowAreFetched() throws {
        let bed = harness.bed
        let file = harness.directory.file("large.csv")
        var text = "label,city,amount\n"
        for n in 1...100_000 { text += "row \(n),City \(n % 7),\(n * 3)\n" }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let viewer = try harness.look([file])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^large\\.csv$"), "\(viewer.errorOutput)")
        func status(_ tree: [WindowTestBed.Accessible]) -> String { tree.first { $0.name.hasPrefix("Rows ") }?.name ?? "" }
        var tree = bed.waitForAccessible(timeout: 30) { status($0).hasPrefix("Rows 1–") && status($0).contains("100,000 rows") }
        #expect(Self.rows(tree, prefix: "row ").first == "row 1", "\(status(tree))")
        #expect(!status(tree).hasPrefix("Rows 1–100,000"), "the window holds part of the rows: \(status(tree))")
        bed.key("End")
        tree = bed.waitForAccessible(timeout: 30) { status($0).hasSuffix("100,000 of 100,000 rows · click a header to sort · Ctrl+C copies the selected rows") && Self.rows($0, prefix: "row ").last == "row 100000" }
        #expect(Self.rows(tree, prefix: "row ").last == "row 100000", "\(status(tree)): \(Self.rows(tree, prefix: "row ").suffix(3))")
        let later = status(tree)
        #expect(!later.hasPrefix("Rows 1–"), "\(later)")
        // The top of this window: a click at the top of the scroll bar's trough; the rows
        // before it are asked for.
        let list = try #require(tree.first { $0.name == "Table rows" && $0.role != "label" }?.extents)
        // The scroll bar's slider (at the bottom after End) dragged to the top.
        let x = String(list.x + list.width - 6)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, x, String(list.y + list.height - 60)])
        usleep(400_000)
        _ = try? harness.screenshot("data-csv-scrollbar", window: window)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, x, String(list.y + list.height - 6), "mousedown", "1"])
        for y in stride(from: list.y + list.height - 40, through: list.y - 40, by: -80) {
            bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, x, String(y)])
        }
        bed.run(["/usr/bin/xdotool", "mouseup", "1"])
        tree = bed.waitForAccessible(timeout: 30) { status($0) != later && status($0).hasPrefix("Rows ") }
        func firstRow(_ status: String) -> Int? {
            Int(status.dropFirst("Rows ".count).prefix { $0 != "–" }.filter(\.isNumber))
        }
        #expect((firstRow(status(tree)) ?? .max) < (firstRow(later) ?? 0), "rows before the window were fetched: \(status(tree)) after \(later)")
        bed.key("Home")
        tree = bed.waitForAccessible(timeout: 30) { Self.rows($0, prefix: "row ").first == "row 1" && status($0).hasPrefix("Rows 1–") }
        #expect(Self.rows(tree, prefix: "row ").first == "row 1", "\(status(tree))")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aJSONDocumentIsATreeWhoseNodesExpandAndWhosePathCopies() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("data/sample.json")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^sample\\.json$"), "\(viewer.errorOutput)")
        let items = "\"items\": [ … ]  5 items", child = "{ … }  4 keys"
        var tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == items } }
        // The top level is open: its keys are rows; the items' objects are not shown yet.
        #expect(tree.contains { $0.role == "label" && $0.name == "\"name\": \"Quire\"" }, "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(!tree.contains { $0.role == "label" && $0.name == child })
        #expect(tree.contains { $0.role == "push button" && $0.name == "Copy Path" })
        #expect(tree.contains { $0.name == "JSON tree" })
        let row = try #require(tree.first { $0.role == "label" && $0.name == items }?.extents)
        bed.click(window: window, x: row.x + 20, y: row.y + row.height / 2)
        tree = bed.waitForAccessible { Self.selectedPath($0) == ".items" }
        #expect(Self.selectedPath(tree) == ".items", "the click selects the node")
        bed.key("Return")
        tree = bed.waitForAccessible { $0.filter { $0.role == "label" && $0.name == child }.count == 5 }
        #expect(tree.filter { $0.role == "label" && $0.name == child }.count == 5, "\(tree.filter { $0.role == "label" }.map(\.name))")
        #expect(harness.copied { bed.key("ctrl+c") } == ".items")
        // The first item: Down, Right opens it, its keys show; its path copies.
        bed.key("Down")
        _ = bed.waitForAccessible { Self.selectedPath($0) == ".items[0]" }
        bed.key("Right")
        tree = bed.waitForAccessible { $0.contains { $0.role == "label" && $0.name == "\"name\": \"item 0\"" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "\"name\": \"item 0\"" })
        #expect(harness.copied { bed.key("ctrl+c") } == ".items[0]")
        // The context menu: a right click selects the node under the pointer; Copy Path copies it.
        let odd = try #require(tree.first { $0.role == "label" && $0.name.hasPrefix("\"odd key\": {") }?.extents)
        bed.run(["/usr/bin/xdotool", "mousemove", "--window", window, String(odd.x + 30), String(odd.y + odd.height / 2), "click", "3"])
        _ = bed.waitForAccessible { Self.selectedPath($0) == "[\"odd key\"]" }
        let menu = bed.waitForAccessible { $0.contains { $0.name == "Copy Path" && $0.role == "menu item" && $0.states.contains("focused") } }
        #expect(menu.contains { $0.name == "Expand All Below" && $0.role == "menu item" }, "\(menu.filter { $0.role == "menu item" })")
        #expect(harness.copied { bed.key("Return") } == "[\"odd key\"]")
        // Find opens the nodes holding the match and selects it.
        bed.key("ctrl+f")
        _ = bed.waitForAccessible { $0.contains { $0.name == "Find in Document" && $0.states.contains("focused") } }
        bed.type("item 3")
        // The row is selected first and drawn (and so seen by AT-SPI) a frame later: wait for both.
        let found = "\"name\": \"item 3\""
        tree = bed.waitForAccessible { Self.selectedPath($0) == ".items[3].name" && $0.contains { $0.role == "label" && $0.name == found } }
        #expect(Self.selectedPath(tree) == ".items[3].name", "\(Self.selectedPath(tree) ?? "none")")
        #expect(tree.contains { $0.role == "label" && $0.name == found }, "\(tree.filter { $0.role == "label" }.map(\.name))")
        bed.key("Escape")
        let shot = try harness.screenshot("data-json-tree", window: window) { $0.darkPixels > 300 }
        #expect(shot.darkPixels > 300, "the tree is painted")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func anSQLiteDatabaseListsItsTablesAndShowsTheChosenOnesRows() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("data/shop.sqlite")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^shop\\.sqlite$"), "\(viewer.errorOutput)")
        var tree = bed.waitForAccessible { tree in ["customers", "orders"].allSatisfy { name in tree.contains { $0.role == "list item" && $0.name == name } } }
        #expect(tree.contains { $0.role == "list item" && $0.name == "customers" && $0.detail == "table · 250 rows" },
                "\(tree.filter { $0.role == "list item" }.map { "\($0.name): \($0.detail)" })")
        #expect(bed.select("customers"))
        // The rows and their header (a loaded machine read the tree once between the two). A
        // table's tree takes long to read through AT-SPI on a loaded machine: a fresh run once
        // had every read of it past the default 30 s, and so nothing read at all.
        tree = bed.waitForAccessible(timeout: 240, readTimeout: 120) { tree in
            tree.contains { $0.role == "label" && $0.name == "Customer 001" } && Self.header(tree, "name") != nil
        }
        #expect(tree.contains { $0.role == "label" && $0.name == "Customer 001" }, "\(tree.count) objects read")
        #expect(Self.header(tree, "name") != nil, "\(tree.filter { $0.detail.contains("ort") }.map(\.name))")
        #expect(bed.select("orders"))
        tree = bed.waitForAccessible(timeout: 240, readTimeout: 120) { tree in
            tree.contains { $0.role == "label" && $0.name == "item-1" && $0.states.contains("visible") } && Self.header(tree, "quantity") != nil
        }
        #expect(Self.rows(tree, prefix: "item-", list: "Rows of orders").first == "item-1",
                "\(Self.rows(tree, prefix: "item-", list: "Rows of orders").prefix(5))")
        #expect(Self.header(tree, "quantity") != nil)
        #expect(!tree.contains { $0.role == "label" && $0.name == "Customer 001" }, "the customers' rows are gone")
        // A click on a header sorts the rows shown (quantity: 1 first).
        let quantity = try #require(Self.header(tree, "quantity")?.extents)
        bed.click(window: window, x: quantity.x + quantity.width / 2, y: quantity.y + quantity.height / 2)
        tree = bed.waitForAccessible(timeout: 240, readTimeout: 120) { Self.header($0, "quantity")?.detail == "Sorted ascending; click to reverse" }
        #expect(Self.header(tree, "quantity")?.detail == "Sorted ascending; click to reverse")
        // Orders n = 1…500 are shown, quantity n mod 9 + 1: order 9 is the first with 1.
        #expect(Self.rows(tree, prefix: "item-", list: "Rows of orders").first == "item-9",
                "\(Self.rows(tree, prefix: "item-", list: "Rows of orders").prefix(5))")
        let shot = try harness.screenshot("data-sqlite", window: window) { $0.darkPixels > 500 }
        #expect(shot.darkPixels > 500, "the tables and rows are painted")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func markdownIsRenderedWithALargerHeadingAndNotShownAsSource() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("data/readme.md")])
        defer { viewer.stop() }
        let window = try #require(bed.waitForWindow(named: "^readme\\.md$"), "\(viewer.errorOutput)")
        let tree = bed.waitForAccessible { $0.contains { $0.role == "text" && $0.name == "Rendered Markdown" && $0.states.contains("focused") } }
        let view = try #require(tree.first { $0.role == "text" && $0.name == "Rendered Markdown" })
        #expect(view.detail.contains("heading 1: Quire Notes"), "\(view.detail)")
        // Drawn: the heading's line of ink is much taller than a line of body text, and code
        // stands on a grey ground.
        let extents = try #require(view.extents)
        let shot = try harness.screenshot("data-markdown", window: window) { $0.darkPixels > 500 }
        let ink = { (r: UInt8, g: UInt8, b: UInt8) in r < 110 && g < 110 && b < 110 }
        let bands = shot.bands(in: extents, ink).filter { $0.count >= 4 }
        let heights = bands.map(\.count).sorted()
        #expect(bands.count >= 5, "\(bands)")
        let median = heights.isEmpty ? 0 : heights[heights.count / 2]
        #expect((bands.first?.count ?? 0) * 2 >= median * 3, "heading \(bands.first?.count ?? 0) px against text \(median) px: \(bands)")
        let grey = shot.count(in: extents) { r, g, b in r == g && g == b && (222...242).contains(r) }
        #expect(grey > 2_000, "code on a grey ground: \(grey) px")
        // The Swift block coloured by its language: "let" in red (nothing else on the page is red).
        let red = shot.count(in: extents) { r, g, b in r > 150 && g < 80 && b < 80 }
        #expect(red > 15, "a keyword in red: \(red) px")
        // Find marks its matches in the rendered text (the current one orange).
        bed.key("ctrl+f")
        _ = bed.waitForAccessible { $0.contains { $0.name == "Find in Document" && $0.states.contains("focused") } }
        bed.type("quoted")
        let found = try harness.screenshot("data-markdown-find", window: window) { shot in
            shot.count(in: extents) { r, g, b in r > 230 && (150...180).contains(g) && b < 60 } > 50
        }
        #expect(found.count(in: extents) { r, g, b in r > 230 && (150...180).contains(g) && b < 60 } > 50, "the match is marked")
        bed.key("Escape")
        _ = bed.waitForAccessible { $0.contains { $0.role == "text" && $0.name == "Rendered Markdown" && $0.states.contains("focused") } }
        // Selectable and copyable; the text is the rendered one, not the source.
        bed.key("ctrl+a")
        let text = harness.copied { bed.key("ctrl+c") }
        #expect(text.hasPrefix("Quire Notes\n"), "\(text.prefix(200))")
        #expect(!text.contains("# Quire") && !text.contains("**notes**") && !text.contains("`inline code`"), "\(text.prefix(300))")
        #expect(text.contains("• first item"))
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }

    @Test func aNotebooksCellsAreRenderedNotShownAsJSON() throws {
        let bed = harness.bed
        let viewer = try harness.look([Samples.path("data/analysis.ipynb")])
        defer { viewer.stop() }
        #expect(bed.waitForWindow(named: "^analysis\\.ipynb$") != nil, "\(viewer.errorOutput)")
        let tree = bed.waitForAccessible { $0.contains { $0.role == "text" && $0.name == "Rendered Markdown" && $0.states.contains("focused") } }
        let view = try #require(tree.first { $0.role == "text" && $0.name == "Rendered Markdown" })
        #expect(view.detail.contains("heading 1: Analysis") && view.detail.contains("1 picture"), "\(view.detail)")
        // The PNG output (red over blue, 64×48) is shown as a picture, decoded by the worker.
        let extents = try #require(view.extents)
        let isRed = { (r: UInt8, g: UInt8, b: UInt8) in r > 200 && g < 50 && b < 50 }
        let isBlue = { (r: UInt8, g: UInt8, b: UInt8) in r < 50 && g < 50 && b > 200 }
        let shot = try harness.screenshot("data-notebook", window: try #require(bed.waitForWindow(named: "^analysis\\.ipynb$"))) {
            $0.count(in: extents, isRed) > 500
        }
        #expect(shot.count(in: extents, isRed) > 500 && shot.count(in: extents, isBlue) > 500,
                "red \(shot.count(in: extents, isRed)), blue \(shot.count(in: extents, isBlue))")
        bed.key("ctrl+a")
        let text = harness.copied { bed.key("ctrl+c") }
        #expect(text.hasPrefix("Analysis\n"), "\(text.prefix(200))")
        #expect(text.contains("In [1]:") && text.contains("total = sum(range(10))") && text.contains("45"), "\(text.prefix(400))")
        #expect(!text.contains("\"cell_type\"") && !text.contains("# Analysis"), "\(text.prefix(400))")
        bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
