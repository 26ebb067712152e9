/// How a text box (PageAnnotation/Kind/freeText) is set: in Helvetica, one of PDF's
/// standard fonts that every reader has (no font is embedded), in the Windows-1252 ("WinAnsi")
/// encoding, so its letters are those of Western European languages; the text wrapped at
/// spaces to the box's width (a word longer than the width is broken), lines `leading` apart,
/// `padding` inside the box. The window draws its preview with the same lines (Nimbus Sans,
/// Helvetica's metric twin, is what fontconfig gives for Helvetica), and the saved appearance
/// stream sets them, so what is shown is what is saved.
public struct FreeTextLayout: Sendable, Hashable {
    /// The lines, top to bottom, as typed (WinAnsi-encodable).
    public var lines: [String]
    public var fontSize: Double
    /// The box's size in points: the widest line and every line, with the padding.
    public var width: Double
    public var height: Double

    /// Space between the box's edge and its text, in points.
    public static let padding = 4.0
    /// Font sizes a text box may have, in points.
    public static let fontSizes: ClosedRange<Double> = 4...144
    /// Most characters in one text box.
    public static let maximumLength = 4096

    /// Baselines are this many font sizes apart.
    public static let leading = 1.2
    /// The first baseline's distance below the top of its line, in font sizes.
    public static let ascent = 0.93

    /// `text` set at `fontSize` and wrapped to at most `maximumWidth` points (with padding); nil
    /// when a character has no place in WinAnsi (unencodable(_:)), the size is not in
    /// fontSizes, or the text is empty or longer than maximumLength.
    public init?(text: String, fontSize: Double, maximumWidth: Double) {
        guard Self.fontSizes.contains(fontSize), !text.isEmpty, text.count <= Self.maximumLength,
              Self.unencodable(text) == nil, maximumWidth.isFinite else { return nil }
        let room = max(fontSize, maximumWidth - 2 * Self.padding)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += Self.wrap(String(paragraph), room: room, fontSize: fontSize)
        }
        self.lines = lines
        self.fontSize = fontSize
        width = (lines.map { Self.width(of: $0, fontSize: fontSize) }.max() ?? 0) + 2 * Self.padding
        height = Double(lines.count) * Self.leading * fontSize + 2 * Self.padding
    }

    /// The distance of line `index`'s baseline below the box's top.
    public func baseline(_ index: Int) -> Double {
        Self.padding + (Double(index) * Self.leading + Self.ascent) * fontSize
    }

    /// The first character of `text` that Helvetica in WinAnsi cannot show; nil when all can.
    public static func unencodable(_ text: String) -> Character? {
        text.first { character in character != "\n" && code(character) == nil }
    }

    /// `text`'s width in points at `fontSize` (its characters must be encodable).
    public static func width(of text: String, fontSize: Double) -> Double {
        Double(text.reduce(0) { sum, character in sum + (code(character).map { widths[Int($0) - 32] } ?? 0) }) * fontSize / 1000
    }

    /// `text` in WinAnsi, as a PDF literal string's bytes (backslash, parentheses escaped).
    public static func literal(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "(")]
        for character in text {
            guard let byte = code(character) else { continue }
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: ")"))
        return bytes
    }

    /// The character's WinAnsi code; nil outside it (control characters, other scripts).
    static func code(_ character: Character) -> UInt8? {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return nil }
        let value = scalar.value
        switch value {
        case 0x20...0x7E, 0xA0...0xFF: return UInt8(value)
        default:
            guard let byte = windows1252[value], widths[Int(byte) - 32] > 0 else { return nil }
            return byte
        }
    }

    /// The lines of one paragraph: words added while they fit; a word wider than the room is
    /// broken where it fills it.
    private static func wrap(_ paragraph: String, room: Double, fontSize: Double) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if width(of: candidate, fontSize: fontSize) <= room {
                line = candidate
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            for character in word {
                if !line.isEmpty, width(of: line + String(character), fontSize: fontSize) > room {
                    lines.append(line)
                    line = ""
                }
                line.append(character)
            }
        }
        lines.append(line)
        return lines
    }

    /// Windows-1252's characters between 0x80 and 0x9F, by their Unicode scalar.
    private static let windows1252: [UInt32: UInt8] = [
        0x20AC: 0x80, 0x201A: 0x82, 0x0192: 0x83, 0x201E: 0x84, 0x2026: 0x85, 0x2020: 0x86, 0x2021: 0x87, 0x02C6: 0x88,
        0x2030: 0x89, 0x0160: 0x8A, 0x2039: 0x8B, 0x0152: 0x8C, 0x017D: 0x8E, 0x2018: 0x91, 0x2019: 0x92, 0x201C: 0x93,
        0x201D: 0x94, 0x2022: 0x95, 0x2013: 0x96, 0x2014: 0x97, 0x02DC: 0x98, 0x2122: 0x99, 0x0161: 0x9A, 0x203A: 0x9B,
        0x0153: 0x9C, 0x017E: 0x9E, 0x0178: 0x9F,
    ]

    /// Helvetica's advance widths (thousandths of the font size) for WinAnsi codes 32…255, as
    /// in the font's metrics (Nimbus Sans's AFM, the same numbers); 0 where WinAnsi has no
    /// character.
    private static let widths: [Int] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
        556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
        0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
        278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
        400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
        667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
        722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
        556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
    ]
}
