import QuireRender

/// One place a search found its word: on which page (or line, for text shown as text) and where.
public struct FindMatch: Sendable, Hashable {
    /// 0-based page; for text shown as text, 0-based line.
    public var page: Int
    /// Where on the page, in points from its top-left corner (a match running onto the next
    /// line has a box per line); empty for text shown as text.
    public var boxes: [TextBox]
    /// For text shown as text: the characters (Unicode scalars) of the line the match covers.
    public var characters: Range<Int>?

    public init(page: Int, boxes: [TextBox] = [], characters: Range<Int>? = nil) {
        self.page = page
        self.boxes = boxes
        self.characters = characters
    }

    /// Most boxes one match may carry on the wire.
    static let maximumBoxes = 64

    func write(to writer: inout WireWriter) {
        writer.integer(Int64(page))
        writer.integer(Int64(boxes.count))
        for box in boxes { box.write(to: &writer) }
        writer.integer(Int64(characters?.lowerBound ?? -1))
        writer.integer(Int64(characters?.upperBound ?? -1))
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let page = try reader.integer()
        guard page >= 0, page < 1 << 31 else { throw WireReader.Malformed() }
        self.page = Int(page)
        let count = try reader.count(atMost: Self.maximumBoxes)
        var boxes: [TextBox] = []
        for _ in 0..<count { boxes.append(try TextBox(reading: &reader)) }
        self.boxes = boxes
        let lower = try reader.integer(), upper = try reader.integer()
        if lower == -1 && upper == -1 {
            characters = nil
        } else {
            guard lower >= 0, upper >= lower, upper < 1 << 31 else { throw WireReader.Malformed() }
            characters = Int(lower)..<Int(upper)
        }
    }
}

extension TextBox {
    func write(to writer: inout WireWriter) {
        writer.double(x)
        writer.double(y)
        writer.double(width)
        writer.double(height)
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let x = try reader.double(), y = try reader.double(), width = try reader.double(), height = try reader.double()
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite, width >= 0, height >= 0 else { throw WireReader.Malformed() }
        self.init(x: x, y: y, width: width, height: height)
    }
}
