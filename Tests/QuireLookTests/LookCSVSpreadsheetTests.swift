import Foundation
import QuireTestSupport
import Testing

/// `quire look --csv-as-spreadsheet`: the window shows a CSV file as Calc's printed pages.
@Suite("CSV as a spreadsheet in the window", .serialized)
struct LookCSVSpreadsheetTests {
    @Test func aCSVFileIsPagedAsCalcPrintsIt() throws {
        let scratch = TemporaryDirectory()
        let pdf = scratch.file("sheet.pdf")
        let made = QuireBinary.run(["preview", "--csv-as-spreadsheet", Samples.path("table.csv"), "--format", "pdf", "-o", pdf], timeout: 120)
        try #require(made.status == 0, "\(made.standardError)")
        let pages = CUPSTestBed.pageCount(ofPDF: pdf) ?? 0
        try #require(pages > 1)

        let harness = try LookHarness("quire-look-csv")
        let viewer = try harness.look(["--csv-as-spreadsheet", Samples.path("table.csv")])
        defer { viewer.stop() }
        let window = harness.bed.waitForWindow(named: "^table\\.csv$")
        #expect(window != nil, "\(viewer.errorOutput)")
        var tree = harness.bed.waitForAccessible(timeout: 60) { tree in
            tree.contains { $0.role == "label" && $0.name == "page 1 of \(pages)" }
        }
        #expect(tree.contains { $0.role == "label" && $0.name == "page 1 of \(pages)" })
        let page = try harness.screenshot("csv-sheet", window: window, timeout: 60) { $0.darkPixels > 500 }
        #expect(page.darkPixels > 500 && page.whitePixels > 50_000, "cells on white paper")
        try page.keep(at: "QUIRE_CSV_SCREENSHOT")
        harness.bed.key("Next")
        tree = harness.bed.waitForAccessible(timeout: 30) { tree in tree.contains { $0.role == "label" && $0.name == "page 2 of \(pages)" } }
        #expect(tree.contains { $0.role == "label" && $0.name == "page 2 of \(pages)" })
        harness.bed.key("Escape")
        #expect(viewer.waitForExit(timeout: 20))
    }
}
