/// An annotation a person adds to a page: text marked up (highlight, underline, strike-out over
/// runs of text), a sticky note, a rectangle, an oval or a line. Saved as a standard PDF
/// annotation dictionary with its appearance stream, which every reader shows and edits.
///
/// Geometry is in page points as the page is shown: origin at the top left, y down, the page's
/// rotation applied — the coordinates of a page's text boxes (``PageTextLayout``), so a
/// selection's boxes become a highlight as they are.
public struct PageAnnotation: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case highlight
        case underline
        case strikeOut = "strike-out"
        case note
        case square
        case circle
        case line
    }

    /// A rectangle in page points from the top left (the page's one rectangle type). A line
    /// runs from (x, y) to (x + width, y + height): its width and height may be negative.
    public typealias Box = TextBox

    /// A colour, each channel 0…1.
    public struct Colour: Sendable, Hashable {
        public var red: Double
        public var green: Double
        public var blue: Double

        public init(red: Double, green: Double, blue: Double) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        public static let highlightYellow = Colour(red: 1, green: 0.9, blue: 0)
        public static let red = Colour(red: 0.85, green: 0.1, blue: 0.1)
    }

    public var kind: Kind
    /// The 0-based page.
    public var page: Int
    /// Text markup: one box per run of marked text (its QuadPoints). Others: the first box is
    /// the annotation's rectangle (a note's icon, the shape's bounds, the line's ends).
    public var boxes: [Box]
    public var colour: Colour
    /// A note's text (or any annotation's comment).
    public var text: String?

    public init(kind: Kind, page: Int, boxes: [Box], colour: Colour = .highlightYellow, text: String? = nil) {
        self.kind = kind
        self.page = page
        self.boxes = boxes
        self.colour = colour
        self.text = text
    }
}
