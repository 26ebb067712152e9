/// The composed job: which document pages go where on which side, in the order the sides
/// print. Pure arithmetic over page numbers and sizes — the composer (QuireRender's
/// `SheetComposer`) draws exactly these sides, for the preview and for the job alike.
///
/// Order of work: the pages chosen (document pages, in the order given) are imposed — several
/// per side, or as a booklet padded with blanks to a multiple of four — then odd/even sides are
/// kept, then the order is reversed (sheet by sheet when printed back to back).
public struct Imposition: Sendable {
    public let options: SheetOptions
    public let sides: [SheetSide]

    /// - Parameters:
    ///   - pages: document pages (1-based) in print order, as the page ranges select them.
    ///   - size: each page's size in points.
    public init(pages: [Int], size: (Int) -> PageBox, options: SheetOptions) throws(SheetError) {
        self.options = options
        guard !pages.isEmpty else { throw SheetError("there are no pages to print") }
        if options.booklet && pages.count < 2 { throw SheetError("a booklet needs at least 2 pages (this has 1)") }
        if !SheetOptions.numberUpChoices.contains(options.numberUp) {
            throw SheetError("number-up=\(options.numberUp): expected 1, 2, 4, 6, 9 or 16")
        }
        let representative = size(pages[0])
        var sides: [SheetSide]
        if options.booklet {
            sides = Self.booklet(pages, size: size, representative: representative, options: options)
        } else if options.numberUp == 1 {
            sides = pages.map { Self.single($0, size: size($0), options: options) }
        } else {
            sides = Self.grid(pages, size: size, representative: representative, options: options)
        }
        let back = options.duplex || options.booklet
        switch options.pageSet {
        case .all: break
        case .odd: sides = sides.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        case .even: sides = sides.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        }
        if options.reverse {
            if back && options.pageSet == .all {
                if sides.count % 2 == 1, let last = sides.last {
                    sides.append(SheetSide(width: last.width, height: last.height, placements: [], border: options.border))
                }
                var pairs: [[SheetSide]] = stride(from: 0, to: sides.count, by: 2).map { Array(sides[$0..<$0 + 2]) }
                pairs.reverse()
                sides = pairs.flatMap { $0 }
            } else {
                sides.reverse()
            }
        }
        self.sides = sides
    }

    /// Sides the job prints, from the page count alone (no sizes needed): what a sheet shows
    /// while the sides themselves are drawn.
    public static func sideCount(pages: Int, options: SheetOptions) -> Int {
        guard pages > 0 else { return 0 }
        var sides: Int
        if options.booklet { sides = (pages + 3) / 4 * 2 }
        else { sides = (pages + options.numberUp - 1) / max(1, options.numberUp) }
        switch options.pageSet {
        case .all:
            if options.reverse && (options.duplex || options.booklet) && sides % 2 == 1 { sides += 1 }
        case .odd: sides = (sides + 1) / 2
        case .even: sides = sides / 2
        }
        return sides
    }

    /// Sheets of paper for `sides` sides: two per sheet when printed back to back.
    public static func sheetCount(sides: Int, options: SheetOptions) -> Int {
        options.duplex || options.booklet ? (sides + 1) / 2 : sides
    }

    public var sheetCount: Int { Self.sheetCount(sides: sides.count, options: options) }

    /// "3 sheets of A4, 6 sides", "1 sheet, 1 side".
    public static func summary(sides: Int, options: SheetOptions) -> String {
        let sheets = sheetCount(sides: sides, options: options)
        var text = sheets == 1 ? "1 sheet" : "\(sheets) sheets"
        if let paper = options.paper { text += " of \(paper.displayName)" }
        text += sides == 1 ? ", 1 side" : ", \(sides) sides"
        return text
    }

    // MARK: Placement

    /// The paper held portrait (the page's own size when no paper is chosen).
    private static func paper(_ options: SheetOptions, fallback: PageBox) -> PageBox {
        if let paper = options.paper { return PageBox(width: paper.width, height: paper.height) }
        return PageBox(width: min(fallback.width, fallback.height), height: max(fallback.width, fallback.height))
    }

