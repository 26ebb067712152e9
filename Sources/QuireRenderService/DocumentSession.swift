#if canImport(Glibc)
import Glibc
#endif
import QuireGIO
import QuireRender
import QuireSheets
import QuireSystem
import QuireTypes

/// The render service's core: answers each ``RenderRequest`` with a ``DocumentReply``, opening
/// a document through the engine table (``Renderer``) and keeping it open while requests name
/// it (a viewer pages through one file at a time): `open` with the document's facts, `page`
/// with pixels, `text` with a page's text, a composed print job, a form, a save… Plain request
/// → reply: reading and writing the pipe is the worker loop's (``RenderWorker``). It runs in
/// a render worker, or — for a one-shot command, through the same ``RenderClient`` — in the
/// command's own process (``RenderClient/init(inProcess:interpreters:)``); the viewers never
/// open a document themselves.
final class DocumentSession {
    let limits: RenderLimits
    let hooks: WorkerTestHooks
    /// The `Software` a thumbnail's keys name ("Quire 1.2.3").
    let software: String
    /// Whether this session answers for file after file (a worker), so libraries are kept warm;
    /// a one-shot command's session draws one file.
    let servesManyFiles: Bool
    /// The document open now, and the request that opened it.
    private var open: (request: DocumentRequest, renderer: Renderer?, facts: OpenedDocument)?
    /// The file ``open`` was read from, as it was then.
    private var openedFile: FileIdentity?

    /// A file's device, inode, size and modification time: another file at the path, or the
    /// file written since, differs.
    private struct FileIdentity: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

        init?(path: DocumentPath) {
            var status = stat()
            guard path.withCString({ stat($0, &status) }) == 0 else { return nil }
            self.init(status)
        }

        init?(descriptor: FileDescriptor) {
            var status = stat()
            guard fstat(descriptor.rawValue, &status) == 0 else { return nil }
            self.init(status)
        }

