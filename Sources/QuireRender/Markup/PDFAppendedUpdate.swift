internal import CQPDF
import QuireTypes

/// What poppler-glib cannot write, as an incremental update of its own after whatever poppler
/// saved: pages turned (poppler-glib cannot set a page's `/Rotate`), ink, text boxes, arrowheads
/// and line widths (poppler-glib 22 has no ink or free text annotation and no setter for line endings or border
/// widths) and the appearance streams of the annotations it added (it writes their
/// dictionaries without `/AP`). libqpdf reads the file as saved so far; each turned page gets
/// its new `/Rotate` (the inherited value, turned); each new annotation (the last ones of its
/// page's `/Annots`, where poppler appends them) gets what poppler left out — an ink's stand-in
/// square becomes `/Ink` with its `/InkList` (placed as poppler placed the square: the page's
/// rotation and crop box), a text box's becomes `/FreeText` with its `/DA`, an arrow gets `/LE [/None /OpenArrow]`, a shape its `/BS` width —
/// then a form XObject drawn from its own dictionary (``AnnotationAppearance``) and `/AP << /N … >>`;
/// the changed dictionaries are written back as text. Appended: those objects, a cross-reference
/// section of the same kind as the file's last one (a table, or a stream) whose `/Prev` is the
/// last one, and the trailer (`/Root`, `/Info`, `/ID` carried over). The bytes before stay as
/// they are. Encrypted files: turning, moving, flattening and the annotations only this update
/// completes are refused (new objects would have to be encrypted), and
/// appearances are left out.
enum PDFAppendedUpdate {
    /// `bytes` with `turns` (0-based page → quarter turns clockwise, negative anticlockwise) and
    /// the `annotations` poppler added (the last ones of each page, in order) completed, with
    /// their appearance streams, and with `flatten` the form made part of the pages
    /// (``FormFlattening``), appended as an update; `bytes` unchanged when there is nothing
    /// to write.
    ///
    /// `signature`: a signature field with the room for its signature (``SignatureField``), alone
    /// in its update, its `/ByteRange` filled in once the update is written.
    static func append(_ turns: [Int: Int], annotations: [PageAnnotation], flatten: Bool = false, moves: [AnnotationMove] = [],
                       removed: [Int: [Int]] = [:], signature: SignatureField? = nil, to bytes: [UInt8],
                       path: DocumentPath) throws(DocumentError) -> [UInt8] {
        func failure(_ reason: String) -> DocumentError { DocumentError(kind: .unsupported, path: path, reason: reason) }
        guard let session = QPDFSession() else { throw failure("turning pages needs libqpdf, which is not installed") }
        guard session.read(bytes) else { throw DocumentError(kind: .damaged, path: path, reason: "qpdf cannot read what poppler saved") }
        defer { withExtendedLifetime(session) {} }  // the handle stays open for the raw calls below
        let api = session.api, qpdf = session.qpdf
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        let trailer = api.qpdf_get_trailer(qpdf)
        let encrypted = api.qpdf_oh_has_key(qpdf, trailer, "/Encrypt") != 0
        if encrypted, !turns.isEmpty {
            throw failure("turning the pages of an encrypted PDF is not supported")
        }
        if encrypted, flatten {
            throw failure("flattening an encrypted PDF's form is not supported")
        }
        if signature != nil, !turns.isEmpty || !annotations.isEmpty || flatten || !moves.isEmpty || !removed.isEmpty {
            throw failure("a signature is saved alone: save the other changes first")
        }
        if encrypted, signature != nil {
            throw failure("signing an encrypted PDF is not supported")
        }
        if encrypted, !moves.isEmpty {
            throw failure("moving the annotations of an encrypted PDF is not supported")
        }
        // What only this update writes (poppler-glib cannot): in an encrypted file its new
        // objects would have to be encrypted, so it is refused rather than left a stand-in.
        if encrypted, let annotation = annotations.first(where: Self.needsThisUpdate) {
            let name = switch annotation.kind {
            case .ink: "a drawing"
            case .freeText: "a text box"
            case .arrow: "an arrow"
            default: "a line width other than Thin (1 point)"
            }
            throw failure("\(name) cannot be saved into an encrypted PDF (highlights, notes and Thin shapes can)")
        }
        if encrypted, turns.isEmpty { return bytes }
        let sizeHandle = api.qpdf_oh_get_key(qpdf, trailer, "/Size")
        guard api.qpdf_oh_is_integer(qpdf, sizeHandle) != 0, api.qpdf_oh_has_key(qpdf, trailer, "/Root") != 0 else {
            throw DocumentError(kind: .damaged, path: path, reason: "its trailer has no /Size or /Root")
        }
        var size = Int(api.qpdf_oh_get_int_value_as_int(qpdf, sizeHandle))
        var entries = "/Root " + text(api.qpdf_oh_unparse(qpdf, api.qpdf_oh_get_key(qpdf, trailer, "/Root")))
        for key in ["/Info", "/ID"] where api.qpdf_oh_has_key(qpdf, trailer, key) != 0 {
            entries += " \(key) " + text(api.qpdf_oh_unparse(qpdf, api.qpdf_oh_get_key(qpdf, trailer, key)))
        }
        // Pages found by descending the page tree (qpdf's all-pages cache would load every page
        // object of a long document: 150 ms for 1000 pages).
        let tree = api.qpdf_oh_get_key(qpdf, api.qpdf_get_root(qpdf), "/Pages")
        let countHandle = api.qpdf_oh_get_key(qpdf, tree, "/Count")
        let pageCount = api.qpdf_oh_is_integer(qpdf, countHandle) != 0 ? Int(api.qpdf_oh_get_int_value_as_int(qpdf, countHandle)) : 0
        func page(_ index: Int) -> qpdf_oh? {
            var node = tree, remaining = index
            for _ in 0..<64 {
                let kids = api.qpdf_oh_get_key(qpdf, node, "/Kids")
                guard api.qpdf_oh_is_array(qpdf, kids) != 0 else { return remaining == 0 ? node : nil }
                var next: qpdf_oh?
                for item in 0..<Int(api.qpdf_oh_get_array_n_items(qpdf, kids)) {
                    let kid = api.qpdf_oh_get_array_item(qpdf, kids, Int32(item))
                    let count = api.qpdf_oh_get_key(qpdf, kid, "/Count")
                    let pages = api.qpdf_oh_has_key(qpdf, kid, "/Kids") != 0 && api.qpdf_oh_is_integer(qpdf, count) != 0
                        ? Int(api.qpdf_oh_get_int_value_as_int(qpdf, count)) : 1
                    if remaining < pages {
                        next = kid
                        break
                    }
                    remaining -= pages
                }
                guard let next else { return nil }
                if api.qpdf_oh_has_key(qpdf, next, "/Kids") == 0 { return remaining == 0 ? next : nil }
                node = next
            }
            return nil
        }
        // /Rotate is inherited through the page tree.
        func rotation(_ page: qpdf_oh) -> Int {
            guard let value = api.inherited("/Rotate", of: page, in: qpdf), api.qpdf_oh_is_integer(qpdf, value) != 0 else { return 0 }
            return Int(api.qpdf_oh_get_int_value_as_int(qpdf, value))
        }
        // The annotations were placed on the pages as poppler saw them: before these turns.
        let added = Dictionary(grouping: annotations, by: \.page)
        var placedRotation: [Int: Int] = [:]
        for index in added.keys where index >= 0 && index < pageCount {
            if let annotatedPage = page(index) { placedRotation[index] = ((rotation(annotatedPage) % 360) + 360) % 360 }
        }
        // Moves were made on the pages as they were shown: before these turns.
        var shownRotation: [Int: Int] = [:]
        for move in moves where shownRotation[move.page] == nil {
            if let movedPage = page(move.page) { shownRotation[move.page] = rotation(movedPage) }
        }
        var objects: [(number: Int, generation: Int, body: String)] = []
        for (index, quarterTurns) in turns.sorted(by: { $0.key < $1.key }) {
            guard index >= 0, index < pageCount, let page = page(index) else {
                throw failure("page \(index + 1) does not exist (the PDF has \(pageCount) pages)")
            }
            let current = rotation(page)
            let rotate = ((current + 90 * quarterTurns) % 360 + 360) % 360
            api.qpdf_oh_replace_key(qpdf, page, "/Rotate", api.qpdf_oh_new_integer(qpdf, Int64(rotate)))
            let number = Int(api.qpdf_oh_get_object_id(qpdf, page))
            guard number > 0 else { throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) is not an object of its own") }
            objects.append((number, Int(api.qpdf_oh_get_generation(qpdf, page)), text(api.qpdf_oh_unparse_resolved(qpdf, page))))
            size = max(size, number + 1)
        }
        do {
            objects += try AnnotationMove.apply(moves, removed: removed, page: page, rotation: { shownRotation[$0] ?? 0 }, api: api, qpdf: qpdf)
        } catch {
            throw failure(error.message)
        }
        // Appearance streams: new objects numbered from the trailer's /Size on.
        var streams: [(number: Int, body: [UInt8])] = []
        for (index, onPage) in added.sorted(by: { $0.key < $1.key }) where index >= 0 && index < pageCount {
            guard let annotatedPage = page(index) else { continue }
            let annots = api.qpdf_oh_get_key(qpdf, annotatedPage, "/Annots")
            guard api.qpdf_oh_is_array(qpdf, annots) != 0 else { continue }
            let total = Int(api.qpdf_oh_get_array_n_items(qpdf, annots))
            let first = max(0, total - onPage.count)
            for (item, annotation) in zip(first..<total, onPage.suffix(total - first)) {
                let annot = api.qpdf_oh_get_array_item(qpdf, annots, Int32(item))
                let number = Int(api.qpdf_oh_get_object_id(qpdf, annot))
                guard number > 0 else { continue }
                // What poppler could not write; its appearance, if it wrote one, is then not this one.
                if complete(annot, as: annotation, rotation: placedRotation[index] ?? 0, api: api, qpdf: qpdf) {
                    api.qpdf_oh_remove_key(qpdf, annot, "/AP")
                }
                guard api.qpdf_oh_has_key(qpdf, annot, "/AP") == 0,
                      let form = annotation.kind == .freeText
                        ? freeTextForm(annot, as: annotation, rotation: placedRotation[index] ?? 0, api: api, qpdf: qpdf)
                        : AnnotationAppearance.form(annot, api: api, qpdf: qpdf) else { continue }
                let streamNumber = size + streams.count
                streams.append((streamNumber, form))
                var dictionary = text(api.qpdf_oh_unparse_resolved(qpdf, annot))
                guard dictionary.hasSuffix(">>") else { continue }
                dictionary.removeLast(2)
                dictionary += " /AP << /N \(streamNumber) 0 R >> >>"
                objects.append((number, Int(api.qpdf_oh_get_generation(qpdf, annot)), dictionary))
            }
        }
        if flatten {
            do {
                let flat = try FormFlattening.flatten(pageCount: pageCount, page: page, firstNumber: size + streams.count, api: api, qpdf: qpdf)
                objects += flat.objects
                streams += flat.streams
            } catch {
                throw failure(error.message)
            }
        }
        size += streams.count
        var signatureNumber: Int?
        if let signature {
            guard signature.page >= 0, signature.page < pageCount, let signedPage = page(signature.page) else {
                throw failure("page \(signature.page + 1) does not exist (the PDF has \(pageCount) pages)")
            }
            do {
                let made = try signature.objects(page: signedPage, firstNumber: size, api: api, qpdf: qpdf)
                objects += made.objects
                streams += made.streams
                signatureNumber = made.signature
                size += 3
            } catch {
                throw failure(error.message)
            }
        }
        session.drainErrors()
        if objects.isEmpty && streams.isEmpty { return bytes }
        guard let previous = lastCrossReference(bytes) else {
            throw DocumentError(kind: .damaged, path: path, reason: "no startxref at its end")
        }
        var out = bytes
        if out.last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
        var offsets: [(number: Int, generation: Int, offset: Int)] = []
        for object in objects {
            offsets.append((object.number, object.generation, out.count))
            out += Array("\(object.number) \(object.generation) obj\n\(object.body)\nendobj\n".utf8)
        }
        for stream in streams {
            offsets.append((stream.number, 0, out.count))
            out += Array("\(stream.number) 0 obj\n".utf8) + stream.body + Array("\nendobj\n".utf8)
        }
        let isTable = previous < bytes.count && bytes[previous...].starts(with: Array("xref".utf8))
        let start = out.count
        if isTable {
            var table = "xref\n"
            for entry in offsets.sorted(by: { $0.number < $1.number }) {
                table += "\(entry.number) 1\n" + pad(entry.offset, 10) + " " + pad(entry.generation, 5) + " n \n"
            }
            table += "trailer\n<< /Size \(size) \(entries) /Prev \(previous) >>\nstartxref\n\(start)\n%%EOF\n"
            out += Array(table.utf8)
        } else {
            // A cross-reference stream: 1-byte type, 4-byte offset, 2-byte generation; it lists itself.
            let number = size
            let all = (offsets + [(number, 0, start)]).sorted { $0.number < $1.number }
            var rows: [UInt8] = []
            for entry in all {
                rows.append(1)
                for shift in [24, 16, 8, 0] { rows.append(UInt8((entry.offset >> shift) & 0xFF)) }
                rows += [UInt8((entry.generation >> 8) & 0xFF), UInt8(entry.generation & 0xFF)]
            }
            let index = all.map { "\($0.number) 1" }.joined(separator: " ")
            out += Array(("\(number) 0 obj\n<< /Type /XRef /Size \(number + 1) /W [1 4 2] /Index [\(index)] \(entries) /Prev \(previous) "
                          + "/Length \(rows.count) >>\nstream\n").utf8)
            out += rows
            out += Array("\nendstream\nendobj\nstartxref\n\(start)\n%%EOF\n".utf8)
        }
        if let signatureNumber, let at = offsets.first(where: { $0.number == signatureNumber })?.offset {
            guard SignatureField.fillByteRange(&out, signatureAt: at) else {
                throw DocumentError(kind: .damaged, path: path, reason: "the signature's byte range could not be written")
            }
        }
        return out
    }

