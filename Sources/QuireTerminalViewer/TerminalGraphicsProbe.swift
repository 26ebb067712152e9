#if canImport(Glibc)
import Glibc
#endif
import QuireTerminal
import QuireSystem

/// Finds the best image protocol by asking the terminal: a kitty graphics query, XTVERSION
/// (the terminal's name), the cell size in pixels (CSI 16 t) and primary device attributes
/// (DA1: parameter 4 means sixel). DA1 is answered by practically every terminal, so its answer
/// ends the wait; a terminal that answers nothing within the timeout falls back to what the
/// environment suggests (``TerminalGraphics/detect(_:)``). `QUIRE_GRAPHICS` overrides both.
struct TerminalGraphicsProbe {
    private(set) var method: TerminalGraphics.Method
    /// Cell size in pixels, when the terminal told it.
    let cellWidth: Int?
    let cellHeight: Int?
    /// How the method was chosen ("asked the terminal", "environment", "QUIRE_GRAPHICS").
    private(set) var source: String
    /// Inside tmux: kitty images go through its passthrough as Unicode placeholders.
    var insideTmux = false

    static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>0q\u{1B}[16t\u{1B}[c"

    /// Inside tmux the kitty query goes to the terminal tmux runs in, through tmux's
    /// passthrough (tmux itself answers the rest: its version, and DA1 with sixel when it was
    /// built with it). A kitty answer through it means images can be shown as placeholders.
    /// The outer terminal is asked for DA1 too, after the kitty query: terminals answer in
    /// order, so its DA1 says its kitty answer, if any, is in. tmux's own queries come last:
    /// tmux reads what a pane writes in order and answers its own at once, so by its DA1 the
    /// passthrough has left for the terminal outside, and the screen may change (tmux drops
    /// passthrough while it redraws a pane); the outer answers come later, or never (tmux's
    /// default, `allow-passthrough off`).
    static let tmuxQuery = String(decoding: KittyPlaceholders.passthrough(Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)), as: UTF8.self)
        + String(decoding: KittyPlaceholders.passthrough(Array("\u{1B}[c".utf8)), as: UTF8.self)
        + "\u{1B}[>0q\u{1B}[16t\u{1B}[c"

    /// How long the terminal outside tmux is waited for, from the query: a local terminal
    /// answers in a few milliseconds, one over SSH in a round trip.
    static let outerTerminalWait = 400

    /// Inside tmux, until the terminal outside answered (or ``outerTerminalWait`` passed): the
    /// answers so far and when the wait ends (CLOCK_MONOTONIC, ms). Text is drawn meanwhile;
    /// pictures wait, so that they are drawn once, the way the terminal can show them.
    private(set) var outerAnswers: [UInt8] = []
    private(set) var outerDeadline: Int?

    /// Whether pictures still wait for the terminal outside tmux.
    var awaitsOuterTerminal: Bool { outerDeadline != nil }

    /// Milliseconds until the wait for the terminal outside ends (nil: not waiting).
    func millisecondsLeft(now: Int = TerminalGraphicsProbe.monotonicMilliseconds()) -> Int? {
        outerDeadline.map { max(0, $0 - now) }
    }

    static func monotonicMilliseconds() -> Int { MonotonicClock.wholeMilliseconds() }

    /// Takes what the terminal sent while the viewer ran (`bytes`, read as keys too: answers
    /// parse as unknown keys), or the passing of time; whether the wait for the terminal outside
    /// tmux ended now (the method may have changed: draw again).
    mutating func absorb(_ bytes: [UInt8], now: Int = TerminalGraphicsProbe.monotonicMilliseconds()) -> Bool {
        guard let deadline = outerDeadline else { return false }
        outerAnswers += bytes
        let settled = Self.outerTerminalAnswered(outerAnswers)
        guard settled || now >= deadline else { return false }
        let answered = Self.interpret(outerAnswers, environment: [:], insideTmux: true)
        method = answered.method
        source = answered.source
        outerDeadline = nil
        return true
    }

    /// Whether the answers hold the terminal outside tmux's: its kitty answer, or its DA1 (the
    /// second DA1; tmux's own is the first).
    static func outerTerminalAnswered(_ bytes: [UInt8]) -> Bool {
        TerminalReply(bytes).kittyGraphics || deviceAttributeAnswers(bytes) >= 2
    }

    /// How many DA1 answers (`ESC [ ? … c`) `bytes` hold.
    static func deviceAttributeAnswers(_ bytes: [UInt8]) -> Int {
        var count = 0, index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0x1B, bytes[index + 1] == 0x5B, bytes[index + 2] == 0x3F {
                var end = index + 3
                while end < bytes.count, (0x30...0x3B).contains(bytes[end]) { end += 1 }
                if end < bytes.count, bytes[end] == 0x63 { count += 1 }
                index = end
            } else {
                index += 1
            }
        }
        return count
    }

