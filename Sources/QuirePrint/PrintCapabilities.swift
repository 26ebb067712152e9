internal import CCUPS

/// What a destination can do, from `cupsCopyDestInfo` (the scheduler's view of the printer).
public struct PrintCapabilities: Sendable, Hashable, Codable {
    /// Allowed copies (e.g. 1...9999).
    public let copies: ClosedRange<Int>
    /// Whether the destination takes `page-ranges`.
    public let pageRanges: Bool
    /// Supported `sides` values ("one-sided", "two-sided-long-edge", ...).
    public let sides: [String]
    /// Whether a booklet prints in one pass: both sides, flipped on the short edge. Otherwise it
    /// prints in two passes (the fronts, then the backs after the stack is turned over).
    public var printsBookletsInOnePass: Bool { sides.contains(PrintOptions.Sides.twoSidedShortEdge.rawValue) }
    /// Supported media (PWG names, e.g. "iso_a4_210x297mm").
    public let media: [String]
    public let defaultMedia: String?
    /// Supported `print-color-mode` values ("monochrome", "color", ...).
    public let colorModes: [String]
    public let defaultColorMode: String?
    /// Supported `print-quality` values ("draft", "normal", "high").
    public let qualities: [String]
    /// Supported `number-up` values.
    public let numberUp: [Int]
    /// Document formats the destination accepts (MIME types).
    public let documentFormats: [String]

    public init(copies: ClosedRange<Int>, pageRanges: Bool, sides: [String], media: [String],
                defaultMedia: String?, colorModes: [String], defaultColorMode: String?,
                qualities: [String], numberUp: [Int], documentFormats: [String]) {
        self.copies = copies
        self.pageRanges = pageRanges
        self.sides = sides
        self.media = media
        self.defaultMedia = defaultMedia
        self.colorModes = colorModes
        self.defaultColorMode = defaultColorMode
        self.qualities = qualities
        self.numberUp = numberUp
        self.documentFormats = documentFormats
    }

    /// Whether the destination prints on both sides.
    public var duplex: Bool { sides.contains { $0.hasPrefix("two-sided") } }

    init(_ info: DestinationInfo) {
        func strings(_ value: IPPAttributes.Value?) -> [String] {
            switch value {
            case .strings(let v): return v
            case .integers(let v): return v.map(String.init)
            default: return []
            }
        }
        var copies = 1...1
        if case .ranges(let r)? = info.supported("copies"), let first = r.first { copies = first }
        var pageRanges = false
        if case .booleans(let b)? = info.supported("page-ranges") { pageRanges = b.first ?? false }
        var numberUp: [Int] = []
        switch info.supported("number-up") {
        case .integers(let v)?: numberUp = v
        case .ranges(let r)?: numberUp = [1, 2, 4, 6, 9, 16].filter { n in r.contains { $0.contains(n) } }
        default: numberUp = [1]
        }
        var qualities: [String] = []
        if case .integers(let v)? = info.supported("print-quality") {
            qualities = v.map { value in
                switch value { case 3: "draft"; case 4: "normal"; case 5: "high"; default: String(value) }
            }
        }
        let media = info.media()
        self.init(copies: copies, pageRanges: pageRanges,
                  sides: strings(info.supported("sides")),
                  media: media.names, defaultMedia: media.defaultName,
                  colorModes: strings(info.supported("print-color-mode")),
                  defaultColorMode: strings(info.defaultValue("print-color-mode")).first,
                  qualities: qualities, numberUp: numberUp,
                  documentFormats: strings(info.supported("document-format")))
    }
}

extension PrintSystem {
    /// The capabilities of `destination` (see ``PrintCapabilities``).
    public func capabilities(of destination: Destination) throws(PrintError) -> PrintCapabilities {
        let connection = try connect()
        return PrintCapabilities(try destinationInfo(connection, destination))
    }
}