    /// Writes into `annot` (a dictionary poppler made for `annotation`) what poppler could not:
    /// an ink's subtype and strokes, an arrow's line ending, a line width other than 1. Whether
    /// anything was written.
    private static func complete(_ annot: qpdf_oh, as annotation: PageAnnotation, rotation: Int,
                                 api: quire_qpdf_api, qpdf: qpdf_data) -> Bool {
        var changed = false
        if [.square, .circle, .line, .arrow, .ink].contains(annotation.kind), annotation.lineWidth != 1 {
            api.qpdf_oh_replace_key(qpdf, annot, "/BS", api.qpdf_oh_parse(qpdf, "<< /W \(AnnotationAppearance.n(annotation.lineWidth)) /S /S >>"))
            changed = true
        }
        func numbers(_ values: [Double]) -> String { values.map(AnnotationAppearance.n).joined(separator: " ") }
        switch annotation.kind {
        case .line, .arrow:
            // poppler-glib places a line's rectangle on the page (crop box, rotation) but not
            // its ends (/L): they are placed here the same way. The rectangle then holds the
            // line's width and arrowhead (a level line's rectangle had no height: nothing drawn).
            guard let box = annotation.boxes.first, let placed = rectangle(annot, api: api, qpdf: qpdf) else { return changed }
            let shown = PageAnnotation.Box(x: min(box.x, box.maxX), y: min(box.y, box.maxY), width: abs(box.width), height: abs(box.height))
            let place = placement(of: shown, at: placed, rotation: rotation)
            let (start, end) = (place(box.x, box.y), place(box.maxX, box.maxY))
            let margin = annotation.lineWidth / 2 + 1 + (annotation.kind == .arrow ? 6 + 3 * annotation.lineWidth : 0)
            api.qpdf_oh_replace_key(qpdf, annot, "/L", api.qpdf_oh_parse(qpdf, "[\(numbers([start.0, start.1, end.0, end.1]))]"))
            let bounds = [min(start.0, end.0) - margin, min(start.1, end.1) - margin, max(start.0, end.0) + margin, max(start.1, end.1) + margin]
            api.qpdf_oh_replace_key(qpdf, annot, "/Rect", api.qpdf_oh_parse(qpdf, "[\(numbers(bounds))]"))
            if annotation.kind == .arrow {
                api.qpdf_oh_replace_key(qpdf, annot, "/LE", api.qpdf_oh_parse(qpdf, "[/None /OpenArrow]"))
            }
            return true
        case .freeText:
            // The text's colour is in /DA (a text box's /C would be its background); no border.
            let colour = [annotation.colour.red, annotation.colour.green, annotation.colour.blue].map { max(0, min(1, $0)) }
            let appearance = "/Helv \(AnnotationAppearance.n(annotation.fontSize)) Tf \(numbers(colour)) rg"
            api.qpdf_oh_replace_key(qpdf, annot, "/Subtype", api.qpdf_oh_parse(qpdf, "/FreeText"))
            api.qpdf_oh_replace_key(qpdf, annot, "/DA", api.qpdf_oh_parse(qpdf, "(\(appearance))"))
            api.qpdf_oh_replace_key(qpdf, annot, "/BS", api.qpdf_oh_parse(qpdf, "<< /W 0 >>"))
            api.qpdf_oh_remove_key(qpdf, annot, "/C")
            return true
        case .ink:
            guard let bounds = annotation.strokeBounds, let placed = rectangle(annot, api: api, qpdf: qpdf) else { return changed }
            let width = annotation.lineWidth
            // The box PDFAnnotating gave poppler for the stand-in square.
            let shown = PageAnnotation.Box(x: bounds.x - width, y: bounds.y - width, width: bounds.width + 2 * width, height: bounds.height + 2 * width)
            let place = placement(of: shown, at: placed, rotation: rotation)
            let list = annotation.strokes.filter { !$0.isEmpty }.map { stroke in
                "[" + numbers(stroke.flatMap { point in
                    let (x, y) = place(point.x, point.y)
                    return [x, y]
                }) + "]"
            }.joined(separator: " ")
            api.qpdf_oh_replace_key(qpdf, annot, "/Subtype", api.qpdf_oh_parse(qpdf, "/Ink"))
            api.qpdf_oh_replace_key(qpdf, annot, "/InkList", api.qpdf_oh_parse(qpdf, "[\(list)]"))
            return true
        default:
            return changed
        }
    }

