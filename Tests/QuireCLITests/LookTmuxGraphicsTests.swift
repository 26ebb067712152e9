#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Quire
@testable import QuireTerminalViewer
import Testing

/// Sharp pages inside tmux: what the terminal outside tmux can draw is asked through tmux's
/// passthrough (never guessed from TERM); kitty graphics then go as Unicode placeholders that
/// tmux keeps in the pane; `--graphics` forces a method.
@Suite("quire look graphics in tmux")
final class LookTmuxGraphicsTests {
    let directory = TemporaryDirectory("quire-look-tmux-graphics")

    static func placeholders(_ screen: String) -> Int { screen.unicodeScalars.count { $0 == KittyPlaceholders.placeholder } }
    static func halfBlocks(_ screen: String) -> Int { screen.count { $0 == "▀" } }

    @Test func passthroughWrapsAndPlaceholderRowsNameTheImage() {
        #expect(KittyPlaceholders.passthrough(Array("\u{1B}_Ga=q\u{1B}\\".utf8)) == Array("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=q\u{1B}\u{1B}\\\u{1B}\\".utf8))
        let row = KittyPlaceholders.row(2, columns: 4, id: 7)
        #expect(row == "\u{1B}[38;5;7m\u{10EEEE}\u{030E}\u{0305}\u{10EEEE}\u{10EEEE}\u{10EEEE}\u{1B}[39m")
        let sent = String(decoding: KittyPlaceholders.transmit(RenderedImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255]),
                                                               id: 7, columns: 3, rows: 2), as: UTF8.self)
        #expect(sent.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=T,U=1,i=7,f=32,s=2,v=1,c=3,r=2,q=2,m=0;"))
    }

    @Test func insideTmuxOnlyAnswersCountNotTheEnvironment() {
        let kittyEnvironment = ["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/x,1,0"]
        let tmuxOnly = Array("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c".utf8)
        #expect(TerminalGraphicsProbe.interpret(tmuxOnly, environment: kittyEnvironment, insideTmux: true).method == .blocks,
                "TERM says kitty, but nothing outside answered: half blocks")
        let throughPassthrough = tmuxOnly + Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c".utf8)
        #expect(TerminalGraphicsProbe.interpret(throughPassthrough, environment: [:], insideTmux: true).method == .kitty)
        #expect(TerminalGraphicsProbe.deviceAttributeAnswers(throughPassthrough) == 2)
        let sixelTmux = Array("\u{1B}[?1;2;4c".utf8)
        #expect(TerminalGraphicsProbe.interpret(sixelTmux, environment: [:], insideTmux: true).method == .sixel,
                "tmux built with sixel says so in its DA1")
        #expect(TerminalGraphicsProbe.forced(["QUIRE_GRAPHICS": "cells"]) == .blocks)
        #expect(TerminalGraphicsProbe.forced(["QUIRE_GRAPHICS": "kitty"]) == .kitty)
    }

    /// Inside tmux the viewer does not wait for the terminal outside before it draws: tmux's
    /// own answer ends the probe, the outer terminal's answers are taken as they come (with the
    /// keys), and pictures wait for them until the wait ends.
    @Test func theTerminalOutsideTmuxIsWaitedForWithoutHoldingTheViewer() {
        let tmuxOnly = Array("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c".utf8)
        // The query's order: through the passthrough first, tmux's own queries last.
        #expect(TerminalGraphicsProbe.tmuxQuery.hasPrefix("\u{1B}Ptmux;"))
        #expect(TerminalGraphicsProbe.tmuxQuery.hasSuffix("\u{1B}[c") && !TerminalGraphicsProbe.tmuxQuery.hasSuffix("\u{1B}\\"))

        var kitty = TerminalGraphicsProbe.insideTmux(tmuxOnly, queriedAt: 1000, now: 1010)
        #expect(kitty.awaitsOuterTerminal && kitty.method == .blocks)
        #expect(kitty.millisecondsLeft(now: 1100) == 300)
        let keyEnded = kitty.absorb(Array("j".utf8), now: 1100)
        #expect(!keyEnded, "a key is not an answer")
        let kittyEnded = kitty.absorb(Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8), now: 1150)
        #expect(kittyEnded, "kitty answered through the passthrough")
        #expect(kitty.method == .kitty && !kitty.awaitsOuterTerminal && kitty.millisecondsLeft(now: 1150) == nil)
        let lateChanged = kitty.absorb(Array("\u{1B}[?62;22c".utf8), now: 1200)
        #expect(!lateChanged, "answers after the wait change nothing")

        var silent = TerminalGraphicsProbe.insideTmux(tmuxOnly, queriedAt: 1000, now: 1010)
        let endedEarly = silent.absorb([], now: 1399)
        #expect(!endedEarly)
        let endedOnTime = silent.absorb([], now: 1400)
        #expect(endedOnTime, "the wait ends at 400 ms: half blocks")
        #expect(silent.method == .blocks && !silent.awaitsOuterTerminal)

        var other = TerminalGraphicsProbe.insideTmux(tmuxOnly, queriedAt: 1000, now: 1010)
        let outerEnded = other.absorb(Array("\u{1B}[?62;22c".utf8), now: 1020)
        #expect(outerEnded, "the outer DA1 without kitty's answer ends the wait")
        #expect(other.method == .blocks)

        // The answers came with tmux's, or tmux took the whole wait: nothing is waited for.
        let answered = TerminalGraphicsProbe.insideTmux(tmuxOnly + Array("\u{1B}_Gi=31;OK\u{1B}\\".utf8), queriedAt: 1000, now: 1010)
        #expect(!answered.awaitsOuterTerminal && answered.method == .kitty)
        #expect(!TerminalGraphicsProbe.insideTmux(tmuxOnly, queriedAt: 1000, now: 1400).awaitsOuterTerminal)
    }

    func environment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = directory.file("state")
        env["CUPS_SERVER"] = "127.0.0.1:1"
        env["QUIRE_GRAPHICS"] = nil
        env["QUIRE"] = QuireBinary.path
        env["FILE"] = Samples.path("find-cases.pdf")
        return env
    }

    func tmux(_ session: TmuxSession, _ arguments: [String]) -> ProcessRunner.Result {
        ProcessRunner.run(["/usr/bin/tmux", "-L", session.socket] + arguments, timeout: 20)
    }

    @Test func forcedGraphicsAreUsed() throws {
        let kitty = try TmuxSession([QuireBinary.path, "look", "--no-resume", "--graphics", "kitty", Samples.path("find-cases.pdf")],
                                    environment: environment())
        var screen = kitty.wait { Self.placeholders($0) > 100 }
        #expect(Self.placeholders(screen) > 100, "kitty forced inside tmux: placeholders in the pane")
        #expect(kitty.capture(escapes: true).contains("\u{1B}[38;5;1m"), "the image's number as the colour")
        kitty.send("q")
        #expect(kitty.wait(for: "EXIT=").contains("EXIT=0"))
        let cells = try TmuxSession([QuireBinary.path, "look", "--no-resume", "--graphics", "cells", Samples.path("find-cases.pdf")],
                                    environment: environment())
        screen = cells.wait { Self.halfBlocks($0) > 100 }
        #expect(Self.halfBlocks(screen) > 100 && Self.placeholders(screen) == 0)
        cells.send("q")
        #expect(cells.wait(for: "EXIT=").contains("EXIT=0"))
        let wrong = QuireBinary.run(["look", "--graphics", "braille", Samples.path("find-cases.pdf")])
        #expect(wrong.status == 64, "\(wrong.standardError)")
    }

    /// With a kitty terminal outside tmux (a stand-in answering the query, Tests/Support) and
    /// tmux letting passthrough out, the page is placeholders and its picture reaches the
    /// terminal; with passthrough off (tmux's default), half blocks, whatever TERM says.
    @Test(arguments: [true, false])
    func theTerminalOutsideIsAskedThroughThePassthrough(allowed: Bool) throws {
        let session = try TmuxSession(["/bin/bash", "--norc", "--noprofile"], environment: environment())
        #expect(tmux(session, ["set-option", "-g", "allow-passthrough", allowed ? "on" : "off"]).status == 0)
        let log = directory.file("outer-\(allowed).log")
        let outer = try BackgroundProcess(["/usr/bin/python3", Samples.repositoryRoot.appendingPathComponent("Tests/Support/kitty-outer-terminal.py").path,
                                           session.socket, log, "12"], environment: environment(), directory: directory.path)
        defer { outer.stop() }
        let deadline = Date().addingTimeInterval(10)
        while !tmux(session, ["list-clients"]).standardOutputText.contains("attached") && Date() < deadline { usleep(50_000) }
        // tmux asks a new client's terminal what it is before it treats it as started.
        usleep(1_000_000)
        session.type("TERM=xterm-kitty \"$QUIRE\" look --no-resume \"$FILE\"")
        session.send("Enter")
        let screen = session.wait { Self.placeholders($0) > 100 || Self.halfBlocks($0) > 100 }
        if allowed {
            #expect(Self.placeholders(screen) > 100, "placeholders in the pane: \(Self.halfBlocks(screen)) half blocks instead")
            usleep(300_000)
            let received = (try? Data(contentsOf: URL(fileURLWithPath: log))) ?? Data()
            #expect(received.range(of: Data("a=T,U=1,".utf8)) != nil, "the picture reached the terminal outside tmux")
        } else {
            #expect(Self.halfBlocks(screen) > 100 && Self.placeholders(screen) == 0, "no passthrough: half blocks")
        }
        session.send("q")
    }
}
