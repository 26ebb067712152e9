#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import QuireSystem
import QuireTypes

/// Delimited text (CSV, TSV) laid out by LibreOffice Calc as a spreadsheet — only when asked
/// (`--csv-as-spreadsheet`); otherwise such a file is text (aligned columns).
///
/// LibreOffice 7.4's CSV filter cannot be used through LibreOfficeKit: with LibreOfficeKit
/// active, Calc shows its Text Import dialog on every CSV load whatever filter options are
/// given (`SfxObjectShell::HandleFilter`), and that dialog waits for a client that never answers
/// (seen in gdb: `Dialog::Execute` under `HandleFilter`); with `Batch=true` the dialog is
/// cancelled and the load fails. So the rows are read here (RFC 4180 quoting; the separator is
/// the one of comma, semicolon and tab the first line holds most often outside quotes, tab for
/// a tab-separated type; UTF-8, a byte-order mark dropped) and handed to Calc as a flat
/// OpenDocument spreadsheet (one sheet named after the file, plain decimal numbers as numbers,
/// everything else as text), which Calc opens without asking; Calc lays it out and prints it.
public enum SpreadsheetText {
    /// Whether `contentType` is delimited text that can be opened as a spreadsheet.
    public static func applies(to contentType: ContentType) -> Bool {
        contentType.conforms(to: "text/csv") || contentType.conforms(to: "text/tab-separated-values")
    }

    /// The separator of `bytes`: the one of comma, semicolon and tab its first line holds most
    /// often outside quotes (comma when it holds none).
    static func separator(in bytes: some Collection<UInt8>) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var quoted = false
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { quoted.toggle(); continue }
            if !quoted, byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
            if !quoted, let count = counts[byte] { counts[byte] = count + 1 }
        }
        let best = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")].max { counts[$0]! < counts[$1]! }!
        return counts[best]! > 0 ? best : UInt8(ascii: ",")
    }

    /// The records of `bytes` split at `separator` (RFC 4180: a quoted field may hold the
    /// separator, line breaks and doubled quotes).
    static func records(_ bytes: [UInt8], separator: UInt8) -> [[[UInt8]]] {
        var records: [[[UInt8]]] = []
        var record: [[UInt8]] = []
        var field: [UInt8] = []
        var quoted = false
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var fieldStarted = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { field.append(byte); index += 1 } else { quoted = false }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\""), field.isEmpty {
                quoted = true
                fieldStarted = true
            } else if byte == separator {
                record.append(field)
                field = []
                fieldStarted = true
            } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\r"), index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
                record.append(field)
                records.append(record)
                record = []
                field = []
                fieldStarted = false
            } else {
                field.append(byte)
                fieldStarted = true
            }
        }
        if fieldStarted || !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }

    /// `file`'s rows as a flat OpenDocument spreadsheet (`.fods`) with one sheet named `sheet`.
    static func flatSpreadsheet(_ bytes: [UInt8], separator: UInt8, sheet: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3 + 1024)
        func put(_ text: String) { out += Array(text.utf8) }
        put("""
        <?xml version="1.0" encoding="UTF-8"?>
        <office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
        xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" \
        xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" \
        office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
        <office:body><office:spreadsheet><table:table table:name="
        """)
        out += escaped(Array(sheet.utf8))
        put("\">\n")
        for record in records(bytes, separator: separator) {
            put("<table:table-row>")
            for field in record {
                if field.isEmpty {
                    put("<table:table-cell/>")
                } else if isPlainNumber(field) {
                    put("<table:table-cell office:value-type=\"float\" office:value=\"")
                    out += field
                    put("\"><text:p>")
                    out += field
                    put("</text:p></table:table-cell>")
                } else {
                    put("<table:table-cell office:value-type=\"string\">")
                    for line in field.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                        put("<text:p>")
                        out += escaped(Array(line))
                        put("</text:p>")
                    }
                    put("</table:table-cell>")
                }
            }
            put("</table:table-row>\n")
        }
        put("</table:table></office:spreadsheet></office:body></office:document>\n")
        return out
    }

    /// A plain decimal number (`-12`, `3.25`, `1e5`), as Calc's CSV import reads numbers
    /// without "detect special numbers".
    static func isPlainNumber(_ field: [UInt8]) -> Bool {
        var index = 0
        if index < field.count, field[index] == UInt8(ascii: "-") || field[index] == UInt8(ascii: "+") { index += 1 }
        var digits = 0
        while index < field.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(field[index]) { index += 1; digits += 1 }
        if index < field.count, field[index] == UInt8(ascii: ".") {
            index += 1
            while index < field.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(field[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { return false }
        if index < field.count, field[index] == UInt8(ascii: "e") || field[index] == UInt8(ascii: "E") {
            index += 1
            if index < field.count, field[index] == UInt8(ascii: "-") || field[index] == UInt8(ascii: "+") { index += 1 }
            var exponent = 0
            while index < field.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(field[index]) { index += 1; exponent += 1 }
            guard exponent > 0 else { return false }
        }
        return index == field.count
    }

    /// `bytes` as XML character data: valid UTF-8 kept (invalid sequences become U+FFFD),
    /// markup characters escaped, control characters XML cannot hold dropped.
    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "&": out += Array("&amp;".utf8)
            case "<": out += Array("&lt;".utf8)
            case ">": out += Array("&gt;".utf8)
            case "\"": out += Array("&quot;".utf8)
            case "\t": out += Array("<text:tab/>".utf8)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out += Array(String(scalar).utf8)
            }
        }
        return out
    }
}

