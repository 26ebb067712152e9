import Foundation
import QuireTestSupport
import Quire
import QuireRenderService
import QuireViewer
import Testing

/// Find, through the one viewer model and the real render worker (poppler's text for PDFs, the
/// worker's lines for text): literal, case- and accent-insensitive matches with boxes, in
/// document order, bounded, cancelled by a new query, never holding up pages.
@Suite("Find in the document")
final class FindTests {
    let directory = TemporaryDirectory("quire-find")

    func model(_ name: String) -> ViewerModel {
        model(path: Samples.path(name))
    }

    func model(path: String) -> ViewerModel {
        let configuration = ViewerModel.Configuration(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil,
                                                      worker: WorkerCommand(executable: QuireBinary.path), renderTimeout: 30)
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: configuration)
        model.waitUntilOpened()
        return model
    }

    /// Takes updates until the search is over (at most `timeout` seconds); all the updates.
    @discardableResult
    func finish(_ model: ViewerModel, timeout: Double = 30) -> [ViewerModel.Update] {
        var all: [ViewerModel.Update] = []
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            all += model.update()
            usleep(2_000)
        } while model.find.isSearching && Date() < deadline
        all += model.update()
        return all
    }

    @Test func caseAndAccentsAreIgnoredAndBoxesSitOnTheWord() throws {
        let model = model("find-cases.pdf")
        defer { model.close() }
        #expect(model.find("café") == nil)
        #expect(model.find.isSearching)
        finish(model)
        #expect(model.find.matches.map(\.page) == [0, 2], "Café on page 1, CAFE on page 3")
        #expect(model.findText == "1 of 2")
        let first = try #require(model.find.currentMatch)
        let box = try #require(first.boxes.first)
        let size = try #require(model.pageSize(0))
        // "Café résumé naïve" is the first line: 72 pt from the left, near the top.
        #expect(abs(box.x - 72) < 2 && box.y > 40 && box.y < 90, "\(box)")
        #expect(box.width > 15 && box.width < 40 && box.height > 5 && box.height < 20, "\(box)")
        #expect(box.maxX < size.width && box.maxY < size.height)
        #expect(model.find.matches(onPage: 2).count == 1 && model.find.matches(onPage: 1).isEmpty)
        // Accents in the query are ignored too.
        model.find("RESUME")
        finish(model)
        #expect(model.find.matches.map(\.page) == [0])
    }

    @Test func regexCharactersAreText() {
        let model = model("find-cases.pdf")
        defer { model.close() }
        model.find("a.b*c (x+y) [z]?")
        finish(model)
        #expect(model.find.matches.map(\.page) == [0])
        model.find("a.c")
        finish(model)
        #expect(model.find.matches.isEmpty)
        #expect(model.findText == "No matches")
        model.find(".*")
        finish(model)
        #expect(model.find.matches.isEmpty, "not a pattern matching everything")
    }

    @Test func aPageWithoutTextSaysItIsAnImage() {
        let model = model("find-cases.pdf")
        defer { model.close() }
        model.find("fox")
        finish(model)
        #expect(model.find.matches.map(\.page) == [2, 2], "fox twice on page 3")
        #expect(model.page == 2, "the view went to the first match")
        #expect(model.findText == "1 of 2")
        #expect(model.find.textlessPages == [1])
        #expect(model.goTo(2) == nil)
        #expect(model.findText == "1 of 2 — no text on this page — it is an image")
        #expect(model.findNext() && model.find.current == 1 && model.page == 2)
        #expect(model.findNext() && model.find.current == 0, "round the document")
        #expect(model.findPrevious() && model.find.current == 1)
    }

    @Test func theSearchStartsAtThePageInViewAndWrapsInDocumentOrder() {
        let model = model("find-1000.pdf")
        defer { model.close() }
        #expect(model.goTo(500) == nil)
        model.find("of page 7")
        finish(model)
        // Pages 7, 70–79 and 700–799, 29 lines each ("Line 2 of page 7: …").
        #expect(model.find.matches.count == 111 * 29)
        #expect(model.find.matches.map(\.page) == model.find.matches.map(\.page).sorted(), "in document order")
        #expect(model.find.matches.first?.page == 6 && model.find.matches.last?.page == 798)
        #expect(model.find.currentMatch?.page == 699 && model.page == 699, "the first match after the page in view is current")
        #expect(model.findText == "\(11 * 29 + 1) of \(111 * 29)")
        for _ in 0..<(100 * 29 - 1) { model.findNext() }
        #expect(model.page == 798)
        #expect(model.findNext() && model.page == 6, "round the document")
    }

    @Test func aWordOnlyOnPage900IsFoundAndShown() {
        let model = model("find-1000.pdf")
        defer { model.close() }
        model.find("XYLOPHONE")
        let updates = finish(model, timeout: 60)
        #expect(model.find.matches.map(\.page) == [899])
        #expect(model.page == 899)
        #expect(updates.contains { if case .found(moved: true) = $0 { true } else { false } })
        #expect(model.find.scanned == 1000 && !model.find.isSearching)
    }

    @Test func tenThousandMatchesAreCountedAndTheListIsBounded() {
        let model = model("find-1000.pdf")
        defer { model.close() }
        model.find("line")
        finish(model, timeout: 60)
        #expect(model.find.matches.count == FindResults.maximumMatches)
        #expect(model.find.isCapped)
        #expect(model.find.scanned < 1000, "the scan stopped at the limit")
        #expect(model.findText == "1 of 10000+")
    }

    @Test func aNewQueryReplacesTheSearchInProgress() {
        let model = model("find-1000.pdf")
        defer { model.close() }
        model.find("nowhere in this document")
        usleep(100_000)
        _ = model.update()
        model.find("xylophone")
        finish(model, timeout: 60)
        #expect(model.find.query == "xylophone")
        #expect(model.find.matches.map(\.page) == [899])
        model.find("")
        #expect(!model.find.isActive && model.findText == "")
    }

    @Test func pagesAreRenderedWhileALongSearchRuns() throws {
        let model = model("find-1000.pdf")
        defer { model.close() }
        model.find("nowhere in this document")
        usleep(50_000)
        let job = try #require(model.pageJob(400, fitting: (width: 300, height: 400)))
        model.want([job])
        var page = false
        let deadline = Date().addingTimeInterval(30)
        while !page && Date() < deadline {
            for update in model.update() { if case .page(let done, _) = update, done == job { page = true } }
            usleep(2_000)
        }
        #expect(page)
        #expect(model.find.isSearching, "the page came back while the search was still scanning")
        finish(model, timeout: 60)
        #expect(model.findText == "No matches")
    }

    @Test func textShownAsTextIsSearchedByLine() throws {
        let path = directory.url.appendingPathComponent("notes.txt").path
        try "First line\nA Résumé, and a resume\n(x+y) literal\n".write(toFile: path, atomically: true, encoding: .utf8)
        let model = model(path: path)
        defer { model.close() }
        model.find("resume")
        finish(model)
        #expect(model.find.isText)
        #expect(model.find.matches.map(\.page) == [1, 1])
        #expect(model.find.matches.map(\.characters) == [2..<8, 16..<22])
        #expect(model.findText == "1 of 2")
        model.find("(x+y)")
        finish(model)
        #expect(model.find.matches.map(\.characters) == [0..<5])
    }

    @Test func combiningAndRightToLeftTextIsFoundByItsLetters() throws {
        let path = directory.url.appendingPathComponent("mixed.txt").path
        // "é" written as e + combining acute; Hebrew with a vowel point; Arabic.
        try "cafe\u{0301} au lait\nשָׁלוֹם עולם\nمرحبا بالعالم\n".write(toFile: path, atomically: true, encoding: .utf8)
        let model = model(path: path)
        defer { model.close() }
        model.find("café")
        finish(model)
        #expect(model.find.matches.map(\.page) == [0])
        #expect(model.find.matches.first?.characters == 0..<5, "the combining mark is part of the match")
        model.find("שלום")
        finish(model)
        #expect(model.find.matches.map(\.page) == [1], "vowel points ignored")
        model.find("بالعالم")
        finish(model)
        #expect(model.find.matches.map(\.page) == [2])
    }

    @Test func aPagesTextComesWithABoxPerCharacter() throws {
        let model = model("find-cases.pdf")
        defer { model.close() }
        let text = try model.waitForText(page: 0).get()
        #expect(text.copyAllowed)
        let string = text.layout.text(0..<text.layout.characters.count)
        #expect(string.hasPrefix("Café résumé naïve"), "\(string)")
        #expect(text.layout.boxes.count == text.layout.characters.count)
        #expect(abs(text.layout.boxes[0].x - 72) < 2)
        let image = try model.waitForText(page: 1).get()
        let blank = image.layout.characters.allSatisfy { $0.properties.isWhitespace }
        #expect(blank, "the drawn page has no text")
    }
}

