/// A document as it prints, prepared by the worker: how many pages it has on paper and, for
/// content that prints by conversion (text laid out on pages, an image or SVG on a page), the
/// PDF it becomes; nil for a PDF or PostScript file, which is sent as it is.
public struct PrintableDocument: Sendable, Hashable {
    /// Pages on paper; nil when not known before the printer's filters run (PostScript).
    public var pageCount: Int?
    public var convertedPDF: [UInt8]?

    public init(pageCount: Int?, convertedPDF: [UInt8]?) {
        self.pageCount = pageCount
        self.convertedPDF = convertedPDF
    }

    func write(to writer: inout WireWriter) {
        writer.integer(Int64(pageCount ?? -1))
        writer.integer(convertedPDF == nil ? 0 : 1)
        if let convertedPDF { writer.data(convertedPDF) }
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let count = try reader.integer()
        pageCount = count >= 0 ? Int(count) : nil
        convertedPDF = try reader.integer() == 1 ? try reader.data() : nil
    }
}
