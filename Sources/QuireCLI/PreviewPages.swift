import Quire
import QuireRenderService

/// A document's pages as `quire preview` draws them: asked of the render service in the
/// command's own process (``Document/renderService()``: the command's memory and time limits,
/// its open file lent, interpreters in the sandboxed worker), with the same requests a viewer
/// sends its worker — facts, pages at a pixel size, an export, an index sheet.
struct PreviewPages {
    let document: Document
    private let service: RenderClient
    private let request: DocumentRequest
    /// What the service knows of the document: its pages and their sizes, or its lines.
    let facts: OpenedDocument

    /// Opens `document` to draw it (``DocumentRequest/drawsOnly``: no card facts; `layout`:
    /// lines of an engine's text form, or pages; `firstPageOnly`: only page 1 will be drawn — an
    /// office document's from LibreOffice's layout — so the pages are not counted; `developRaw`:
    /// a camera RAW file's sensor data instead of its preview).
    init(_ document: Document, password: String?, layout: DocumentRequest.Layout, firstPageOnly: Bool,
         developRaw: Bool) throws(DocumentError) {
        var request = document.renderRequest(password: password, layout: layout)
        request.firstPageOnly = firstPageOnly
        request.drawsOnly = true
        request.developRaw = developRaw
        self.document = document
        self.request = request
        service = document.renderService()
        do { facts = try service.open(request) } catch { throw document.error(from: error) }
    }

    var path: DocumentPath { document.path }
    var pageCount: Int { facts.pageCount }
    func hasPage(_ index: Int) -> Bool { facts.pageSizes.indices.contains(index) }
    /// The lines of an engine's text form (a database, JSON, Markdown, a notebook), when it
    /// was opened as lines and has one.
    var lines: [String]? { facts.text?.lines }

    /// Page `page` (0-based) fitted to `size`, as ``Renderer/render(page:size:allowUpscaling:)`` sizes it.
    func render(page: Int, size: RenderSize, allowUpscaling: Bool) throws(DocumentError) -> RenderedImage {
        let (width, height) = facts.pixelSize(page: page, size: size, allowUpscaling: allowUpscaling, limits: document.limits)
        do { return try service.renderPage(PageRequest(document: request, page: page, width: width, height: height)) } catch {
            throw document.error(from: error)
        }
    }

    func pdfData(pages: [Int]) throws(DocumentError) -> [UInt8] {
        do { return try service.exportPDF(request, pages: pages) } catch { throw document.error(from: error) }
    }

    func svgData(page: Int) throws(DocumentError) -> [UInt8] {
        do { return try service.exportSVG(request, page: page) } catch { throw document.error(from: error) }
    }

    /// The pages on one index sheet, each in a cell of `cellSize` pixels.
    func contactSheet(pages: [Int], cellSize: Int) throws(DocumentError) -> RenderedImage {
        do { return try service.renderContactSheet(request, pages: pages, cellSize: cellSize) } catch {
            throw document.error(from: error)
        }
    }
}
