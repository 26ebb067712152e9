import Foundation
import QuireTestSupport
import Quire
import QuireViewer
import QuireRenderService
import Testing

/// CSV shown as a table of characters in the viewers: the worker reads it with the table engine
/// and hands over the header, a rule and the rows, numbers right-aligned, cells padded to
/// their column.
@Suite("Table text")
struct TableTextTests {
    @Test func numbersSortAsNumbersAndEmptyCellsLast() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("sort.csv")
        try "n,word\n10,b\n9,\n,a\n100,c\n".write(toFile: path, atomically: true, encoding: .utf8)
        let table = try DelimitedTable(file: try InputFile(path: DocumentPath(path)))
        let rows = table.rows(0..<10)
        #expect(TableText.sorted(rows, by: 0, in: table, descending: false).map { $0[0] } == ["9", "10", "100", ""])
        #expect(TableText.sorted(rows, by: 0, in: table, descending: true).map { $0[0] } == ["100", "10", "9", ""])
        #expect(TableText.sorted(rows, by: 1, in: table, descending: false).map { $0[1] } == ["a", "b", "c", ""])
    }

    /// The whole file sorted in the worker's way (``TableSortOrder``): numbers as numbers, text
    /// by all its characters (rows whose first seven bytes agree are read again), empty cells
    /// last either way, equal cells in file order; the progress rises to 1; a sort told to stop
    /// gives no order; ``TableSorting`` does it on a thread and hands the order over.
    @Test func theWholeFileSortsByAColumnsTypedKey() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("whole.csv")
        var text = "n,word,id\n"
        // Words that agree in their first fifteen bytes are told apart by the rest.
        let words = ["prefixed-b", "prefixed-a", "", "short", "prefixed-words-zz", "prefixed-ab", "Zed", "prefixed-a", "prefixed-words-aa", "\"quoted, prefixed-words-ab\""]
        for row in 0..<3000 {
            let number = row % 7 == 3 ? "" : String((row * 7919) % 3001 - 1500) + (row % 2 == 0 ? ".5" : "")
            text += "\(number),\(words[row % words.count]),\(row)\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let table = try DelimitedTable(file: try InputFile(path: DocumentPath(path)))
        let all = table.rows(0..<3000)
        var shares: [Double] = []
        let byNumber = try #require(TableSortOrder(table: table, column: 0, descending: false) { shares.append($0); return true })
        #expect(byNumber.count == 3000 && shares.first == 0 && shares.last == 1 && shares == shares.sorted(), "\(shares)")
        let numbers = byNumber.rows(0..<3000).map(\.[0])
        let expected = all.map(\.[0]).filter { !$0.isEmpty }.sorted { Double($0)! < Double($1)! }
        #expect(Array(numbers.prefix(expected.count)) == expected, "numbers as numbers")
        #expect(numbers.suffix(3000 - expected.count).allSatisfy { $0.isEmpty }, "empty cells last")
        let descending = try #require(TableSortOrder(table: table, column: 0, descending: true))
        #expect(Array(descending.rows(0..<expected.count).map(\.[0])) == expected.reversed())
        #expect(descending.rows(expected.count..<3000).allSatisfy { $0[0].isEmpty }, "empty cells last the other way too")
        let byWord = try #require(TableSortOrder(table: table, column: 1, descending: false))
        let sortedWords = byWord.rows(0..<3000)
        let nonEmpty = all.filter { !$0[1].isEmpty }
        #expect(sortedWords.prefix(nonEmpty.count).map(\.[1]) == nonEmpty.map(\.[1]).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        // Equal cells keep the file's order (their ids rise).
        let equal = sortedWords.filter { $0[1] == "prefixed-a" }.map { Int($0[2])! }
        #expect(equal == equal.sorted() && equal.count > 100)
        #expect(Array(Set(sortedWords.prefix(nonEmpty.count).map(\.[1]))).count == 8)
        #expect(byWord.rowRange(from: 2990, byteLimit: 1 << 20) == 2990..<3000)
        #expect(byWord.lastWindowStart(byteLimit: 40) > 2990 && byWord.lastWindowStart(byteLimit: 1 << 20) == 0)
        #expect(TableSortOrder(table: table, column: 1, descending: false) { $0 < 0.5 } == nil, "stopped: no order")
        let sorting = TableSorting(table: table, column: 0, descending: true)
        let handed = try #require(sorting.wait(seconds: 60))
        #expect(handed.rows(0..<1) == descending.rows(0..<1) && sorting.progress == 1)
    }

    /// 300,000 rows: the worker answers while it sorts with how far it is ("sorting by score…
    /// 40 %" in the status), then the rows sorted from the smallest score (the file's last row).
    /// The worker answers at once instead of after its quarter of a second (a test hook): the
    /// release build sorts these rows within it.
    @Test func aLargeSortSaysHowFarItIs() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("large.csv")
        var text = "id,score\n"
        for n in 1...300_000 { text += "\(n),\(n * 7919 % 300_000)\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["QUIRE_TEST_WORKER_SORT_ANSWER_SECONDS"] = "0"
        let model = ViewerModel(paths: [DocumentPath(path)],
                                configuration: .init(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil,
                                                     worker: WorkerCommand(executable: QuireBinary.path, environment: environment)))
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil)
        #expect(model.sortTable(column: 1) == nil)
        var said: [String] = []
        let deadline = Date().addingTimeInterval(120)
        while !model.positionText.contains("sorted by"), Date() < deadline {
            _ = model.update()
            if said.last != model.positionText { said.append(model.positionText) }
            usleep(2_000)
        }
        #expect(said.contains { $0.hasPrefix("sorting by score… ") && $0.hasSuffix(" %") }, "\(said)")
        #expect(model.positionText.hasSuffix("sorted by score ↑"), "\(model.positionText)")
        guard case .text(let sorted) = model.content else { Issue.record("\(model.content)"); return }
        #expect(sorted.lines.first?.hasPrefix("300000 │ ") == true && sorted.lines.first?.hasSuffix(" 0") == true, "\(sorted.lines.prefix(2))")
    }

    /// The worker's find past the window (``TableRowSearch``): ASCII rows read in their bytes,
    /// others decoded and folded, so "resume" finds "RESUME", "Résumé" and a quoted cell alike;
    /// rows are numbered in the order asked (sorted: the sorted positions); the limit and the
    /// end of the table stop it.
    @Test func rowsHoldingAWordAreFoundInTheOrderShown() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("find.csv")
        try "n,text\n5,plain\n4,RESUME here\n3,Résumé\n2,\"quoted, resume\"\n1,a,b\n".write(toFile: path, atomically: true, encoding: .utf8)
        let table = try DelimitedTable(file: try InputFile(path: DocumentPath(path)))
        let far = DelimitedTable.now() + 60
        let search = TableRowSearch(table: table, order: nil, query: "Resume")
        #expect(search.rows(in: 0..<100, limit: 10, deadline: far).matches == [1, 2, 3])
        #expect(search.rows(in: 0..<100, limit: 1, deadline: far) == ([1], 2), "stops at the limit, goes on after it")
        #expect(search.rows(in: 2..<100, limit: 10, deadline: far).next == 100, "the table ends: the run is done")
        let sorted = try #require(TableSortOrder(table: table, column: 0, descending: false))
        #expect(TableRowSearch(table: table, order: sorted, query: "resume").rows(in: 0..<5, limit: 10, deadline: far).matches == [1, 2, 3])
        #expect(TableRowSearch(table: table, order: sorted, query: "plain").rows(in: 0..<5, limit: 10, deadline: far).matches == [4])
        // Found once in file order, then matched in the sorted order by where rows start.
        let inOrder = TableRowSearch(table: table, order: sorted, query: "résumé")
        let starts = try #require(inOrder.matchingRecords(limit: 10))
        #expect(starts.count == 3 && inOrder.rows(in: 0..<5, among: starts, limit: 10) == ([1, 2, 3], 5))
        #expect(inOrder.rows(in: 2..<5, among: starts, limit: 1) == ([2], 3))
        #expect(TableRowSearch(table: table, order: sorted, query: "e").matchingRecords(limit: 2) == nil, "too many to keep")
        #expect(TableRowSearch(table: table, order: nil, query: "1,a").rows(in: 0..<5, limit: 10, deadline: far).matches.isEmpty,
                "a word with the separator is not found across cells")
    }

    /// `N` on the first match of a window goes back past it (the worker reads the rows before
    /// the window going up) and, from the first window, round from the last row; `n` forward.
    @Test func previousGoesBackPastTheWindowAndRound() throws {
        let directory = TemporaryDirectory("quire-csv-back")
        let path = directory.file("scores.csv")
        var text = "score,name,note\n"
        for n in 1...100_000 {
            let note = n == 90_000 ? "a zebrafish swims here" : n == 10 ? "a goldfish swims here" : "padding padding padding padding padding pad"
            text += "\(n * 7919 % 100_000),Person \(n),\(note)\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: RealWorkerConfiguration.make())
        defer { model.close() }
        model.waitUntilOpened()
        /// The current match's line as shown, once the model has settled on it.
        func matchLine(_ step: String, _ wanted: String) -> String {
            let deadline = Date().addingTimeInterval(60)
            var line = ""
            while Date() < deadline {
                _ = model.update()
                if case .text(let content) = model.content, !model.find.isSearching, let match = model.find.currentMatch,
                   content.lines.indices.contains(match.page) {
                    line = content.lines[match.page]
                    if line.contains(wanted) { break }
                }
                usleep(5_000)
            }
            #expect(line.contains(wanted), "\(step): \(model.findText) at \(model.positionText): \(line)")
            return line
        }
        model.find("swims")
        _ = matchLine("find", "goldfish")
        model.findNext()
        _ = matchLine("n past the window", "zebrafish")
        model.findPrevious()
        _ = matchLine("N back past the window", "goldfish")
        #expect(model.positionText.hasPrefix("row 1") || model.positionText.hasPrefix("row "), "\(model.positionText)")
        model.findPrevious()
        _ = matchLine("N round from the last row", "zebrafish")
    }

    @Test func cellsArePaddedCutAndMadeSafe() {
        #expect(TableText.cell("ab", width: 4, right: false) == "ab  ")
        #expect(TableText.cell("7", width: 4, right: true) == "   7")
        #expect(TableText.cell("abcdef", width: 4, right: false) == "abc…")
        #expect(TableText.cell("a\nb\u{1B}[2J", width: 8, right: false) == "a↵b␛[2J ")
    }

    @Test func theViewerShowsACSVFileAsATable() throws {
        let directory = TemporaryDirectory("quire-csv")
        let path = directory.file("table.csv")
        try "id,name\n1,Ann\n22,\"Bo, Jr\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let model = ViewerModel(paths: [DocumentPath(path)],
                                configuration: .init(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil,
                                                     worker: WorkerCommand(executable: QuireBinary.path)))
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil, "the worker read the file")
        guard case .text(let text) = model.content else {
            Issue.record("CSV is shown as text, got \(model.content)")
            return
        }
        #expect(text.table?.header == ["id │ name  ", "───┼───────"])
        #expect(text.lines == [" 1 │ Ann   ", "22 │ Bo, Jr"])
        #expect(text.table?.columnStarts == [0, 5])
        #expect(model.positionText == "row 1 of 2 rows")
        // Sorted in the worker: by name, then by name the other way.
        #expect(model.sortTable(column: 1) == nil)
        #expect(model.positionText == "sorting by name…")
        #expect(model.waitUntilOpened() == nil)
        guard case .text(let ascending) = model.content else { Issue.record("\(model.content)"); return }
        #expect(ascending.lines == [" 1 │ Ann   ", "22 │ Bo, Jr"])
        #expect(model.sortTable(column: 1) == nil)
        #expect(model.waitUntilOpened() == nil)
        guard case .text(let descending) = model.content else { Issue.record("\(model.content)"); return }
        #expect(descending.lines == ["22 │ Bo, Jr", " 1 │ Ann   "])
        #expect(model.positionText == "row 1 of 2 rows, sorted by name ↓")
        // Find searches the rows as shown: Ann is the second line once sorted the other way.
        #expect(model.find("Ann") == nil)
        let deadline = Date().addingTimeInterval(30)
        repeat {
            _ = model.update()
            usleep(2_000)
        } while model.find.isSearching && Date() < deadline
        #expect(model.find.matches.map(\.page) == [1], "\(model.find.matches)")
        #expect(model.card?.mimeType == "text/csv")
    }
}
