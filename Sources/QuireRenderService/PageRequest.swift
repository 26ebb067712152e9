/// One page of a document at an exact pixel size (the worker fits the page into it; the
/// answer says the size it drew).
public struct PageRequest: Sendable, Hashable {
    public var document: DocumentRequest
    /// 0-based.
    public var page: Int
    public var width: Int
    public var height: Int
    /// When set, `page` is a side (0-based) of this composed job, not a page of the document.
    public var sheet: SheetRequest?

    public init(document: DocumentRequest, page: Int, width: Int, height: Int, sheet: SheetRequest? = nil) {
        self.document = document
        self.page = page
        self.width = width
        self.height = height
        self.sheet = sheet
    }

    /// The request's fields (after its kind): the document, the page and its size, and for a
    /// composed side (`withSheet`) the ``sheet``.
    func write(to writer: inout WireWriter, withSheet: Bool) {
        document.write(to: &writer)
        writer.integer(Int64(page))
        writer.integer(Int64(width))
        writer.integer(Int64(height))
        if withSheet, let sheet { sheet.write(to: &writer) }
    }

    init(reading reader: inout WireReader, composed: Bool = false) throws(WireReader.Malformed) {
        document = try DocumentRequest(reading: &reader)
        let page = try reader.integer(), width = try reader.integer(), height = try reader.integer()
        guard page >= 0, page < 1 << 31, width > 0, height > 0, width <= 1 << 15, height <= 1 << 15 else {
            throw WireReader.Malformed()
        }
        self.page = Int(page)
        self.width = Int(width)
        self.height = Int(height)
        sheet = composed ? try SheetRequest(reading: &reader) : nil
    }
}
