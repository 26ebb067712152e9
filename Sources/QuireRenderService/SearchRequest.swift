/// A search of pages `from..<to` (lines, for text shown as text) of a document for `query`, as
/// literal text (regex characters are text), ignoring case and, where the engine can, accents.
/// The worker scans in order and stops early — after `budgetMilliseconds`, or once it has
/// `maximumMatches` — and says where it stopped, so a viewer searches a long document in short
/// requests: between them its pages are rendered, and a new query simply stops asking.
public struct SearchRequest: Sendable, Hashable {
    public var document: DocumentRequest
    public var query: String
    public var from: Int
    public var to: Int
    public var budgetMilliseconds: Int
    public var maximumMatches: Int
    /// A table shown a window at a time: `from..<to` are the table's rows (in the document's
    /// sort order), not the window's lines, and each match is a row (``FindMatch/page``)
    /// without characters — the search that goes on past the window in view.
    public var tableRows = false
    /// A table's rows searched from `to` down towards `from`: the answer is the last row of
    /// `from..<to` that holds the word (at most one), and `next` is where the search stopped
    /// going down (`from` when the run is done) — `N` going back past the window in view.
    public var backward = false

    /// Longest query accepted (characters are bytes of UTF-8 here).
    public static let maximumQueryBytes = 1024

    public init(document: DocumentRequest, query: String, from: Int, to: Int, budgetMilliseconds: Int = 100,
                maximumMatches: Int = 10_000) {
        self.document = document
        self.query = query
        self.from = from
        self.to = to
        self.budgetMilliseconds = budgetMilliseconds
        self.maximumMatches = maximumMatches
    }

    /// The request's fields (after its kind).
    func write(to writer: inout WireWriter) {
        document.write(to: &writer)
        writer.string(query)
        writer.integer(Int64(from))
        writer.integer(Int64(to))
        writer.integer(Int64(budgetMilliseconds))
        writer.integer(Int64(maximumMatches))
        writer.integer(tableRows ? 1 : 0)
        writer.integer(backward ? 1 : 0)
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        document = try DocumentRequest(reading: &reader)
        let bytes = try reader.data()
        guard bytes.count <= Self.maximumQueryBytes else { throw WireReader.Malformed() }
        query = String(decoding: bytes, as: UTF8.self)
        let from = try reader.integer(), to = try reader.integer()
        let budget = try reader.integer(), maximum = try reader.integer()
        guard from >= 0, to >= from, to < 1 << 31, budget > 0, budget <= 60_000, maximum > 0, maximum <= 1 << 20 else {
            throw WireReader.Malformed()
        }
        self.from = Int(from)
        self.to = Int(to)
        budgetMilliseconds = Int(budget)
        maximumMatches = Int(maximum)
        tableRows = try reader.integer() == 1
        backward = try reader.integer() == 1
        if backward && !tableRows { throw WireReader.Malformed() }
    }
}
