/// An annotation a person adds to a page: text marked up (highlight, underline, strike-out over
/// runs of text), a sticky note, a text box, a rectangle, an oval, a line, an arrow or a
/// freehand drawing (ink). Saved as a standard PDF annotation dictionary with its appearance stream, which every
/// reader shows and edits.
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
        /// A line with an open arrowhead at its end (a `/Line` with `/LE [/None /OpenArrow]`).
        case arrow
        /// Freehand strokes (an `/Ink` annotation's `/InkList`): ``strokes``.
        case ink
        /// A text box typed in place (a `/FreeText` annotation): ``text`` set in ``fontSize``
        /// as ``FreeTextLayout`` sets it, in ``colour``, the first box its place.
        case freeText = "free-text"
    }

    /// A point on the page, in the same space as ``Box``.
    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
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
    /// the annotation's rectangle (a note's icon, the shape's bounds, the line's or arrow's
    /// ends). Ink: none (its place is its strokes).
    public var boxes: [Box]
    /// Ink: each stroke's points in the order drawn.
    public var strokes: [[Point]]
    /// Width of a shape's, line's or stroke's line, in points.
    public var lineWidth: Double
    public var colour: Colour
    /// A note's or text box's text (or any annotation's comment).
    public var text: String?
    /// A text box's font size, in points.
    public var fontSize: Double

    public init(kind: Kind, page: Int, boxes: [Box], colour: Colour = .highlightYellow, text: String? = nil,
                strokes: [[Point]] = [], lineWidth: Double = 1, fontSize: Double = 12) {
        self.kind = kind
        self.page = page
        self.boxes = boxes
        self.colour = colour
        self.text = text
        self.strokes = strokes
        self.lineWidth = lineWidth
        self.fontSize = fontSize
    }

    /// Most points an ink annotation keeps (a stroke's points are thinned before this).
    public static let maximumInkPoints = 20_000

    /// The two free ends of an open arrowhead at `tip` of a line from `tail`: strokes back from
    /// the tip at ±28°, 6 + 3 × `width` long (never longer than the line); nil for a line of no
    /// length. The same in page space (y down) and PDF space (y up): the head is symmetric.
    public static func arrowhead(tail: Point, tip: Point, width: Double) -> (Point, Point)? {
        let (dx, dy) = (tip.x - tail.x, tip.y - tail.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return nil }
        let head = min(length, 6 + 3 * width)
        let (ux, uy) = (dx / length, dy / length)
        let (c, s) = (0.882948, 0.469472)   // cos and sin of 28°
        return (Point(x: tip.x - head * (ux * c - uy * s), y: tip.y - head * (uy * c + ux * s)),
                Point(x: tip.x - head * (ux * c + uy * s), y: tip.y - head * (uy * c - ux * s)))
    }

    /// The smallest box holding every point of the strokes; nil without a point.
    public var strokeBounds: Box? {
        let points = strokes.joined()
        guard let first = points.first else { return nil }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points {
            minX = min(minX, point.x)
            minY = min(minY, point.y)
            maxX = max(maxX, point.x)
            maxY = max(maxY, point.y)
        }
        return Box(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
