import QuireTerminal

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
        let reply = session.readReply(milliseconds: 600) { bytes in TerminalReply.hasDeviceAttributes(bytes) }
        return interpret(reply, environment: environment)
    }

    static func interpret(_ bytes: [UInt8], environment: [String: String]) -> TerminalGraphicsProbe {
        let reply = TerminalReply(bytes)
        guard reply.hasDeviceAttributes else {
            return TerminalGraphicsProbe(method: TerminalGraphics.detect(environment), cellWidth: reply.cellWidth,
                                         cellHeight: reply.cellHeight, source: "environment")
        }
        let method: TerminalGraphics.Method
        if reply.kittyGraphics {
            method = .kitty
        } else if reply.version.hasPrefix("iTerm2") || reply.version.hasPrefix("WezTerm") {
            method = .iterm
        } else if reply.deviceAttributes.contains(4) {
            method = .sixel
        } else {
            method = .blocks
        }
        return TerminalGraphicsProbe(method: method, cellWidth: reply.cellWidth, cellHeight: reply.cellHeight,
                                     source: "asked the terminal")
    }
}
