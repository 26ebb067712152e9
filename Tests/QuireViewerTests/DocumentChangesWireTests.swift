import QuireRender
@testable import QuireRenderService
import Testing

/// What a viewer or `quire form` sends a worker to change a document (``DocumentChanges``)
/// arrives as it was sent — every kind of change at once — and a frame that cannot be one
/// (too many ink points, an unknown kind, a flag that is neither 0 nor 1, a negative index) is
/// refused before anything is made of it.
@Suite struct DocumentChangesWireTests {
    static let everything = DocumentChanges(
        formValues: [.init(name: "name", value: "Ada\nLovelace")],
        annotations: [
            PageAnnotation(kind: .highlight, page: 0, boxes: [TextBox(x: 72, y: 100, width: 200, height: 14)]),
            PageAnnotation(kind: .ink, page: 2, boxes: [], colour: .red, strokes: [[.init(x: 1, y: 2), .init(x: 3, y: 4)], [.init(x: 5, y: 6)]],
                           lineWidth: 4),
            PageAnnotation(kind: .freeText, page: 1, boxes: [TextBox(x: 10, y: 20, width: 100, height: 30)], text: "Café (1)", fontSize: 18),
        ],
        turns: [0: 1, 4: -1],
        flatten: true,
        removals: [.init(page: 3, index: 7, kind: "Highlight")],
        moves: [AnnotationMove(page: 1, index: 2, kind: "Rectangle", dx: -12.5, dy: 300),
                AnnotationMove(page: 0, index: 0, kind: "Drawing", dx: 0, dy: 0, scaleX: 2.5, scaleY: 0.5)],
        signature: SignatureField(name: "Approval", page: 2, box: .init(x: 300, y: 650, width: 200, height: 52), signer: "Ada Lovelace",
                                  reason: "Approved (final)", time: 1_796_000_000, room: 8192,
                                  ink: [[.init(x: 310, y: 660), .init(x: 330, y: 670)], [.init(x: 340, y: 655)]]))

    static func bytes(_ changes: DocumentChanges) -> [UInt8] {
        var writer = WireWriter()
        changes.write(to: &writer)
        return writer.bytes
    }

    @Test func everyKindOfChangeArrivesAsSent() throws {
        var reader = WireReader(Self.bytes(Self.everything))
        #expect(try DocumentChanges(reading: &reader) == Self.everything)
    }

    @Test func aFrameThatCannotBeChangesIsRefused() {
        // More ink points than one annotation may have, spread over strokes.
        let half = (0..<(PageAnnotation.maximumInkPoints / 2 + 1)).map { PageAnnotation.Point(x: Double($0), y: 0) }
        var tooMany = DocumentChanges()
        tooMany.annotations = [PageAnnotation(kind: .ink, page: 0, boxes: [], strokes: [half, half])]
        var reader = WireReader(Self.bytes(tooMany))
        #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }

        // The flatten flag comes before the removals' and the moves' counts and the signature's
        // flag (0, 0, 0): a 2 there, and a 2 for the signature's flag.
        var bytes = Self.bytes(DocumentChanges())
        bytes[bytes.count - 32] = 2
        reader = WireReader(bytes)
        #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }
        bytes = Self.bytes(DocumentChanges())
        bytes[bytes.count - 8] = 2
        reader = WireReader(bytes)
        #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }

        // A removal at a negative place.
        var negative = DocumentChanges()
        negative.removals = [.init(page: 0, index: -1, kind: "Note")]
        reader = WireReader(Self.bytes(negative))
        #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }

        // A move by no number.
        var nowhere = DocumentChanges()
        nowhere.moves = [AnnotationMove(page: 0, index: 0, kind: "Note", dx: .nan, dy: 0)]
        reader = WireReader(Self.bytes(nowhere))
        #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }

        // A resize to nothing, to a mirror image, or past a hundred times.
        for (scaleX, scaleY) in [(0.0, 1.0), (1.0, -2.0), (101.0, 1.0), (1.0, .infinity)] {
            var odd = DocumentChanges()
            odd.moves = [AnnotationMove(page: 0, index: 0, kind: "Rectangle", dx: 0, dy: 0, scaleX: scaleX, scaleY: scaleY)]
            reader = WireReader(Self.bytes(odd))
            #expect(throws: WireReader.Malformed.self, "scale \(scaleX) × \(scaleY)") { try DocumentChanges(reading: &reader) }
        }

        // An ink point at no place, in a drawing or in a signature's picture.
        let nowhereInk = [[PageAnnotation.Point(x: 1, y: .nan)]]
        for changes in [DocumentChanges(annotations: [PageAnnotation(kind: .ink, page: 0, boxes: [], strokes: nowhereInk)]),
                        DocumentChanges(signature: SignatureField(page: 0, signer: "A", time: 0, ink: nowhereInk))] {
            reader = WireReader(Self.bytes(changes))
            #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }
        }

        // A signature with too little room, or shown in a box of no width.
        for field in [SignatureField(page: 0, signer: "A", time: 0, room: 16),
                      SignatureField(page: 0, box: .init(x: 0, y: 0, width: 0, height: 50), signer: "A", time: 0)] {
            reader = WireReader(Self.bytes(DocumentChanges(signature: field)))
            #expect(throws: WireReader.Malformed.self, "\(field)") { try DocumentChanges(reading: &reader) }
        }

        // A kind of annotation there is not.
        var unknown = Self.bytes(DocumentChanges(annotations: [PageAnnotation(kind: .note, page: 0, boxes: [])]))
        let note = Array("note".utf8)
        if let at = (0...(unknown.count - note.count)).first(where: { Array(unknown[$0..<$0 + note.count]) == note }) {
            unknown.replaceSubrange(at..<at + note.count, with: Array("nope".utf8))
        }
        reader = WireReader(unknown)
        #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }

        // Cut short anywhere: refused, never read past the end.
        let whole = Self.bytes(Self.everything)
        for length in stride(from: 0, to: whole.count, by: 7) {
            reader = WireReader(Array(whole.prefix(length)))
            #expect(throws: WireReader.Malformed.self) { try DocumentChanges(reading: &reader) }
        }
    }
}
