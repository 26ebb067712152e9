import QuireTypes

/// One face of a font file, as the info card and the specimen name it: family and style, the
/// font's own version, designer and maker, how many glyphs it has, and the writing systems it
/// covers. A collection (.ttc/.otc) has one per face.
public struct FontFace: Sendable, Hashable, Codable {
    public var family: String
    public var style: String?
    /// The `name` table's version string ("Version 2.37"), else fontconfig's revision.
    public var version: String?
    public var designer: String?
    public var manufacturer: String?
    /// From `maxp`; nil for WOFF2, whose tables Quire does not decompress.
    public var glyphCount: Int?
    /// Characters the face maps (fontconfig's charset).
    public var characterCount: Int
    /// Writing systems with a letter in the face, in ``FontScript/all`` order ("Latin", "Greek").
    public var scripts: [String]
    /// The container format fontconfig read: "TrueType", "CFF", "Type 1", "WOFF"…
    public var format: String?
    /// Whether the face has variation axes (a variable font).
    public var isVariable: Bool
    /// Whether the face is a symbol font (pictures at letters' code points; no script).
    public var isSymbol: Bool

    /// The faces of a font file (for `info`: fontconfig and the font's tables only, no layout).
    /// - Throws: ``DocumentError`` `damaged` when FreeType cannot open the file as a font.
    public static func faces(in file: InputFile, limits: RenderLimits = .standard) throws(DocumentError) -> [FontFace] {
        try FontFile(file: file, limits: limits).faces
    }

    /// "DejaVu Sans Bold": the family, and the style unless it is the regular one.
    public var fullName: String {
        guard let style, !style.isEmpty, !["regular", "normal", "book", "roman"].contains(style.lowercased()) else {
            return family
        }
        return "\(family) \(style)"
    }
}

/// The writing systems a specimen knows, each with a letter that shows a face covers it and a
/// sentence to show it with (pangrams where the language has a well-known one).
struct FontScript: Sendable {
    let name: String
    /// Code points that must all be in the face.
    let probe: [UInt32]
    let sample: String

    static let all: [FontScript] = [
        FontScript(name: "Latin", probe: [0x41, 0x61, 0x7A], sample: "The quick brown fox jumps over the lazy dog."),
        FontScript(name: "Greek", probe: [0x391, 0x3B1, 0x3C9], sample: "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία."),
        FontScript(name: "Cyrillic", probe: [0x410, 0x431, 0x44F], sample: "Съешь же ещё этих мягких французских булок, да выпей чаю."),
        FontScript(name: "Armenian", probe: [0x531, 0x561], sample: "Բարեւ աշխարհ։ Ես կարող եմ ապակի ուտել։"),
        FontScript(name: "Hebrew", probe: [0x5D0, 0x5EA], sample: "דג סקרן שט בים מאוכזב ולפתע מצא חברה"),
        FontScript(name: "Arabic", probe: [0x627, 0x628, 0x64A], sample: "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر"),
        FontScript(name: "Devanagari", probe: [0x915, 0x93E], sample: "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश"),
        FontScript(name: "Bengali", probe: [0x995, 0x9BE], sample: "আমি কাঁচ খেতে পারি, তাতে আমার কোনো ক্ষতি হয় না।"),
        FontScript(name: "Tamil", probe: [0xB95, 0xBBE], sample: "நான் கண்ணாடி சாப்பிடுவேன், அதனால் எனக்கு ஒரு கேடும் வராது."),
        FontScript(name: "Thai", probe: [0xE01, 0xE32], sample: "เป็นมนุษย์สุดประเสริฐเลิศคุณค่า"),
        FontScript(name: "Georgian", probe: [0x10D0, 0x10F0], sample: "მინას ვჭამ და არა მტკივა."),
        FontScript(name: "Ethiopic", probe: [0x1200, 0x1208], sample: "ብርሃን ዘርይሁን ወልደ ሰማያት"),
        FontScript(name: "Hangul", probe: [0xAC00, 0xD55C], sample: "다람쥐 헌 쳇바퀴에 타고파"),
        FontScript(name: "Japanese", probe: [0x3042, 0x30A2], sample: "いろはにほへと ちりぬるを わかよたれそ"),
        FontScript(name: "Han", probe: [0x4E00, 0x6211], sample: "我能吞下玻璃而不伤身体。"),
    ]
}
