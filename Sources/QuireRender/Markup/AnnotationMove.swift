internal import CQPDF

/// An annotation already in a PDF moved or resized on its page (Markup's Select tool: dragged,
/// or its corner dragged): named as listed (``ExistingAnnotation``: page, place in the page's
/// list, kind), its box as shown scaled by (`scaleX`, `scaleY`) from its top left corner, then
/// moved by (`dx`, `dy`) points on the page as shown (y down). Saved by placing everything that
/// places it — `/Rect`, and `/QuadPoints`, `/L`, `/InkList`, `/Vertices`, `/CL` where it has
/// them — anew in the update after poppler's; its appearance stream is drawn into its
/// rectangle, so it moves and stretches with it.
public struct AnnotationMove: Sendable, Hashable {
    public var page: Int
    public var index: Int
    public var kind: String
    public var dx: Double
    public var dy: Double
    public var scaleX: Double
    public var scaleY: Double

    public init(page: Int, index: Int, kind: String, dx: Double, dy: Double, scaleX: Double = 1, scaleY: Double = 1) {
        self.page = page
        self.index = index
        self.kind = kind
        self.dx = dx
        self.dy = dy
        self.scaleX = scaleX
        self.scaleY = scaleY
    }

    /// The range a scale may take: a hundredth to a hundred times.
    public static let scales = 0.01...100.0

    /// Whether it changes the annotation's size as well as its place.
    public var resizes: Bool { scaleX != 1 || scaleY != 1 }

    /// Where an annotation whose box as shown is `box` goes.
    public func placing(_ box: TextBox) -> TextBox {
        TextBox(x: box.x + dx, y: box.y + dy, width: box.width * scaleX, height: box.height * scaleY)
    }

    /// This change and then `next` as one change of the same annotation (both from the box's
    /// top left corner: the moves add up, the scales multiply).
    public func followed(by next: AnnotationMove) -> AnnotationMove {
        AnnotationMove(page: page, index: index, kind: kind, dx: dx + next.dx, dy: dy + next.dy,
                       scaleX: scaleX * next.scaleX, scaleY: scaleY * next.scaleY)
    }

