internal import CQPDF

/// The normal appearance of an annotation Quire added (poppler-glib writes none), drawn from
/// the annotation's own dictionary as a form XObject whose bounding box is its `/Rect` (so it
/// draws in page space): a highlight fills each quadrilateral of `/QuadPoints` with `/C` in the
/// Multiply blend mode, an underline or strike-out strokes a line under or through each, a
/// square or circle strokes its `/Rect` inset by half its width, a line strokes `/L` (with an
/// open arrowhead where `/LE` asks for one), ink strokes each path of `/InkList` as a smooth
/// curve through its points (round caps and joins), and a note is a small coloured sheet with
/// three lines. Widths are `/BS /W`'s (1 without it).
enum AnnotationAppearance {
    /// The stream object's body (`<< … >> stream … endstream`), nil for a kind it does not draw.
    static func form(_ annot: qpdf_oh, api: quire_qpdf_api, qpdf: qpdf_data) -> [UInt8]? {
        func numbers(_ key: String) -> [Double] {
            let array = api.qpdf_oh_get_key(qpdf, annot, key)
            guard api.qpdf_oh_is_array(qpdf, array) != 0 else { return [] }
            return (0..<min(Int(api.qpdf_oh_get_array_n_items(qpdf, array)), 4096)).compactMap { index in
                let item = api.qpdf_oh_get_array_item(qpdf, array, Int32(index))
                guard api.qpdf_oh_is_number(qpdf, item) != 0 else { return nil }
                let value = api.qpdf_oh_get_numeric_value(qpdf, item)
                return value.isFinite ? value : nil
            }
        }
        let subtype = api.qpdf_oh_get_key(qpdf, annot, "/Subtype")
        func isSubtype(_ name: String) -> Bool { api.qpdf_oh_is_name_and_equals(qpdf, subtype, name) != 0 }
        let rect = numbers("/Rect")
        guard rect.count == 4 else { return nil }
        let (x1, y1, x2, y2) = (min(rect[0], rect[2]), min(rect[1], rect[3]), max(rect[0], rect[2]), max(rect[1], rect[3]))
        let colour = numbers("/C")
        let rgb = colour.count == 3 ? colour.map(n).joined(separator: " ") : "0 0 0"
        let quads = numbers("/QuadPoints")
        var width = 1.0
        let border = api.qpdf_oh_get_key(qpdf, annot, "/BS")
        if api.qpdf_oh_is_dictionary(qpdf, border) != 0 {
            let w = api.qpdf_oh_get_key(qpdf, border, "/W")
            if api.qpdf_oh_is_number(qpdf, w) != 0 {
                let value = api.qpdf_oh_get_numeric_value(qpdf, w)
                if value.isFinite, value > 0, value <= 100 { width = value }
            }
        }
        let w = n(width)
        var content = ""
        var resources = ""
        if isSubtype("/Highlight") {
            resources = "/ExtGState << /GS0 << /BM /Multiply >> >>"
            content = "/GS0 gs \(rgb) rg\n"
            for q in stride(from: 0, to: quads.count - 7, by: 8) {
                content += "\(n(quads[q])) \(n(quads[q + 1])) m \(n(quads[q + 2])) \(n(quads[q + 3])) l "
                    + "\(n(quads[q + 6])) \(n(quads[q + 7])) l \(n(quads[q + 4])) \(n(quads[q + 5])) l h f\n"
            }
        } else if isSubtype("/Underline") || isSubtype("/StrikeOut") {
            content = "\(rgb) RG\n"
            let under = isSubtype("/Underline")
            for q in stride(from: 0, to: quads.count - 7, by: 8) {
                let top = quads[q + 1], bottom = quads[q + 5]
                let width = max(0.5, abs(top - bottom) / 14)
                let y = under ? bottom + width : (top + bottom) / 2
                content += "\(n(width)) w \(n(quads[q + 4])) \(n(y)) m \(n(quads[q + 6])) \(n(y)) l S\n"
            }
        } else if isSubtype("/Square") {
            let inset = width / 2
            content = "\(rgb) RG \(w) w \(n(x1 + inset)) \(n(y1 + inset)) \(n(x2 - x1 - width)) \(n(y2 - y1 - width)) re S\n"
        } else if isSubtype("/Circle") {
            let cx = (x1 + x2) / 2, cy = (y1 + y2) / 2, rx = (x2 - x1 - width) / 2, ry = (y2 - y1 - width) / 2
            let k = 0.5523
            content = "\(rgb) RG \(w) w \(n(cx + rx)) \(n(cy)) m "
                + "\(n(cx + rx)) \(n(cy + k * ry)) \(n(cx + k * rx)) \(n(cy + ry)) \(n(cx)) \(n(cy + ry)) c "
                + "\(n(cx - k * rx)) \(n(cy + ry)) \(n(cx - rx)) \(n(cy + k * ry)) \(n(cx - rx)) \(n(cy)) c "
                + "\(n(cx - rx)) \(n(cy - k * ry)) \(n(cx - k * rx)) \(n(cy - ry)) \(n(cx)) \(n(cy - ry)) c "
                + "\(n(cx + k * rx)) \(n(cy - ry)) \(n(cx + rx)) \(n(cy - k * ry)) \(n(cx + rx)) \(n(cy)) c S\n"
        } else if isSubtype("/Line") {
            let line = numbers("/L")
            guard line.count == 4 else { return nil }
            content = "\(rgb) RG \(w) w 1 J 1 j \(n(line[0])) \(n(line[1])) m \(n(line[2])) \(n(line[3])) l S\n"
            // An open arrowhead at the end: two strokes back from the tip at ±28°.
            let ending = api.qpdf_oh_get_key(qpdf, annot, "/LE")
            if api.qpdf_oh_is_array(qpdf, ending) != 0, api.qpdf_oh_get_array_n_items(qpdf, ending) == 2,
               api.qpdf_oh_is_name_and_equals(qpdf, api.qpdf_oh_get_array_item(qpdf, ending, 1), "/OpenArrow") != 0 {
                if let (left, right) = PageAnnotation.arrowhead(tail: .init(x: line[0], y: line[1]), tip: .init(x: line[2], y: line[3]),
                                                                width: width) {
                    content += "\(n(left.x)) \(n(left.y)) m \(n(line[2])) \(n(line[3])) l \(n(right.x)) \(n(right.y)) l S\n"
                }
            }
        } else if isSubtype("/Ink") {
            content = "\(rgb) RG \(w) w 1 J 1 j\n"
            let list = api.qpdf_oh_get_key(qpdf, annot, "/InkList")
            guard api.qpdf_oh_is_array(qpdf, list) != 0 else { return nil }
            for index in 0..<min(Int(api.qpdf_oh_get_array_n_items(qpdf, list)), 4096) {
                let path = api.qpdf_oh_get_array_item(qpdf, list, Int32(index))
                guard api.qpdf_oh_is_array(qpdf, path) != 0 else { continue }
                var values: [Double] = []
                for item in 0..<min(Int(api.qpdf_oh_get_array_n_items(qpdf, path)), 2 * PageAnnotation.maximumInkPoints) {
                    let value = api.qpdf_oh_get_numeric_value(qpdf, api.qpdf_oh_get_array_item(qpdf, path, Int32(item)))
                    values.append(value.isFinite ? value : 0)
                }
                content += smoothPath(stride(from: 0, to: values.count - 1, by: 2).map { (values[$0], values[$0 + 1]) })
            }
        } else if isSubtype("/Text") {
            let w = x2 - x1, h = y2 - y1
            content = "\(rgb) rg 0 0 0 RG 0.5 w \(n(x1 + 0.5)) \(n(y1 + 0.5)) \(n(w - 1)) \(n(h - 1)) re B\n"
            for (fraction, length) in [(0.7, 0.7), (0.5, 0.7), (0.3, 0.45)] {
                content += "\(n(x1 + w * 0.15)) \(n(y1 + h * fraction)) m \(n(x1 + w * (0.15 + length))) \(n(y1 + h * fraction)) l S\n"
            }
        } else {
            return nil
        }
        let data = Array(content.utf8)
        let header = "<< /Type /XObject /Subtype /Form /BBox [\(n(x1)) \(n(y1)) \(n(x2)) \(n(y2))] "
            + "/Resources << \(resources) >> /Length \(data.count) >>\nstream\n"
        return Array(header.utf8) + data + Array("\nendstream".utf8)
    }

