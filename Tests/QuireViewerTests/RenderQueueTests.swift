import Foundation
import QuireTestSupport
import Quire
import QuireRenderService
import QuireViewer
import Testing

/// The viewers' render thread and the render service behind it, with real worker processes:
/// files opened and pages rendered off the caller's thread, only the newest wish list honoured,
/// problems delivered instead of crashes, and a worker that crashes, hangs or is killed costing
/// one file or page, never the viewer.
@Suite("Render queue and worker")
final class RenderQueueTests {
    let directory = TemporaryDirectory("quire-render-queue")

    /// This build's quire as the worker, with `environment` added (its test hooks).
    func configuration(_ environment: [String: String] = [:], timeout: Double = 30) -> ViewerModel.Configuration {
        var worker = WorkerCommand(executable: QuireBinary.path)
        worker.environment.merge(environment) { _, new in new }
        return ViewerModel.Configuration(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil,
                                         worker: worker, renderTimeout: timeout)
    }

    /// The model's updates until `done` says enough (at most 30 s), as a front-end takes them.
    func updates(_ model: ViewerModel, timeout: Double = 30, until done: ([ViewerModel.Update]) -> Bool) -> [ViewerModel.Update] {
        var all: [ViewerModel.Update] = []
        let deadline = Date().addingTimeInterval(timeout)
        while !done(all) && Date() < deadline {
            all += model.update()
            usleep(2_000)
        }
        return all
    }

    static func pages(_ updates: [ViewerModel.Update]) -> [(PageRenderJob, Result<PagePixels, RenderProblem>)] {
        updates.compactMap { if case .page(let job, let result) = $0 { (job, result) } else { nil } }
    }

