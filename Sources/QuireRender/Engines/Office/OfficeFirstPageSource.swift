import QuireTypes

/// An office document's pages as LibreOffice has laid them out, before the PDF export: page 1
/// is painted straight from the layout (so a viewer shows it while the rest is exported), the
/// page count and sizes are the layout's. ``complete()`` exports the PDF every page then comes
/// from — what prints.
final class OfficeFirstPageSource: ProvisionalPageSource {
    private let document: OfficeDocument.ID
    private let pageSizes: [PageSize]
    private let input: RenderEngine.Input

    init(document: OfficeDocument.ID, pageSizes: [PageSize], input: RenderEngine.Input) {
        self.document = document
        self.pageSizes = pageSizes
        self.input = input
    }

    // The office closes the document when it is exported (``complete()``), or here.
    deinit { OfficeKit.close(document) }

    var path: DocumentPath { input.file.path }
    var pageCount: Int { pageSizes.count }
    var isPaper: Bool { true }

    func pageSize(at index: Int) -> PageSize { pageSizes[index] }

    func raster(page index: Int, width: Int, height: Int) throws(DocumentError) -> CairoImage {
        guard index == 0 else { throw Self.notLaidOut(path) }
        let document = self.document
        let pixels = try OfficeKit.withOffice(path) { (office) throws(DocumentError) in
            try office.document(document).paintFirstPage(width: width, height: height)
        }
        return try CairoImage(copyingARGB32: pixels, width: width, height: height, path: path)
    }

    func draw(page index: Int, in cr: OpaquePointer, forPrinting: Bool) throws(DocumentError) {
        throw Self.notLaidOut(path)
    }

    func complete() throws(DocumentError) -> RenderEngine.Opened {
        try OfficeEngine.exported(document, input)
    }

    private static func notLaidOut(_ path: DocumentPath) -> DocumentError {
        DocumentError(kind: .damaged, path: path, reason: "only page 1 is ready: the document is still being laid out")
    }
}