    /// A text box's appearance stream: each line of `layout` in Helvetica (WinAnsi) in
    /// `colour`, its baseline placed by `place` (from the page as shown to PDF space), so that
    /// the text reads upright on a turned page; the bounding box is `rect`.
    static func freeText(_ layout: FreeTextLayout, box: PageAnnotation.Box, rect: (x1: Double, y1: Double, x2: Double, y2: Double),
                         colour: PageAnnotation.Colour, place: (Double, Double) -> (Double, Double)) -> [UInt8] {
        let rgb = [colour.red, colour.green, colour.blue].map { n(max(0, min(1, $0))) }.joined(separator: " ")
        var content = Array("q BT /Helv \(n(layout.fontSize)) Tf \(rgb) rg\n".utf8)
        for (index, line) in layout.lines.enumerated() where !line.isEmpty {
            let (x, y) = (box.x + FreeTextLayout.padding, box.y + layout.baseline(index))
            let origin = place(x, y), right = place(x + 1, y), up = place(x, y - 1)
            let matrix = [right.0 - origin.0, right.1 - origin.1, up.0 - origin.0, up.1 - origin.1, origin.0, origin.1]
            content += Array((matrix.map(n).joined(separator: " ") + " Tm ").utf8) + FreeTextLayout.literal(line) + Array(" Tj\n".utf8)
        }
        content += Array("ET Q".utf8)
        let header = "<< /Type /XObject /Subtype /Form /BBox [\(n(rect.x1)) \(n(rect.y1)) \(n(rect.x2)) \(n(rect.y2))] "
            + "/Resources << /Font << /Helv << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >> >> "
            + "/Length \(content.count) >>\nstream\n"
        return Array(header.utf8) + content + Array("\nendstream".utf8)
    }