    @Test func aFileOpensInTheWorkerAndPagesComeBackInTheOrderWanted() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration())
        defer { model.close() }
        #expect(model.content == .opening || model.content == .pages(count: 1000), "nothing blocks: opening, or already open")
        let opened = updates(model) { $0.contains { if case .opened = $0 { true } else { false } } }
        #expect(opened.contains { if case .opened(file: 0) = $0 { true } else { false } })
        #expect(model.content == .pages(count: 1000))
        #expect(model.card?.pages == 1000 && model.card?.kind == "PDF document")
        let jobs = try [0, 999, 1].map { try #require(model.pageJob($0, fitting: (width: 300, height: 300))) }
        #expect(jobs[0].height == 300 && jobs[0].width < 300, "A4 fits the box by height")
        model.want(jobs)
        let received = Self.pages(updates(model) { Self.pages($0).count >= 3 })
        #expect(received.map(\.0.page) == [0, 999, 1], "most wanted first")
        var images: [RenderedImage] = []
        for (job, result) in received {
            let image = try result.get().image
            #expect(image.width == job.width && image.height == job.height, "rendered at the laid-out size")
            images.append(image)
        }
        for image in images {
            var red = 0
            for offset in stride(from: 0, to: image.pixels.count, by: 4)
            where image.pixels[offset] > 200 && image.pixels[offset + 1] < 60 && image.pixels[offset + 2] < 60 { red += 1 }
            #expect(red > 500, "a painted page, not a blank one")
        }
        #expect(images[0].pixels != images[1].pixels)
    }

    /// With ``ViewerModel/Configuration/pageOneAheadBox``, page 1 of an image smaller than the
    /// box comes without being asked for, right after the file opened, at the size the view
    /// then asks for (its own request finds it delivered: it is not rendered twice); a PDF,
    /// whose size follows the view, and a model without the box get nothing unasked.
    @Test func pageOneOfASmallImageIsRenderedBeforeItIsAskedFor() throws {
        var ahead = configuration()
        ahead.pageOneAheadBox = (width: 800, height: 560)
        let image = ViewerModel(paths: [DocumentPath(Samples.path("quadrants.png"))], configuration: ahead)
        defer { image.close() }
        let received = Self.pages(updates(image) { !Self.pages($0).isEmpty })
        let page = try #require(received.first, "page 1 came without being asked for")
        #expect(page.0.page == 0 && page.0.width == 64 && page.0.height == 48, "at the image's own size: \(page.0.width)x\(page.0.height)")
        #expect(try page.1.get().image.width == 64)
        // What the view asks for (a box larger than the ahead box) is that very page.
        #expect(image.pageJob(0, fitting: (width: 876, height: 700)) == page.0)
        image.want([page.0])
        usleep(300_000)
        #expect(Self.pages(image.update()).isEmpty, "delivered once, not rendered again when asked")

        let pdf = ViewerModel(paths: [DocumentPath(Samples.path("document.pdf"))], configuration: ahead)
        defer { pdf.close() }
        let opened = updates(pdf) { $0.contains { if case .opened = $0 { true } else { false } } }
        usleep(500_000)
        #expect(Self.pages(opened + pdf.update()).isEmpty, "a PDF page's size follows the view: not rendered unasked")

        let plain = ViewerModel(paths: [DocumentPath(Samples.path("quadrants.png"))], configuration: configuration())
        defer { plain.close() }
        let plainOpened = updates(plain) { $0.contains { if case .opened = $0 { true } else { false } } }
        usleep(500_000)
        #expect(Self.pages(plainOpened + plain.update()).isEmpty, "without the box, nothing unasked")
    }

    @Test func aNewerWishListReplacesPagesNotYetStarted() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration())
        defer { model.close() }
        model.waitUntilOpened()
        let box = (width: 600, height: 800)
        model.want(try (0..<40).map { try #require(model.pageJob($0, fitting: box)) })
        let last = try #require(model.pageJob(999, fitting: box))
        model.want([last])
        let received = Self.pages(updates(model) { Self.pages($0).contains { $0.0 == last } })
        usleep(200_000)
        let pages = received.map(\.0.page) + Self.pages(model.update()).map(\.0.page)
        #expect(pages.last == 999, "the page wanted now is rendered: \(pages)")
        #expect(pages.count < 10, "pages scrolled past before their turn are not rendered: \(pages)")
    }

    /// A main loop that is behind (a flood of keys is dispatched before the idle callbacks that
    /// hand pages over) must not let rendered pages pile up: the thread waits for the front-end.
    @Test func aConsumerThatIsBehindHoldsAtMostTheLimitOfUntakenPages() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration(),
                                unacceptedLimit: 2)
        defer { model.close() }
        model.waitUntilOpened()
        let box = (width: 300, height: 300)
        model.want(try (0..<12).map { try #require(model.pageJob($0, fitting: box)) })
        usleep(1_500_000)  // far longer than 12 pages at 300 px take
        var taken = Self.pages(model.update())
        #expect(taken.count == 2, "no page rendered while two wait for the consumer: \(taken.map(\.0.page))")
        let deadline = Date().addingTimeInterval(30)
        while taken.count < 12 && Date() < deadline {
            let more = Self.pages(model.update())
            #expect(more.count <= 2, "never more than the limit waiting")
            taken += more
            usleep(20_000)
        }
        #expect(taken.map(\.0.page) == Array(0..<12))
    }

    @Test func theServiceAnswersProblemsAsProblems() throws {
        let document = directory.file("two.pdf")
        try TestPDF.write(pages: 2, to: document)
        let client = RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 30)
        defer { client.stop() }
        let two = DocumentRequest(path: DocumentPath(document))
        #expect(try client.open(two).pageCount == 2)
        #expect(throws: RenderProblem.self) { try client.renderPage(PageRequest(document: two, page: 5, width: 50, height: 70)) }
        do {
            _ = try client.renderPage(PageRequest(document: two, page: 5, width: 50, height: 70))
        } catch {
            #expect(error.message.contains("no page 6"), "\(error.message)")
        }
        let encrypted = DocumentPath(Samples.path("encrypted.pdf"))
        #expect(throws: RenderProblem(.passwordRequired, "password-protected: type its password", mimeType: "application/pdf")) {
            try client.open(DocumentRequest(path: encrypted))
        }
        do {
            _ = try client.open(DocumentRequest(path: encrypted, password: "wrong"))
            Issue.record("a wrong password opened the document")
        } catch {
            #expect(error.kind == .wrongPassword)
        }
        let unlocked = try client.renderPage(PageRequest(document: DocumentRequest(path: encrypted, password: "secret"),
                                                         page: 0, width: 50, height: 70))
        #expect(unlocked.width <= 50 && unlocked.height <= 70 && max(unlocked.width, unlocked.height) >= 49)
        // The text of a page, for find and copy.
        let text = try client.text(PageRequest(document: two, page: 1, width: 1, height: 1))
        #expect(text.contains("Page 2"), "\(text)")
        // Text shown as text: its lines come from the worker (a CSV file's as a table: the
        // header's names and rule apart, a row a line).
        let notes = directory.file("notes.csv")
        try "a,bb\nccc,d\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let facts = try client.open(DocumentRequest(path: DocumentPath(notes)))
        #expect(facts.text?.lines == ["ccc │ d "], "\(String(describing: facts.text?.lines))")
        #expect(facts.text?.table?.header == ["a   │ bb", "────┼───"])
        #expect(facts.pageCount == 0)
    }

    @Test func pinchScalesTheZoomFromWhereTheGestureBegan() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration())
        defer { model.close() }
        model.waitUntilOpened()
        #expect(model.setZoom(pinchScale: 2, from: model.zoom))
        #expect(model.zoom == 2)
        let start = model.zoom
        #expect(model.setZoom(pinchScale: 1.5, from: start))
        #expect(model.zoom == 3, "relative to the zoom when the fingers went down, not compounded")
        #expect(model.setZoom(pinchScale: 100, from: start))
        #expect(model.zoom == 8, "clamped at 800 %")
        #expect(model.setZoom(pinchScale: 0.01, from: start))
        #expect(model.zoom == 1, "clamped at fit")
        #expect(model.setZoom(pinchScale: .nan, from: start) == false)
        let fit = try #require(model.pageJob(0, fitting: (width: 300, height: 300)))
        #expect(model.setZoom(pinchScale: 2, from: 1))
        let zoomed = try #require(model.pageJob(0, fitting: (width: 300, height: 300)))
        #expect(zoomed.height == 2 * fit.height)
    }

    /// The print sheet's preview strip renders through the same thread and worker on a wish
    /// list of its own: the view's pages go first, a new view list does not drop the preview's,
    /// and the worker lays a text file out on paper.
    @Test func printPreviewPagesHaveAWishListOfTheirOwnAfterTheView() throws {
        let notes = directory.file("notes.txt")
        try Array(repeating: "Quarterly notes: the preview shows this text on paper.\n", count: 40).joined()
            .write(toFile: notes, atomically: true, encoding: .utf8)
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf")), DocumentPath(notes)],
                                configuration: configuration())
        defer { model.close() }
        model.waitUntilOpened()
        let box = (width: 84, height: 112)
        let previews = try [3, 2].map { try #require(model.printPreviewJob(page: $0, fitting: box)) }
        #expect(previews.allSatisfy { $0.purpose == .printPreview && $0.width == 84 && $0.height == 112 })
        let view = try [10, 11].map { try #require(model.pageJob($0, fitting: (width: 200, height: 200))) }
        model.want(previews, for: .printPreview)
        model.want(view)
        model.want([view[1]])  // the view's list changes: the preview's stays
        // Both lists are waited for (on a loaded machine a page can take many seconds); what
        // came is listed when something is missing.
        let received = Self.pages(updates(model, timeout: 120) { updates in
            let pages = Self.pages(updates)
            return pages.filter { $0.0.purpose == .printPreview }.count >= 2
                && pages.contains { $0.0.purpose == .view && $0.0.page == 11 }
        })
        let came = received.map { "\($0.0.purpose) \($0.0.page)\((try? $0.1.get()) == nil ? " (failed)" : "")" }
        #expect(received.filter { $0.0.purpose == .printPreview }.map(\.0.page) == [2, 1], "both preview pages, in order: \(came)")
        #expect(received.filter { $0.0.purpose == .view }.map(\.0.page).contains(11), "the view's page: \(came)")
        let previewPage = try #require(received.first { $0.0.purpose == .printPreview && $0.0.page == 1 }).1.get()
        #expect(previewPage.width <= 84 && previewPage.height <= 112 && max(previewPage.width, previewPage.height) >= 80)
        #expect(previewPage.image == (try model.renderPrintPreview(page: 2, fitting: box)), "the page the model renders for print")

        // A text file: the text on a portrait sheet of paper.
        #expect(model.nextFile())
        model.waitUntilOpened()
        let sheet = try model.renderPrintPreview(page: 1, fitting: box)
        #expect(sheet.height > sheet.width, "paper, not the text view: \(sheet.width)×\(sheet.height)")
        var ink = 0
        for offset in stride(from: 0, to: sheet.pixels.count, by: 4) where sheet.pixels[offset] < 200 { ink += 1 }
        #expect(ink > 10, "the text is on it")
    }

    // MARK: A worker that crashes, hangs or is killed

    @Test func aFileThatCrashesTheWorkerIsAProblemAndTheNextFileOpens() throws {
        let crash = directory.file("crash.pdf"), good = directory.file("good.pdf")
        try TestPDF.write(pages: 2, to: crash)
        try TestPDF.write(pages: 2, to: good)
        let model = ViewerModel(paths: [DocumentPath(crash), DocumentPath(good)],
                                configuration: configuration(["QUIRE_TEST_WORKER_CRASH_ON": "crash.pdf"]))
        defer { model.close() }
        let problem = try #require(model.waitUntilOpened(), "the worker crashed on the file")
        #expect(problem.message.contains("crashed"), "\(problem.message)")
        #expect(model.nextFile())
        #expect(model.waitUntilOpened() == nil, "a new worker opens the next file")
        #expect(model.pageCount == 2)
        let page = try model.renderPage(fitting: (width: 100, height: 100))
        #expect(page.height == 100)
    }

    @Test func aKilledWorkerCostsOnePageAndTheNextPageStartsANewOne() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration())
        defer { model.close() }
        model.waitUntilOpened()
        _ = try model.renderPage(fitting: (width: 120, height: 120))
        let first = try #require(model.workerPID)
        #expect(kill(first, SIGKILL) == 0)
        usleep(100_000)
        model.nextPage()
        let page = try model.renderPage(fitting: (width: 120, height: 120))
        #expect(page.height == 120, "the next page renders")
        let second = try #require(model.workerPID)
        #expect(second != first, "in a new worker")
    }

    @Test func movingPastAFileThatHangsDropsItAndOpensTheNextAtOnce() throws {
        let files = ["a.pdf", "slow.pdf", "c.pdf"].map { directory.file($0) }
        for file in files { try TestPDF.write(pages: 1, to: file) }
        let model = ViewerModel(paths: files.map(DocumentPath.init), configuration: configuration(["QUIRE_TEST_WORKER_HANG_ON": "slow.pdf"]))
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil)
        #expect(model.nextFile())
        usleep(300_000)
        #expect(model.content == .opening, "the hanging file is still opening")
        let hung = model.workerPID
        let start = Date()
        #expect(model.nextFile())
        #expect(model.waitUntilOpened(timeout: 5) == nil)
        let elapsed = Date().timeIntervalSince(start)
        #expect(model.content == .pages(count: 1), "c.pdf is shown")
        #expect(elapsed < 2, "not held up by the hanging file: \(elapsed) s")
        #expect(model.workerPID != hung, "the hanging worker was killed")
        if let hung { #expect(kill(hung, 0) != 0, "and is gone") }
        // Back to the slow file: it is opened again (and hangs again), not shown as failed.
        #expect(model.previousFile())
        usleep(200_000)
        #expect(model.content == .opening)
    }
}