    /// `QUIRE_GRAPHICS` (or `--graphics`): kitty, iterm, sixel, or cells (half blocks).
    static func forced(_ environment: [String: String]) -> TerminalGraphics.Method? {
        guard let value = environment["QUIRE_GRAPHICS"] else { return nil }
        return value == "cells" ? .blocks : TerminalGraphics.Method(rawValue: value)
    }

    static func run(session: TerminalSession, environment: [String: String]) -> TerminalGraphicsProbe {
        let tmux = !(environment["TMUX"] ?? "").isEmpty
        if let forced = forced(environment) {
            // The cell size is still asked for (pictures are laid out in cells).
            session.write("\u{1B}[16t\u{1B}[c")
            let reply = TerminalReply(session.readReply(milliseconds: 300) { bytes in TerminalReply.hasDeviceAttributes(bytes) })
            var probe = TerminalGraphicsProbe(method: forced, cellWidth: reply.cellWidth, cellHeight: reply.cellHeight, source: "QUIRE_GRAPHICS")
            probe.insideTmux = tmux
            return probe
        }
        let start = monotonicMilliseconds()
        session.write(tmux ? tmuxQuery : query)
        // Outside tmux the terminal's DA1 ends the wait. In tmux, tmux's own DA1 (at once); the
        // outer terminal's answers only come when tmux lets passthrough out (allow-passthrough
        // on): the viewer goes on and takes them as they come (``absorb(_:now:)``).
        let reply = tmux
            ? session.readReply(milliseconds: outerTerminalWait) { bytes in deviceAttributeAnswers(bytes) >= 1 }
            : session.readReply(milliseconds: 600) { bytes in TerminalReply.hasDeviceAttributes(bytes) }
        if tmux { return insideTmux(reply, queriedAt: start, now: monotonicMilliseconds()) }
        return interpret(reply, environment: environment)
    }

    /// Inside tmux, from tmux's answers (and the outer terminal's, if they came with them):
    /// the method so far, and the wait for the terminal outside until `start` plus
    /// ``outerTerminalWait`` when it has not answered yet.
    static func insideTmux(_ reply: [UInt8], queriedAt start: Int, now: Int) -> TerminalGraphicsProbe {
        var probe = interpret(reply, environment: [:], insideTmux: true)
        probe.insideTmux = true
        if !outerTerminalAnswered(reply), now < start + outerTerminalWait {
            probe.outerAnswers = reply
            probe.outerDeadline = start + outerTerminalWait
        }
        return probe
    }

    /// What the answers mean. Inside tmux only a kitty answer through the passthrough or
    /// sixel in tmux's own DA1 count (tmux's name is no evidence of what the terminal outside
    /// can draw), and nothing is guessed from the environment.
    static func interpret(_ bytes: [UInt8], environment: [String: String], insideTmux: Bool = false) -> TerminalGraphicsProbe {
        let reply = TerminalReply(bytes)
        if insideTmux {
            let method: TerminalGraphics.Method = reply.kittyGraphics ? .kitty : reply.deviceAttributes.contains(4) ? .sixel : .blocks
            return TerminalGraphicsProbe(method: method, cellWidth: reply.cellWidth, cellHeight: reply.cellHeight,
                                         source: reply.hasDeviceAttributes ? "asked through tmux" : "tmux did not answer")
        }
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
