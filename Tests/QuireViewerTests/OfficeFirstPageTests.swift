import Foundation
import Quire
import QuireRenderService
import QuireTestSupport
import QuireViewer
import Testing

/// An office document in a viewer, page 1 first (real worker, real LibreOffice): the facts come
/// once LibreOffice has laid the document out, page 1 is drawn from that layout, and the PDF
/// export of every page follows; the finished document then replaces the provisional one.
@Suite("Office documents page 1 first (real worker)")
final class OfficeFirstPageTests {
    /// The model of `name`. The worker's time limit is far above what these files take (the
    /// 440-page document is laid out and exported in ~15 s on an idle machine, several times
    /// that on a loaded one): the tests are about the order things come in, not the limit.
    func model(_ name: String) -> ViewerModel {
        ViewerModel(paths: [DocumentPath(Samples.path(name))], configuration: RealWorkerConfiguration.make(renderTimeout: 300))
    }

    @Test func pageOneComesBeforeTheRestThenTheFinishedDocument() throws {
        let model = model("office-long.docx")
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil)
        #expect(model.isLayingOut, "the facts came page 1 first")
        let provisionalCount = model.pageCount
        #expect(provisionalCount > 300)
        #expect(model.positionText == "page 1 of \(provisionalCount), laying out…")
        let first = try model.renderPage(0, fitting: (300, 400))
        #expect(model.isLayingOut, "page 1 was drawn before the rest was laid out")
        #expect(Self.darkPixels(first) > 500, "page 1 has text")

        let deadline = Date().addingTimeInterval(240)
        var finished = false
        while model.isLayingOut && Date() < deadline {
            for update in model.update() {
                if case .finished(file: 0) = update { finished = true }
            }
            usleep(20_000)
        }
        #expect(!model.isLayingOut, "the finished document replaced the provisional facts")
        #expect(finished, "the front-ends are told: same pages, the card complete")
        #expect(model.pageCount == provisionalCount, "LibreOffice's layout and its export agree on the pages")
        #expect(model.card?.title == "Quarterly Report", "the title, from the export")
        #expect(model.positionText == "page 1 of \(provisionalCount)")
        // A later page comes from the export; page 1 from the export matches the one drawn first.
        let later = try model.renderPage(provisionalCount - 1, fitting: (300, 400))
        #expect(Self.darkPixels(later) > 50)
        let exported = try model.renderPage(0, fitting: (300, 400))
        #expect(exported.width == first.width && exported.height == first.height)
    }

    @Test func aPageAfterTheFirstFinishesTheDocument() throws {
        let model = model("office-slides.pptx")
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil)
        #expect(model.isLayingOut && model.pageCount == 3)
        let third = try model.renderPage(2, fitting: (320, 240))
        #expect(Self.darkPixels(third) > 20)
        let deadline = Date().addingTimeInterval(60)
        while model.isLayingOut && Date() < deadline {
            _ = model.update()
            usleep(20_000)
        }
        #expect(!model.isLayingOut && model.pageCount == 3)
    }

    @Test func spreadsheetsWaitForTheirPrintedPages() throws {
        let model = model("office-sheet.xlsx")
        defer { model.close() }
        #expect(model.waitUntilOpened() == nil)
        #expect(!model.isLayingOut, "a spreadsheet's pages exist only once exported")
        #expect(model.pageCount == 2)
    }

    static func darkPixels(_ image: RenderedImage) -> Int {
        var dark = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) where Int(image.pixels[i]) + Int(image.pixels[i + 1]) + Int(image.pixels[i + 2]) < 300 {
            dark += 1
        }
        return dark
    }
}
