import QuireRender
import QuireRenderService

/// Text selected on one page: a run of the page's characters (in the worker's reading order),
/// found from points on the page as a pointer drags, double-clicks (a word) or triple-clicks
/// (a line). Pure functions over the worker's ``PageTextLayout``: the front-ends only say where
/// the pointer is, in page points.
public struct TextSelection: Sendable, Hashable {
    /// The model's file index and the 0-based page.
    public let file: Int
    public let page: Int
    /// Characters of the page's layout, in reading order.
    public let range: Range<Int>

    public init(file: Int, page: Int, range: Range<Int>) {
        self.file = file
        self.page = page
        self.range = range
    }

    /// The character nearest `(x, y)` (page points from the top-left): the one whose box holds
    /// the point, else the nearest on the line the point is on (before or after it), else the
    /// nearest overall. nil for a page without text.
    public static func character(in layout: PageTextLayout, x: Double, y: Double) -> Int? {
        var best: (index: Int, distance: Double)?
        for (index, box) in layout.boxes.enumerated() where !layout.characters[index].properties.isWhitespace || box.width > 0 {
            if box.contains(x: x, y: y) { return index }
            // Rows first: a point beside a line belongs to it, however far along.
            let dy = y < box.y ? box.y - y : (y > box.maxY ? y - box.maxY : 0)
            let dx = x < box.x ? box.x - x : (x > box.maxX ? x - box.maxX : 0)
            let distance = dy * 1000 + dx
            if best == nil || distance < best!.distance { best = (index, distance) }
        }
        return best?.index
    }

    /// The characters from the one at `start` to the one at `end` (either order), both included.
    public static func between(_ start: Int, _ end: Int) -> Range<Int> {
        min(start, end)..<(max(start, end) + 1)
    }

    /// The word around character `index` (letters, digits, marks and connectors); the
    /// character itself when it is not part of a word.
    public static func word(in layout: PageTextLayout, at index: Int) -> Range<Int> {
        guard layout.characters.indices.contains(index) else { return index..<index }
        func isWord(_ i: Int) -> Bool {
            let properties = layout.characters[i].properties
            return properties.isAlphabetic || properties.numericType != nil
                || properties.generalCategory == .connectorPunctuation || properties.generalCategory == .nonspacingMark
        }
        guard isWord(index) else { return index..<(index + 1) }
        var lower = index, upper = index + 1
        while lower > 0, isWord(lower - 1) { lower -= 1 }
        while upper < layout.characters.count, isWord(upper) { upper += 1 }
        return lower..<upper
    }

    /// The line around character `index` (between line ends, which are left out).
    public static func line(in layout: PageTextLayout, at index: Int) -> Range<Int> {
        guard layout.characters.indices.contains(index) else { return index..<index }
        func isEnd(_ i: Int) -> Bool { layout.characters[i] == "\n" || layout.characters[i] == "\r" }
        var lower = index, upper = index
        while lower > 0, !isEnd(lower - 1) { lower -= 1 }
        while upper < layout.characters.count, !isEnd(upper) { upper += 1 }
        return lower..<upper
    }

    /// The boxes to draw for the selection: one per selected character that has ink (not line
    /// ends), from `layout`.
    public func boxes(in layout: PageTextLayout) -> [TextBox] {
        range.clamped(to: 0..<layout.characters.count).compactMap { index in
            let character = layout.characters[index]
            return character == "\n" || character == "\r" ? nil : layout.boxes[index]
        }
    }
}
