#if canImport(Glibc)
import Glibc
#endif
internal import CQPDF

/// A digital signature's field, as the worker writes it before the signature exists (issue 36,
/// `quire sign`): a signature dictionary (`/Type /Sig`, `/adbe.pkcs7.detached`, PDF 32000
/// §12.8.1) whose `/Contents` is a run of zeros kept for the signature and whose `/ByteRange`
/// names every byte of the file but that run; a signature field that is also its widget, on a
/// page's `/Annots` and in the form's `/Fields`, with `/SigFlags 3`. Visible, the widget shows
/// who signed and when in a framed box; invisible, its rectangle is empty.
///
/// The worker never sees a key: it appends this as an incremental update and hands the bytes
/// back; the process that holds the certificate digests every byte outside `/Contents` and writes
/// the PKCS#7 signature into it (``placeholder(in:from:)`` finds the room).
public struct SignatureField: Sendable, Hashable {
    /// The field's name; nil: "Signature1", or the first of "Signature2", … the form has no field of.
    public var name: String?
    /// 0-based page the widget is on.
    public var page: Int
    /// The visible box on the page as shown (points from its top left, y down); nil: invisible.
    public var box: PageAnnotation.Box?
    /// Who signs, as the appearance and `/Name` say it (the certificate's common name).
    public var signer: String
    /// Why, as `/Reason` says it; nil: none.
    public var reason: String?
    /// When, in seconds since 1970 (UTC): `/M` and the appearance's date.
    public var time: Int64
    /// A hand-drawn signature shown in the box (points on the page as shown, like an ink
    /// annotation's strokes); empty: the box says who signed in words only.
    public var ink: [[PageAnnotation.Point]]
    /// Bytes kept for the signature (PKCS#7, DER).
    public var room: Int

    /// Bytes a signature may be given room for: a certificate chain of a few certificates fits
    /// in 12 KiB; more than 64 KiB is not a signature.
    public static let rooms: ClosedRange<Int> = 1024...65536
    /// The default room.
    public static let defaultRoom = 12288
    /// The size of a visible signature's box when none is given, in points.
    public static let defaultSize = (width: 200.0, height: 52.0)
    /// The share of the box's height the hand-drawn signature takes (the words go below it).
    public static let inkShare = 0.72

    public init(name: String? = nil, page: Int, box: PageAnnotation.Box? = nil, signer: String, reason: String? = nil,
                time: Int64, room: Int = SignatureField.defaultRoom, ink: [[PageAnnotation.Point]] = []) {
        self.name = name
        self.page = page
        self.box = box
        self.signer = signer
        self.reason = reason
        self.time = time
        self.room = room
        self.ink = ink
    }

    /// The keyword the signature's `/ByteRange` array follows; its four numbers are written into
    /// a fixed run of 32 characters after `[0 `.
    static let byteRangeKey = Array("/ByteRange [0 ".utf8)
    static let byteRangeWidth = 32

    /// The room for the signature in `bytes` (a whole file): the offsets of `<` and of the byte
    /// after `>` of the first `/Contents <…>` after `from` (where the signature dictionary
    /// starts), checked to hold only zeros. nil when there is none.
    public static func placeholder(in bytes: [UInt8], from: Int) -> Range<Int>? {
        let key = Array("/Contents <".utf8)
        guard from >= 0, from < bytes.count else { return nil }
        var at = from
        while at + key.count <= bytes.count {
            if bytes[at] == key[0], bytes[at..<at + key.count].elementsEqual(key) { break }
            at += 1
        }
        guard at + key.count <= bytes.count else { return nil }
        let open = at + key.count - 1
        var close = open + 1
        while close < bytes.count, bytes[close] == UInt8(ascii: "0") { close += 1 }
        guard close < bytes.count, bytes[close] == UInt8(ascii: ">"), close > open + 1 else { return nil }
        return open..<(close + 1)
    }