/// Selecting text on a page and what may be copied, through the model and the real worker.
@Suite("Select and copy page text")
final class SelectionTests {
    let directory = TemporaryDirectory("quire-selection")

    func model(path: String) -> ViewerModel {
        let configuration = ViewerModel.Configuration(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil,
                                                      worker: WorkerCommand(executable: QuireBinary.path), renderTimeout: 30)
        let model = ViewerModel(paths: [DocumentPath(path)], configuration: configuration)
        model.waitUntilOpened()
        return model
    }

    @Test func dragWordLineAndAllSelectTheTextUnderThePointer() throws {
        let model = model(path: Samples.path("find-cases.pdf"))
        defer { model.close() }
        let layout = try model.waitForText(page: 0).get().layout
        // A drag from the start of "Café" to inside "résumé": the characters between.
        let start = try #require(TextSelection.character(in: layout, x: 73, y: 66))
        let first = layout.boxes[start]
        #expect(layout.characters[start] == "C", "\(first)")
        let resume = layout.boxes[6]  // the "é" of "résumé"
        let end = try #require(TextSelection.character(in: layout, x: resume.x + resume.width / 2, y: resume.y + resume.height / 2))
        model.select(page: 0, range: TextSelection.between(start, end))
        #expect(try model.selectedText.get() == "Café ré")
        // Far right of the first line: still that line (its last character).
        let beside = try #require(TextSelection.character(in: layout, x: 500, y: first.y + first.height / 2))
        #expect(TextSelection.line(in: layout, at: beside) == TextSelection.line(in: layout, at: start))
        model.select(page: 0, range: TextSelection.word(in: layout, at: end))
        #expect(try model.selectedText.get() == "résumé", "a double click selects the word")
        model.select(page: 0, range: TextSelection.line(in: layout, at: end))
        #expect(try model.selectedText.get() == "Café résumé naïve", "a triple click selects the line")
        #expect(model.selectAll(page: 0))
        #expect(try model.selectedText.get().contains("Literal a.b*c (x+y) [z]? here"))
        model.clearSelection()
        #expect(throws: RenderProblem.self) { try model.selectedText.get() }
    }

