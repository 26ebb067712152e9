import FoundationEssentials

/// Prints documents: resolves the destination, validates options and page ranges against the
/// documents *before* anything is sent, selects pages itself when needed, then submits one job.
///
/// ```swift
/// var options = PrintOptions()
/// options.pageRanges = try PageRanges("2-3")
/// let printer = DocumentPrinter()
/// let plan = try printer.plan([try Document(path: "report.pdf")], destination: nil, options: options)
/// let job = try printer.submit(plan)
/// print(job.requestID)   // "office-12"
/// ```
public struct DocumentPrinter: Sendable {
    public let system: PrintSystem
    /// How text, images and SVG become PDF.
    public let conversion: PrintConversion

    public init(system: PrintSystem = PrintSystem(), conversion: PrintConversion = .standard) {
        self.system = system
        self.conversion = conversion
    }

    /// Checks everything and prepares the job without sending it (what `--dry-run` shows).
    ///
    /// - Throws: ``PrintError`` (unprintable type, bad page range, unknown destination, no
    ///   printers, option not supported) or ``DocumentError`` (damaged or locked PDF).
    public func plan(_ documents: [Document], destination name: String?, options: PrintOptions) throws -> PrintPlan {
        try plan(documents, destination: name, options: options, validatingOptions: true)
    }

    /// ``plan(_:destination:options:)``, optionally without checking the options against the
    /// printer's capabilities: ``submit(_:willSend:)`` checks them again, with the same errors,
    /// before it creates the job, so a caller that submits right away saves a round trip
    /// (`cupsCopyDestInfo`, the printer's whole attribute set).
    package func plan(_ documents: [Document], destination name: String?, options: PrintOptions,
                      validatingOptions: Bool) throws -> PrintPlan {
        let (planned, pageRangesValue) = try items(for: documents, options: options)
        let destination = try system.destination(named: name)
        if validatingOptions { try system.validate(options, for: destination) }
        var warnings: [String] = []
        if let problem = destination.problem, destination.isAcceptingJobs {
            warnings.append("\(destination.fullName) is \(problem); the job waits in the queue until the printer is resumed")
        }
        return PrintPlan(destination: destination, options: options, items: planned,
                         pageRangesValue: pageRangesValue, warnings: warnings)
    }

    /// The documents' half of planning, without the print system: each document checked (type,
    /// page ranges against its page count, conversion to PDF) and the job's `page-ranges` value
    /// (nil when Quire selects the pages itself, with number-up). `keepingPDFs: false` is for a
    /// job sent right away (no preview, no page selection): a PDF's page count may then come
    /// from poppler's Splash library (libpoppler-cpp, lighter to load than poppler-glib); a PDF it
    /// cannot open is read with poppler-glib, whose errors are the ones reported.
    package func items(for documents: [Document], options: PrintOptions,
                       keepingPDFs: Bool = true) throws -> (items: [PrintPlan.Item], pageRangesValue: String?) {
        var planned: [PrintPlan.Item] = []
        let selectPagesOurselves = options.pageRanges != nil && (options.numberUp ?? 1) > 1
        var pageRangesValue: String?
        for document in documents {
            let item = try item(for: document, options: options, selectPages: selectPagesOurselves, keepingPDF: keepingPDFs)
            planned.append(item)
            if !selectPagesOurselves, options.pageRanges != nil, let pages = item.pages {
                // One job-level page-ranges for all documents (validated against each).
                pageRangesValue = pageRangesValue ?? PageRanges.compact(pages)
            }
        }
        if !selectPagesOurselves, let ranges = options.pageRanges, pageRangesValue == nil {
            pageRangesValue = ranges.description  // PostScript: page count unknown, CUPS applies it
        }
        return (planned, selectPagesOurselves ? nil : pageRangesValue)
    }

    /// Checks and prepares the job of a document read elsewhere (a viewer's render worker): its
    /// page count and, for content that prints by conversion, the PDF it became. Nothing is
    /// opened or parsed here — the page ranges are checked against `pageCount`, and the file (or
    /// `convertedPDF`) is sent as it is.
    public func plan(prepared document: Document, pageCount: Int?, convertedPDF: [UInt8]?, destination name: String?,
                     options: PrintOptions) throws -> PrintPlan {
        if case .unsupported(let reason) = document.capabilities.print {
            throw PrintError(.unprintable, "\(document.path): \(reason)")
        }
        if convertedPDF == nil, case .byConversion = document.capabilities.print {
            throw PrintError(.unprintable, "\(document.path): it must be converted to PDF before it prints")
        }
        if (options.numberUp ?? 1) > 1, options.pageRanges != nil {
            throw PrintError(.invalidOption, "pages per sheet with a page range: print the file with quire print")
        }
        var pages: [Int]?
        if let pageCount {
            guard pageCount > 0 else { throw PrintError(.unprintable, "\(document.path): the document has no pages") }
            pages = try options.pageRanges?.pages(pageCount: pageCount) ?? Array(1...pageCount)
        }
        let source: PrintDocument.Source = convertedPDF.map { .data($0) } ?? .file(document.file)
        let mimeType = convertedPDF != nil || document.contentType.family == .pdf ? "application/pdf" : document.contentType.mimeType
        let item = PrintPlan.Item(document: PrintDocument(source: source, mimeType: mimeType, name: document.path.displayName),
                                  pageCount: pageCount, pages: pages, pdf: nil, pagesSelectedBeforeSending: false)
        var pageRangesValue: String?
        if let ranges = options.pageRanges { pageRangesValue = pages.map(PageRanges.compact) ?? ranges.description }
        let destination = try system.destination(named: name)
        try system.validate(options, for: destination)
        var warnings: [String] = []
        if let problem = destination.problem, destination.isAcceptingJobs {
            warnings.append("\(destination.fullName) is \(problem); the job waits in the queue until the printer is resumed")
        }
        return PrintPlan(destination: destination, options: options, items: [item],
                         pageRangesValue: pageRangesValue, warnings: warnings)
    }