    /// The objects that make the field in an update whose new objects are numbered from
    /// `firstNumber` (three: the signature, the field, its appearance), with the page (or its
    /// `/Annots` array) and the form (or the catalog that holds it) written again; the number of
    /// the signature dictionary.
    func objects(page pageObject: qpdf_oh, firstNumber: Int, api: quire_qpdf_api,
                 qpdf: qpdf_data) throws(FormValueError) -> (objects: [(number: Int, generation: Int, body: String)],
                                                              streams: [(number: Int, body: [UInt8])], signature: Int) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        func items(_ array: qpdf_oh) -> [String] {
            guard api.qpdf_oh_is_array(qpdf, array) != 0 else { return [] }
            return (0..<api.qpdf_oh_get_array_n_items(qpdf, array)).map { text(api.qpdf_oh_unparse(qpdf, api.qpdf_oh_get_array_item(qpdf, array, $0))) }
        }
        func replacing(_ object: qpdf_oh, adding added: String) throws(FormValueError) -> String {
            var dictionary = text(api.qpdf_oh_unparse_resolved(qpdf, object))
            guard dictionary.hasSuffix(">>") else { throw FormValueError("the PDF's page or form is not a dictionary") }
            dictionary.removeLast(2)
            return dictionary + added + " >>"
        }
        let (signature, widget, appearanceNumber) = (firstNumber, firstNumber + 1, firstNumber + 2)
        var objects: [(number: Int, generation: Int, body: String)] = []

        // The form: its fields (by name) and where it is kept.
        let root = api.qpdf_get_root(qpdf)
        let form = api.qpdf_oh_get_key(qpdf, root, "/AcroForm")
        let hasForm = api.qpdf_oh_is_dictionary(qpdf, form) != 0
        let fields = hasForm ? api.qpdf_oh_get_key(qpdf, form, "/Fields") : form
        var names = Set<String>()
        if api.qpdf_oh_is_array(qpdf, fields) != 0 {
            for item in 0..<api.qpdf_oh_get_array_n_items(qpdf, fields) {
                let name = api.qpdf_oh_get_key(qpdf, api.qpdf_oh_get_array_item(qpdf, fields, item), "/T")
                if api.qpdf_oh_is_null(qpdf, name) == 0 { names.insert(text(api.qpdf_oh_get_utf8_value(qpdf, name))) }
            }
        }
        let fieldName: String
        if let name {
            guard !name.isEmpty, !name.contains(".") else { throw FormValueError("a field's name cannot be empty or hold a full stop: \(name)") }
            guard !names.contains(name) else { throw FormValueError("the form already has a field named \(name)") }
            fieldName = name
        } else {
            fieldName = (1...).lazy.map { "Signature\($0)" }.first { !names.contains($0) }!
        }
        let fieldList = items(fields) + ["\(widget) 0 R"]
        let formEntries = " /Fields [\(fieldList.joined(separator: " "))] /SigFlags 3"
        if hasForm {
            api.qpdf_oh_remove_key(qpdf, form, "/Fields")
            api.qpdf_oh_remove_key(qpdf, form, "/SigFlags")
        }
        let formNumber = hasForm ? Int(api.qpdf_oh_get_object_id(qpdf, form)) : 0
        if formNumber > 0 {
            objects.append((formNumber, Int(api.qpdf_oh_get_generation(qpdf, form)), try replacing(form, adding: formEntries)))
        } else {
            let inline = hasForm ? try replacing(form, adding: formEntries) : "<<\(formEntries) >>"
            api.qpdf_oh_remove_key(qpdf, root, "/AcroForm")
            let rootNumber = Int(api.qpdf_oh_get_object_id(qpdf, root))
            guard rootNumber > 0 else { throw FormValueError("the PDF's catalog is not an object of its own") }
            objects.append((rootNumber, Int(api.qpdf_oh_get_generation(qpdf, root)), try replacing(root, adding: " /AcroForm " + inline)))
        }

        // The page's annotations get the widget.
        let pageNumber = Int(api.qpdf_oh_get_object_id(qpdf, pageObject))
        guard pageNumber > 0 else { throw FormValueError("page \(page + 1) is not an object of its own") }
        let annots = api.qpdf_oh_get_key(qpdf, pageObject, "/Annots")
        let annotsNumber = api.qpdf_oh_is_array(qpdf, annots) != 0 ? Int(api.qpdf_oh_get_object_id(qpdf, annots)) : 0
        if annotsNumber > 0 {
            let list = items(annots) + ["\(widget) 0 R"]
            objects.append((annotsNumber, Int(api.qpdf_oh_get_generation(qpdf, annots)), "[\(list.joined(separator: " "))]"))
        } else {
            let list = items(annots) + ["\(widget) 0 R"]
            api.qpdf_oh_remove_key(qpdf, pageObject, "/Annots")
            objects.append((pageNumber, Int(api.qpdf_oh_get_generation(qpdf, pageObject)),
                            try replacing(pageObject, adding: " /Annots [\(list.joined(separator: " "))]")))
        }