extension OfficeKit {
    /// Loads the delimited text `file` (``SpreadsheetText``) into Calc: its rows written as a
    /// flat OpenDocument spreadsheet in the office's private directory, loaded, then removed.
    /// The caller holds the office and closes the document with it.
    func loadSpreadsheetText(_ file: InputFile, contentType: ContentType?, limits: RenderLimits) throws(DocumentError) -> OfficeDocument {
        let bytes: [UInt8]
        do {
            bytes = try file.read(upTo: Int(min(file.size, Int64(limits.maximumTextBytes))))
        } catch {
            throw DocumentError(kind: .input, path: file.path, reason: "cannot read it (\(error))")
        }
        let separator = contentType.map { $0.conforms(to: "text/tab-separated-values") } == true
            ? UInt8(ascii: "\t") : SpreadsheetText.separator(in: bytes.prefix(64 << 10))
        var name = String(decoding: file.path.lastComponentBytes, as: UTF8.self)
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        let flat = SpreadsheetText.flatSpreadsheet(bytes, separator: separator, sheet: name)
        let path = directory + "/text-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).fods"
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DocumentError(kind: .input, path: file.path, reason: "cannot hand it to LibreOffice (\(Errno.current))")
        }
        defer { unlink(path) }
        do {
            defer { _ = Glibc.close(descriptor) }
            try FileDescriptor(rawValue: descriptor).writeAll(flat)
        } catch {
            throw DocumentError(kind: .input, path: file.path, reason: "cannot hand it to LibreOffice (\(error))")
        }
        do {
            return try load(try InputFile(path: DocumentPath(path)), password: nil)
        } catch let error as DocumentError {
            throw DocumentError(kind: error.kind, path: file.path, reason: error.reason)
        } catch {
            throw DocumentError(kind: .damaged, path: file.path, reason: "LibreOffice could not open it (\(error))")
        }
    }

    /// ``loadSpreadsheetText(_:contentType:limits:)`` exported as PDF (the caller holds the office).
    func convertSpreadsheetTextToPDF(_ file: InputFile, contentType: ContentType?, limits: RenderLimits) throws(DocumentError) -> InputFile {
        let document = try loadSpreadsheetText(file, contentType: contentType, limits: limits)
        defer { document.close() }
        return try exportPDF(document)
    }
}
