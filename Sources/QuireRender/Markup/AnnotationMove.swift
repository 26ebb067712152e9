internal import CQPDF

/// An annotation already in a PDF moved on its page (Markup's Select tool, dragged): named as
/// listed (``ExistingAnnotation``: page, place in the page's list, kind), moved by (`dx`, `dy`)
/// points on the page as shown (y down). Saved by shifting everything that places it —
/// `/Rect`, and `/QuadPoints`, `/L`, `/InkList`, `/Vertices`, `/CL` where it has them — in the
/// update after poppler's; its appearance stream is drawn into its rectangle, so it moves too.
public struct AnnotationMove: Sendable, Hashable {
    public var page: Int
    public var index: Int
    public var kind: String
    public var dx: Double
    public var dy: Double

    public init(page: Int, index: Int, kind: String, dx: Double, dy: Double) {
        self.page = page
        self.index = index
        self.kind = kind
        self.dx = dx
        self.dy = dy
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
            // From the page as shown to PDF space (the same turn as placing a new annotation).
            let (dx, dy): (Double, Double) = switch ((rotation(move.page) % 360) + 360) % 360 {
            case 90: (move.dy, move.dx)
            case 180: (-move.dx, move.dy)
            case 270: (-move.dy, -move.dx)
            default: (move.dx, -move.dy)
            }
            func shifted(_ values: [Double]) -> String {
                values.enumerated().map { n($0.element + ($0.offset % 2 == 0 ? dx : dy)) }.joined(separator: " ")
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
