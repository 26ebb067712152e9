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
        paper == nil && Self.choices.allSatisfy { !$0.composesAlone || $0.isDefault(in: self) }
    }

    /// The print choices people pick from a list, in the order the sheets show them: each
    /// declared once, with its `lp -o` spelling and its values (see ``SheetChoice``). A new one
    /// is a field above, an entry here, and its effect in ``Imposition`` or the composer.
    public static let choices: [SheetChoice] = [
        SheetChoice(name: "orientation-requested", label: "Orie_ntation", short: "Turn",
                    values: [.init("auto", "Automatic", alsoSpelled: ["none"]), .init("3", "Portrait", alsoSpelled: ["portrait"]),
                             .init("4", "Landscape", alsoSpelled: ["landscape"])],
                    expected: "3 (portrait) or 4 (landscape)",
                    read: { o in .init(["auto": "auto", "portrait": "3", "landscape": "4"][o.orientation.rawValue]!, "") },
                    write: { o, v in o.orientation = ["3": .portrait, "4": .landscape][v.word] ?? .auto }),
        SheetChoice(name: "print-scaling", label: "Sca_ling", short: "Scale",
                    values: [.init("auto", "Automatic", alsoSpelled: ["auto-fit"]), .init("fit", "Fit to printable area", alsoSpelled: ["fill"]),
                             .init("none", "Actual size")]
                        + [50, 75, 90, 125, 150, 200].map { .init(String($0), "\($0) %", option: "scaling") },
                    remembered: true, expected: "auto, fit or none",
                    read: { o in
                        switch o.scaling {
                        case .auto: .init("auto", "")
                        case .fit: .init("fit", "")
                        case .actual: .init("none", "")
                        case .percent(let p): .init(String(p), "\(p) %", option: "scaling")
                        }
                    },
                    write: { o, v in
                        switch v.word {
                        case "fit": o.scaling = .fit
                        case "none": o.scaling = .actual
                        default: o.scaling = Int(v.word).map { $0 == 100 ? .actual : .percent($0) } ?? .auto
                        }
                    }),
        SheetChoice(name: "number-up", label: "Pages per s_heet", short: "Per side",
                    values: numberUpChoices.map { .init(String($0), String($0)) }, remembered: true,
                    read: { o in .init(String(o.numberUp), String(o.numberUp)) },
                    write: { o, v in o.numberUp = Int(v.word) ?? 1 }),
        SheetChoice(name: "number-up-layout", label: "Page _order", short: "Order",
                    values: Layout.allCases.map { .init($0.rawValue, $0.name) }, composesAlone: false,
                    expected: "one of " + Layout.allCases.map(\.rawValue).joined(separator: ", "),
                    appliesWhen: { $0.numberUp > 1 && !$0.booklet },
                    read: { o in .init(o.layout.rawValue, o.layout.name) },
                    write: { o, v in o.layout = Layout(rawValue: v.word) ?? .lrtb }),
        SheetChoice(name: "page-border", label: "Bor_der", short: "Border",
                    values: [.init("none", "None"), .init("single", "Single line"), .init("single-thick", "Single thick line"),
                             .init("double", "Double line"), .init("double-thick", "Double thick line")],
                    expected: "one of " + Border.allCases.map(\.rawValue).joined(separator: ", "),
                    appliesWhen: { $0.numberUp > 1 && !$0.booklet },
                    read: { o in .init(o.border.rawValue, "") },
                    write: { o, v in o.border = Border(rawValue: v.word) ?? .none }),
        SheetChoice(name: "booklet", label: "_Booklet (fold in half)", short: "Booklet",
                    values: [.init("false", "no", alsoSpelled: ["no", "off"]), .init("true", "yes", alsoSpelled: ["yes", "on", ""])],
                    isSwitch: true, expected: "true or false",
                    read: { o in o.booklet ? .init("true", "") : .init("false", "") },
                    write: { o, v in o.booklet = v.word == "true" }),
        SheetChoice(name: "page-set", label: "Only pr_int", short: "Print",
                    values: [.init("all", "All sides"), .init("odd", "Odd sides only"), .init("even", "Even sides only")],
                    read: { o in .init(o.pageSet.rawValue, "") },
                    write: { o, v in o.pageSet = PageSet(rawValue: v.word) ?? .all }),
        SheetChoice(name: "outputorder", label: "Re_verse order (last side first)", short: "Reverse",
                    values: [.init("normal", "no"), .init("reverse", "yes, last side first")], isSwitch: true,
                    read: { o in o.reverse ? .init("reverse", "") : .init("normal", "") },
                    write: { o, v in o.reverse = v.word == "reverse" }),
    ]

    /// The choice `lp -o` spells `name`, if it is one.
    public static func choice(named name: String) -> SheetChoice? { choices.first { $0.name == name } }

    /// The `lp -o` names that set `choice`: its own, and lp's other spellings of it.
    public static func spellings(of choice: SheetChoice) -> Set<String> {
        Set([choice.name] + otherSpellings.filter { $0.value == choice.name }.map(\.key))
    }

    /// lp's other names for a choice ("landscape" is orientation).
    private static let otherSpellings = ["landscape": "orientation-requested", "fit-to-page": "print-scaling", "scaling": "print-scaling"]

    /// The `lp -o` names Quire reads into sheet options (and never passes on to CUPS): the
    /// choices', paper, and the other spellings `lp` has for them.
    public static let optionNames: Set<String> = Set(choices.map(\.name)).union(otherSpellings.keys).union(["media"])

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
        // lp's other spellings of orientation and scaling.
        switch name {
        case "landscape":
            orientation = try bool() ? .landscape : .portrait
            return true
        case "fit-to-page":
            scaling = try bool() ? .fit : .auto
            return true
        case "scaling":
            let digits = lowered.hasSuffix("%") ? String(lowered.dropLast()) : lowered
            guard let percent = Int(digits), (1...400).contains(percent) else {
                throw SheetError("scaling=\(value): expected a percentage from 1 to 400")
            }
            scaling = percent == 100 ? .actual : .percent(percent)
            return true
        default:
            break
        }
        guard let choice = Self.choice(named: name) else { return false }
        guard let parsed = choice.parse(value) else {
            throw SheetError("\(name)=\(value): expected \(choice.expected)")
        }
        choice.write(&self, parsed)
        return true
    }

    /// The options as `lp -o` words (for saving, showing and the worker), without defaults.
    public var optionWords: [(String, String)] {
        var words: [(String, String)] = []
        if let paper { words.append(("media", paper.name)) }
        for choice in Self.choices where !choice.isDefault(in: self) { words.append(choice.word(in: self)) }
        return words
    }
}

extension SheetOptions.Layout {
    /// How people read the order ("Left to right, top to bottom").
    public var name: String {
        let word: [Character: String] = ["l": "left", "r": "right", "t": "top", "b": "bottom"]
        let letters = Array(rawValue)
        let first = "\(word[letters[0]]!) to \(word[letters[1]]!)", second = "\(word[letters[2]]!) to \(word[letters[3]]!)"
        return first.prefix(1).uppercased() + first.dropFirst() + ", " + second
    }
}

/// A sheet option Quire cannot use, with the user's message.
public struct SheetError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