    /// The printable area of a side of `width` × `height`.
    private static func printable(width: Double, height: Double, landscape: Bool, options: SheetOptions) -> SheetRect {
        let m = landscape ? options.margins.turned : options.margins
        return SheetRect(x: m.left, y: m.top, width: max(1, width - m.left - m.right), height: max(1, height - m.top - m.bottom))
    }

    /// One page per side.
    static func single(_ page: Int, size: PageBox, options: SheetOptions) -> SheetSide {
        if options.paper == nil && options.orientation == .auto {
            // The page's own size: nothing moves (a percentage still scales about the centre).
            let whole = SheetRect(x: 0, y: 0, width: size.width, height: size.height)
            let scale: Double = if case .percent(let p) = options.scaling { Double(p) / 100 } else { 1 }
            return SheetSide(width: size.width, height: size.height,
                             placements: [PagePlacement(page: page, pageSize: size, clip: whole, centerX: whole.midX,
                                                        centerY: whole.midY, turned: false, scale: scale)],
                             border: options.border)
        }
        let portrait = paper(options, fallback: size)
        let landscape: Bool = switch options.orientation {
        case .auto: size.isLandscape
        case .portrait: false
        case .landscape: true
        }
        let width = landscape ? portrait.height : portrait.width, height = landscape ? portrait.width : portrait.height
        let area = printable(width: width, height: height, landscape: landscape, options: options)
        let whole = SheetRect(x: 0, y: 0, width: width, height: height)
        let fit = min(area.width / size.width, area.height / size.height)
        let scale: Double
        var center = (whole.midX, whole.midY)
        switch options.scaling {
        case .fit:
            scale = fit
            center = (area.midX, area.midY)
        case .actual: scale = 1
        case .percent(let p): scale = Double(p) / 100
        case .auto:
            if size.width <= width + 0.5 && size.height <= height + 0.5 { scale = 1 } else {
                scale = fit
                center = (area.midX, area.midY)
            }
        }
        return SheetSide(width: width, height: height,
                         placements: [PagePlacement(page: page, pageSize: size, clip: whole, centerX: center.0,
                                                    centerY: center.1, turned: false, scale: scale)],
                         border: options.border)
    }

    /// The grid shapes (columns, rows) for `n` pages per side.
    static func shapes(_ n: Int) -> [(columns: Int, rows: Int)] {
        switch n {
        case 2: [(2, 1), (1, 2)]
        case 4: [(2, 2)]
        case 6: [(2, 3), (3, 2)]
        case 9: [(3, 3)]
        case 16: [(4, 4)]
        default: [(1, 1)]
        }
    }

    /// The cells of a grid in the order pages fill them (`number-up-layout`).
    static func cells(columns: Int, rows: Int, area: SheetRect, layout: SheetOptions.Layout) -> [SheetRect] {
        let name = layout.rawValue
        let first = name.prefix(2), second = name.suffix(2)
        let cw = area.width / Double(columns), ch = area.height / Double(rows)
        func column(_ i: Int, _ direction: Substring) -> Int { direction == "rl" ? columns - 1 - i : i }
        func row(_ i: Int, _ direction: Substring) -> Int { direction == "bt" ? rows - 1 - i : i }
        var order: [(Int, Int)] = []
        if first == "lr" || first == "rl" {
            for r in 0..<rows { for c in 0..<columns { order.append((column(c, first), row(r, second))) } }
        } else {
            for c in 0..<columns { for r in 0..<rows { order.append((column(c, second), row(r, first))) } }
        }
        return order.map { c, r in
            SheetRect(x: area.x + Double(c) * cw, y: area.y + Double(r) * ch, width: cw, height: ch)
        }
    }

