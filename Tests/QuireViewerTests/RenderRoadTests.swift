import Foundation
import Quire
import QuireRenderService
import QuireSheets
import QuireTestSupport
import Testing

/// The render service's two roads answer alike: the same requests sent to a real worker
/// process and handed to the session in this process (`RenderClient(inProcess:)`, the road of
/// `quire`'s one-shot commands) give the same facts, pixels, text and composed job.
@Suite("Render roads")
struct RenderRoadTests {
    static func roads() -> (worker: RenderClient, here: RenderClient) {
        (RenderClient(command: WorkerCommand(executable: QuireBinary.path), timeout: 60),
         RenderClient(inProcess: .standard, interpreters: .here))
    }

    @Test(arguments: ["document.pdf", "long.txt", "format.png", "drawing.svg"])
    func bothRoadsGiveTheSameAnswers(sample: String) throws {
        let (worker, here) = Self.roads()
        defer { worker.stop() }
        let document = DocumentRequest(path: DocumentPath(Samples.path(sample)))
        let facts = try here.open(document)
        #expect(try worker.open(document) == facts)
        if facts.pageCount > 0 {
            let page = PageRequest(document: document, page: 0, width: 200, height: 260)
            let drawn = try here.renderPage(page)
            #expect(try worker.renderPage(page) == drawn, "the same pixels")
            let colours = Set(stride(from: 0, to: drawn.pixels.count, by: 4).map { Array(drawn.pixels[$0..<$0 + 4]) })
            #expect(drawn.width <= 200 && drawn.height <= 260 && colours.count > 1, "a picture, not a blank")
        } else {
            #expect(facts.text?.lines.isEmpty == false, "shown as text")
        }
        // As it prints: a PDF as it is, anything else converted — the same pages either way.
        let printable = try here.printable(document)
        let sent = try worker.printable(document)
        let pageCount = try #require(printable.pageCount)
        #expect(pageCount > 0 && sent.pageCount == pageCount)
        #expect((printable.convertedPDF == nil) == (sample == "document.pdf") && (sent.convertedPDF == nil) == (sample == "document.pdf"))
        var twoUp = SheetOptions()
        twoUp.numberUp = 2
        let job = SheetRequest(pages: Array(1...pageCount), options: twoUp)
        let composed = try here.composedJob(document, sheet: job)
        let remote = try worker.composedJob(document, sheet: job)
        #expect(composed.pageCount == remote.pageCount && composed.pageCount == (pageCount + 1) / 2)
        #expect(composed.convertedPDF?.starts(with: Array("%PDF".utf8)) == true && remote.convertedPDF?.starts(with: Array("%PDF".utf8)) == true)
    }

    /// The info card's content facts come back alike by both roads, for every family that
    /// has its own record (the worker's come over the wire as JSON); a locked PDF's card carries
    /// its password problem, with the caller's path, either way.
    @Test(arguments: ["document.pdf", "encrypted.pdf", "photo-gps.jpg", "camera.dng", "animations/animated.gif",
                      "archives/project.zip", "fonts/collection.ttc", "table.csv", "data/shop.sqlite", "data/sample.json",
                      "data/records.jsonl", "readme.md", "data/analysis.ipynb", "comic.cbz", "book.epub", "drm.epub",
                      "page.djvu", "mail/message.eml"])
    func bothRoadsGiveTheSameCard(sample: String) throws {
        let (worker, here) = Self.roads()
        defer { worker.stop() }
        let document = DocumentRequest(path: DocumentPath(Samples.path(sample)))
        let local = try here.info(document, showLocation: true)
        let remote = try worker.info(document, showLocation: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(local)
        #expect(json.count > 20 || local.problem != nil, "facts were read: \(String(decoding: json, as: UTF8.self))")
        #expect(try encoder.encode(remote) == json, "\(sample)")
        #expect(local.problem?.kind == remote.problem?.kind && local.problem?.reason == remote.problem?.reason)
        #expect(local.problem?.remedy == remote.problem?.remedy && remote.problem.map { $0.path == document.path } != false)
        #expect((local.problem != nil) == ["encrypted.pdf", "drm.epub"].contains(sample), "\(String(describing: local.problem))")
    }

    /// A problem comes back the same way by both roads: a damaged PDF is damaged, a file that
    /// is not there is unreadable, and the in-process session goes on answering after them.
    @Test func problemsAreTheSameByBothRoads() throws {
        let (worker, here) = Self.roads()
        defer { worker.stop() }
        for (sample, kind) in [("garbage.pdf", RenderProblem.Kind.damaged), ("no-such-file.pdf", .unreadable)] {
            let document = DocumentRequest(path: DocumentPath(Samples.path(sample)))
            let local = #expect(throws: RenderProblem.self) { try here.open(document) }
            let remote = #expect(throws: RenderProblem.self) { try worker.open(document) }
            #expect(local?.kind == kind && remote?.kind == kind, "\(sample)")
            #expect(local?.message == remote?.message)
        }
        #expect(try here.open(DocumentRequest(path: DocumentPath(Samples.path("document.pdf")))).pageCount > 0)
    }
}
