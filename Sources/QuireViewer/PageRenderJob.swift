import Quire
import QuireRenderService

/// One page to render at an exact pixel size, as ``ViewerModel/pageJob(_:fitting:)`` describes
/// it; Sendable, so it can go to the render thread.
public struct PageRenderJob: Sendable, Hashable {
    /// Which opened file (the model's file index); with the path, password and layout, which
    /// opening of it: a new password or another file makes older jobs' results stale.
    public let file: Int
    public let path: DocumentPath
    public let password: String?
    public let page: Int
    public let width: Int
    public let height: Int
    /// What the page is for: each purpose has a wish list of its own on a ``RenderQueue``.
    public let purpose: Purpose
    /// Text as the viewer shows it or laid out on paper (print previews of text files).
    public let layout: DocumentRequest.Layout
    /// When set, ``page`` is a side (0-based) of this composed print job (a print sheet's preview).
    public let sheet: SheetRequest?
    /// When set, this is frame `frame` (0-based) of an animated image (page 0), not the page:
    /// answered as an ``AnimationFrame``.
    public let frame: Int?
    let maximumFileSize: Int64
    /// A CSV or TSV file laid out by LibreOffice Calc (``DocumentRequest/csvAsSpreadsheet``).
    let csvAsSpreadsheet: Bool
    /// A camera RAW file's sensor data developed (``DocumentRequest/developRaw``).
    let developRaw: Bool

    /// What a page is rendered for.
    public enum Purpose: Int, Sendable, Hashable, CaseIterable {
        /// The pages in view and their neighbours (rendered first).
        case view
        /// A print sheet's preview strip (rendered when no page of the view is waiting).
        case printPreview
        /// The window's page sidebar: small pictures of the pages (after the view's pages).
        case sidebar
        /// An index sheet's tiles: the first page of each file.
        case indexSheet
        /// An animation's frames, asked a little ahead of the one shown (after the view's pages).
        case animation
    }

    init(file: Int, path: DocumentPath, password: String?, page: Int, width: Int, height: Int, purpose: Purpose = .view,
         layout: DocumentRequest.Layout = .view, sheet: SheetRequest? = nil, frame: Int? = nil, maximumFileSize: Int64,
         csvAsSpreadsheet: Bool = false, developRaw: Bool = false) {
        self.file = file
        self.path = path
        self.password = password
        self.page = page
        self.width = width
        self.height = height
        self.purpose = purpose
        self.layout = layout
        self.sheet = sheet
        self.frame = frame
        self.maximumFileSize = maximumFileSize
        self.csvAsSpreadsheet = csvAsSpreadsheet
        self.developRaw = developRaw
    }

    /// The same page for another purpose.
    func with(purpose: Purpose) -> PageRenderJob {
        PageRenderJob(file: file, path: path, password: password, page: page, width: width, height: height, purpose: purpose,
                      layout: layout, sheet: sheet, frame: frame, maximumFileSize: maximumFileSize, csvAsSpreadsheet: csvAsSpreadsheet,
                      developRaw: developRaw)
    }

    /// The render service's request for this page.
    var request: PageRequest {
        var document = DocumentRequest(path: path, password: password, maximumFileSize: maximumFileSize, layout: layout,
                                       csvAsSpreadsheet: csvAsSpreadsheet)
        document.developRaw = developRaw
        return PageRequest(document: document, page: frame ?? page, width: width, height: height, sheet: sheet)
    }
}
