/// Collects the start tags (local name and attributes, namespace prefixes dropped) of a small
/// XML document such as EPUB's `container.xml` and OPF package. A scanner, not a parser: it
/// needs no DTD, resolves no entities beyond the predefined and numeric ones, and never loads
/// anything — and it keeps FoundationXML (libxml2 and its ICU) out of the process.
struct XMLScan {
    struct Element {
        let name: String
        let attributes: [String: String]
    }
    private(set) var elements: [Element] = []

    init(_ bytes: [UInt8]) {
        let text = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var i = 0
        func skip(past marker: String) {
            let m = Array(marker.unicodeScalars)
            while i < text.count {
                if text[i] == m[0], i + m.count <= text.count, Array(text[i..<(i + m.count)]) == m { i += m.count; return }
                i += 1
            }
        }
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\n" || c == "\t" || c == "\r" }
        func isNameChar(_ c: Unicode.Scalar) -> Bool { !isSpace(c) && c != "=" && c != ">" && c != "/" && c != "<" && c != "\"" && c != "'" }
        func local(_ name: String) -> String { String(name.split(separator: ":").last ?? Substring(name)) }
        while i < text.count {
            guard text[i] == "<" else { i += 1; continue }
            let rest = text.count - i
            if rest >= 4, text[i + 1] == "!", text[i + 2] == "-", text[i + 3] == "-" { skip(past: "-->"); continue }
            if rest >= 9, text[i + 1] == "!", String(String.UnicodeScalarView(text[(i + 2)..<(i + 9)])) == "[CDATA[" { skip(past: "]]>"); continue }
            if rest >= 2, text[i + 1] == "?" || text[i + 1] == "!" || text[i + 1] == "/" { skip(past: ">"); continue }
            i += 1
            var name = String.UnicodeScalarView()
            while i < text.count, isNameChar(text[i]) { name.append(text[i]); i += 1 }
            var attributes: [String: String] = [:]
            while i < text.count, text[i] != ">" {
                if isSpace(text[i]) || text[i] == "/" { i += 1; continue }
                var key = String.UnicodeScalarView()
                while i < text.count, isNameChar(text[i]) { key.append(text[i]); i += 1 }
                while i < text.count, isSpace(text[i]) { i += 1 }
                guard i < text.count, text[i] == "=" else {
                    if key.isEmpty { i += 1 }
                    continue
                }
                i += 1
                while i < text.count, isSpace(text[i]) { i += 1 }
                guard i < text.count, text[i] == "\"" || text[i] == "'" else { continue }
                let quote = text[i]
                i += 1
                var value = String.UnicodeScalarView()
                while i < text.count, text[i] != quote { value.append(text[i]); i += 1 }
                i += 1
                attributes[local(String(key))] = Self.unescape(String(value))
            }
            i += 1
            if !name.isEmpty { elements.append(Element(name: local(String(name)), attributes: attributes)) }
        }
    }

    /// The five predefined entities and numeric character references.
    static func unescape(_ value: String) -> String {
        guard value.contains("&") else { return value }
        var out = ""
        var rest = Substring(value)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": out += "&"
            case "lt": out += "<"
            case "gt": out += ">"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var scalar: Unicode.Scalar?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") { scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init) }
                if let scalar { out.unicodeScalars.append(scalar) } else { out += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
