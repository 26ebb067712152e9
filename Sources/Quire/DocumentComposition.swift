import QuireSheets

extension DocumentPrinter {
    /// Composes the job for `document` as Quire prints it: the pages `pageRanges` names (document
    /// pages, checked against the document), placed on sheets as `sheet` says. Content that
    /// prints by conversion is converted first; PostScript cannot be composed (its pages are known
    /// only to the printer's filters).
    ///
    /// - Throws: ``PrintError`` (`invalidPageRange` for a page past the end, `invalidOption` for a
    ///   layout that cannot be made, `unprintable`), ``DocumentError`` (damaged or locked PDF).
    public func compose(_ document: Document, pageRanges: PageRanges?, sheet: SheetOptions) throws -> ComposedJob {
        let composer = try composer(document, pageRanges: pageRanges, sheet: sheet)
        let pdf = try composer.pdfData()
        let sides = composer.sides.count
        return ComposedJob(pdf: pdf, pages: composer.sides.isEmpty ? [] : try pages(composer.document, pageRanges),
                           pageCount: composer.document.pageCount, sides: sides,
                           sheets: Imposition.sheetCount(sides: sides, options: sheet),
                           summary: Imposition.summary(sides: sides, options: sheet), sidePages: composer.sides.map(\.pages))
    }

    /// The composer for `document` (its PDF open), for a caller that draws sides itself.
    public func composer(_ document: Document, pageRanges: PageRanges?, sheet: SheetOptions) throws -> SheetComposer {
        let pdf: PDFDocument
        switch document.capabilities.print {
        case .unsupported(let reason):
            throw PrintError(.unprintable, "\(document.path): \(reason)")
        case .direct:
            guard document.contentType.family == .pdf else {
                throw PrintError(.unprintable,
                                 "\(document.path): PostScript is sent as it is; Quire cannot place its pages on sheets (print it without paper, scaling, pages-per-side or booklet options)")
            }
            pdf = try PDFDocument(file: document.file)
        case .byConversion:
            pdf = try PDFDocument(file: try conversion.convertedFile(for: document))
        }
        guard pdf.pageCount > 0 else { throw PrintError(.unprintable, "\(document.path): the document has no pages") }
        let chosen = try pages(pdf, pageRanges)
        do {
            return try SheetComposer(document: pdf, pages: chosen, options: sheet)
        } catch {
            throw PrintError(.invalidOption, "\(document.path.displayName): \(error.reason)")
        }
    }

    private func pages(_ pdf: PDFDocument, _ ranges: PageRanges?) throws(PrintError) -> [Int] {
        try ranges?.pages(pageCount: pdf.pageCount) ?? Array(1...pdf.pageCount)
    }
}