    /// A text box's appearance: its lines set as ``FreeTextLayout`` sets them, upright as the
    /// page is shown (turned with it), placed as poppler placed the stand-in square.
    private static func freeTextForm(_ annot: qpdf_oh, as annotation: PageAnnotation, rotation: Int,
                                     api: quire_qpdf_api, qpdf: qpdf_data) -> [UInt8]? {
        guard let box = annotation.boxes.first, let placed = rectangle(annot, api: api, qpdf: qpdf),
              let layout = FreeTextLayout(text: annotation.text ?? "", fontSize: annotation.fontSize, maximumWidth: box.width + 0.01)
        else { return nil }
        let shown = PageAnnotation.Box(x: min(box.x, box.maxX), y: min(box.y, box.maxY), width: abs(box.width), height: abs(box.height))
        return AnnotationAppearance.freeText(layout, box: shown, rect: placed, colour: annotation.colour,
                                             place: placement(of: shown, at: placed, rotation: rotation))
    }

    /// Whether an annotation is only complete with this update: ink and text boxes (stand-in
    /// squares until then), arrows (their line ending), shapes and lines wider than 1 point.
    static func needsThisUpdate(_ annotation: PageAnnotation) -> Bool {
        switch annotation.kind {
        case .ink, .freeText, .arrow: true
        case .square, .circle, .line: annotation.lineWidth != 1
        default: false
        }
    }

