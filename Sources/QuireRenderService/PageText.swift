import QuireRender

/// One page's text as the worker extracted it, with a box per character (for selecting and
/// copying), and whether the document's permissions let it be copied.
public struct PageText: Sendable, Hashable {
    public var layout: PageTextLayout
    /// False when the document forbids copying its text (a PDF's permissions).
    public var copyAllowed: Bool

    public init(layout: PageTextLayout, copyAllowed: Bool) {
        self.layout = layout
        self.copyAllowed = copyAllowed
    }

    /// Most characters one reply carries.
    static let maximumCharacters = 1 << 22

    func write(to writer: inout WireWriter) {
        writer.integer(copyAllowed ? 1 : 0)
        writer.integer(Int64(layout.characters.count))
        for (character, box) in zip(layout.characters, layout.boxes) {
            writer.integer(Int64(character.value))
            box.write(to: &writer)
        }
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        copyAllowed = try reader.integer() == 1
        let count = try reader.count(atMost: Self.maximumCharacters)
        var characters: [Unicode.Scalar] = []
        var boxes: [TextBox] = []
        characters.reserveCapacity(count)
        boxes.reserveCapacity(count)
        for _ in 0..<count {
            let value = try reader.integer()
            guard value >= 0, value <= 0x10FFFF, let scalar = Unicode.Scalar(UInt32(value)) else { throw WireReader.Malformed() }
            characters.append(scalar)
            boxes.append(try TextBox(reading: &reader))
        }
        layout = PageTextLayout(characters: characters, boxes: boxes)
    }
}
