import QuireTypes

/// Office documents (Word, Excel, PowerPoint, OpenDocument, RTF, Apple iWork) page by page:
/// the process's warm LibreOffice (``OfficeKit``) lays the document out and exports it as PDF
/// into its private directory, and the pages, their sizes, text, title and author come from
/// that PDF through the PDF engine (poppler) — so the viewers, `preview`, `info` and Print see
/// an office file as the PDF LibreOffice makes of it. Spreadsheets give each sheet's printed
/// pages, presentations one slide per page.
///
/// The preview image a zip-based file carries is used instead:
/// - for thumbnails (``RenderEngine/Input/preferEmbeddedPreview``), when there is one: it is
///   what the producing application drew, and costs milliseconds instead of a layout;
/// - without LibreOffice, and for a file LibreOffice cannot import (some iWork files).
enum OfficeEngine {
    static func open(_ input: RenderEngine.Input) throws(DocumentError) -> RenderEngine.Opened {
        if input.csvAsSpreadsheet { return try spreadsheet(input) }
        let zipBased = DocumentFamily.carriesPreviewImage(input.contentType.mimeType)
        if input.preferEmbeddedPreview && zipBased {
            do {
                return try RenderEngine.containerPreview.open(input)
            } catch where error.kind == .limitExceeded {
                throw error
            } catch {
                // No preview image (or an unreadable one): the pages, when LibreOffice is here.
                guard OfficeInstallation.isInstalled else { throw Self.withoutOffice(error, input) }
            }
        }
        guard OfficeInstallation.isInstalled else {
            guard zipBased else {
                throw DocumentError(kind: .unsupported, path: input.file.path,
                                    reason: "\(input.contentType.localizedDescription) files carry no preview image; install LibreOffice (\(OfficeInstallation.packageHint)) for every page")
            }
            do {
                return try RenderEngine.containerPreview.open(input)
            } catch {
                throw Self.withoutOffice(error, input)
            }
        }
        // A zip that is no zip, a zip bomb or a broken compound file never reaches the office.
        // An encrypted OOXML file is a compound file holding the encrypted package (Excel's own
        // default password "VelvetSweatshop", for a workbook only structure-protected, opens
        // without asking; any other password is asked for by LibreOffice's password callback).
        if zipBased && !CompoundFileCheck.hasSignature(input.file) {
            try ZipDirectoryCheck.check(input.file, limits: input.limits)
        } else {
            try CompoundFileCheck.check(input.file)
            if CompoundFileCheck.isEncryptedWordDocument(input.file) {
                throw DocumentError(kind: .passwordRequired, path: input.file.path,
                                    reason: "the document is password-protected (an encrypted Word 97–2003 document: LibreOffice fails on its password request, so it cannot be opened)")
            }
        }
        do throws(DocumentError) {
            // Page 1 alone (a thumbnail, `preview` of page 1) is painted from LibreOffice's
            // layout, never exported with the rest (so a document whose export fails or takes
            // long still has one), and the page limit does not apply: it bounds what is drawn.
            // In a one-shot command: laid out and drawn in the sandboxed worker (which takes no
            // password: with one, the conversion that asks for it, sandboxed too).
            let pageOneOnly = input.firstPageOnly && input.password == nil
            if pageOneOnly,
               let pages = try input.interpreters.host?.pages(input.file, tool: "LibreOffice", firstPageOnly: true) {
                return InterpreterIsolation.opened(pages, path: input.file.path)
            }
            // A viewer (its render worker) shows page 1 from the layout while the rest is
            // exported; everything else gets the PDF at once (from a sandboxed worker, for the
            // one-shot commands: OfficeConversion).
            if input.firstPageFirst || pageOneOnly {
                let file = input.file, password = input.password
                let document = try OfficeKit.withOffice(file.path) { (office) throws(DocumentError) in
                    office.keep(try office.load(file, password: password))
                }
                let sizes = try OfficeKit.withOffice(file.path) { (office) throws(DocumentError) in
                    try office.document(document).laidOutPageSizes()
                }
                if let sizes {
                    if !pageOneOnly {
                        do throws(DocumentError) { try checkPageLimit(sizes.count, input) } catch {
                            OfficeKit.close(document)
                            throw error
                        }
                    }
                    return RenderEngine.Opened(source: OfficeFirstPageSource(document: document, pageSizes: sizes, input: input))
                }
                if pageOneOnly { return try firstPageExported(document, input) }
                return try exported(document, input)
            }
            return try pages(of: try OfficeConversion.pdf(input.file, password: input.password, interpreters: input.interpreters), input)
        } catch {
            // LibreOffice cannot import every iWork file; their preview image is better than nothing.
            if error.kind == .damaged, zipBased, let fallback = try? RenderEngine.containerPreview.open(input) {
                return fallback
            }
            throw error
        }
    }