    /// A page in a cell: fitted (or as the scaling says), turned a quarter when that fits it better.
    static func place(_ page: Int, size: PageBox, in cell: SheetRect, options: SheetOptions) -> PagePlacement {
        let straight = min(cell.width / size.width, cell.height / size.height)
        let quarter = min(cell.width / size.height, cell.height / size.width)
        let turned = options.orientation == .auto && quarter > straight * 1.01
        let fit = turned ? quarter : straight
        let scale: Double = switch options.scaling {
        case .auto, .fit: fit
        case .actual: 1
        case .percent(let p): fit * Double(p) / 100
        }
        return PagePlacement(page: page, pageSize: size, clip: cell, centerX: cell.midX, centerY: cell.midY,
                             turned: turned, scale: scale)
    }

    /// Several pages per side, in the grid that shows the first page largest.
    static func grid(_ pages: [Int], size: (Int) -> PageBox, representative: PageBox, options: SheetOptions) -> [SheetSide] {
        let portrait = paper(options, fallback: representative)
        let orientations: [Bool] = switch options.orientation {
        case .auto: [false, true]
        case .portrait: [false]
        case .landscape: [true]
        }
        var best: (landscape: Bool, columns: Int, rows: Int, scale: Double)?
        for landscape in orientations {
            let width = landscape ? portrait.height : portrait.width, height = landscape ? portrait.width : portrait.height
            let area = printable(width: width, height: height, landscape: landscape, options: options)
            for shape in shapes(options.numberUp) {
                let scale = min(area.width / Double(shape.columns) / representative.width,
                                area.height / Double(shape.rows) / representative.height)
                if best == nil || scale > best!.scale * 1.001 { best = (landscape, shape.columns, shape.rows, scale) }
            }
        }
        let chosen = best!
        let width = chosen.landscape ? portrait.height : portrait.width
        let height = chosen.landscape ? portrait.width : portrait.height
        let area = printable(width: width, height: height, landscape: chosen.landscape, options: options)
        let cells = cells(columns: chosen.columns, rows: chosen.rows, area: area, layout: options.layout)
        return stride(from: 0, to: pages.count, by: options.numberUp).map { start in
            let group = pages[start..<min(start + options.numberUp, pages.count)]
            let placements = group.enumerated().map { index, page in place(page, size: size(page), in: cells[index], options: options) }
            return SheetSide(width: width, height: height, placements: placements, border: options.border)
        }
    }

    /// The booklet order of `count` slots (a multiple of 4): for each side, its two slots
    /// (1-based) — for 8: 8|1, 2|7, 6|3, 4|5.
    public static func bookletOrder(_ count: Int) -> [(Int, Int)] {
        (0..<count / 2).map { side in
            let sheet = side / 2
            return side % 2 == 0 ? (count - 2 * sheet, 2 * sheet + 1) : (2 * sheet + 2, count - 2 * sheet - 1)
        }
    }

    /// Two pages per side, folded: portrait pages side by side on a landscape side, landscape
    /// pages one above the other on a portrait side.
    static func booklet(_ pages: [Int], size: (Int) -> PageBox, representative: PageBox, options: SheetOptions) -> [SheetSide] {
        let portrait = paper(options, fallback: PageBox(width: representative.width * 2, height: representative.height))
        let landscape = !representative.isLandscape
        let width = landscape ? portrait.height : portrait.width, height = landscape ? portrait.width : portrait.height
        let area = printable(width: width, height: height, landscape: landscape, options: options)
        let cells = landscape ? cells(columns: 2, rows: 1, area: area, layout: .lrtb) : cells(columns: 1, rows: 2, area: area, layout: .lrtb)
        let slots = (pages.count + 3) / 4 * 4
        var fixed = options
        fixed.orientation = .auto
        return bookletOrder(slots).map { pair in
            let placements = [pair.0, pair.1].enumerated().compactMap { index, slot -> PagePlacement? in
                guard slot <= pages.count else { return nil }
                let page = pages[slot - 1]
                return place(page, size: size(page), in: cells[index], options: fixed)
            }
            return SheetSide(width: width, height: height, placements: placements, border: options.border)
        }
    }
}
