import QuireTypes

/// One request to the render service, as a value: what ``DocumentSession/answer(_:)`` answers,
/// whichever road it came by. On the worker's pipe it is a frame (``frame``), read back by
/// ``init(_:reading:)``; in a command's own process (``RenderClient/init(inProcess:interpreters:)``)
/// it is handed over as it is. Thumbnails of the batch (``RenderRequestKind/thumbnail``) are not
/// here: their payload is QuireThumbnails'.
///
/// A new kind of request is a case here (its frame and its reading), its handler in
/// ``DocumentSession``, and the ``RenderClient`` call that sends it.
package enum RenderRequest: Sendable {
    /// A batch's thumbnails of one file, with the freedesktop keys.
    case thumbnail(ThumbnailRequest)
    /// The document's facts (pages, card facts, text).
    case open(DocumentRequest)
    /// A page's pixels at an exact size.
    case page(PageRequest)
    /// An animation's frame (`page` is the 0-based frame) and its delay.
    case frame(PageRequest)
    /// A page's text in reading order.
    case text(PageRequest)
    /// The document as it prints.
    case printable(DocumentRequest)
    /// A run of pages searched for a word.
    case search(SearchRequest)
    /// A page's text with a box per character.
    case textLayout(PageRequest)
    /// One side of a composed print job as pixels (the request's ``PageRequest/sheet``).
    case composedSide(PageRequest)
    /// The whole composed print job as PDF.
    case composedJob(DocumentRequest, SheetRequest)
    /// An archive entry's (or a mail attachment's, a database table's) bytes.
    case extractEntry(DocumentRequest, entry: String)
    /// An office document as LibreOffice's PDF.
    case officePDF(DocumentRequest)
    /// A video or audio file's facts.
    case mediaInfo(DocumentRequest)
    /// A PDF's form.
    case formFields(DocumentRequest)
    /// A document changed as a person asked, saved as an incremental update.
    case saveChanges(DocumentRequest, DocumentChanges)
    /// The document written as `format`: `pages` (0-based) or every page (SVG: one page).
    case export(DocumentRequest, format: ExportFormat, pages: [Int]?)
    /// The chosen pages (0-based) on one index sheet, each in a cell of `cellSize` pixels.
    case contactSheet(DocumentRequest, pages: [Int], cellSize: Int)
    /// What the info card says of the content (`showLocation`: a photo's GPS position too).
    case info(DocumentRequest, showLocation: Bool)

    /// What an ``export(_:format:pages:)`` writes.
    package enum ExportFormat: Int64, Sendable {
        case pdf = 1
        case svg = 2
    }

    /// The kind that starts the request's frame.
    package var kind: RenderRequestKind {
        switch self {
        case .thumbnail: .thumbnail
        case .open: .open
        case .page: .page
        case .frame: .frame
        case .text: .text
        case .printable: .printable
        case .search: .search
        case .textLayout: .textLayout
        case .composedSide: .composedSide
        case .composedJob: .composedJob
        case .extractEntry: .extractEntry
        case .officePDF: .officePDF
        case .mediaInfo: .mediaInfo
        case .formFields: .formFields
        case .saveChanges: .saveChanges
        case .export: .export
        case .contactSheet: .contactSheet
        case .info: .info
        }
    }

    /// The document the request is about.
    package var document: DocumentRequest {
        switch self {
        case .open(let document), .printable(let document), .composedJob(let document, _), .extractEntry(let document, _),
             .officePDF(let document), .mediaInfo(let document), .formFields(let document), .saveChanges(let document, _),
             .export(let document, _, _), .contactSheet(let document, _, _), .info(let document, _):
            document
        case .page(let page), .frame(let page), .text(let page), .textLayout(let page), .composedSide(let page):
            page.document
        case .search(let search):
            search.document
        case .thumbnail(let thumbnail):
            DocumentRequest(path: DocumentPath(bytes: thumbnail.path), maximumFileSize: thumbnail.maximumFileSize)
        }
    }

    /// The request with its document's path made absolute (a worker runs in `/`).
    package var absolute: RenderRequest {
        var document = document
        document.path = document.path.absolute()
        switch self {
        case .thumbnail(var thumbnail): thumbnail.path = document.path.bytes; return .thumbnail(thumbnail)
        case .open: return .open(document)
        case .printable: return .printable(document)
        case .composedJob(_, let sheet): return .composedJob(document, sheet)
        case .extractEntry(_, let entry): return .extractEntry(document, entry: entry)
        case .officePDF: return .officePDF(document)
        case .mediaInfo: return .mediaInfo(document)
        case .formFields: return .formFields(document)
        case .saveChanges(_, let changes): return .saveChanges(document, changes)
        case .export(_, let format, let pages): return .export(document, format: format, pages: pages)
        case .contactSheet(_, let pages, let cellSize): return .contactSheet(document, pages: pages, cellSize: cellSize)
        case .info(_, let showLocation): return .info(document, showLocation: showLocation)
        case .page(var page): page.document = document; return .page(page)
        case .frame(var page): page.document = document; return .frame(page)
        case .text(var page): page.document = document; return .text(page)
        case .textLayout(var page): page.document = document; return .textLayout(page)
        case .composedSide(var page): page.document = document; return .composedSide(page)
        case .search(var search): search.document = document; return .search(search)
        }
    }

    /// The request as a frame for the worker's pipe: its kind, then its fields.
    package var frame: [UInt8] {
        var writer = WireWriter()
        writer.integer(kind.rawValue)
        switch self {
        case .thumbnail(let thumbnail):
            thumbnail.write(to: &writer)
        case .open(let document), .printable(let document), .officePDF(let document), .mediaInfo(let document),
             .formFields(let document):
            document.write(to: &writer)
        case .page(let page), .frame(let page), .text(let page), .textLayout(let page):
            page.write(to: &writer, withSheet: false)
        case .composedSide(let page):
            page.write(to: &writer, withSheet: true)
        case .search(let search):
            search.write(to: &writer)
        case .composedJob(let document, let sheet):
            document.write(to: &writer)
            sheet.write(to: &writer)
        case .extractEntry(let document, let entry):
            document.write(to: &writer)
            writer.string(entry)
        case .saveChanges(let document, let changes):
            document.write(to: &writer)
            changes.write(to: &writer)
        case .export(let document, let format, let pages):
            document.write(to: &writer)
            writer.integer(format.rawValue)
            Self.write(pages, to: &writer)
        case .contactSheet(let document, let pages, let cellSize):
            document.write(to: &writer)
            Self.write(pages, to: &writer)
            writer.integer(Int64(cellSize))
        case .info(let document, let showLocation):
            document.write(to: &writer)
            writer.integer(showLocation ? 1 : 0)
        }
        return writer.frame
    }

    /// Reads the fields of a request of `kind` (its kind already read); the frame must end
    /// with them.
    package init(_ kind: RenderRequestKind, reading reader: inout WireReader) throws(WireReader.Malformed) {
        switch kind {
        case .thumbnail: self = .thumbnail(try ThumbnailRequest(reading: &reader))
        case .open: self = .open(try DocumentRequest(reading: &reader))
        case .printable: self = .printable(try DocumentRequest(reading: &reader))
        case .officePDF: self = .officePDF(try DocumentRequest(reading: &reader))
        case .mediaInfo: self = .mediaInfo(try DocumentRequest(reading: &reader))
        case .formFields: self = .formFields(try DocumentRequest(reading: &reader))
        case .info:
            let document = try DocumentRequest(reading: &reader)
            switch try reader.integer() {
            case 0: self = .info(document, showLocation: false)
            case 1: self = .info(document, showLocation: true)
            default: throw WireReader.Malformed()
            }
        case .page: self = .page(try PageRequest(reading: &reader))
        case .frame: self = .frame(try PageRequest(reading: &reader))
        case .text: self = .text(try PageRequest(reading: &reader))
        case .textLayout: self = .textLayout(try PageRequest(reading: &reader))
        case .composedSide:
            let page = try PageRequest(reading: &reader, composed: true)
            guard page.sheet != nil else { throw WireReader.Malformed() }
            self = .composedSide(page)
        case .search: self = .search(try SearchRequest(reading: &reader))
        case .composedJob:
            let document = try DocumentRequest(reading: &reader)
            self = .composedJob(document, try SheetRequest(reading: &reader))
        case .extractEntry:
            let document = try DocumentRequest(reading: &reader)
            self = .extractEntry(document, entry: try reader.string())
        case .saveChanges:
            let document = try DocumentRequest(reading: &reader)
            self = .saveChanges(document, try DocumentChanges(reading: &reader))
        case .export:
            let document = try DocumentRequest(reading: &reader)
            guard let format = ExportFormat(rawValue: try reader.integer()) else { throw WireReader.Malformed() }
            self = .export(document, format: format, pages: try Self.readPages(&reader))
        case .contactSheet:
            let document = try DocumentRequest(reading: &reader)
            guard let pages = try Self.readPages(&reader) else { throw WireReader.Malformed() }
            let cellSize = try reader.integer()
            guard (1...4096).contains(cellSize) else { throw WireReader.Malformed() }
            self = .contactSheet(document, pages: pages, cellSize: Int(cellSize))
        }
        guard reader.isAtEnd else { throw WireReader.Malformed() }
    }

    /// A list of 0-based pages, or none (every page): its count (-1 for none), then the pages.
    private static func write(_ pages: [Int]?, to writer: inout WireWriter) {
        writer.integer(Int64(pages?.count ?? -1))
        for page in pages ?? [] { writer.integer(Int64(page)) }
    }

    private static func readPages(_ reader: inout WireReader) throws(WireReader.Malformed) -> [Int]? {
        let count = try reader.integer()
        guard count >= -1, count <= Int64(OpenedDocument.maximumPages) else { throw WireReader.Malformed() }
        guard count >= 0 else { return nil }
        var pages: [Int] = []
        for _ in 0..<count {
            let page = try reader.integer()
            guard page >= 0, page <= Int64(Int32.max) else { throw WireReader.Malformed() }
            pages.append(Int(page))
        }
        return pages
    }
}