    /// A stroked path through `points`, smoothed: straight to the first midpoint, then from
    /// each midpoint to the next a curve whose control is the point between them (a quadratic
    /// Bézier written as the cubic PDF draws), straight to the last point. One point: a dot.
    static func smoothPath(_ points: [(Double, Double)]) -> String {
        guard let first = points.first else { return "" }
        guard points.count > 1 else { return "\(n(first.0)) \(n(first.1)) m \(n(first.0)) \(n(first.1)) l S\n" }
        func mid(_ a: (Double, Double), _ b: (Double, Double)) -> (Double, Double) { ((a.0 + b.0) / 2, (a.1 + b.1) / 2) }
        var path = "\(n(first.0)) \(n(first.1)) m"
        var from = mid(points[0], points[1])
        path += " \(n(from.0)) \(n(from.1)) l"
        for index in 1..<(points.count - 1) {
            let control = points[index], to = mid(points[index], points[index + 1])
            let c1 = (from.0 + 2 * (control.0 - from.0) / 3, from.1 + 2 * (control.1 - from.1) / 3)
            let c2 = (to.0 + 2 * (control.0 - to.0) / 3, to.1 + 2 * (control.1 - to.1) / 3)
            path += " \(n(c1.0)) \(n(c1.1)) \(n(c2.0)) \(n(c2.1)) \(n(to.0)) \(n(to.1)) c"
            from = to
        }
        let last = points[points.count - 1]
        return path + " \(n(last.0)) \(n(last.1)) l S\n"
    }

    /// A number as PDF writes it: at most three decimals, no exponent.
    static func n(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e12 { return String(Int64(rounded)) }
        let whole = Int64(rounded.magnitude)
        let fraction = Int64(((rounded.magnitude - Double(whole)) * 1000).rounded())
        var digits = String(fraction)
        while digits.count < 3 { digits = "0" + digits }
        while digits.hasSuffix("0") { digits.removeLast() }
        return (rounded < 0 ? "-" : "") + "\(whole).\(digits)"
    }
}
