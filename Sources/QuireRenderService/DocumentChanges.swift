import QuireRender

/// What a person asked to change in a document, sent to the worker that writes it
/// (``RenderRequestKind/saveChanges``): form values, annotations added to pages, pages turned, the
/// form flattened. The worker applies them all or
/// none, and answers with the saved update (``PDFUpdate``), never writing the file itself.
public struct DocumentChanges: Sendable, Hashable {
    /// One form field's new value, in the form's words (``FormField``).
    public struct FormValue: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var formValues: [FormValue]
    public var annotations: [PageAnnotation]
    /// Pages turned: 0-based page → quarter turns clockwise (negative: anticlockwise).
    public var turns: [Int: Int]
    /// The form made part of the pages after the values are set (`quire form --flatten`): its
    /// fields drawn as they look, no longer fields.
    public var flatten: Bool
    /// Annotations already in the PDF to remove (made before any is added).
    public var removals: [AnnotationRemoval]
    /// Annotations already in the PDF moved on their pages (named as listed, before removals).
    public var moves: [AnnotationMove]

    /// A signature field with room for a digital signature (`quire sign`): saved alone, the
    /// signature itself written in by the process that holds the certificate.
    public var signature: SignatureField?

    /// An image cut to this box (pixels from the top left of the picture as shown, before a
    /// turn): with `turns[0]`, all that an image's changes may hold (``ImageRewriting``).
    public var crop: PageAnnotation.Box?

    public init(formValues: [FormValue] = [], annotations: [PageAnnotation] = [], turns: [Int: Int] = [:], flatten: Bool = false,
                removals: [AnnotationRemoval] = [], moves: [AnnotationMove] = [], signature: SignatureField? = nil,
                crop: PageAnnotation.Box? = nil) {
        self.crop = crop
        self.formValues = formValues
        self.annotations = annotations
        self.turns = turns
        self.flatten = flatten
        self.removals = removals
        self.moves = moves
        self.signature = signature
    }

    /// Most values one request carries.
    static let maximumValues = 100_000

    func write(to writer: inout WireWriter) {
        writer.integer(Int64(formValues.count))
        for value in formValues {
            writer.string(value.name)
            writer.string(value.value)
        }
        writer.integer(Int64(annotations.count))
        for annotation in annotations {
            writer.string(annotation.kind.rawValue)
            writer.integer(Int64(annotation.page))
            writer.integer(Int64(annotation.boxes.count))
            for box in annotation.boxes {
                for value in [box.x, box.y, box.width, box.height] { writer.double(value) }
            }
            for value in [annotation.colour.red, annotation.colour.green, annotation.colour.blue] { writer.double(value) }
            writer.optionalString(annotation.text)
            Self.write(annotation.strokes, to: &writer)
            writer.double(annotation.lineWidth)
            writer.double(annotation.fontSize)
        }
        writer.integer(Int64(turns.count))
        for (page, quarterTurns) in turns.sorted(by: { $0.key < $1.key }) {
            writer.integer(Int64(page))
            writer.integer(Int64(quarterTurns))
        }
        writer.integer(flatten ? 1 : 0)
        writer.integer(Int64(removals.count))
        for removal in removals {
            writer.integer(Int64(removal.page))
            writer.integer(Int64(removal.index))
            writer.string(removal.kind)
        }
        writer.integer(Int64(moves.count))
        for move in moves {
            writer.integer(Int64(move.page))
            writer.integer(Int64(move.index))
            writer.string(move.kind)
            writer.double(move.dx)
            writer.double(move.dy)
            writer.double(move.scaleX)
            writer.double(move.scaleY)
        }
        writer.integer(signature == nil ? 0 : 1)
        if let signature {
            writer.optionalString(signature.name)
            writer.integer(Int64(signature.page))
            writer.integer(signature.box == nil ? 0 : 1)
            if let box = signature.box {
                for value in [box.x, box.y, box.width, box.height] { writer.double(value) }
            }
            writer.string(signature.signer)
            writer.optionalString(signature.reason)
            writer.integer(signature.time)
            writer.integer(Int64(signature.room))
            Self.write(signature.ink, to: &writer)
        }
        writer.integer(crop == nil ? 0 : 1)
        if let crop {
            for value in [crop.x, crop.y, crop.width, crop.height] { writer.double(value) }
        }
    }

