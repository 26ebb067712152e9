#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Quire
import QuireRenderService
import QuireSystem

/// The current file's actions and its print sheet.
extension ViewerModel {
    // MARK: Actions and printing

    /// The actions for the current file, each with its reason when unavailable.
    public var actions: [ViewerAction] { [printAction] }

    /// The current file as a ``Document`` for printing: the file the viewer holds, typed as the
    /// worker sniffed it (nothing is read or parsed here).
    func document(_ file: OpenFile) -> Document? {
        guard let handle = file.file, let type = file.contentType else { return nil }
        return Document(file: handle, contentType: type, limits: configuration.limits,
                        csvAsSpreadsheet: configuration.csvAsSpreadsheet)
    }

    /// Print: available only when the content is printable and a printer accepts jobs.
    public var printAction: ViewerAction {
        let file = current
        if let known = file.printAction { return known }
        let action: ViewerAction
        if isOpening {
            return ViewerAction(kind: .print, isAvailable: false, reason: "\(fileName) is still opening", detail: nil)
        } else if let document = document(file), problem == nil {
            let evaluated = DocumentInteraction(document: document, printSystem: configuration.printSystem,
                                                conversion: configuration.conversion).print
            action = ViewerAction(kind: .print, isAvailable: evaluated.isAvailable, reason: evaluated.reason,
                                  detail: evaluated.detail)
        } else {
            action = ViewerAction(kind: .print, isAvailable: false,
                                  reason: "the file cannot be printed: \(problem?.message ?? "it cannot be opened")",
                                  detail: nil)
        }
        file.printAction = action
        return action
    }

    /// Forgets the print action's answer so that it is asked again (printers come and go).
    public func refreshActions() { current.printAction = nil }

    /// A print sheet for the current file, or the reason printing cannot work. What will print
    /// is prepared by the worker (waited for): the page count, and for text, images and SVG the
    /// PDF they become; a PDF's page count is the one it was opened with. Nothing is read here.
    public func makePrintSheet() throws(PrintError) -> PrintSheet {
        let action = printAction
        let file = current
        guard action.isAvailable, let document = document(file), let facts = file.facts else {
            throw PrintError(.unprintable, action.reason ?? "printing is not available")
        }
        let prepared: PrintableDocument
        switch document.contentType.family {
        case .pdf: prepared = PrintableDocument(pageCount: facts.pageCount, convertedPDF: nil)
        case .postscript: prepared = PrintableDocument(pageCount: nil, convertedPDF: nil)
        default:
            switch printable() {
            case .success(let document): prepared = document
            case .failure(let problem): throw PrintError(.unprintable, "\(fileName): \(problem.message)")
            }
        }
        let pages = prepared.pageCount
        return try PrintSheet(document: document, prepared: prepared, currentPage: pages == nil ? nil : page + 1,
                              system: configuration.printSystem, conversion: configuration.conversion,
                              compose: { [unowned self] sheet in self.composedJob(sheet) })
    }

    /// The current file as it prints, from the worker (waited for, at most the render timeout).
    func printable() -> Result<PrintableDocument, RenderProblem> {
        let file = files[fileIndex]
        let job = OpenJob(file: fileIndex, request: documentRequest(file),
                          want: .printable)
        guard case .printable(_, let result)? = answer(to: job) else {
            return .failure(RenderProblem(.workerFailed, "the renderer did not prepare the file for print in time"))
        }
        return result
    }
}