    /// Sends the planned job. If anything fails after the job was created it is cancelled
    /// (see ``PrintSystem/submit(_:to:options:pageRangesValue:willSend:)``). The destination's
    /// state is read again: a printer removed, stopped or rejecting since planning is reported.
    ///
    /// - Parameter willSend: called before each document is sent, with its index.
    public func submit(_ plan: PrintPlan,
                       willSend: (_ index: Int, _ document: PrintDocument) -> Void = { _, _ in }) throws(PrintError) -> PrintJob {
        try system.submit(plan.items.map(\.document), to: plan.destination, options: plan.options,
                          pageRangesValue: plan.pageRangesValue, willSend: willSend)
    }

    /// A PDF with exactly the pages that would print (all documents, selected pages, in order).
    /// Only PDF content (as sent or after conversion) can be previewed.
    public func previewPDF(_ plan: PrintPlan) throws -> [UInt8] {
        if plan.items.count == 1, let pdf = plan.items[0].pdf, let pages = plan.items[0].pages {
            return try pdf.pdfData(pages: pages)
        }
        guard plan.items.count == 1 else {
            throw PrintError(.invalidOption, "a print preview takes exactly one document")
        }
        throw PrintError(.unprintable, "\(plan.items[0].document.name): a preview needs PDF content")
    }

    /// Loads the library ``items(for:options:keepingPDFs:)`` with `keepingPDFs: false` reads
    /// these documents' PDFs with (poppler's Splash library), when one is a PDF. A caller that
    /// starts other work meanwhile (``PrintSystem/target(named:options:)`` loads libcups) calls
    /// this first: the dynamic loader loads one library at a time, and each load, with its
    /// dozens of dependencies, takes milliseconds.
    package func loadPDFLibrary(for documents: [Document]) {
        if documents.contains(where: { $0.contentType.family == .pdf }) { _ = SplashPDFDocument.isAvailable }
    }

    func item(for document: Document, options: PrintOptions, selectPages: Bool, keepingPDF: Bool = true) throws -> PrintPlan.Item {
        let name = document.path.displayName
        if !keepingPDF, !selectPages, case .direct = document.capabilities.print, document.contentType.family == .pdf,
           SplashPDFDocument.isAvailable, let splash = try? SplashPDFDocument(file: document.file) {
            // Only the page count is needed (it throws for a PDF without pages, which poppler-glib
            // then reports below). Same poppler underneath, so the same count.
            let pages = try options.pageRanges?.pages(pageCount: splash.pageCount) ?? Array(1...splash.pageCount)
            return PrintPlan.Item(document: PrintDocument(source: .file(document.file), mimeType: "application/pdf", name: name),
                                  pageCount: splash.pageCount, pages: pages, pdf: nil, pagesSelectedBeforeSending: false)
        }
        let pdf: PDFDocument?
        var source: PrintDocument.Source
        var mimeType = document.contentType.mimeType
        switch document.capabilities.print {
        case .unsupported(let reason):
            throw PrintError(.unprintable, "\(document.path): \(reason)")
        case .direct:
            source = .file(document.file)
            pdf = document.contentType.family == .pdf ? try PDFDocument(file: document.file) : nil
            if pdf != nil { mimeType = "application/pdf" }
        case .byConversion:
            let converted = try conversion.convertedFile(for: document)
            source = .file(converted)
            mimeType = "application/pdf"
            pdf = try PDFDocument(file: converted)
        }
        var pages: [Int]?
        if let pdf {
            // A damaged page tree can leave no readable page: nothing would print.
            guard pdf.pageCount > 0 else { throw PrintError(.unprintable, "\(document.path): the PDF has no pages") }
            pages = try options.pageRanges?.pages(pageCount: pdf.pageCount) ?? Array(1...max(1, pdf.pageCount))
            if selectPages, let selected = pages {
                source = .data(try pdf.pdfData(pages: selected))
            }
        }
        return PrintPlan.Item(document: PrintDocument(source: source, mimeType: mimeType, name: name),
                              pageCount: pdf?.pageCount, pages: pages, pdf: pdf,
                              pagesSelectedBeforeSending: selectPages && pdf != nil)
    }
}

/// A checked, ready-to-send print job (see ``DocumentPrinter/plan(_:destination:options:)``).
///
/// A plan holds the open PDF documents it will send (not thread-safe), so it is not `Sendable`:
/// plan and submit in one task.
public struct PrintPlan {
    public struct Item {
        public let document: PrintDocument
        /// Pages in the document, when known (PDF).
        public let pageCount: Int?
        /// The document pages that will print, when known.
        public let pages: [Int]?
        let pdf: PDFDocument?
        /// Whether Quire extracted the pages itself (page ranges with number-up).
        public let pagesSelectedBeforeSending: Bool
    }

    public let destination: Destination
    public let options: PrintOptions
    public let items: [Item]
    /// The `page-ranges` sent to the scheduler, if any.
    public let pageRangesValue: String?
    /// Things the user should know (e.g. the printer is stopped).
    public let warnings: [String]
}