        // Where the box is in PDF space: the crop box (or media box), turned as the page is shown.
        let n = AnnotationAppearance.n
        var rect = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0)
        var appearanceForm: [UInt8] = Array("<< /Type /XObject /Subtype /Form /BBox [0 0 0 0] /Length 0 >>\nstream\n\nendstream".utf8)
        if let box {
            let crop = api.inherited("/CropBox", of: pageObject, in: qpdf) ?? api.inherited("/MediaBox", of: pageObject, in: qpdf)
            var corners = [0.0, 0.0, 612.0, 792.0]
            if let crop, api.qpdf_oh_is_array(qpdf, crop) != 0, api.qpdf_oh_get_array_n_items(qpdf, crop) == 4 {
                let values = (0..<4).map { api.qpdf_oh_get_numeric_value(qpdf, api.qpdf_oh_get_array_item(qpdf, crop, Int32($0))) }
                if values.allSatisfy(\.isFinite) { corners = values }
            }
            let (x0, y0, x1, y1) = (min(corners[0], corners[2]), min(corners[1], corners[3]), max(corners[0], corners[2]), max(corners[1], corners[3]))
            var rotation = 0
            if let value = api.inherited("/Rotate", of: pageObject, in: qpdf), api.qpdf_oh_is_integer(qpdf, value) != 0 {
                rotation = ((Int(api.qpdf_oh_get_int_value_as_int(qpdf, value)) % 360) + 360) % 360
            }
            let place: (Double, Double) -> (Double, Double) = switch rotation {
            case 90: { x, y in (x0 + y, y0 + x) }
            case 180: { x, y in (x1 - x, y0 + y) }
            case 270: { x, y in (x1 - y, y1 - x) }
            default: { x, y in (x0 + x, y1 - y) }
            }
            let a = place(box.x, box.y), b = place(box.maxX, box.maxY)
            rect = (min(a.0, b.0), min(a.1, b.1), max(a.0, b.0), max(a.1, b.1))
            appearanceForm = appearance(box: box, rect: rect, place: place)
        }
        let flags = 132   // Print, Locked
        objects.append((widget, 0, "<< /Type /Annot /Subtype /Widget /FT /Sig /T \(Self.textString(fieldName)) /V \(signature) 0 R "
                        + "/P \(pageNumber) 0 R /Rect [\(n(rect.x1)) \(n(rect.y1)) \(n(rect.x2)) \(n(rect.y2))] /F \(flags) "
                        + "/AP << /N \(appearanceNumber) 0 R >> >>"))
        // The signature dictionary: /ByteRange and /Contents first (placeholder(in:from:) finds
        // the first /Contents after the object's start; the strings after them could hold anything).
        var body = "<< /Type /Sig " + String(decoding: Self.byteRangeKey, as: UTF8.self)
            + String(repeating: "0", count: Self.byteRangeWidth) + "] /Contents <" + String(repeating: "0", count: 2 * room) + ">"
        body += " /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /M (\(Self.date(time))) /Name \(Self.textString(signer))"
        if let reason, !reason.isEmpty { body += " /Reason \(Self.textString(reason))" }
        objects.append((signature, 0, body + " >>"))
        return (objects, [(appearanceNumber, appearanceForm)], signature)
    }

    /// Writes the offsets of the two signed ranges into `/ByteRange` of the signature
    /// dictionary that starts at `start` in `bytes` (the whole file): the bytes before its
    /// `/Contents` placeholder and those after it. Whether it was there to fill.
    static func fillByteRange(_ bytes: inout [UInt8], signatureAt start: Int) -> Bool {
        guard let room = placeholder(in: bytes, from: start) else { return false }
        var at = start
        while at + byteRangeKey.count <= room.lowerBound, !bytes[at..<at + byteRangeKey.count].elementsEqual(byteRangeKey) { at += 1 }
        guard at + byteRangeKey.count <= room.lowerBound else { return false }
        let numbers = Array("\(room.lowerBound) \(room.upperBound) \(bytes.count - room.upperBound)".utf8)
        guard numbers.count <= byteRangeWidth else { return false }
        let field = at + byteRangeKey.count
        bytes.replaceSubrange(field..<field + byteRangeWidth, with: numbers + Array(repeating: UInt8(ascii: " "), count: byteRangeWidth - numbers.count))
        return true
    }

    /// A framed box on a pale blue ground with "Digitally signed by …", the date and the reason,
    /// upright as the page is shown, in Helvetica (what WinAnsi cannot show is written "?").
    private func appearance(box: PageAnnotation.Box, rect: (x1: Double, y1: Double, x2: Double, y2: Double),
                            place: (Double, Double) -> (Double, Double)) -> [UInt8] {
        func shown(_ text: String) -> String {
            String(text.map { FreeTextLayout.unencodable(String($0)) == nil ? $0 : "?" })
        }
        var lines = ["Digitally signed by " + shown(signer), "Date: " + Self.readableDate(time)]
        if let reason, !reason.isEmpty { lines.append("Reason: " + shown(reason)) }
        var fontSize = max(FreeTextLayout.fontSizes.lowerBound, min(10, box.height / (Double(lines.count) * FreeTextLayout.leading + 1)))
        // With a drawn signature, one line under it says who and when.
        var textBox = box
        if !ink.isEmpty {
            lines = ["Digitally signed by " + shown(signer) + ", " + Self.readableDate(time)]
            fontSize = max(FreeTextLayout.fontSizes.lowerBound, min(8, box.height * (1 - Self.inkShare) / (FreeTextLayout.leading + 0.6)))
        }
        let n = AnnotationAppearance.n
        let frame = [place(box.x + 0.5, box.y + 0.5), place(box.maxX - 0.5, box.y + 0.5), place(box.maxX - 0.5, box.maxY - 0.5),
                     place(box.x + 0.5, box.maxY - 0.5)]
        var outline = "\(n(frame[0].0)) \(n(frame[0].1)) m"
        for corner in frame.dropFirst() { outline += " \(n(corner.0)) \(n(corner.1)) l" }
        var border = "q 0.96 0.97 1 rg 0.1 0.2 0.6 RG 1 w \(outline) h B Q\n"
        var strokes = ""
        if !ink.isEmpty {
            strokes = "q 0.05 0.1 0.45 RG 1.5 w 1 J 1 j\n"
            for stroke in ink where !stroke.isEmpty {
                strokes += AnnotationAppearance.smoothPath(stroke.map { place($0.x, $0.y) })
            }
            strokes += "Q\n"
        }
        border += strokes
        guard let layout = FreeTextLayout(text: lines.joined(separator: "\n"), fontSize: fontSize, maximumWidth: box.width) else {
            return Array(("<< /Type /XObject /Subtype /Form /BBox [\(n(rect.x1)) \(n(rect.y1)) \(n(rect.x2)) \(n(rect.y2))] "
                          + "/Length \(border.utf8.count) >>\nstream\n\(border)\nendstream").utf8)
        }
        if !ink.isEmpty { textBox.y = box.maxY - min(box.height, layout.height) }
        var form = AnnotationAppearance.freeText(layout, box: textBox, rect: rect, colour: .init(red: 0.1, green: 0.2, blue: 0.6), place: place)
        // The frame drawn before the text, inside the same stream.
        let stream = Array("stream\n".utf8)
        guard let at = form.firstRange(of: stream), let lengthAt = form.firstRange(of: Array("/Length ".utf8)) else { return form }
        var end = lengthAt.upperBound
        var length = 0
        while end < form.count, form[end] >= 0x30, form[end] <= 0x39 {
            length = length * 10 + Int(form[end] - 0x30)
            end += 1
        }
        form.insert(contentsOf: Array(border.utf8), at: at.upperBound)
        form.replaceSubrange(lengthAt.upperBound..<end, with: Array(String(length + border.utf8.count).utf8))
        return form
    }

    /// A PDF text string in UTF-16BE with its byte order mark, as hexadecimal (any character,
    /// nothing to escape).
    static func textString(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = Array("<FEFF".utf8)
        for unit in text.utf16 {
            for shift in [12, 8, 4, 0] { out.append(hex[Int((unit >> UInt16(shift)) & 0xF)]) }
        }
        return String(decoding: out + [UInt8(ascii: ">")], as: UTF8.self)
    }

    /// `time` as a PDF date in UTC: D:YYYYMMDDHHmmSSZ.
    static func date(_ time: Int64) -> String {
        let parts = utc(time)
        return "D:" + pad(parts.year, 4) + [parts.month, parts.day, parts.hour, parts.minute, parts.second].map { pad($0, 2) }.joined() + "Z"
    }

    /// `time` as people read it: 2026-12-05 06:40 UTC.
    static func readableDate(_ time: Int64) -> String {
        let parts = utc(time)
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) \(pad(parts.hour, 2)):\(pad(parts.minute, 2)) UTC"
    }

    private static func pad(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func utc(_ time: Int64) -> (year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32) {
        var seconds = time_t(time)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