    @Test func aPageWithoutTextAndADocumentThatForbidsCopyingSaySo() throws {
        let model = model(path: Samples.path("find-cases.pdf"))
        defer { model.close() }
        _ = model.waitForText(page: 1)
        #expect(throws: RenderProblem.self) { try model.copyableText(page: 1).get() }
        if case .failure(let problem) = model.copyableText(page: 1) {
            #expect(problem.message == "no text on this page — it is an image")
        }
        _ = model.waitForText(page: 2)
        #expect(try model.copyableText(page: 2).get().hasPrefix("CAFE in capitals"))

        let locked = directory.file("no-copy.pdf")
        let qpdf = ProcessRunner.run(["/usr/bin/qpdf", "--encrypt", "", "owner-secret", "256", "--extract=n", "--",
                                      Samples.path("find-cases.pdf"), locked], timeout: 30)
        #expect(qpdf.status == 0, "\(qpdf.standardError)")
        let protected = self.model(path: locked)
        defer { protected.close() }
        let text = try protected.waitForText(page: 0).get()
        #expect(!text.copyAllowed)
        guard case .failure(let problem) = protected.copyableText(page: 0) else {
            Issue.record("the text of a document that forbids copying was given out")
            return
        }
        #expect(problem.message == "the document's permissions do not allow copying its text")
        // Find still works there (reading is allowed; copying out is not).
        protected.find("fox")
        let deadline = Date().addingTimeInterval(30)
        while protected.find.isSearching && Date() < deadline { _ = protected.update(); usleep(2_000) }
        _ = protected.update()
        #expect(protected.find.matches.count == 2)
    }
}
