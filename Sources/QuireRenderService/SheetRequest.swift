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

    func write(to writer: inout WireWriter) {
        writer.integer(Int64(pages.count))
        for page in pages { writer.integer(Int64(page)) }
        let o = options
        writer.optionalString(o.paper?.name)
        writer.double(o.paper?.width ?? 0)
        writer.double(o.paper?.height ?? 0)
        for margin in [o.margins.top, o.margins.bottom, o.margins.left, o.margins.right] { writer.double(margin) }
        writer.string(o.orientation.rawValue)
        switch o.scaling {
        case .auto: writer.integer(0)
        case .fit: writer.integer(-1)
        case .actual: writer.integer(-2)
        case .percent(let p): writer.integer(Int64(p))
        }
        writer.integer(Int64(o.numberUp))
        writer.string(o.layout.rawValue)
        writer.string(o.border.rawValue)
        writer.string(o.pageSet.rawValue)
        writer.integer((o.booklet ? 1 : 0) | (o.reverse ? 2 : 0) | (o.duplex ? 4 : 0))
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
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
        guard let orientation = SheetOptions.Orientation(rawValue: try reader.string()) else { throw WireReader.Malformed() }
        o.orientation = orientation
        switch try reader.integer() {
        case 0: o.scaling = .auto
        case -1: o.scaling = .fit
        case -2: o.scaling = .actual
        case let p where p >= 1 && p <= 400: o.scaling = .percent(Int(p))
        default: throw WireReader.Malformed()
        }
        let numberUp = try reader.integer()
        guard SheetOptions.numberUpChoices.contains(Int(clamping: numberUp)) else { throw WireReader.Malformed() }
        o.numberUp = Int(numberUp)
        guard let layout = SheetOptions.Layout(rawValue: try reader.string()),
              let border = SheetOptions.Border(rawValue: try reader.string()),
              let pageSet = SheetOptions.PageSet(rawValue: try reader.string()) else { throw WireReader.Malformed() }
        o.layout = layout
        o.border = border
        o.pageSet = pageSet
        let flags = try reader.integer()
        o.booklet = flags & 1 != 0
        o.reverse = flags & 2 != 0
        o.duplex = flags & 4 != 0
        options = o
    }
}
