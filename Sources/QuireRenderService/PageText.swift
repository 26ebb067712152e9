import QuireRender

/// One page's text as the worker extracted it, with a box per character (for selecting and
/// copying), whether the document's permissions let it be copied, and the page's annotations
/// (a PDF's, for Markup to select and remove).
public struct PageText: Sendable, Hashable {
    public var layout: PageTextLayout
    /// False when the document forbids copying its text (a PDF's permissions).
    public var copyAllowed: Bool
    public var annotations: [ExistingAnnotation]
    /// The page's form widgets (a PDF's), to be filled in place.
    public var fields: [FormWidget]
    /// With page 1's text: the document's form is XFA only, which cannot be filled.
    public var formIsXFAOnly: Bool

    public init(layout: PageTextLayout, copyAllowed: Bool, annotations: [ExistingAnnotation] = [], fields: [FormWidget] = [],
                formIsXFAOnly: Bool = false) {
        self.layout = layout
        self.copyAllowed = copyAllowed
        self.annotations = annotations
        self.fields = fields
        self.formIsXFAOnly = formIsXFAOnly
    }

    /// Most annotations one reply carries.
    static let maximumAnnotations = 100_000

    /// Most characters one reply carries.
    static let maximumCharacters = 1 << 22

    func write(to writer: inout WireWriter) {
        writer.integer(copyAllowed ? 1 : 0)
        writer.integer(Int64(layout.characters.count))
        for (character, box) in zip(layout.characters, layout.boxes) {
            writer.integer(Int64(character.value))
            box.write(to: &writer)
        }
        writer.integer(Int64(annotations.count))
        for annotation in annotations {
            writer.integer(Int64(annotation.index))
            writer.string(annotation.kind)
            annotation.box.write(to: &writer)
            writer.optionalString(annotation.text)
        }
        writer.integer(Int64(fields.count))
        for widget in fields {
            FormFacts.write(widget.field, to: &writer)
            widget.box.write(to: &writer)
            writer.optionalString(widget.state)
        }
        writer.integer(formIsXFAOnly ? 1 : 0)
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
        let annotationCount = try reader.count(atMost: Self.maximumAnnotations)
        annotations = []
        for _ in 0..<annotationCount {
            let index = try reader.integer()
            guard index >= 0, index < Self.maximumAnnotations else { throw WireReader.Malformed() }
            annotations.append(ExistingAnnotation(index: Int(index), kind: try reader.string(), box: try TextBox(reading: &reader),
                                                  text: try reader.optionalString()))
        }
        let fieldCount = try reader.count(atMost: Self.maximumAnnotations)
        fields = []
        for _ in 0..<fieldCount {
            let field = try FormFacts.field(from: &reader)
            fields.append(FormWidget(field: field, box: try TextBox(reading: &reader), state: try reader.optionalString()))
        }
        formIsXFAOnly = try reader.integer() == 1
    }
}
