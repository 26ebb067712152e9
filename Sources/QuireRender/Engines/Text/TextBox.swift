/// A rectangle on a page in points (1/72 inch) from the page's top-left corner, y downwards:
/// where a match of a search, a glyph of the page's text or an annotation (``PageAnnotation/Box``)
/// sits.
public struct TextBox: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether every coordinate is a number (a request's box is checked before use).
    var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// Whether the point lies inside (edges included).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px <= maxX && py >= y && py <= maxY
    }
}
