internal import CQPDF
import QuireTypes

/// What poppler-glib cannot write, as an incremental update of its own after whatever poppler
/// saved: pages turned (poppler-glib cannot set a page's `/Rotate`) and the appearance streams
/// of the annotations it added (it writes their dictionaries without `/AP`). libqpdf reads the
/// file as saved so far; each turned page gets its new `/Rotate` (the inherited value, turned)
/// and each new annotation (the last ones of its page's `/Annots`, where poppler appends them) a
/// form XObject drawn from its own dictionary (``AnnotationAppearance``) and `/AP << /N … >>`;
/// the changed dictionaries are written back as text. Appended: those objects, a cross-reference
/// section of the same kind as the file's last one (a table, or a stream) whose `/Prev` is the
/// last one, and the trailer (`/Root`, `/Info`, `/ID` carried over). The bytes before stay as
/// they are. Encrypted files: turning is refused (new objects would have to be encrypted) and
/// appearances are left out.
enum PDFAppendedUpdate {
    private static let qpdfAPI: quire_qpdf_api? = quire_qpdf_api_load()?.pointee

    /// `bytes` with `turns` (0-based page → quarter turns clockwise, negative anticlockwise) and
    /// appearance streams for the last `annotated[page]` annotations of each page appended as an
    /// update; `bytes` unchanged when there is nothing to write.
    static func append(_ turns: [Int: Int], appearances annotated: [Int: Int], to bytes: [UInt8],
                       path: DocumentPath) throws(DocumentError) -> [UInt8] {
        func failure(_ reason: String) -> DocumentError { DocumentError(kind: .unsupported, path: path, reason: reason) }
        guard let api = qpdfAPI, let qpdf = api.qpdf_init() else { throw failure("turning pages needs libqpdf, which is not installed") }
        var handle: qpdf_data? = qpdf
        defer { api.qpdf_cleanup(&handle) }
        api.qpdf_silence_errors(qpdf)
        api.qpdf_set_suppress_warnings(qpdf, 1)
        let read = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { api.qpdf_read_memory(qpdf, "document", $0.baseAddress, UInt64(buffer.count), nil) }
        }
        guard read & QPDF_ERRORS == 0 else {
            while api.qpdf_has_error(qpdf) != 0 { _ = api.qpdf_get_error(qpdf) }
            throw DocumentError(kind: .damaged, path: path, reason: "qpdf cannot read what poppler saved")
        }
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        let trailer = api.qpdf_get_trailer(qpdf)
        let encrypted = api.qpdf_oh_has_key(qpdf, trailer, "/Encrypt") != 0
        if encrypted, !turns.isEmpty {
            throw failure("turning the pages of an encrypted PDF is not supported")
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
        var objects: [(number: Int, generation: Int, body: String)] = []
        for (index, quarterTurns) in turns.sorted(by: { $0.key < $1.key }) {
            guard index >= 0, index < pageCount, let page = page(index) else {
                throw failure("page \(index + 1) does not exist (the PDF has \(pageCount) pages)")
            }
            // /Rotate is inherited through the page tree.
            var current = 0
            var node = page
            for _ in 0..<64 {
                if api.qpdf_oh_has_key(qpdf, node, "/Rotate") != 0 {
                    let value = api.qpdf_oh_get_key(qpdf, node, "/Rotate")
                    if api.qpdf_oh_is_integer(qpdf, value) != 0 { current = Int(api.qpdf_oh_get_int_value_as_int(qpdf, value)) }
                    break
                }
                guard api.qpdf_oh_has_key(qpdf, node, "/Parent") != 0 else { break }
                node = api.qpdf_oh_get_key(qpdf, node, "/Parent")
            }
            let rotate = ((current + 90 * quarterTurns) % 360 + 360) % 360
            api.qpdf_oh_replace_key(qpdf, page, "/Rotate", api.qpdf_oh_new_integer(qpdf, Int64(rotate)))
            let number = Int(api.qpdf_oh_get_object_id(qpdf, page))
            guard number > 0 else { throw DocumentError(kind: .damaged, path: path, reason: "page \(index + 1) is not an object of its own") }
            objects.append((number, Int(api.qpdf_oh_get_generation(qpdf, page)), text(api.qpdf_oh_unparse_resolved(qpdf, page))))
            size = max(size, number + 1)
        }
        // Appearance streams: new objects numbered from the trailer's /Size on.
        var streams: [(number: Int, body: [UInt8])] = []
        for (index, count) in annotated.sorted(by: { $0.key < $1.key }) where count > 0 && index >= 0 && index < pageCount {
            guard let annotatedPage = page(index) else { continue }
            let annots = api.qpdf_oh_get_key(qpdf, annotatedPage, "/Annots")
            guard api.qpdf_oh_is_array(qpdf, annots) != 0 else { continue }
            let total = Int(api.qpdf_oh_get_array_n_items(qpdf, annots))
            for item in max(0, total - count)..<total {
                let annot = api.qpdf_oh_get_array_item(qpdf, annots, Int32(item))
                let number = Int(api.qpdf_oh_get_object_id(qpdf, annot))
                guard number > 0, api.qpdf_oh_has_key(qpdf, annot, "/AP") == 0,
                      let form = AnnotationAppearance.form(annot, api: api, qpdf: qpdf) else { continue }
                let streamNumber = size + streams.count
                streams.append((streamNumber, form))
                var dictionary = text(api.qpdf_oh_unparse_resolved(qpdf, annot))
                guard dictionary.hasSuffix(">>") else { continue }
                dictionary.removeLast(2)
                dictionary += " /AP << /N \(streamNumber) 0 R >> >>"
                objects.append((number, Int(api.qpdf_oh_get_generation(qpdf, annot)), dictionary))
            }
        }
        size += streams.count
        while api.qpdf_has_error(qpdf) != 0 { _ = api.qpdf_get_error(qpdf) }
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
        return out
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
