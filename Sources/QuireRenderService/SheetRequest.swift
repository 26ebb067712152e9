import QuireSheets

/// A composed job as a viewer names it to the worker: which document pages (1-based, in
/// order) and how they go on sheets. With a side number it asks for one side's pixels (a print
/// sheet's preview); alone, for the whole job as PDF (what the sheet sends or saves). The
/// worker draws both with the same ``SheetComposer``.
public struct SheetRequest: Sendable, Hashable {
    public var pages: [Int]
    public var options: SheetOptions

    public init(pages: [Int], options: SheetOptions) {
        self.pages = pages
        self.options = options
    }

    /// Why a PostScript file is not placed on sheets (its pages are known only to the
    /// printer's filters).
    package static let postScriptIsNotComposed =
        "PostScript is sent as it is; Quire cannot place its pages on sheets (print it without paper, scaling, pages-per-side or booklet options)"

    /// On the wire the choices travel as their `lp -o` words (``SheetOptions/optionWords``),
    /// read back as `quire print -o` reads them: a new choice needs nothing here.
    package func write(to writer: inout WireWriter) {
        writer.integer(Int64(pages.count))
        for page in pages { writer.integer(Int64(page)) }
        let o = options
        writer.optionalString(o.paper?.name)
        writer.double(o.paper?.width ?? 0)
        writer.double(o.paper?.height ?? 0)
        for margin in [o.margins.top, o.margins.bottom, o.margins.left, o.margins.right] { writer.double(margin) }
        writer.integer(o.duplex ? 1 : 0)
        let words = o.optionWords.filter { $0.0 != "media" }
        writer.integer(Int64(words.count))
        for (name, value) in words {
            writer.string(name)
            writer.string(value)
        }
    }

    package init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let count = try reader.count(atMost: 1 << 20)
        var pages: [Int] = []
        pages.reserveCapacity(count)
        for _ in 0..<count {
            let page = try reader.integer()
            guard page >= 1, page < 1 << 31 else { throw WireReader.Malformed() }
            pages.append(Int(page))
        }
        self.pages = pages
        var o = SheetOptions()
        let name = try reader.optionalString()
        let width = try reader.double(), height = try reader.double()
        if let name {
            guard width > 0, height > 0, width < 100_000, height < 100_000 else { throw WireReader.Malformed() }
            o.paper = PaperSize(name: name, width: width, height: height)
        }
        let margins = [try reader.double(), try reader.double(), try reader.double(), try reader.double()]
        guard margins.allSatisfy({ $0 >= 0 && $0 < 10_000 }) else { throw WireReader.Malformed() }
        o.margins = Margins(top: margins[0], bottom: margins[1], left: margins[2], right: margins[3])
        o.duplex = try reader.integer() != 0
        let words = try reader.count(atMost: 64)
        for _ in 0..<words {
            let name = try reader.string(), value = try reader.string()
            guard name != "media", (try? o.apply(name, value)) == true else { throw WireReader.Malformed() }
        }
        options = o
    }
}