    /// The moved annotations' dictionaries, written again: `removed` are the places (as listed)
    /// of annotations poppler removed in this save, `rotation` each page's turn as it was shown.
    static func apply(_ moves: [AnnotationMove], removed: [Int: [Int]], page: (Int) -> qpdf_oh?, rotation: (Int) -> Int,
                      api: quire_qpdf_api, qpdf: qpdf_data) throws(FormValueError) -> [(number: Int, generation: Int, body: String)] {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        func numbers(_ array: qpdf_oh) -> [Double]? {
            guard api.qpdf_oh_is_array(qpdf, array) != 0 else { return nil }
            return (0..<Int(api.qpdf_oh_get_array_n_items(qpdf, array))).map {
                api.qpdf_oh_get_numeric_value(qpdf, api.qpdf_oh_get_array_item(qpdf, array, Int32($0)))
            }
        }
        let n = AnnotationAppearance.n
        var written: [(number: Int, generation: Int, body: String)] = []
        for move in moves {
            guard move.dx.isFinite, move.dy.isFinite, abs(move.dx) < 100_000, abs(move.dy) < 100_000,
                  Self.scales.contains(move.scaleX), Self.scales.contains(move.scaleY),
                  let pageObject = page(move.page) else {
                throw FormValueError("page \(move.page + 1) has no annotation \(move.index + 1) to move")
            }
            // poppler's list: the entries that are dictionaries with a rectangle, in order.
            let annots = api.qpdf_oh_get_key(qpdf, pageObject, "/Annots")
            var listed: [qpdf_oh] = []
            if api.qpdf_oh_is_array(qpdf, annots) != 0 {
                for item in 0..<Int(api.qpdf_oh_get_array_n_items(qpdf, annots)) {
                    let annot = api.qpdf_oh_get_array_item(qpdf, annots, Int32(item))
                    if api.qpdf_oh_is_dictionary(qpdf, annot) != 0, numbers(api.qpdf_oh_get_key(qpdf, annot, "/Rect"))?.count == 4 {
                        listed.append(annot)
                    }
                }
            }
            let place = move.index - (removed[move.page] ?? []).filter { $0 < move.index }.count
            guard listed.indices.contains(place) else {
                throw FormValueError("page \(move.page + 1) has no annotation \(move.index + 1) to move: open the file again")
            }
            let annot = listed[place]
            let subtype = api.qpdf_oh_get_key(qpdf, annot, "/Subtype")
            let kind = ExistingAnnotation.kind(subtype: api.qpdf_oh_is_name(qpdf, subtype) != 0 ? String(text(api.qpdf_oh_get_name(qpdf, subtype)).dropFirst()) : "")
            guard kind == move.kind else {
                throw FormValueError("annotation \(move.index + 1) of page \(move.page + 1) is a \(kind), not a \(move.kind): open the file again")
            }
            let number = Int(api.qpdf_oh_get_object_id(qpdf, annot))
            guard number > 0 else { throw FormValueError("that \(kind) is not an object of its own: it cannot be moved") }
            // From the page as shown to PDF space (the same turn as placing a new annotation):
            // the move, the scale along each of the page's axes, and the corner that is the top
            // left as shown, about which it scales.
            guard let rect = numbers(api.qpdf_oh_get_key(qpdf, annot, "/Rect")), rect.count == 4 else {
                throw FormValueError("that \(kind) has no rectangle: it cannot be moved")
            }
            let (minX, maxX, minY, maxY) = (min(rect[0], rect[2]), max(rect[0], rect[2]), min(rect[1], rect[3]), max(rect[1], rect[3]))
            let turn = ((rotation(move.page) % 360) + 360) % 360
            let (dx, dy): (Double, Double) = switch turn {
            case 90: (move.dy, move.dx)
            case 180: (-move.dx, move.dy)
            case 270: (-move.dy, -move.dx)
            default: (move.dx, -move.dy)
            }
            let (kx, ky) = turn == 90 || turn == 270 ? (move.scaleY, move.scaleX) : (move.scaleX, move.scaleY)
            let (ax, ay): (Double, Double) = switch turn {
            case 90: (minX, minY)
            case 180: (maxX, minY)
            case 270: (maxX, maxY)
            default: (minX, maxY)
            }
            func shifted(_ values: [Double]) -> String {
                values.enumerated().map {
                    $0.offset % 2 == 0 ? n(ax + ($0.element - ax) * kx + dx) : n(ay + ($0.element - ay) * ky + dy)
                }.joined(separator: " ")
            }
            for key in ["/Rect", "/QuadPoints", "/L", "/Vertices", "/CL"] {
                guard let values = numbers(api.qpdf_oh_get_key(qpdf, annot, key)) else { continue }
                api.qpdf_oh_replace_key(qpdf, annot, key, api.qpdf_oh_parse(qpdf, "[\(shifted(values))]"))
            }
            let ink = api.qpdf_oh_get_key(qpdf, annot, "/InkList")
            if api.qpdf_oh_is_array(qpdf, ink) != 0 {
                let strokes = (0..<Int(api.qpdf_oh_get_array_n_items(qpdf, ink))).compactMap { numbers(api.qpdf_oh_get_array_item(qpdf, ink, Int32($0))) }
                api.qpdf_oh_replace_key(qpdf, annot, "/InkList", api.qpdf_oh_parse(qpdf, "[" + strokes.map { "[\(shifted($0))]" }.joined(separator: " ") + "]"))
            }
            written.removeAll { $0.number == number }
            written.append((number, Int(api.qpdf_oh_get_generation(qpdf, annot)), text(api.qpdf_oh_unparse_resolved(qpdf, annot))))
        }
        return written
    }
}
