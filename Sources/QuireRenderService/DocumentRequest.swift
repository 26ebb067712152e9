import QuireRender
import QuireTypes

/// A document as a viewer names it to the worker: which file, with which password, under which
/// size limit, and whether text is wanted as text (the viewer) or laid out on paper (a print
/// preview). Every page request carries it, so a fresh worker (after a crash or a kill) opens
/// the document again by itself.
public struct DocumentRequest: Sendable, Hashable {
    /// How a text file is opened; other families ignore it.
    public enum Layout: Int64, Sendable, Hashable {
        /// Text as lines of text (``OpenedDocument/text``), no pages.
        case view = 0
        /// Text laid out on pages of paper, as it prints.
        case paper = 1
    }

    public var path: DocumentPath
    public var password: String?
    public var maximumFileSize: Int64
    public var layout: Layout
    /// A viewer opening the document: where the engine can (office documents), the facts come
    /// as soon as page 1 can be drawn (``OpenedDocument/isProvisional``), and the same request
    /// with this false then finishes the document in the worker.
    public var firstPageFirst: Bool
    /// Only page 1 will be asked for (a one-shot command's thumbnail or preview of page 1):
    /// an office document's page 1 is drawn from the layout (a spreadsheet's exported alone)
    /// and the document is never exported whole; the page limit does not apply.
    public var firstPageOnly = false
    /// A CSV or TSV file is laid out by LibreOffice Calc (its printed pages) instead of as text
    /// (`--csv-as-spreadsheet`); other types ignore it.
    public var csvAsSpreadsheet: Bool
    /// A camera RAW file's sensor data developed at full size instead of the camera's embedded
    /// preview (the viewers' Develop); other types ignore it.
    public var developRaw = false
    /// The caller only draws (`quire preview`): the open answers with the pages (or lines) and
    /// not the card's facts (details, title, contents, entries), which can cost a read of the
    /// whole file (a 1 MB Markdown file's details parse all of it); with ``firstPageOnly`` the
    /// pages are not counted either — a document laid out as its pages are asked for is not laid
    /// out whole — and the facts give page 1's size, ``OpenedDocument/pageCountIsKnown`` false.
    public var drawsOnly = false
    /// A delimited table shown as text: the rows in this order (sorted in the worker).
    public var tableSort: TableSort? = nil
    /// A delimited table shown as text: the row its window of lines starts at (0 the first
    /// under the header; ``lastWindow`` the window that ends with the last row).
    public var tableWindow = 0
    public static let lastWindow = Int(Int32.max)

    public init(path: DocumentPath, password: String? = nil, maximumFileSize: Int64 = InputFile.defaultMaximumSize,
                layout: Layout = .view, firstPageFirst: Bool = false, csvAsSpreadsheet: Bool = false) {
        self.path = path
        self.password = password
        self.maximumFileSize = maximumFileSize
        self.layout = layout
        self.firstPageFirst = firstPageFirst
        self.csvAsSpreadsheet = csvAsSpreadsheet
    }

    /// Whether both name the same document the same way (whether page 1 comes first aside).
    public func opensSameDocument(as other: DocumentRequest) -> Bool {
        path == other.path && password == other.password && maximumFileSize == other.maximumFileSize && layout == other.layout
            && csvAsSpreadsheet == other.csvAsSpreadsheet && developRaw == other.developRaw && drawsOnly == other.drawsOnly && firstPageOnly == other.firstPageOnly && tableSort == other.tableSort && tableWindow == other.tableWindow
    }

    func write(to writer: inout WireWriter) {
        writer.data(path.bytes)
        writer.optionalString(password)
        writer.integer(maximumFileSize)
        writer.integer(layout.rawValue)
        // 0, 1 (page 1 first), 2 (page 1 first, and only page 1).
        writer.integer(firstPageFirst ? (firstPageOnly ? 2 : 1) : 0)
        writer.integer((csvAsSpreadsheet ? 1 : 0) | (developRaw ? 2 : 0) | (drawsOnly ? 4 : 0))
        writer.integer(Int64(tableSort?.column ?? -1))
        writer.integer(tableSort?.descending == true ? 1 : 0)
        writer.integer(Int64(tableWindow))
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        path = DocumentPath(bytes: try reader.data())
        password = try reader.optionalString()
        maximumFileSize = try reader.integer()
        guard let layout = Layout(rawValue: try reader.integer()) else { throw WireReader.Malformed() }
        self.layout = layout
        let first = try reader.integer()
        guard (0...2).contains(first) else { throw WireReader.Malformed() }
        firstPageFirst = first >= 1
        firstPageOnly = first == 2
        let options = try reader.integer()
        guard (0...7).contains(options) else { throw WireReader.Malformed() }
        csvAsSpreadsheet = options & 1 != 0
        developRaw = options & 2 != 0
        drawsOnly = options & 4 != 0
        let sortColumn = try reader.integer(), descending = try reader.integer() == 1
        guard sortColumn >= -1, sortColumn < Int64(DelimitedTable.maximumColumns) else { throw WireReader.Malformed() }
        tableSort = sortColumn >= 0 ? TableSort(column: Int(sortColumn), descending: descending) : nil
        let window = try reader.integer()
        guard window >= 0, window <= Int64(Self.lastWindow) else { throw WireReader.Malformed() }
        tableWindow = Int(window)
    }
}
