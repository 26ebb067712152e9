/// A sheet of paper: its PWG 5101.1 self-describing name ("iso_a4_210x297mm") and its size in
/// PostScript points (1/72 inch), portrait (width ≤ height).
///
/// ``named(_:)`` reads the names people and tools use: the common names ("A4", "Letter", "A5"),
/// CUPS's PPD names, and any PWG self-describing name (`class_name_WIDTHxHEIGHTmm` or `…in`),
/// so a printer's `media-supported` values are understood even when Quire has no table row.
public struct PaperSize: Sendable, Hashable, CustomStringConvertible {
    /// The PWG self-describing name, e.g. "iso_a4_210x297mm".
    public let name: String
    /// Points, portrait.
    public let width: Double
    public let height: Double

    public init(name: String, width: Double, height: Double) {
        self.name = name
        self.width = min(width, height)
        self.height = max(width, height)
    }

    /// The common name when Quire knows one ("A4", "Letter"), else the PWG name.
    public var displayName: String {
        Self.table.first { $0.pwg == name }?.common ?? name
    }

    public var description: String { displayName }

    /// Common sizes: the common name, the PWG name. Sizes come from the PWG name itself.
    static let table: [(common: String, pwg: String)] = [
        ("A3", "iso_a3_297x420mm"), ("A4", "iso_a4_210x297mm"), ("A5", "iso_a5_148x210mm"),
        ("A6", "iso_a6_105x148mm"), ("B5", "iso_b5_176x250mm"), ("B4", "iso_b4_250x353mm"),
        ("Letter", "na_letter_8.5x11in"), ("Legal", "na_legal_8.5x14in"), ("Tabloid", "na_ledger_11x17in"),
        ("Executive", "na_executive_7.25x10.5in"), ("Statement", "na_invoice_5.5x8.5in"),
        ("Env10", "na_number-10_4.125x9.5in"), ("EnvDL", "iso_dl_110x220mm"), ("EnvC5", "iso_c5_162x229mm"),
        ("4x6", "na_index-4x6_4x6in"), ("JIS-B5", "jis_b5_182x257mm"), ("JIS-B4", "jis_b4_257x364mm"),
    ]

    /// The common names Quire knows, for messages.
    public static var commonNames: [String] { table.map(\.common) }

    /// The paper a name means, or nil: "A4", "a4", "Letter", "iso_a4_210x297mm",
    /// "na_letter_8.5x11in", "custom_foo_100x150mm".
    public static func named(_ text: String) -> PaperSize? {
        let lowered = text.lowercased()
        if let row = table.first(where: { $0.common.lowercased() == lowered }) { return selfDescribing(row.pwg) }
        // PPD-style aliases
        let aliases = ["ledger": "Tabloid", "11x17": "Tabloid", "comm10": "Env10", "dl": "EnvDL", "c5": "EnvC5", "b5": "B5"]
        if let alias = aliases[lowered], let row = table.first(where: { $0.common == alias }) { return selfDescribing(row.pwg) }
        return selfDescribing(text)
    }

    /// A PWG self-describing name's size: the last "_"-separated part is "WxHmm" or "WxHin".
    static func selfDescribing(_ name: String) -> PaperSize? {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count >= 3, let dimensions = parts.last else { return nil }
        let unit: Double
        var body = Substring(dimensions)
        if body.hasSuffix("mm") { unit = 72.0 / 25.4; body = body.dropLast(2) }
        else if body.hasSuffix("in") { unit = 72.0; body = body.dropLast(2) }
        else { return nil }
        let sides = body.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let w = Double(sides[0]), let h = Double(sides[1]), w > 0, h > 0, w < 10_000, h < 10_000,
              sides.allSatisfy({ $0.allSatisfy { $0.isNumber || $0 == "." } }) else { return nil }
        return PaperSize(name: name, width: w * unit, height: h * unit)
    }
}

/// The unprintable edges of a paper (from the printer's `media-col-database`), in points, as
/// for the paper held portrait.
public struct Margins: Sendable, Hashable {
    public var top: Double, bottom: Double, left: Double, right: Double

    public init(top: Double = 0, bottom: Double = 0, left: Double = 0, right: Double = 0) {
        self.top = top
        self.bottom = bottom
        self.left = left
        self.right = right
    }

    public static let zero = Margins()

    /// The same edges with the sheet turned a quarter to landscape.
    var turned: Margins { Margins(top: right, bottom: left, left: top, right: bottom) }
}
