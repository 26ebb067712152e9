import Quire
import QuireRenderService

/// A file for the render worker to read: its facts (to show it) or the document as it prints;
/// the answer comes back to the model.
public struct OpenJob: Sendable, Hashable {
    /// What is wanted of the file.
    public enum Want: Sendable, Hashable {
        /// Its facts: pages and their sizes, card facts, a text file's lines.
        case facts
        /// The document as it prints (``PrintableDocument``).
        case printable
        /// The print job composed as the sheet says (``SheetRequest``): its PDF, and its sides
        /// as the page count.
        case composed(SheetRequest)
        /// An archive entry's bytes (its path as listed), to open as a file of its own.
        case entry(String)
        /// A PDF's form fields (``FormFacts``), for the card.
        case form
    }

    /// The model's file index.
    public let file: Int
    public let request: DocumentRequest
    public var want: Want = .facts
    /// Page 1 to render as soon as the file is open, before anyone asks for it, with the box
    /// the front-end's view will at least have as its size (``ViewerModel/Configuration/pageOneAheadBox``):
    /// done only when the page's size is the same for every box from this one up.
    public var pageOneAhead: PageRenderJob?
    /// The limits the page's size is worked out with (those of the model).
    public var pageOneAheadLimits: RenderLimits?

    /// The page to render now for `facts` (page 1 at the size every view from the ahead box
    /// up asks for), or nil when there is none or its size depends on the view.
    func pageOneAhead(for facts: OpenedDocument) -> PageRenderJob? {
        guard let template = pageOneAhead, let limits = pageOneAheadLimits, facts.isRaster, !facts.pageSizes.isEmpty else { return nil }
        let atBox = facts.pixelSize(page: 0, size: .fit(width: template.width, height: template.height), allowUpscaling: false, limits: limits)
        let larger = facts.pixelSize(page: 0, size: .fit(width: template.width * 8, height: template.height * 8), allowUpscaling: false, limits: limits)
        guard atBox == larger else { return nil }
        return PageRenderJob(file: template.file, path: template.path, password: template.password, page: 0,
                             width: atBox.width, height: atBox.height, maximumFileSize: template.maximumFileSize,
                             csvAsSpreadsheet: template.csvAsSpreadsheet, developRaw: template.developRaw)
    }
}