        private init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            seconds = Int(status.st_mtim.tv_sec)
            nanoseconds = Int(status.st_mtim.tv_nsec)
        }
    }

    /// Where LibreOffice, GStreamer and Ghostscript run: here in a worker (``Interpreters/worker``),
    /// in a sandboxed worker for a command's own process (``OneShotSandbox``).
    let interpreters: Interpreters

    init(limits: RenderLimits, hooks: WorkerTestHooks, interpreters: Interpreters = .worker, software: String,
         servesManyFiles: Bool) {
        self.limits = limits
        self.hooks = hooks
        self.software = software
        self.servesManyFiles = servesManyFiles
        self.interpreters = interpreters
    }

    /// Answers one request: the reply, or the problem that stopped it (``DocumentReply/failed(_:)``).
    /// Nothing is read or written here — the worker's loop (``RenderWorker``) reads requests
    /// from its pipe and sends the replies; a command's own process (``RenderClient``'s
    /// in-process road) hands them over as values.
    func answer(_ request: RenderRequest) -> DocumentReply {
        do throws(RenderProblem) {
            switch request {
            case .thumbnail(let thumbnail): return .thumbnails(thumbnails(thumbnail))
            case .open(let document): return .opened(try facts(document))
            case .page(let page): return .rendered(try render(page), delay: nil)
            case .frame(let page):
                let (image, delay) = try frame(page)
                return .rendered(image, delay: delay)
            case .text(let page): return .text(try text(page))
            case .extractEntry(let document, let entry): return .entry(try entryBytes(entry, of: document))
            case .printable(let document): return .printable(try printable(document))
            case .mediaInfo(let document):
                let (file, _) = try input(document)
                do { return .media(try MediaInfo.read(file)) } catch { throw RenderProblem(error, passwordGiven: false) }
            case .officePDF(let document):
                return .printable(PrintableDocument(pageCount: nil, convertedPDF: try officePDF(document)))
            case .composedSide(let page):
                guard let sheet = page.sheet else { throw RenderProblem(.unsupported, "a composed side needs its sheet") }
                let composer = try composer(page.document, sheet)
                do {
                    return .rendered(try composer.image(side: page.page, width: page.width, height: page.height), delay: nil)
                } catch {
                    throw RenderProblem(error, passwordGiven: page.document.password != nil)
                }
            case .composedJob(let document, let sheet):
                let composer = try composer(document, sheet)
                do {
                    return .printable(PrintableDocument(pageCount: composer.sides.count, convertedPDF: try composer.pdfData()))
                } catch {
                    throw RenderProblem(error, passwordGiven: document.password != nil)
                }
            case .search(let search): return .found(try self.search(search))
            case .textLayout(let page): return .pageText(try pageText(page))
            case .formFields(let document): return .form(try formFacts(document))
            case .info(let document, let showLocation): return .info(try info(document, showLocation: showLocation))
            case .saveChanges(let document, let changes): return .saved(try save(document, changes))
            case .export(let document, let format, let pages):
                let renderer = try renderer(for: document)
                do {
                    switch format {
                    case .pdf: return .exported(try renderer.pdfData(pages: pages))
                    case .svg: return .exported(try renderer.svgData(page: pages?.first ?? 0))
                    }
                } catch {
                    throw RenderProblem(error, passwordGiven: document.password != nil)
                }
            case .contactSheet(let document, let pages, let cellSize):
                let renderer = try renderer(for: document)
                do { return .rendered(try ContactSheet.make(renderer, pages: pages, cellSize: cellSize), delay: nil) } catch {
                    throw RenderProblem(error, passwordGiven: document.password != nil)
                }
            }
        } catch {
            return .failed(error)
        }
    }

    /// An archive entry's bytes; a database's table (opened from its list) as its first rows in
    /// text; a mail attachment's contents.
    private func entryBytes(_ entry: String, of request: DocumentRequest) throws(RenderProblem) -> [UInt8] {
        let (file, type) = try input(request)
        do {
            if type.family == .database { return try DatabaseText.tableText(named: entry, in: file) }
            if type.family == .mail { return try MailAttachment.contents(of: entry, in: file, mimeType: type.mimeType, limits: limits) }
            return try ArchiveListing.contents(of: entry, in: file, limit: limits.maximumInflatedBytes)
        } catch {
            throw RenderProblem(error, passwordGiven: false)
        }
    }

    /// The composed job last asked for, kept while the same document and sheet are asked about
    /// (a preview asks for its sides one by one).
    private var composed: (document: DocumentRequest, sheet: SheetRequest, composer: SheetComposer)?
    /// The document's PDF as it prints (a PDF as it is; other content converted, with the
    /// converted bytes), kept while the same document is asked about.
    private var printPDF: (document: DocumentRequest, pdf: PDFDocument)?
    /// Content that prints by conversion, converted: its PDF's bytes and pages, kept while the
    /// same document is asked about (printing asks for them, then maybe for a composed job).
    private var converted: (document: DocumentRequest, bytes: [UInt8], pageCount: Int)?

    /// A composer for `sheet` over the document as it prints.
    func composer(_ request: DocumentRequest, _ sheet: SheetRequest) throws(RenderProblem) -> SheetComposer {
        if let composed, composed.document == request, composed.sheet == sheet { return composed.composer }
        composed = nil
        let pdf = try printablePDF(request)
        do {
            let composer = try SheetComposer(document: pdf, pages: sheet.pages, options: sheet.options)
            composed = (request, sheet, composer)
            return composer
        } catch {
            throw RenderProblem(error, passwordGiven: request.password != nil)
        }
    }

    /// The document as it prints, open as a PDF: a PDF as it is, content that prints by
    /// conversion converted (``conversion(_:)``). The one place a document becomes the PDF that
    /// is composed, for the viewers and the one-shot commands alike.
    private func printablePDF(_ request: DocumentRequest) throws(RenderProblem) -> PDFDocument {
        if let printPDF, printPDF.document == request { return printPDF.pdf }
        printPDF = nil
        let (file, type) = try input(request)
        let pdf: PDFDocument
        do {
            switch type.capabilities.print {
            case .direct where type.family == .pdf:
                pdf = try PDFDocument(file: file, password: request.password)
            case .byConversion:
                let bytes = try conversion(request).bytes
                do {
                    pdf = try PDFDocument(file: try InputFile.unlinkedTemporary(holding: bytes))
                } catch let error as Errno {
                    throw RenderProblem(.unsupported, "cannot create a temporary file for the converted PDF (\(error))")
                }
            case .direct:
                throw RenderProblem(.unsupported, SheetRequest.postScriptIsNotComposed, mimeType: type.mimeType)
            case .unsupported(let reason):
                throw RenderProblem(.unsupported, reason, mimeType: type.mimeType)
            }
        } catch let problem as RenderProblem {
            throw problem
        } catch let error as DocumentError {
            throw RenderProblem(error, passwordGiven: request.password != nil)
        } catch {
            throw RenderProblem(.unsupported, "\(request.path.displayName): \(error)")
        }
        printPDF = (request, pdf)
        return pdf
    }

    /// Content that prints by conversion (text laid out on pages, an image or SVG on a page) as
    /// the PDF it becomes, and its page count.
    private func conversion(_ request: DocumentRequest) throws(RenderProblem) -> (bytes: [UInt8], pageCount: Int) {
        if let converted, converted.document == request { return (converted.bytes, converted.pageCount) }
        converted = nil
        let (file, type) = try input(request)
        do {
            let renderer = try Renderer(file: file, contentType: type, password: request.password, limits: limits,
                                        csvAsSpreadsheet: request.csvAsSpreadsheet, developRaw: request.developRaw,
                                        interpreters: interpreters)
            let bytes = try renderer.pdfData()
            converted = (request, bytes, renderer.pageCount)
            return (bytes, renderer.pageCount)
        } catch {
            throw RenderProblem(error, passwordGiven: request.password != nil)
        }
    }

    /// Scans pages (or lines of text shown as text) `from..<to` in order for the query, until
    /// the run ends, the time budget is spent or enough matches were found (at least one page
    /// is always scanned, so every request moves the search on).
    func search(_ request: SearchRequest) throws(RenderProblem) -> SearchChunk {
        if request.tableRows { return try searchTableRows(request) }
        let facts = try facts(request.document)
        let started = Deadline.now()
        let budget = Double(request.budgetMilliseconds) / 1000
        var matches: [FindMatch] = []
        var textless: [Int] = []
        if let text = facts.text {
            let needle = TextFolding(request.query.unicodeScalars).scalars
            let end = min(request.to, text.lineCount)
            var line = request.from
            while line < end {
                for range in TextFolding(text.lines[line].unicodeScalars).ranges(of: needle) {
                    matches.append(FindMatch(page: line, characters: range))
                }
                line += 1
                // Lines are cheap: the clock is read every 256 of them.
                if line & 255 == 0, matches.count >= request.maximumMatches || Deadline.now() - started >= budget { break }
            }
            return SearchChunk(matches: Array(matches.prefix(request.maximumMatches)), next: min(line, end), textlessPages: [])
        }
        let renderer = try renderer(for: request.document)
        let end = min(request.to, renderer.pageCount)
        var page = request.from
        while page < end {
            let found: PageMatches?
            do {
                found = try renderer.find(request.query, page: page)
            } catch {
                throw RenderProblem(error, passwordGiven: request.document.password != nil)
            }
            guard let found else {
                throw RenderProblem(.unsupported, "this kind of file has no text to search")
            }
            if !found.hasText { textless.append(page) }
            for boxes in found.matches {
                matches.append(FindMatch(page: page, boxes: Array(boxes.prefix(FindMatch.maximumBoxes))))
            }
            page += 1
            if matches.count >= request.maximumMatches || Deadline.now() - started >= budget { break }
        }
        return SearchChunk(matches: Array(matches.prefix(request.maximumMatches)), next: min(page, end), textlessPages: textless)
    }

    /// A table's rows `from..<to` (in the request's sort order) searched for the query, cell by
    /// cell: a row whose cells hold it is a match (its row number, no characters). Past the
    /// window a viewer shows, so that find goes on through the whole file.
    private func searchTableRows(_ request: SearchRequest) throws(RenderProblem) -> SearchChunk {
        if !(table.map { $0.path == request.document.path } ?? false)
            || (request.document.tableSort.map { sort in tableOrder.map { $0.column != sort.column || $0.descending != sort.descending } ?? true } ?? false) {
            _ = try facts(request.document)  // opens the table (and sorts it) as the viewer shows it
        }
        guard let table = table?.table else { throw RenderProblem(.unsupported, "only a table's rows can be searched past its window") }
        let order = request.document.tableSort == nil ? nil : tableOrder
        let search = TableRowSearch(table: table, order: order, query: request.query)
        let end = min(request.to, order?.count ?? Int(Int32.max))
        let deadline = DelimitedTable.now() + Double(request.budgetMilliseconds) / 1000
        // A sorted order: the rows that hold the word are found in file order first (in slices,
        // kept for this find's next requests), then matched by where they start.
        if order != nil, !(tableFindStarts.map { $0.query == request.query && $0.path == request.document.path } ?? false) {
            tableFindStarts = TableFindStarts(path: request.document.path, query: request.query, origin: request.from)
        }
        if order != nil, var found = tableFindStarts, let scanning = found.scanned {
            let (next, overflow) = search.matchingRecords(from: scanning, into: &found.starts, limit: 1_000_000, deadline: deadline)
            found.scanned = next
            found.overflow = overflow
            tableFindStarts = found
            table.releasePages()
            // Not done: nothing yet (the viewer asks again); done: from where this find began.
            if next != nil { return SearchChunk(matches: [], next: request.backward ? request.to : request.from + 1, textlessPages: []) }
        }
        if request.backward { return searchTableRowsBackward(request, search: search, order: order, deadline: deadline) }
        // The positions passed while the file was read are matched once, with the first request after.
        let lower = min(request.from, order == nil ? request.from : tableFindStarts?.origin ?? request.from)
        tableFindStarts?.origin = nil
        let range = lower..<max(request.from, end)
        let (rows, next) = if order != nil, let found = tableFindStarts, !found.overflow {
            search.rows(in: range, among: found.starts, limit: request.maximumMatches)
        } else {
            search.rows(in: range, limit: request.maximumMatches, deadline: deadline)
        }
        // The pages read are given back (a sorted order reads rows all over the file).
        table.releasePages()
        let matches = rows.map { FindMatch(page: $0) }
        // Past the table's last row: the whole run is done.
        let row = next >= end ? request.to : next
        return SearchChunk(matches: matches, next: max(row, request.from + 1), textlessPages: [])
    }

    /// `N` past the window: the last row below `request.to` (and from `request.from`) that holds
    /// the word, read going down in batches of 512 rows (each batch read forward, its last match
    /// taken) until one holds it or the budget is spent. A run that reaches past the table's end
    /// starts at its last row (the rows are counted first, as End does).
    private func searchTableRowsBackward(_ request: SearchRequest, search: TableRowSearch, order: TableSortOrder?,
                                         deadline: Double) -> SearchChunk {
        guard let table = table?.table else { return SearchChunk(matches: [], next: request.from, textlessPages: []) }
        // A forward find's first request matches from where it began: not after this one.
        tableFindStarts?.origin = nil
        let starts = order == nil ? nil : tableFindStarts.flatMap { $0.scanned == nil && !$0.overflow ? $0.starts : nil }
        let total = order?.count ?? table.countAllRows().rows
        var row = min(request.to, total)
        defer { table.releasePages() }
        while row > request.from {
            let batch = max(request.from, row - 512)..<row
            let found = if let starts {
                search.rows(in: batch, among: starts, limit: batch.count).matches
            } else {
                search.rows(in: batch, limit: batch.count, deadline: .infinity).matches
            }
            if let last = found.last { return SearchChunk(matches: [FindMatch(page: last)], next: last, textlessPages: []) }
            row = batch.lowerBound
            if DelimitedTable.now() >= deadline { break }
        }
        return SearchChunk(matches: [], next: row, textlessPages: [])
    }

    /// A page's text with a box per character; whether the document lets it be copied.
    func pageText(_ request: PageRequest) throws(RenderProblem) -> PageText {
        let renderer = try renderer(for: request.document)
        let layout: PageTextLayout?
        do {
            layout = try renderer.textLayout(page: request.page)
        } catch {
            throw RenderProblem(error, passwordGiven: request.document.password != nil)
        }
        guard let layout else { throw RenderProblem(.unsupported, "this kind of file has no text to select") }
        let annotations = (try? renderer.annotations(page: request.page)) ?? []
        let fields = (try? renderer.formWidgets(page: request.page)) ?? []
        // Said once, with page 1's text: a form a viewer cannot fill.
        let xfaOnly = request.page == 0 && fields.isEmpty && renderer.formIsXFAOnly()
        return PageText(layout: layout, copyAllowed: renderer.allowsCopyingText, annotations: annotations, fields: fields,
                        formIsXFAOnly: xfaOnly)
    }

    /// The document as it prints: a PDF or PostScript file as it is (a PDF's page count from
    /// the open document), anything that prints by conversion laid out or placed on pages as
    /// PDF. The PDF stays open for the composed job that may follow.
    func printable(_ request: DocumentRequest) throws(RenderProblem) -> PrintableDocument {
        let (_, type) = try input(request)
        switch type.capabilities.print {
        case .direct where type.family == .pdf:
            return PrintableDocument(pageCount: try printablePDF(request).pageCount, convertedPDF: nil)
        case .direct:
            return PrintableDocument(pageCount: nil, convertedPDF: nil)
        case .byConversion:
            let (bytes, pageCount) = try conversion(request)
            return PrintableDocument(pageCount: pageCount, convertedPDF: bytes)
        case .unsupported(let reason):
            throw RenderProblem(.unsupported, reason, mimeType: type.mimeType)
        }
    }

    /// An office document as the PDF this worker's LibreOffice makes of it (its bytes).
    func officePDF(_ request: DocumentRequest) throws(RenderProblem) -> [UInt8] {
        let (file, type) = try input(request)
        let bytes: [UInt8]
        do {
            bytes = try OfficeConversion.pdfInProcess(file, password: request.password,
                                                      csvAsSpreadsheet: request.csvAsSpreadsheet && SpreadsheetText.applies(to: type),
                                                      contentType: type, limits: limits)
        } catch {
            throw RenderProblem(error, passwordGiven: request.password != nil)
        }
        guard bytes.count <= WireIO.maximumFrame - 64 else {
            throw RenderProblem(.limitExceeded, "LibreOffice's PDF of it is larger than \(WireIO.maximumFrame >> 20) MiB")
        }
        return bytes
    }

    /// The facts of the document `request` names, opening it unless it is the one open.
    func facts(_ request: DocumentRequest) throws(RenderProblem) -> OpenedDocument {
        // A file replaced or changed on disk since it was opened (a viewer saved its markup)
        // is read again; its pages are asked for after this open.
        if let open, open.request.opensSameDocument(as: request), openedFile == FileIdentity(path: request.path) {
            // Page 1 was ready first: asked again without firstPageFirst, the rest is done now.
            if open.renderer == nil && open.facts.isProvisional
                && (!request.firstPageFirst || open.facts.text?.table?.sortProgress != nil) {
                // A table's first rows came first: the whole window now (below).
            } else {
                guard !request.firstPageFirst, let renderer = open.renderer, renderer.isProvisional else { return open.facts }
                return try complete(renderer, request)
            }
        }
        self.open = nil
        // Another file: a table kept open for its windows is closed (its count stops).
        if let table, table.path != request.path {
            self.table = nil
            tableOrder = nil
            tableFindStarts = nil
            tableSorting = nil
        }
        let (file, type) = try input(request)
        openedFile = FileIdentity(descriptor: file.descriptor)
        // Text shown as text: its lines (decoded, made safe to show, CSV aligned), no layout.
        if type.family == .text, request.layout == .view, !(request.csvAsSpreadsheet && SpreadsheetText.applies(to: type)) {
            let text = DelimitedTable.applies(to: type, path: file.path) ? try tableText(file, type: type, request)
                : try Self.text(of: file, type: type, limit: limits.maximumTextBytes)
            var facts = OpenedDocument(mimeType: type.mimeType, pageSizes: [], isRaster: false, text: text)
            // A viewer's first screen of a large table: the first rows only, the window follows.
            // Or a sort of the whole file still going on: no rows yet, how far it is.
            facts.isProvisional = text.table != nil && (request.firstPageFirst && text.isTruncated || text.table?.sortProgress != nil)
            // JSON Lines (typed as plain text): the records pretty-printed, foldable.
            if JSONSummary.isJSONLines(name: request.path.lastComponentBytes),
               let (_, outline) = try? JSONSummary.read(file, lines: true), let outline {
                facts.text = TextContent(bytes: Array(outline.text.joined(separator: "\n").utf8), isTruncated: outline.isTruncated)
                var lines = outline
                lines.text = []
                facts.outline = lines
            }
            open = (request, nil, facts)
            return facts
        }
        let renderer: Renderer
        do {
            renderer = try Renderer(file: file, contentType: type, password: request.password, limits: limits,
                                    firstPageFirst: request.firstPageFirst, firstPageOnly: request.firstPageOnly,
                                    csvAsSpreadsheet: request.csvAsSpreadsheet, developRaw: request.developRaw,
                                            interpreters: interpreters)
        } catch {
            var problem = RenderProblem(error, passwordGiven: request.password != nil)
            problem.mimeType = type.mimeType
            throw problem
        }
        return try facts(of: renderer, type: type, request)
    }

    /// Finishes a document opened page 1 first (``Renderer/complete()``) and answers its facts.
    private func complete(_ renderer: Renderer, _ request: DocumentRequest) throws(RenderProblem) -> OpenedDocument {
        let type = renderer.contentType
        do {
            try renderer.complete()
        } catch {
            self.open = nil
            var problem = RenderProblem(error, passwordGiven: request.password != nil)
            problem.mimeType = type.mimeType
            throw problem
        }
        return try facts(of: renderer, type: type, request)
    }

    private func facts(of renderer: Renderer, type: ContentType, _ request: DocumentRequest) throws(RenderProblem) -> OpenedDocument {
        // Shown as text (Markdown, a notebook, JSON, a database): the pages are not counted
        // (a Markdown file is laid out only as far as its pages are asked for).
        let asText = request.layout == .view && renderer.viewText != nil
        // Opened to draw page 1 alone: the pages are not counted.
        let countsPages = !(request.drawsOnly && request.firstPageOnly)
        let sizes: [PageSize] = if asText { [] } else if countsPages {
            (0..<renderer.pageCount).map { renderer.pageSize(at: $0) }
        } else {
            renderer.hasPage(0) ? [renderer.pageSize(at: 0)] : []
        }
        var facts = OpenedDocument(mimeType: type.mimeType, pageSizes: sizes, isRaster: renderer.isRaster,
                                  embeddedPreviewName: renderer.embeddedPreviewName)
        // The card's facts, unless the caller only draws.
        if !request.drawsOnly {
            if let info = renderer.pdfInfo {
                facts.title = info.title.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
                facts.author = info.author
            } else {
                facts.title = renderer.title
                facts.author = renderer.author
            }
            facts.details = Array(renderer.details.prefix(OpenedDocument.maximumDetails))
            facts.entries = renderer.entries
            facts.contents = renderer.contents
        }
        // An engine with a text form (a database's overview): viewers show it as text.
        if request.layout == .view, let lines = renderer.viewText {
            facts.text = TextContent(bytes: Array(lines.joined(separator: "\n").utf8))  // made safe to show
            facts.pageSizes = []
            facts.markdown = renderer.markdown.map { markdown in
                var styles = MarkdownText()
                styles.lines = markdown.lines.map { MarkdownText.Line(text: "", kind: $0.kind, level: $0.level, runs: $0.runs) }
                return styles
            }
            if facts.markdown != nil {
                facts.markdownPictures = renderer.markdownPictures(fitting: OpenedDocument.pictureBox, budget: OpenedDocument.maximumPictureBytes)
                    .map { OpenedDocument.Picture(line: $0.line, image: $0.image) }
            }
            facts.outline = renderer.outline.map { outline in
                var lines = outline
                lines.text = []
                return lines
            }
        }
        if renderer.isRaster, let first = facts.pageSizes.first {
            facts.imageWidth = Int(first.width.rounded())
            facts.imageHeight = Int(first.height.rounded())
        }
        if let animation = renderer.animation, let size = facts.pageSizes.first {
            facts.animation = animation
            facts.animationRefusal = AnimationFrames.refusal(animation, width: Int(size.width.rounded()), height: Int(size.height.rounded()),
                                                             mimeType: type.mimeType, limits: limits)
        }
        facts.isProvisional = renderer.isProvisional
        facts.pageCountIsKnown = renderer.pageCountIsKnown && countsPages
        // A PDF shown as pages: whether a viewer's Markup may add annotations to it.
        if type.family == .pdf, !asText, let allows = renderer.pdfAllowsAnnotating {
            facts.markup = allows ? .allowed : .forbidden("the PDF's permissions do not allow adding annotations")
        }
        // A still image: whether Markup may turn and crop it (written again in its own format).
        if type.family == .image, renderer.isRaster, facts.pageSizes.count == 1 {
            let refusal = facts.animation != nil ? "an animated image cannot be turned or cropped" : ImageRewriting.refusal(mimeType: type.mimeType)
            facts.markup = refusal.map { .forbidden($0) } ?? .allowed
        }
        open = (request, renderer, facts)
        return facts
    }

    /// The open document's renderer (opening the document when another is open). A document
    /// opened page 1 first is finished first, unless `firstPageOnly` (page 1 is wanted, and
    /// it can be drawn already).
    private func renderer(for request: DocumentRequest, firstPageOnly: Bool = false) throws(RenderProblem) -> Renderer {
        if !(open?.request.opensSameDocument(as: request) ?? false) {
            // Not open (a fresh worker after a crash): page 1 alone can come first again.
            var opening = request
            opening.firstPageFirst = firstPageOnly
            _ = try facts(opening)
        }
        guard let open, let renderer = open.renderer else {
            throw RenderProblem(.unsupported, "this file is shown as text, not as pages")
        }
        if renderer.isProvisional && !firstPageOnly {
            var finished = open.request
            finished.firstPageFirst = false
            _ = try complete(renderer, finished)
        }
        return renderer
    }

    func render(_ request: PageRequest) throws(RenderProblem) -> RenderedImage {
        let renderer = try renderer(for: request.document, firstPageOnly: request.page == 0)
        do {
            return try renderer.render(page: request.page, size: .fit(width: request.width, height: request.height),
                                       allowUpscaling: true)
        } catch {
            throw RenderProblem(error, passwordGiven: request.document.password != nil)
        }
    }

    /// The animation whose frames were last asked for, kept while its document is (a player
    /// asks for frame after frame).
    private var animation: (document: DocumentRequest, frames: AnimationFrames)?

    /// Frame `request.page` of the animated image the request names, fitted to its size, and
    /// its delay in milliseconds.
    func frame(_ request: PageRequest) throws(RenderProblem) -> (image: RenderedImage, delay: Int) {
        let renderer = try renderer(for: request.document)
        if !(animation.map { $0.document.opensSameDocument(as: request.document) } ?? false) {
            animation = nil
            guard let info = renderer.animation, let facts = open?.facts, let size = facts.pageSizes.first else {
                throw RenderProblem(.unsupported, "this file is not an animation")
            }
            let (file, type) = try input(request.document)
            do {
                animation = (request.document, try AnimationFrames(file: file, info: info, width: Int(size.width.rounded()),
                                                                   height: Int(size.height.rounded()), mimeType: type.mimeType,
                                                                   limits: limits))
            } catch {
                throw RenderProblem(error, passwordGiven: false)
            }
        }
        do {
            return try animation!.frames.frame(request.page, width: request.width, height: request.height)
        } catch {
            throw RenderProblem(error, passwordGiven: false)
        }
    }

    func text(_ request: PageRequest) throws(RenderProblem) -> String {
        let renderer = try renderer(for: request.document)
        do {
            return try renderer.text(page: request.page) ?? ""
        } catch {
            throw RenderProblem(error, passwordGiven: request.document.password != nil)
        }
    }

    /// The file `request` names, opened (read-only, checked) and typed by its content.
    func input(_ request: DocumentRequest) throws(RenderProblem) -> (InputFile, ContentType) {
        hooks.beforeHandling(request.path)
        if let lent = lent(request.path) { return lent }
        do {
            let file = try InputFile(path: request.path, maximumSize: request.maximumFileSize)
            return (file, try ContentType.detect(file))
        } catch {
            throw RenderProblem(error)
        }
    }

    /// A file the in-process road's caller opened and typed already (``lend(_:contentType:)``).
    private var lent: (file: InputFile, type: ContentType)?

    /// Requests for `file`'s path read `file` — the file the caller checked and keeps open —
    /// as `contentType`, instead of opening the path again (the in-process road only: a worker
    /// opens what it is sent).
    func lend(_ file: InputFile, contentType: ContentType) {
        lent = (file, contentType)
    }

    /// The lent file when it is the one at `path`.
    func lent(_ path: DocumentPath) -> (file: InputFile, type: ContentType)? {
        guard let lent, lent.file.path == path else { return nil }
        return lent
    }

    /// The delimited table open now (kept across requests for its windows: its row index and
    /// count go on), and the file it was read from.
    private var table: (path: DocumentPath, size: Int64, modified: FileTime, table: DelimitedTable)?
    /// That table's rows sorted by a column (``DocumentRequest/tableSort``), kept for its windows.
    private var tableOrder: TableSortOrder?
    /// A find past a table's window in a sorted order: where the rows that hold the word start.
    private var tableFindStarts: TableFindStarts?
    private struct TableFindStarts {
        let path: DocumentPath
        let query: String
        /// The position the find began at (rows are matched from there once the file is read).
        var origin: Int?
        var starts = Set<Int>()
        /// The file row the reading goes on from; nil when it is done.
        var scanned: Int? = 0
        /// More rows hold the word than are kept: they are read in the order instead.
        var overflow = false
    }
    /// A sort of that table going on (its order becomes ``tableOrder``).
    private var tableSorting: TableSorting?

    /// Bytes of rows in a table's first window for a viewer's first screen (about 600 rows of 100 bytes).
    static let firstTableBytes = 64 << 10

    /// A delimited table (CSV, TSV) as a table of characters (``TableText``): the window of rows
    /// from `request.tableWindow` that fits in the text byte limit, sorted here when asked
    /// (``TableLayout``). Its rows are found through the table's lazy index, and counted on a
    /// thread of their own from the first open; the last window counts them all first.
    func tableText(_ file: InputFile, type: ContentType, _ request: DocumentRequest) throws(RenderProblem) -> TextContent {
        let table: DelimitedTable
        if let kept = self.table, kept.path == file.path, kept.size == file.size, kept.modified == file.modificationTime {
            table = kept.table
        } else {
            self.table = nil
            do {
                table = try DelimitedTable(file: file, tabSeparated: type.conforms(to: "text/tab-separated-values"))
            } catch {
                throw RenderProblem(error, passwordGiven: false)
            }
            self.table = (file.path, file.size, file.modificationTime, table)
            tableOrder = nil
            tableFindStarts = nil
            tableSorting = nil
            table.startCounting()
        }
        // Sorted: the whole file, in this worker (kept for the next windows of the same order).
        var order: TableSortOrder?
        if let sort = request.tableSort {
            if let kept = tableOrder, kept.column == sort.column, kept.descending == sort.descending {
                order = kept
            } else {
                // Sorted on a thread of its own: a viewer is answered within a quarter of a
                // second with how far it is, and asks again.
                if !(tableSorting.map { $0.column == sort.column && $0.descending == sort.descending } ?? false) {
                    tableSorting = nil
                    tableOrder = nil
                    tableFindStarts = nil
                    tableSorting = TableSorting(table: table, column: sort.column, descending: sort.descending)
                }
                guard let sorting = tableSorting else { return TextContent(lines: []) }
                guard let done = sorting.wait(seconds: request.firstPageFirst ? hooks.sortAnswerSeconds : 3600) else {
                    var layout = TableLayout(header: TableText.header(table.columns), columnStarts: TableText.columnStarts(table.columns),
                                             columnNames: table.columns.map(\.name), sort: sort, fileRows: table.rowCount.description)
                    layout.sortProgress = min(99, Int(sorting.progress * 100))
                    return TextContent(lines: [], isTruncated: true, table: layout)
                }
                order = done
                tableOrder = done
                tableSorting = nil
            }
        }
        // A viewer's first screen (page 1 first) needs a few hundred rows, not the whole window.
        let limit = request.firstPageFirst ? min(limits.maximumTextBytes, Self.firstTableBytes) : limits.maximumTextBytes
        // The window that ends with the last row: the earliest start whose window still reaches
        // it (galloping back from the end).
        func lastWindowStart() -> Int {
            if let order { return order.lastWindowStart(byteLimit: limit) }
            let total = table.countAllRows().rows
            var first = max(0, total - 1)
            var step = 1024
            while first > 0 {
                let candidate = max(0, first - step)
                if table.rowRange(from: candidate, byteLimit: limit).upperBound >= total {
                    first = candidate
                    step *= 2
                } else if step == 1 {
                    break
                } else {
                    step /= 2
                }
            }
            return first
        }
        let first = request.tableWindow == DocumentRequest.lastWindow ? lastWindowStart() : request.tableWindow
        func window(from first: Int) -> Range<Int> {
            order?.rowRange(from: first, byteLimit: limit) ?? table.rowRange(from: first, byteLimit: limit)
        }
        var range = window(from: first)
        if range.isEmpty && first > 0 { range = window(from: lastWindowStart()) }  // past the end
        let rows = order?.rows(range) ?? table.rows(range)
        let count = order.map { TableRowCount(rows: $0.count, isExact: true) } ?? table.rowCount
        let columns = TableText.widened(table.columns, for: rows)
        let layout = TableLayout(header: TableText.header(columns), columnStarts: TableText.columnStarts(columns),
                                 columnNames: table.columns.map(\.name), sort: request.tableSort, fileRows: count.description,
                                 firstRow: range.lowerBound, totalRows: count.isExact ? count.rows : nil)
        let whole = range.lowerBound == 0 && count.isExact && range.upperBound >= count.rows
        return TextContent(lines: rows.map { TableText.line($0, columns: columns) }, isTruncated: !whole, table: layout)
    }

    /// A text file's lines, read up to `limit` bytes (cut at the last whole line).
    static func text(of file: InputFile, type: ContentType, limit: Int) throws(RenderProblem) -> TextContent {
        var bytes: [UInt8]
        do { bytes = try file.read(upTo: limit + 1) } catch { throw RenderProblem(error) }
        let truncated = bytes.count > limit
        if truncated {
            bytes.removeLast(bytes.count - limit)
            if let newline = bytes.lastIndex(of: 0x0A) { bytes.removeSubrange((newline + 1)...) }
        }
        return TextContent(bytes: bytes, isTruncated: truncated)
    }
}
