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

    /// What ``tokens(_:_:)`` finds: text between tags (as written: entities not resolved; a
    /// CDATA section's content as text, marked), and tags with their local name, whether they
    /// close or close themselves, and their attributes (values unescaped).
    enum Token {
        case text(String.UnicodeScalarView.SubSequence, isCData: Bool)
        case tag(name: String, closing: Bool, selfClosing: Bool, attributes: [String: String])
    }

    init(_ bytes: [UInt8]) {
        var elements: [Element] = []
        Self.tokens(bytes) { token in
            if case .tag(let name, false, _, let attributes) = token, !name.isEmpty {
                elements.append(Element(name: name, attributes: attributes))
            }
            return true
        }
        self.elements = elements
    }

    /// Calls `visit` with each token of `bytes` (UTF-8) in order, until it returns false.
    /// Comments, processing instructions and declarations are skipped.
    static func tokens(_ bytes: [UInt8], _ visit: (Token) -> Bool) {
        let text = String(decoding: bytes, as: UTF8.self).unicodeScalars
        var i = text.startIndex
        func skip(past marker: String) {
            let m = Array(marker.unicodeScalars)
            while i < text.endIndex {
                if text[i] == m[0], text[i...].starts(with: m) { i = text.index(i, offsetBy: m.count); return }
                i = text.index(after: i)
            }
        }
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\n" || c == "\t" || c == "\r" }
        func isNameChar(_ c: Unicode.Scalar) -> Bool { !isSpace(c) && c != "=" && c != ">" && c != "/" && c != "<" && c != "\"" && c != "'" }
        func local(_ name: String) -> String { String(name.split(separator: ":").last ?? Substring(name)) }
        var textStart = i
        func flushText(upTo end: String.UnicodeScalarView.Index) -> Bool {
            defer { textStart = end }
            return textStart == end || visit(.text(text[textStart..<end], isCData: false))
        }
        while i < text.endIndex {
            guard text[i] == "<" else { i = text.index(after: i); continue }
            guard flushText(upTo: i) else { return }
            let rest = text[i...]
            if rest.starts(with: "<!--".unicodeScalars) { skip(past: "-->"); textStart = i; continue }
            if rest.starts(with: "<![CDATA[".unicodeScalars) {
                let start = text.index(i, offsetBy: 9)
                skip(past: "]]>")
                let end = text.index(i, offsetBy: -3, limitedBy: start) ?? start
                textStart = i
                guard visit(.text(text[start..<max(start, end)], isCData: true)) else { return }
                continue
            }
            if rest.starts(with: "<?".unicodeScalars) || rest.starts(with: "<!".unicodeScalars) { skip(past: ">"); textStart = i; continue }
            i = text.index(after: i)
            let closing = i < text.endIndex && text[i] == "/"
            if closing { i = text.index(after: i) }
            var name = String.UnicodeScalarView()
            while i < text.endIndex, isNameChar(text[i]) { name.append(text[i]); i = text.index(after: i) }
            var attributes: [String: String] = [:]
            var selfClosing = false
            while i < text.endIndex, text[i] != ">" {
                if text[i] == "/" { selfClosing = true; i = text.index(after: i); continue }
                if isSpace(text[i]) { i = text.index(after: i); continue }
                selfClosing = false
                var key = String.UnicodeScalarView()
                while i < text.endIndex, isNameChar(text[i]) { key.append(text[i]); i = text.index(after: i) }
                while i < text.endIndex, isSpace(text[i]) { i = text.index(after: i) }
                guard i < text.endIndex, text[i] == "=" else {
                    if key.isEmpty, i < text.endIndex { i = text.index(after: i) }
                    continue
                }
                i = text.index(after: i)
                while i < text.endIndex, isSpace(text[i]) { i = text.index(after: i) }
                guard i < text.endIndex, text[i] == "\"" || text[i] == "'" else { continue }
                let quote = text[i]
                i = text.index(after: i)
                var value = String.UnicodeScalarView()
                while i < text.endIndex, text[i] != quote { value.append(text[i]); i = text.index(after: i) }
                if i < text.endIndex { i = text.index(after: i) }
                if !closing { attributes[local(String(key))] = Self.unescape(String(value)) }
            }
            if i < text.endIndex { i = text.index(after: i) }
            textStart = i
            guard visit(.tag(name: local(String(name)), closing: closing, selfClosing: selfClosing, attributes: attributes)) else { return }
        }
        _ = flushText(upTo: text.endIndex)
    }

    /// The text of the first element of each of `names` (local names), unescaped, its white
    /// space collapsed; elements with no text are left out. (ComicInfo.xml's fields, an OPF's
    /// `dc:title`.)
    static func firstTexts(_ bytes: [UInt8], of names: Set<String>) -> [String: String] {
        var found: [String: String] = [:]
        var open: String?
        var collected = ""
        tokens(bytes) { token in
            switch token {
            case .tag(let name, let closing, let selfClosing, _):
                if closing, name == open {
                    let value = unescape(collected).split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    if !value.isEmpty { found[name] = value }
                    open = nil
                } else if !closing, !selfClosing, open == nil, names.contains(name), found[name] == nil {
                    open = name
                    collected = ""
                }
            case .text(let text, _):
                if open != nil { collected += String(String.UnicodeScalarView(text)) }
            }
            return found.count < names.count
        }
        return found
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