    /// Delimited text as LibreOffice Calc prints it (``SpreadsheetText``), asked for by name:
    /// without LibreOffice there is nothing to fall back to.
    static func spreadsheet(_ input: RenderEngine.Input) throws(DocumentError) -> RenderEngine.Opened {
        guard OfficeInstallation.isInstalled else {
            throw DocumentError(kind: .unsupported, path: input.file.path,
                                reason: "a CSV file is laid out as a spreadsheet by LibreOffice Calc, which is not installed (\(OfficeInstallation.packageHint))")
        }
        if input.firstPageFirst {
            let file = input.file, contentType = input.contentType, limits = input.limits
            let document = try OfficeKit.withOffice(file.path) { (office) throws(DocumentError) in
                office.keep(try office.loadSpreadsheetText(file, contentType: contentType, limits: limits))
            }
            return try exported(document, input)
        }
        return try pages(of: try OfficeConversion.pdf(input.file, password: nil, csvAsSpreadsheet: true,
                                                      contentType: input.contentType, limits: input.limits,
                                                      interpreters: input.interpreters), input)
    }

    /// The document's pages as they print: exported as PDF by LibreOffice (then closed), read
    /// by poppler.
    static func exported(_ document: OfficeDocument.ID, _ input: RenderEngine.Input) throws(DocumentError) -> RenderEngine.Opened {
        let pdf = try OfficeKit.withOffice(input.file.path) { (office) throws(DocumentError) in
            defer { office.close(document) }
            return try office.exportPDF(try office.document(document))
        }
        return try pages(of: pdf, input)
    }

    /// Page 1 alone as it prints, exported by LibreOffice (then closed): a spreadsheet, whose
    /// printed pages no layout shows. How many pages follow it is not known.
    static func firstPageExported(_ document: OfficeDocument.ID, _ input: RenderEngine.Input) throws(DocumentError) -> RenderEngine.Opened {
        let pdf = try OfficeKit.withOffice(input.file.path) { (office) throws(DocumentError) in
            defer { office.close(document) }
            return try office.exportFirstPage(try office.document(document))
        }
        var opened = try pages(of: pdf, input)
        opened.pageCountIsKnown = false
        return opened
    }

    /// LibreOffice's PDF of the document, read by poppler: every page as it prints.
    static func pages(of pdf: InputFile, _ input: RenderEngine.Input) throws(DocumentError) -> RenderEngine.Opened {
        let source: PDFPageSource
        do {
            source = try PDFPageSource(file: pdf, password: nil, displayPath: input.file.path)
        } catch {
            throw DocumentError(kind: .damaged, path: input.file.path, reason: "LibreOffice's PDF of it is unreadable (\(error.reason))")
        }
        try checkPageLimit(source.pageCount, input)
        return RenderEngine.Opened(source: source)
    }

    static func checkPageLimit(_ pages: Int, _ input: RenderEngine.Input) throws(DocumentError) {
        if pages > input.limits.maximumPages {
            throw DocumentError(kind: .limitExceeded, path: input.file.path,
                                reason: "LibreOffice lays it out on \(pages) pages, " + Limit.pages.exceeded(input.limits.maximumPages, "pages"),
                                remedy: .raise(.pages))
        }
    }
}

extension OfficeEngine {
    /// A file without a preview image, and no LibreOffice: the reason says what to install.
    static func withoutOffice(_ error: DocumentError, _ input: RenderEngine.Input) -> DocumentError {
        guard error.kind == .unsupported else { return error }
        return DocumentError(kind: .unsupported, path: input.file.path,
                             reason: "\(error.reason); install LibreOffice (\(OfficeInstallation.packageHint)) for every page")
    }
}

extension RenderEngine {
    /// Office documents through LibreOfficeKit (every page), else their embedded preview image.
    static let office = RenderEngine(name: "office", families: [.officeDocument]) { (input) throws(DocumentError) in
        try OfficeEngine.open(input)
    }
}
