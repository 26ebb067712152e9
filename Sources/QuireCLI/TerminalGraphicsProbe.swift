/// Finds the best image protocol by asking the terminal: a kitty graphics query, XTVERSION
/// (the terminal's name), the cell size in pixels (CSI 16 t) and primary device attributes
/// (DA1: parameter 4 means sixel). DA1 is answered by practically every terminal, so its answer
/// ends the wait; a terminal that answers nothing within the timeout falls back to what the
/// environment suggests (``TerminalGraphics/detect(_:)``). `QUIRE_GRAPHICS` overrides both.
struct TerminalGraphicsProbe {
    let method: TerminalGraphics.Method
    /// Cell size in pixels, when the terminal told it.
    let cellWidth: Int?
    let cellHeight: Int?
    /// How the method was chosen ("asked the terminal", "environment", "QUIRE_GRAPHICS").
    let source: String

    static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>0q\u{1B}[16t\u{1B}[c"

    static func run(session: TerminalSession, environment: [String: String]) -> TerminalGraphicsProbe {
        if let forced = environment["QUIRE_GRAPHICS"].flatMap(TerminalGraphics.Method.init(rawValue:)) {
            return TerminalGraphicsProbe(method: forced, cellWidth: nil, cellHeight: nil, source: "QUIRE_GRAPHICS")
        }
        session.write(query)
        let reply = session.readReply(milliseconds: 600) { bytes in Self.hasDeviceAttributes(bytes) }
        return interpret(reply, environment: environment)
    }

    static func interpret(_ reply: [UInt8], environment: [String: String]) -> TerminalGraphicsProbe {
        let text = String(decoding: reply, as: UTF8.self)
        var cellWidth: Int?, cellHeight: Int?
        if let range = text.firstRange(of: "\u{1B}[6;") {
            let rest = text[range.upperBound...]
            if let end = rest.firstIndex(of: "t") {
                let numbers = rest[..<end].split(separator: ";").compactMap { Int($0) }
                if numbers.count == 2, numbers[0] > 0, numbers[1] > 0 { cellHeight = numbers[0]; cellWidth = numbers[1] }
            }
        }
        guard hasDeviceAttributes(reply) else {
            return TerminalGraphicsProbe(method: TerminalGraphics.detect(environment), cellWidth: cellWidth,
                                         cellHeight: cellHeight, source: "environment")
        }
        let method: TerminalGraphics.Method
        let version = text.firstRange(of: "\u{1B}P>|").map { String(text[$0.upperBound...].prefix { $0 != "\u{1B}" }) } ?? ""
        if text.contains("\u{1B}_Gi=31;OK") {
            method = .kitty
        } else if version.hasPrefix("iTerm2") || version.hasPrefix("WezTerm") {
            method = .iterm
        } else if deviceAttributes(text).contains(4) {
            method = .sixel
        } else {
            method = .blocks
        }
        return TerminalGraphicsProbe(method: method, cellWidth: cellWidth, cellHeight: cellHeight, source: "asked the terminal")
    }

    /// Whether a DA1 answer (`ESC [ ? … c`) is in `bytes`.
    static func hasDeviceAttributes(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.firstRange(of: "\u{1B}[?") else { return false }
        return text[start.upperBound...].contains { $0 == "c" }
    }

    static func deviceAttributes(_ text: String) -> [Int] {
        guard let start = text.firstRange(of: "\u{1B}[?") else { return [] }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "c") else { return [] }
        return rest[..<end].split(separator: ";").compactMap { Int($0) }
    }
}