    init(reading reader: inout WireReader) throws(WireReader.Malformed) {
        let count = try reader.count(atMost: Self.maximumValues)
        formValues = []
        for _ in 0..<count {
            formValues.append(FormValue(name: try reader.string(), value: try reader.string()))
        }
        let annotationCount = try reader.count(atMost: Self.maximumValues)
        annotations = []
        for _ in 0..<annotationCount {
            guard let kind = PageAnnotation.Kind(rawValue: try reader.string()) else { throw WireReader.Malformed() }
            let page = try reader.integer()
            guard page >= 0, page <= Int64(Int32.max) else { throw WireReader.Malformed() }
            let boxCount = try reader.count(atMost: Self.maximumValues)
            var boxes: [PageAnnotation.Box] = []
            for _ in 0..<boxCount {
                boxes.append(PageAnnotation.Box(x: try reader.double(), y: try reader.double(), width: try reader.double(),
                                                height: try reader.double()))
            }
            let colour = PageAnnotation.Colour(red: try reader.double(), green: try reader.double(), blue: try reader.double())
            let text = try reader.optionalString()
            let strokes = try Self.strokes(from: &reader)
            let lineWidth = try reader.double(), fontSize = try reader.double()
            annotations.append(PageAnnotation(kind: kind, page: Int(page), boxes: boxes, colour: colour, text: text,
                                              strokes: strokes, lineWidth: lineWidth, fontSize: fontSize))
        }
        let turnCount = try reader.count(atMost: Self.maximumValues)
        turns = [:]
        for _ in 0..<turnCount {
            let page = try reader.integer(), quarterTurns = try reader.integer()
            guard page >= 0, page <= Int64(Int32.max), abs(quarterTurns) <= 1000 else { throw WireReader.Malformed() }
            turns[Int(page)] = Int(quarterTurns)
        }
        switch try reader.integer() {
        case 0: flatten = false
        case 1: flatten = true
        default: throw WireReader.Malformed()
        }
        let removalCount = try reader.count(atMost: Self.maximumValues)
        removals = []
        for _ in 0..<removalCount {
            let page = try reader.integer(), index = try reader.integer()
            guard page >= 0, page <= Int64(Int32.max), index >= 0, index <= Int64(Int32.max) else { throw WireReader.Malformed() }
            removals.append(AnnotationRemoval(page: Int(page), index: Int(index), kind: try reader.string()))
        }
        let moveCount = try reader.count(atMost: Self.maximumValues)
        moves = []
        for _ in 0..<moveCount {
            let page = try reader.integer(), index = try reader.integer()
            guard page >= 0, page <= Int64(Int32.max), index >= 0, index <= Int64(Int32.max) else { throw WireReader.Malformed() }
            let kind = try reader.string(), dx = try reader.double(), dy = try reader.double()
            let scaleX = try reader.double(), scaleY = try reader.double()
            guard dx.isFinite, dy.isFinite, AnnotationMove.scales.contains(scaleX), AnnotationMove.scales.contains(scaleY) else {
                throw WireReader.Malformed()
            }
            moves.append(AnnotationMove(page: Int(page), index: Int(index), kind: kind, dx: dx, dy: dy, scaleX: scaleX, scaleY: scaleY))
        }
        switch try reader.integer() {
        case 0: signature = nil
        case 1:
            let name = try reader.optionalString()
            let page = try reader.integer()
            guard page >= 0, page <= Int64(Int32.max) else { throw WireReader.Malformed() }
            var box: PageAnnotation.Box?
            switch try reader.integer() {
            case 0: box = nil
            case 1:
                let values = [try reader.double(), try reader.double(), try reader.double(), try reader.double()]
                guard values.allSatisfy(\.isFinite), values[2] >= 1, values[3] >= 1, values[2] <= 14_400, values[3] <= 14_400 else {
                    throw WireReader.Malformed()
                }
                box = PageAnnotation.Box(x: values[0], y: values[1], width: values[2], height: values[3])
            default: throw WireReader.Malformed()
            }
            let signer = try reader.string(), reason = try reader.optionalString()
            let time = try reader.integer(), room = try reader.integer()
            guard (0...253_402_300_799).contains(time), SignatureField.rooms.contains(Int(room)) else { throw WireReader.Malformed() }
            let ink = try Self.strokes(from: &reader)
            signature = SignatureField(name: name, page: Int(page), box: box, signer: signer, reason: reason, time: time, room: Int(room),
                                       ink: ink)
        default: throw WireReader.Malformed()
        }
        switch try reader.integer() {
        case 0: crop = nil
        case 1:
            let values = [try reader.double(), try reader.double(), try reader.double(), try reader.double()]
            guard values.allSatisfy(\.isFinite), values[2] >= 1, values[3] >= 1 else { throw WireReader.Malformed() }
            crop = PageAnnotation.Box(x: values[0], y: values[1], width: values[2], height: values[3])
        default: throw WireReader.Malformed()
        }
    }

    /// Ink strokes (an ink annotation's, a signature's drawing): their count, then each one's
    /// points as x, y.
    private static func write(_ strokes: [[PageAnnotation.Point]], to writer: inout WireWriter) {
        writer.integer(Int64(strokes.count))
        for stroke in strokes {
            writer.integer(Int64(stroke.count))
            for point in stroke {
                writer.double(point.x)
                writer.double(point.y)
            }
        }
    }

    /// Strokes as ``write(_:to:)`` wrote them: at most PageAnnotation.maximumInkPoints points in
    /// all, every one finite.
    private static func strokes(from reader: inout WireReader) throws(WireReader.Malformed) -> [[PageAnnotation.Point]] {
        let strokeCount = try reader.count(atMost: PageAnnotation.maximumInkPoints)
        var strokes: [[PageAnnotation.Point]] = []
        var points = 0
        for _ in 0..<strokeCount {
            let pointCount = try reader.count(atMost: PageAnnotation.maximumInkPoints)
            points += pointCount
            guard points <= PageAnnotation.maximumInkPoints else { throw WireReader.Malformed() }
            var stroke: [PageAnnotation.Point] = []
            for _ in 0..<pointCount {
                let point = PageAnnotation.Point(x: try reader.double(), y: try reader.double())
                guard point.x.isFinite, point.y.isFinite else { throw WireReader.Malformed() }
                stroke.append(point)
            }
            strokes.append(stroke)
        }
        return strokes
    }
}
