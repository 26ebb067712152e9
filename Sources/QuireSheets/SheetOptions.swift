/// How document pages are put on sheets: paper, orientation, scaling, pages per side and
/// their order and border, booklet, which sides and in which order. Values are the ones `lp -o`
/// takes (see ``SheetOptions/apply(_:_:)``); nothing here touches a document or a printer.
public struct SheetOptions: Sendable, Hashable {
    public enum Orientation: String, Sendable, Hashable, CaseIterable {
        /// Each sheet turned to the shape of its pages.
        case auto, portrait, landscape
    }

    public enum Scaling: Sendable, Hashable {
        /// Actual size when the page fits the paper, else fit to the printable area (IPP's auto-fit).
        case auto
        /// Fitted to the printable area (or the cell, with several pages per side).
        case fit
        /// 100 %.
        case actual
        /// A percentage of the actual size (1…400).
        case percent(Int)

        public var ippValue: String {
            switch self {
            case .auto: "auto"
            case .fit: "fit"
            case .actual: "none"
            case .percent(let p): "\(p)%"
            }
        }
    }

    /// The order of pages on a side (`number-up-layout`): first direction, then the second.
    public enum Layout: String, Sendable, Hashable, CaseIterable {
        case lrtb, lrbt, rltb, rlbt, tblr, tbrl, btlr, btrl
    }

    /// A frame around each page (`page-border`).
    public enum Border: String, Sendable, Hashable, CaseIterable {
        case none, single, singleThick = "single-thick", double, doubleThick = "double-thick"
    }

    /// Which sides print (`page-set`): counted on the composed sides, for printing the fronts
    /// and then the backs by hand.
    public enum PageSet: String, Sendable, Hashable, CaseIterable {
        case all, odd, even
    }

    /// Pages per side that are offered.
    public static let numberUpChoices = [1, 2, 4, 6, 9, 16]

    /// nil: each side is the size of its page (one page per side, nothing scaled).
    public var paper: PaperSize?
    public var margins: Margins = .zero
    public var orientation: Orientation = .auto
    public var scaling: Scaling = .auto
    public var numberUp = 1
    public var layout: Layout = .lrtb
    public var border: Border = .none
    /// Pages reordered and placed two per side, to fold into a booklet.
    public var booklet = false
    public var pageSet: PageSet = .all
    /// Last sheet first (`outputorder=reverse`).
    public var reverse = false
    /// Whether sides are printed back to back (reverse order then keeps each sheet's two sides together).
    public var duplex = false

    public init() {}

    /// Whether there is nothing to compose: every page printed as it is, in order.
    public var isIdentity: Bool {
        paper == nil && orientation == .auto && scaling == .auto && numberUp == 1 && border == .none && !booklet
            && pageSet == .all && !reverse
    }

    /// The `lp -o` names Quire reads into sheet options (and never passes on to CUPS).
    public static let optionNames: Set<String> = [
        "media", "landscape", "orientation-requested", "fit-to-page", "print-scaling", "scaling", "number-up",
        "number-up-layout", "page-border", "page-set", "outputorder", "booklet",
    ]

    /// Reads one `lp -o` option; false when `name` is not a sheet option. Throws the user's
    /// message for a value the option does not have. `media` is read by the caller (it needs the
    /// printer's list).
    public mutating func apply(_ name: String, _ value: String) throws(SheetError) -> Bool {
        let lowered = value.lowercased()
        func bool() throws(SheetError) -> Bool {
            switch lowered {
            case "true", "yes", "on", "": return true
            case "false", "no", "off": return false
            default: throw SheetError("\(name)=\(value): expected true or false")
            }
        }
        switch name {
        case "landscape":
            orientation = try bool() ? .landscape : .portrait
        case "orientation-requested":
            switch lowered {
            case "3", "portrait": orientation = .portrait
            case "4", "landscape": orientation = .landscape
            case "auto", "none": orientation = .auto
            default: throw SheetError("orientation-requested=\(value): expected 3 (portrait) or 4 (landscape)")
            }
        case "fit-to-page":
            scaling = try bool() ? .fit : .auto
        case "print-scaling":
            switch lowered {
            case "fit", "fill": scaling = .fit
            case "none": scaling = .actual
            case "auto", "auto-fit": scaling = .auto
            default: throw SheetError("print-scaling=\(value): expected auto, fit or none")
            }
        case "scaling":
            let digits = lowered.hasSuffix("%") ? String(lowered.dropLast()) : lowered
            guard let percent = Int(digits), (1...400).contains(percent) else {
                throw SheetError("scaling=\(value): expected a percentage from 1 to 400")
            }
            scaling = percent == 100 ? .actual : .percent(percent)
        case "number-up":
            guard let n = Int(lowered), Self.numberUpChoices.contains(n) else {
                throw SheetError("number-up=\(value): expected 1, 2, 4, 6, 9 or 16")
            }
            numberUp = n
        case "number-up-layout":
            guard let parsed = Layout(rawValue: lowered) else {
                throw SheetError("number-up-layout=\(value): expected one of \(Layout.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            layout = parsed
        case "page-border":
            guard let parsed = Border(rawValue: lowered) else {
                throw SheetError("page-border=\(value): expected one of \(Border.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            border = parsed
        case "page-set":
            guard let parsed = PageSet(rawValue: lowered) else { throw SheetError("page-set=\(value): expected all, odd or even") }
            pageSet = parsed
        case "outputorder":
            switch lowered {
            case "reverse": reverse = true
            case "normal": reverse = false
            default: throw SheetError("outputorder=\(value): expected normal or reverse")
            }
        case "booklet":
            booklet = try bool()
        default:
            return false
        }
        return true
    }

    /// The options as `lp -o` words (for saving and showing), without defaults.
    public var optionWords: [(String, String)] {
        var words: [(String, String)] = []
        if let paper { words.append(("media", paper.name)) }
        if orientation != .auto { words.append(("orientation-requested", orientation == .portrait ? "3" : "4")) }
        switch scaling {
        case .auto: break
        case .fit, .actual: words.append(("print-scaling", scaling.ippValue))
        case .percent(let p): words.append(("scaling", String(p)))
        }
        if numberUp != 1 { words.append(("number-up", String(numberUp))) }
        if layout != .lrtb { words.append(("number-up-layout", layout.rawValue)) }
        if border != .none { words.append(("page-border", border.rawValue)) }
        if pageSet != .all { words.append(("page-set", pageSet.rawValue)) }
        if reverse { words.append(("outputorder", "reverse")) }
        return words
    }
}

/// A sheet option Quire cannot use, with the user's message.
public struct SheetError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