    /// From the page as shown (top left, y down, turned `rotation` degrees clockwise) to PDF
    /// space, as poppler placed `shown` at `placed`: a quarter turn or a flip, then the offset
    /// that puts the box where poppler put it (the crop box included).
    private static func placement(of shown: PageAnnotation.Box, at placed: (x1: Double, y1: Double, x2: Double, y2: Double),
                                  rotation: Int) -> (Double, Double) -> (Double, Double) {
        let turn: (Double, Double) -> (Double, Double) = switch rotation {
        case 90: { x, y in (y, x) }
        case 180: { x, y in (-x, y) }
        case 270: { x, y in (-y, -x) }
        default: { x, y in (x, -y) }
        }
        let corners = [turn(shown.x, shown.y), turn(shown.maxX, shown.maxY)]
        let offsetX = placed.x1 - min(corners[0].0, corners[1].0)
        let offsetY = placed.y1 - min(corners[0].1, corners[1].1)
        return { x, y in
            let (px, py) = turn(x, y)
            return (px + offsetX, py + offsetY)
        }
    }

    /// An annotation's `/Rect`, its corners ordered.
    private static func rectangle(_ annot: qpdf_oh, api: quire_qpdf_api, qpdf: qpdf_data) -> (x1: Double, y1: Double, x2: Double, y2: Double)? {
        let array = api.qpdf_oh_get_key(qpdf, annot, "/Rect")
        guard api.qpdf_oh_is_array(qpdf, array) != 0, api.qpdf_oh_get_array_n_items(qpdf, array) == 4 else { return nil }
        let values = (0..<4).map { api.qpdf_oh_get_numeric_value(qpdf, api.qpdf_oh_get_array_item(qpdf, array, Int32($0))) }
        guard values.allSatisfy(\.isFinite) else { return nil }
        return (min(values[0], values[2]), min(values[1], values[3]), max(values[0], values[2]), max(values[1], values[3]))
    }

    /// The offset after the last `startxref` keyword.
    static func lastCrossReference(_ bytes: [UInt8]) -> Int? {
        let keyword = Array("startxref".utf8)
        let from = max(0, bytes.count - 2048)
        guard bytes.count >= keyword.count else { return nil }
        var at = bytes.count - keyword.count
        while at >= from {
            if bytes[at..<at + keyword.count].elementsEqual(keyword) {
                var index = at + keyword.count
                while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
                var value = 0, digits = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, digits < 15 {
                    value = value * 10 + Int(bytes[index] - 0x30)
                    index += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            at -= 1
        }
        return nil
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
