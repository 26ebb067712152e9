import Foundation
import QuireTestSupport
import Quire
import QuireViewer
import Synchronization
import Testing

/// The render thread behind the window's lazy page view: pages rendered off the caller's
/// thread, only the newest wish list honoured, problems delivered instead of crashes.
@Suite("Page render queue")
final class PageRenderQueueTests {
    let directory = TemporaryDirectory("quire-render-queue")

    func configuration(worker: Bool) -> ViewerModel.Configuration {
        var configuration = ViewerModel.Configuration(printSystem: PrintSystem(server: PrintServer("127.0.0.1:1")), resume: nil)
        if worker { configuration.renderProcess = [QuireBinary.path, "__look-render-worker"] }
        return configuration
    }

    final class Deliveries: Sendable {
        let received = Mutex<[(PageRenderJob, Result<PagePixels, ViewerProblem>)]>([])
        var count: Int { received.withLock { $0.count } }
        var all: [(PageRenderJob, Result<PagePixels, ViewerProblem>)] { received.withLock { $0 } }

        /// Waits (at most 30 s) until `count` pages have come back.
        func wait(for count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while self.count < count && Date() < deadline { usleep(5_000) }
            return self.count >= count
        }
    }

    @Test(arguments: [false, true])
    func rendersTheWantedPagesInOrderOffTheCallersThread(worker: Bool) throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration(worker: worker))
        let deliveries = Deliveries()
        let queue = PageRenderQueue(configuration: model.configuration) { job, result in
            deliveries.received.withLock { $0.append((job, result)) }
        }
        defer { queue.stop() }
        let jobs = try [0, 999, 1].map { try #require(model.pageJob($0, fitting: (width: 300, height: 300))) }
        #expect(jobs[0].height == 300 && jobs[0].width < 300, "A4 fits the box by height")
        queue.want(jobs)
        #expect(deliveries.wait(for: 3))
        let received = deliveries.all
        #expect(received.map(\.0.page) == [0, 999, 1], "most wanted first")
        var images: [RenderedImage] = []
        for (job, result) in received {
            let image = try result.get().image
            #expect(image.width == job.width && image.height == job.height, "rendered at the laid-out size")
            images.append(image)
        }
        // Each page has the red rectangle; page 1000's text differs from page 1's.
        for image in images {
            var red = 0
            for offset in stride(from: 0, to: image.pixels.count, by: 4)
            where image.pixels[offset] > 200 && image.pixels[offset + 1] < 60 && image.pixels[offset + 2] < 60 { red += 1 }
            #expect(red > 500, "a painted page, not a blank one")
        }
        #expect(images[0].pixels != images[1].pixels)
        // The same page as the model renders it itself.
        #expect(try images[0] == model.renderPage(0, fitting: (width: 300, height: 300)))
    }

    @Test func aNewerWishListReplacesPagesNotYetStarted() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration(worker: false))
        let deliveries = Deliveries()
        let queue = PageRenderQueue(configuration: model.configuration) { job, result in
            deliveries.received.withLock { $0.append((job, result)) }
        }
        defer { queue.stop() }
        let box = (width: 600, height: 800)
        queue.want(try (0..<40).map { try #require(model.pageJob($0, fitting: box)) })
        let last = try #require(model.pageJob(999, fitting: box))
        queue.want([last])
        #expect(deliveries.wait(for: 1))
        let deadline = Date().addingTimeInterval(30)
        while !deliveries.all.contains(where: { $0.0 == last }) && Date() < deadline { usleep(5_000) }
        usleep(200_000)
        let pages = deliveries.all.map(\.0.page)
        #expect(pages.last == 999, "the page wanted now is rendered: \(pages)")
        #expect(pages.count < 10, "pages scrolled past before their turn are not rendered: \(pages)")
        #expect(queue.pending == 0)
    }

    @Test func aPageThatCannotBeRenderedComesBackAsAProblem() throws {
        let document = directory.file("two.pdf")
        try TestPDF.write(pages: 2, to: document)
        let deliveries = Deliveries()
        let queue = PageRenderQueue(configuration: configuration(worker: true)) { job, result in
            deliveries.received.withLock { $0.append((job, result)) }
        }
        defer { queue.stop() }
        queue.want([PageRenderJob(file: 0, path: DocumentPath(document), password: nil, page: 5, width: 50, height: 70),
                    PageRenderJob(file: 1, path: DocumentPath(Samples.path("encrypted.pdf")), password: "wrong", page: 0, width: 50, height: 70),
                    PageRenderJob(file: 1, path: DocumentPath(Samples.path("encrypted.pdf")), password: "secret", page: 0, width: 50, height: 70)])
        #expect(deliveries.wait(for: 3))
        let results = deliveries.all.map(\.1)
        guard results.count == 3 else { return }
        if case .failure(let problem) = results[0] {
            #expect(problem.message.contains("no page 6"), "\(problem.message)")
        } else { Issue.record("page 6 of 2 was rendered") }
        if case .failure(let problem) = results[1] {
            #expect(problem.kind == .wrongPassword || problem.message.contains("password"), "\(problem)")
        } else { Issue.record("a wrong password rendered the page") }
        let unlocked = try? results[2].get()
        #expect(unlocked.map { $0.width <= 50 && $0.height <= 70 && max($0.width, $0.height) >= 49 } == true,
                "the right password renders, fitted to the box: \(String(describing: results[2]))")
    }

    @Test func pinchScalesTheZoomFromWhereTheGestureBegan() throws {
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf"))], configuration: configuration(worker: false))
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
        // The zoom reaches the page jobs: pages are laid out and rendered larger.
        let fit = try #require(model.pageJob(0, fitting: (width: 300, height: 300)))
        #expect(model.setZoom(pinchScale: 2, from: 1))
        let zoomed = try #require(model.pageJob(0, fitting: (width: 300, height: 300)))
        #expect(zoomed.height == 2 * fit.height)
    }

    /// The print sheet's preview strip renders through the view's queue (off the main loop), on
    /// a wish list of its own: the view's pages go first, a new view list does not drop the
    /// preview's, and the worker lays a text file out on paper as the model does.
    @Test(arguments: [false, true])
    func printPreviewPagesHaveAWishListOfTheirOwnAfterTheView(worker: Bool) throws {
        let directory = self.directory
        let notes = directory.file("notes.txt")
        try Array(repeating: "Quarterly notes: the preview shows this text on paper.\n", count: 40).joined()
            .write(toFile: notes, atomically: true, encoding: .utf8)
        let model = ViewerModel(paths: [DocumentPath(Samples.path("thousand-pages.pdf")), DocumentPath(notes)],
                                configuration: configuration(worker: worker))
        let deliveries = Deliveries()
        let queue = PageRenderQueue(configuration: model.configuration) { job, result in
            deliveries.received.withLock { $0.append((job, result)) }
        }
        defer { queue.stop() }
        let box = (width: 84, height: 112)
        let previews = try [3, 2].map { try #require(model.printPreviewJob(page: $0, fitting: box)) }
        #expect(previews.allSatisfy { $0.purpose == .printPreview && $0.width == 84 && $0.height == 112 })
        let view = try [10, 11].map { try #require(model.pageJob($0, fitting: (width: 200, height: 200))) }
        queue.want(previews, for: .printPreview)
        queue.want(view)
        queue.want([view[1]])  // the view's list changes: the preview's stays
        #expect(deliveries.wait(for: 3))
        usleep(100_000)
        let received = deliveries.all
        #expect(received.filter { $0.0.purpose == .printPreview }.map(\.0.page) == [2, 1], "both preview pages, in order")
        #expect(received.filter { $0.0.purpose == .view }.map(\.0.page).contains(11))
        let previewPage = try #require(received.first { $0.0.purpose == .printPreview && $0.0.page == 1 }).1.get()
        #expect(previewPage.width <= 84 && previewPage.height <= 112 && max(previewPage.width, previewPage.height) >= 80)
        #expect(previewPage.image == (try model.renderPrintPreview(page: 2, fitting: box)), "the page the model renders for print")

        // A text file: the text on a portrait sheet of paper, as the model lays it out.
        #expect(model.nextFile())
        let text = try #require(model.printPreviewJob(page: 1, fitting: box))
        queue.want([text], for: .printPreview)
        #expect(deliveries.wait(for: received.count + 1))
        let sheet = try #require(deliveries.all.last).1.get()
        #expect(sheet.height > sheet.width, "paper, not the text view: \(sheet.width)×\(sheet.height)")
        #expect(sheet.image == (try model.renderPrintPreview(page: 1, fitting: box)))
    }
}
