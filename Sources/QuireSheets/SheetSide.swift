/// A rectangle on a sheet, in points, with y growing downwards (as cairo draws).
public struct SheetRect: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
}

/// A page's size in points.
public struct PageBox: Sendable, Hashable {
    public var width: Double, height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    var isLandscape: Bool { width > height }
}

/// One document page placed on a side: the page's centre goes to the cell's centre, turned a
/// quarter clockwise when `turned`, scaled by `scale`, and clipped to `clip`.
public struct PagePlacement: Sendable, Hashable {
    /// 1-based document page.
    public let page: Int
    public let pageSize: PageBox
    /// Where the page may draw (its cell, or the whole side).
    public let clip: SheetRect
    public let centerX: Double, centerY: Double
    public let turned: Bool
    public let scale: Double

    /// The page's outline on the side (where a border goes).
    public var outline: SheetRect {
        let w = (turned ? pageSize.height : pageSize.width) * scale
        let h = (turned ? pageSize.width : pageSize.height) * scale
        return SheetRect(x: centerX - w / 2, y: centerY - h / 2, width: w, height: h)
    }
}

/// One side of a sheet as it prints: its size (landscape when wider than tall) and the pages on it.
public struct SheetSide: Sendable, Hashable {
    public let width: Double, height: Double
    /// Empty for a blank side (a booklet's padding, or the back kept with its front).
    public let placements: [PagePlacement]
    public let border: SheetOptions.Border

    /// The document pages on this side, in reading order (what a caption shows).
    public var pages: [Int] { placements.map(\.page) }
}
