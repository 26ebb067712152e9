import Foundation
import QuireTestSupport
import Quire
import QuireViewer
import QuireRenderService
import Testing

/// The viewer model on real files, with real renderers: what every front-end draws.
@Suite("Viewer model")
final class ViewerModelTests {
    let directory = TemporaryDirectory("quire-viewer")
    let threePages: String
    let notes: String

    init() throws {
        threePages = directory.file("three.pdf")
        try TestPDF.write(pages: 3, to: threePages)
        notes = directory.file("notes.txt")
        try "# Title\n\n\tindented with a tab\r\nwindows line\nlast line without newline".write(toFile: notes, atomically: true, encoding: .utf8)
    }

    /// No printers reachable and no resume file, unless given (``RealWorkerConfiguration``).
    func configuration(resume: ResumeStore? = nil, cache: Int = 64 << 20) -> ViewerModel.Configuration {
        RealWorkerConfiguration.make(resume: resume, cache: cache)
    }

    /// ``configuration(resume:cache:)`` printing to `system`.
    func printing(_ system: PrintSystem) -> ViewerModel.Configuration {
        var configuration = configuration()
        configuration.printSystem = system
        return configuration
    }

    @Test func pagesTurnWithinTheDocumentAndTheIndicatorFollows() throws {
        let model = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration())
        #expect(model.content == .pages(count: 3))
        #expect(model.positionText == "page 1 of 3")
        #expect(model.fileText == "1 of 1")
        #expect(model.previousPage() == false)
        #expect(model.nextPage())
        #expect(model.positionText == "page 2 of 3")
        #expect(model.lastPage())
        #expect(model.nextPage() == false)
        #expect(model.page == 2)
        #expect(model.goTo(4) == "there is no page 4: 3 pages")
        #expect(model.goTo(0) != nil)
        #expect(model.goTo(1) == nil)
        #expect(model.page == 0)
    }

    @Test func rendersTheCurrentPageToFitAndDifferentPagesDiffer() throws {
        let model = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration())
        let first = try model.renderPage(fitting: (width: 200, height: 200))
        #expect(first.height == 200)
        #expect(first.width < 200)  // A4 portrait fits by height
        model.nextPage()
        let second = try model.renderPage(fitting: (width: 200, height: 200))
        #expect(first.pixels != second.pixels)
        #expect(model.zoomIn())
        #expect(model.zoomText == "125%")
        let zoomed = try model.renderPage(fitting: (width: 200, height: 200))
        #expect(zoomed.height == 250)
        #expect(model.pan(dx: 0, dy: 0.5))
        #expect(model.pan.y == 0.5)
        #expect(model.zoomToFit())
        #expect(model.pan(dx: 0, dy: 0.5) == false, "nothing to pan at fit")
    }

    @Test func theCacheStaysWithinItsBudget() throws {
        let budget = 3 * 100 * 142 * 4
        let model = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration(cache: budget))
        for _ in 0..<3 {
            _ = try model.renderPage(fitting: (width: 100, height: 142))
            model.nextPage()
        }
        _ = try model.renderPage(fitting: (width: 300, height: 300))
        #expect(model.cachedBytes <= max(budget, 300 * 300 * 4))
        var cache = PageCache(byteLimit: 100)
        let image = RenderedImage(width: 4, height: 4, pixels: [UInt8](repeating: 1, count: 64))
        cache.insert(image, for: .init(file: 0, page: 0, width: 4, height: 4))
        cache.insert(image, for: .init(file: 0, page: 1, width: 4, height: 4))
        #expect(cache.count == 1)
        #expect(cache.byteCount == 64)
        #expect(cache.image(for: .init(file: 0, page: 1, width: 4, height: 4)) != nil)
    }

    /// The one least-recently-used store behind the model's, the terminal's and the window's
    /// pages: used pages go last, pages on screen and the newest are never dropped, and what is
    /// dropped comes back to be freed.
    @Test func recentlyUsedDropsTheOldestButNeverThoseKeptAndHandsThemBack() {
        var pages = RecentlyUsed<Int, String>(byteLimit: 30)
        #expect(pages.insert("one", bytes: 10, for: 1).isEmpty)
        #expect(pages.insert("two", bytes: 10, for: 2).isEmpty)
        #expect(pages.insert("three", bytes: 10, for: 3).isEmpty)
        #expect(pages.use(1) == "one")
        #expect(pages.order == [2, 3, 1])
        // Over the limit: 2 is the oldest, but it is on screen; 3 goes.
        #expect(pages.insert("four", bytes: 10, for: 4) { $0 == 2 } == ["three"])
        #expect(pages.order == [2, 1, 4])
        #expect(pages.byteCount == 30)
        // The newest stays even when it alone is over the limit; everything else goes.
        #expect(pages.insert("big", bytes: 50, for: 5).sorted() == ["four", "one", "two"])
        #expect(pages.order == [5] && pages.byteCount == 50 && pages[5] == "big")
        // Replacing a key hands back the value it held.
        #expect(pages.insert("small", bytes: 5, for: 5) == ["big"])
        #expect(pages.removeAll { $0 == 5 } == ["small"])
        #expect(pages.count == 0 && pages.byteCount == 0)
    }

    @Test func textFilesAreLinesOfText() throws {
        let model = ViewerModel(paths: [DocumentPath(threePages), DocumentPath(notes)], configuration: configuration())
        #expect(model.nextFile())
        #expect(model.fileText == "2 of 2")
        guard case .text(let text) = model.content else {
            Issue.record("a Markdown file is shown as text, got \(model.content)")
            return
        }
        #expect(text.lines == ["# Title", "", "        indented with a tab", "windows line", "last line without newline"])
        #expect(model.positionText == "line 1 of 5")
        #expect(model.scroll(by: 3))
        #expect(model.positionText == "line 4 of 5")
        #expect(model.scroll(by: 10))
        #expect(model.position == 4)
        #expect(model.card?.lines == 5)
        #expect(model.card?.pages == nil)
        #expect(model.zoomIn() == false, "text is not zoomed as a picture")
        #expect(throws: RenderProblem.self) { try model.renderPage(fitting: (width: 10, height: 10)) }
        #expect(model.previousFile())
        #expect(model.positionText == "page 1 of 3")
    }

    @Test func theRenderWorkerDrawsExactlyWhatTheRendererDraws() throws {
        let model = ViewerModel(paths: [DocumentPath(threePages), DocumentPath(Samples.path("encrypted.pdf"))],
                                configuration: configuration())
        defer { model.close() }
        model.nextPage()
        let file = try InputFile(path: DocumentPath(threePages))
        let local = try Renderer(file: file, contentType: try ContentType.detect(file))
        #expect(try model.renderPage(fitting: (width: 120, height: 160))
                == local.render(page: 1, size: .fit(width: 120, height: 160), allowUpscaling: false))
        // The password travels to the worker.
        model.nextFile()
        #expect(model.problem?.kind == .passwordRequired)
        #expect(model.unlockWaiting("secret") == nil)
        let encrypted = try InputFile(path: DocumentPath(Samples.path("encrypted.pdf")))
        let unlocked = try Renderer(file: encrypted, contentType: try ContentType.detect(encrypted), password: "secret")
        #expect(try model.renderPage(fitting: (width: 90, height: 90))
                == unlocked.render(page: 0, size: .fit(width: 90, height: 90), allowUpscaling: false))
    }

    @Test func controlCharactersCannotReachTheTerminal() {
        let text = TextContent(bytes: Array("a\u{1B}[2Jb\u{7}c".utf8))
        #expect(text.lines == ["a␛[2Jb␇c"])
    }

    @Test func theCardHasIconTitleKindSizeAndPages() throws {
        let model = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration())
        let card = try #require(model.card)
        #expect(card.iconName == "application-pdf")
        #expect(card.title == "three.pdf")
        #expect(card.kind == "PDF document")
        let size = try FileManager.default.attributesOfItem(atPath: threePages)[.size] as! Int
        #expect(card.size == Int64(size))
        #expect(card.formattedSize == DocumentInfo.formatSize(Int64(size)))
        #expect(card.pages == 3)
    }

    /// Issue 42: a valid HEIC with no gdk-pixbuf loader installed is not "damaged": the viewer
    /// says what `info` says — no loader, and the package that adds one. (A DjVu page, which
    /// had no loader either, has an engine of its own since issue 39: it opens.)
    @Test func anImageWithNoLoaderSaysWhatToInstallNotDamaged() throws {
        let heicLoader = FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/2.10.0/loaders/libpixbufloader-heif.so")
        var paths = [DocumentPath(Samples.path("page.djvu"))]
        // heif-enc (libheif-examples, in make deps) wrote photo.heic.
        #expect(FileManager.default.fileExists(atPath: Samples.path("photo.heic")))
        paths.append(DocumentPath(Samples.path("photo.heic")))
        let model = ViewerModel(paths: paths, configuration: configuration())
        #expect(model.problem == nil)
        #expect(model.content == .pages(count: 1))
        model.nextFile()
        let heic = try Document(path: DocumentPath(Samples.path("photo.heic")))
        if heicLoader {
            #expect(model.problem == nil)
            #expect(model.content == .pages(count: 1))
        } else {
            #expect(model.problem?.kind == .unsupported)
            #expect(model.problem?.message == "no image loader for HEIF image is installed (install heif-gdk-pixbuf)")
            #expect(heic.capabilities.preview.reason == model.problem?.message)
            #expect(model.problem?.message.contains("damaged") == false)
        }
    }

    @Test func damagedAndLockedFilesAreProblemsNotCrashes() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("truncated.pdf")), DocumentPath(Samples.path("encrypted.pdf")),
                                        DocumentPath(directory.file("missing.pdf"))],
                                configuration: configuration())
        #expect(model.problem?.kind == .damaged)
        #expect(model.positionText == "")
        #expect(model.printAction.isAvailable == false)
        model.nextFile()
        #expect(model.problem?.kind == .passwordRequired)
        #expect(model.unlockWaiting("wrong")?.kind == .wrongPassword)
        #expect(model.unlockWaiting("secret") == nil)
        #expect(model.pageCount > 0)
        _ = try model.renderPage(fitting: (width: 50, height: 50))
        model.nextFile()
        #expect(model.problem?.kind == .unreadable)
        #expect(model.card == nil)
    }

    @Test func printIsUnavailableWithTheReasonWhenNoSchedulerRuns() throws {
        let model = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration())
        #expect(model.printAction.isAvailable == false)
        #expect(model.printAction.reason == "the print system is not running")
        #expect(throws: PrintError.self) { try model.makePrintSheet() }
    }

    @Test func resumeRemembersPageAndZoomPerFileUntilTheFileChanges() throws {
        let store = ResumeStore(path: directory.file("state/quire/viewer-state.json"))
        do {
            let model = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration(resume: store))
            model.lastPage()
            model.zoomIn()
            #expect(model.close() == nil)
        }
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as! Int
        #expect(mode == 0o600)
        let reopened = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration(resume: store))
        #expect(reopened.positionText == "page 3 of 3")
        #expect(reopened.zoom == 1.25)
        // A changed file starts at the beginning.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: threePages)
        let changed = ViewerModel(paths: [DocumentPath(threePages)], configuration: configuration(resume: store))
        #expect(changed.positionText == "page 1 of 3")
        // A malformed state file means "from the beginning", not an error.
        try "not json".write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(store.load().isEmpty)
        #expect(ResumeStore.standard(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/h"]).path == "/x/state/quire/viewer-state.json")
        #expect(ResumeStore.standard(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]).path == "/h/.local/state/quire/viewer-state.json")
    }

    @Test func thePrintSheetValidatesAgainstTheDocumentAndPrinter() throws {
        let bed = try CUPSTestBed(.full)
        let system = PrintSystem(server: PrintServer(bed.server), environment: bed.environment())
        let model = ViewerModel(paths: [DocumentPath(threePages)],
                                configuration: printing(system))
        #expect(model.printAction.isAvailable)
        let sheet = try model.makePrintSheet()
        #expect(sheet.selected.name == "quire-office")
        #expect(sheet.pageCount == 3)
        #expect(sheet.printers.contains { $0.name == "quire-stopped" && !$0.isSelectable && $0.stateText.hasPrefix("stopped") })
        #expect(sheet.selectPrinter(at: sheet.printers.firstIndex { $0.name == "quire-stopped" }!) != nil)
        sheet.copiesText = "0"
        #expect(sheet.problem(in: .copies) != nil)
        sheet.copiesText = "2"
        #expect(sheet.problem(in: .copies) == nil)
        sheet.pagesText = "2-4"
        #expect(sheet.problem(in: .pages)?.contains("beyond the last page") == true)
        sheet.pagesText = "2-3"
        #expect(sheet.firstProblem == nil)
        #expect(sheet.fields.contains(.sides) == sheet.capabilities!.duplex)
        let job = try sheet.submit()
        #expect(job.destination == "quire-office")
        let received = try #require(bed.waitForDocument(titled: "three.pdf"))
        #expect(received.attributes["IPP_COPIES"] == "2")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2)
    }

    @Test func theSheetSendsWhatItShowsOrNothing() throws {
        let bed = try CUPSTestBed(.full)
        let system = PrintSystem(server: PrintServer(bed.server), environment: bed.environment())
        let model = ViewerModel(paths: [DocumentPath(threePages)],
                                configuration: printing(system))
        model.nextPage()
        let sheet = try model.makePrintSheet()
        #expect(sheet.copiesText == "1" && sheet.firstProblem == nil, "one copy of every page to start")
        #expect(sheet.currentPage == 2, "the page the viewer shows")

        // Copies: digits only, and an empty field is a problem, not one copy.
        #expect(PrintSheet.isCopiesInput("223") && !PrintSheet.isCopiesInput("22-3") && !PrintSheet.isCopiesInput("3x")
                && !PrintSheet.isCopiesInput("+3") && !PrintSheet.isCopiesInput("٣"))
        sheet.copiesText = ""
        #expect(sheet.problem(in: .copies) == "Enter the number of copies (1 to \(sheet.copiesRange.upperBound))")
        #expect(throws: PrintError.self) { try sheet.submit() }
        sheet.copiesText = "22-3"
        #expect(sheet.problem(in: .copies)?.hasPrefix("copies must be a number from 1 to ") == true)
        sheet.copiesText = String(sheet.copiesRange.upperBound + 1)
        #expect(sheet.problem(in: .copies) != nil, "above the printer's copies-supported")
        sheet.copiesText = "3"
        #expect(sheet.problem(in: .copies) == nil)

        // Pages: a range chosen but empty cannot print; the current page is the viewer's.
        sheet.pageChoice = .range
        #expect(sheet.problem(in: .pages) == PrintSheet.pagesPrompt)
        #expect(sheet.pagesToPrint == nil)
        #expect(throws: PrintError.self) { try sheet.submit() }
        sheet.pageChoice = .current
        #expect(sheet.pagesToPrint == [2])
        #expect(try sheet.options().pageRanges?.description == "2")
        sheet.pageChoice = .all
        sheet.pagesText = "1,3"
        #expect(sheet.pageChoice == .range, "typing a range chooses it")
        #expect(sheet.pagesToPrint == [1, 3])
        sheet.pageChoice = .all
        #expect(try sheet.options().pageRanges == nil, "All pages sends no range, whatever is left in the field")
        #expect(bed.receivedDocuments().isEmpty, "nothing was sent while a field had a problem")

        sheet.pageChoice = .current
        let job = try sheet.submit()
        #expect(job.destination == "quire-office")
        let received = try #require(bed.waitForDocument(titled: "three.pdf"))
        #expect(received.attributes["IPP_COPIES"] == "3")
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 1, "the current page only")
    }

    @Test func colourIsAChoiceOnlyOnAColourPrinterAndThePreviewFollowsTheRange() throws {
        let bed = try CUPSTestBed(.colour)
        let system = PrintSystem(server: PrintServer(bed.server), environment: bed.environment())
        let model = ViewerModel(paths: [DocumentPath(threePages)],
                                configuration: printing(system))
        let sheet = try model.makePrintSheet()
        #expect(sheet.selected.name == "quire-office")
        #expect(sheet.colorModeChoices.isEmpty, "the monochrome printer offers no colour choice")
        #expect(!sheet.fields.contains(.colorMode))
        #expect(sheet.pagesToPrint == [1, 2, 3])
        sheet.pagesText = "3,1-2"
        #expect(sheet.pagesToPrint == [3, 1, 2], "in print order")
        sheet.pagesText = "4"
        #expect(sheet.pagesToPrint == nil, "a range past the end has no pages")
        sheet.pagesText = "2-3"

        #expect(sheet.selectPrinter(at: try #require(sheet.printers.firstIndex { $0.name == "quire-colour" })) == nil)
        #expect(sheet.colorModeChoices == [.color, .monochrome])
        #expect(sheet.fields.contains(.colorMode))
        sheet.cycleColorMode(step: -1)
        #expect(sheet.colorMode == .monochrome)
        #expect(try sheet.options().colorMode == .monochrome)
        // Back on the monochrome printer the choice goes back to its default.
        sheet.selectPrinter(at: try #require(sheet.printers.firstIndex { $0.name == "quire-office" }))
        #expect(sheet.colorMode == nil)
        sheet.selectPrinter(at: try #require(sheet.printers.firstIndex { $0.name == "quire-colour" }))
        sheet.colorMode = .monochrome
        let job = try sheet.submit()
        #expect(job.destination == "quire-colour")
        let received = try #require(bed.waitForDocument(titled: "three.pdf"))
        #expect(received.attributes["IPP_PRINT_COLOR_MODE"] == "monochrome")

        // The preview's pages: the document's, whatever the zoom.
        model.zoomIn()
        let preview = try model.renderPrintPreview(page: 2, fitting: (width: 84, height: 112))
        #expect(preview.width <= 84 && preview.height <= 112 && max(preview.width, preview.height) >= 80)
        let page1 = try model.renderPrintPreview(page: 1, fitting: (width: 84, height: 112))
        #expect(page1.pixels != preview.pixels, "page 2 is not page 1")
    }

    /// Text prints as the worker lays it out: the sheet's page count and the job's pages are the
    /// worker's PDF; the model never converts the file itself.
    @Test func textPrintsAsTheWorkerLaysItOut() throws {
        let bed = try CUPSTestBed(.full)
        let system = PrintSystem(server: PrintServer(bed.server), environment: bed.environment())
        let long = directory.file("long.txt")
        try (1...150).map { "line \($0) of a text that takes more than two pages on paper\n" }.joined()
            .write(toFile: long, atomically: true, encoding: .utf8)
        let model = ViewerModel(paths: [DocumentPath(long)], configuration: printing(system))
        defer { model.close() }
        let sheet = try model.makePrintSheet()
        #expect(sheet.pageCount == 3, "150 lines at 62 a page: \(String(describing: sheet.pageCount))")
        sheet.pagesText = "2-3"
        let job = try sheet.submit()
        #expect(job.destination == "quire-office")
        let received = try #require(bed.waitForDocument(titled: "long.txt"))
        #expect(CUPSTestBed.pageCount(ofPDF: received.path) == 2, "pages 2-3 of the worker's PDF")
    }

    @Test func textPrintPreviewIsTheTextLaidOutOnPaper() throws {
        let model = ViewerModel(paths: [DocumentPath(notes)], configuration: configuration())
        let page = try model.renderPrintPreview(page: 1, fitting: (width: 84, height: 120))
        #expect(page.width < page.height, "a portrait sheet of paper, not the text view: \(page.width)×\(page.height)")
        var ink = 0
        for y in 0..<page.height { for x in 0..<page.width where page.pixel(x: x, y: y).red < 230 { ink += 1 } }
        #expect(ink > 10, "the text is on it")
    }
}

extension ViewerModel {
    /// Unlocks the current file and waits for the worker's answer: the problem left, if any.
    func unlockWaiting(_ password: String) -> RenderProblem? {
        unlock(password: password)
        return waitUntilOpened()
    }
}
