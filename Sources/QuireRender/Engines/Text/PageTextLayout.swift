/// A page's text as its engine extracted it, with where each character sits: `boxes[i]` is
/// the box of `characters[i]` (Unicode scalars, in reading order; line ends are characters
/// too, with the box of the line's last glyph). For selecting and copying text on a page.
public struct PageTextLayout: Sendable, Hashable {
    public var characters: [Unicode.Scalar]
    public var boxes: [TextBox]

    public init(characters: [Unicode.Scalar], boxes: [TextBox]) {
        precondition(characters.count == boxes.count, "one box per character")
        self.characters = characters
        self.boxes = boxes
    }

    public var isEmpty: Bool { characters.isEmpty }

    /// The characters `range` covers, as a string.
    public func text(_ range: Range<Int>) -> String {
        let clamped = range.clamped(to: 0..<characters.count)
        var string = String.UnicodeScalarView()
        string.append(contentsOf: characters[clamped])
        return String(string)
    }
}
