import QuireRenderService
import QuireSheets

extension DocumentPrinter {
    /// Composes the job for `document` as Quire prints it: the pages `pageRanges` names (document
    /// pages, checked against the document), placed on sheets as `sheet` says — by the render
    /// service (``Document/renderService()``), which composes the viewers' print sheets too.
    /// Content that prints by conversion is converted first; PostScript cannot be composed (its
    /// pages are known only to the printer's filters).
    ///
    /// - Throws: ``PrintError`` (`invalidPageRange` for a page past the end, `invalidOption` for a
    ///   layout that cannot be made, `unprintable`), ``DocumentError`` (damaged or locked PDF).
    public func compose(_ document: Document, pageRanges: PageRanges?, sheet: SheetOptions) throws -> ComposedJob {
        if case .unsupported(let reason) = document.capabilities.print {
            throw PrintError(.unprintable, "\(document.path): \(reason)")
        }
        let service = document.renderService()
        let request = document.renderRequest()
        let printable: PrintableDocument
        do { printable = try service.printable(request) } catch {
            throw Self.printError(error, document, converting: true)
        }
        guard let pageCount = printable.pageCount else {
            throw PrintError(.unprintable, "\(document.path): \(SheetRequest.postScriptIsNotComposed)")
        }
        guard pageCount > 0 else { throw PrintError(.unprintable, "\(document.path): the document has no pages") }
        let pages = try pageRanges?.pages(pageCount: pageCount) ?? Array(1...pageCount)
        let composed: PrintableDocument
        do { composed = try service.composedJob(request, sheet: SheetRequest(pages: pages, options: sheet)) } catch {
            throw Self.printError(error, document, converting: false)
        }
        let sides = composed.pageCount ?? 0
        return ComposedJob(pdf: composed.convertedPDF ?? [], pages: sides == 0 ? [] : pages, pageCount: pageCount, sides: sides,
                           sheets: Imposition.sheetCount(sides: sides, options: sheet),
                           summary: Imposition.summary(sides: sides, options: sheet))
    }

    /// The service's problem as printing reports it: a damaged or locked PDF as its document
    /// error, a conversion that failed as unprintable, a layout that cannot be made as an
    /// invalid option.
    private static func printError(_ problem: RenderProblem, _ document: Document, converting: Bool) -> any Error {
        guard let error = problem.documentError else { return PrintError(.unprintable, "\(document.path): \(problem.message)") }
        if !converting { return PrintError(.invalidOption, "\(document.path.displayName): \(error.reason)") }
        if case .byConversion = document.capabilities.print { return PrintError(.unprintable, error.description) }
        return error
    }
}
