import Testing
@testable import QuireCLI

/// Key decoding and the graphics-protocol answer parsing of the terminal viewer.
@Suite("Terminal keys and protocol detection")
struct TerminalKeyTests {
    func keys(_ text: String) -> [TerminalKey] { TerminalKey.parse(Array(text.utf8)) }

    @Test func decodesTheKeysTerminalsSend() {
        #expect(keys("\u{1B}[6~\u{1B}[5~\u{1B}[A\u{1B}OB\u{1B}[C\u{1B}[D") == [.pageDown, .pageUp, .up, .down, .right, .left])
        #expect(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}OH") == [.home, .end, .home, .end, .home])
        #expect(keys("\u{1B}[1;2A") == [.shiftUp])
        #expect(keys("g12\r") == [.character("g"), .character("1"), .character("2"), .enter])
        #expect(keys("\u{1B}") == [.escape])
        #expect(keys("\u{3}\u{7F}\t\u{1B}[Z") == [.control("c"), .backspace, .tab, .backTab])
        #expect(keys("é→") == [.character("é"), .character("→")])
    }

    @Test func answersToQueriesAreNotKeys() {
        #expect(!keys("\u{1B}_Gi=31;OK\u{1B}\\").contains { if case .character = $0 { return true } else { return false } })
        #expect(!keys("\u{1B}P>|tmux 3.3a\u{1B}\\").contains { if case .character = $0 { return true } else { return false } })
        #expect(keys("\u{1B}]11;rgb:0000/0000/0000\u{7}q") == [.unknown, .character("q")])
    }

    @Test func incompleteSequencesWaitForMoreBytes() {
        #expect(TerminalKey.isIncomplete(Array("\u{1B}".utf8)))
        #expect(TerminalKey.isIncomplete(Array("\u{1B}[6".utf8)))
        #expect(!TerminalKey.isIncomplete(Array("\u{1B}[6~".utf8)))
        #expect(!TerminalKey.isIncomplete(Array("q".utf8)))
    }

    @Test func theTerminalsAnswerChoosesTheProtocol() {
        let env = ["TERM": "xterm-256color"]
        func method(_ reply: String) -> TerminalGraphics.Method {
            TerminalGraphicsProbe.interpret(Array(reply.utf8), environment: env).method
        }
        #expect(method("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;22c") == .kitty)
        #expect(method("\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[?62;4c") == .iterm)
        #expect(method("\u{1B}P>|foot(1.16)\u{1B}\\\u{1B}[?62;4;22c") == .sixel)
        #expect(method("\u{1B}P>|tmux 3.3a\u{1B}\\\u{1B}[?1;2c") == .blocks)
        let cells = TerminalGraphicsProbe.interpret(Array("\u{1B}[6;20;10t\u{1B}[?62;4c".utf8), environment: env)
        #expect(cells.cellWidth == 10 && cells.cellHeight == 20)
        // No answer at all: the environment decides.
        let silent = TerminalGraphicsProbe.interpret([], environment: ["TERM": "xterm-kitty"])
        #expect(silent.method == .kitty && silent.source == "environment")
    }
}
