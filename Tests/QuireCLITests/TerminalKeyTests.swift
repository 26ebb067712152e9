import Foundation
import Quire
import Testing
@testable import QuireCLI
@testable import QuireTerminalViewer
import QuireTerminal

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

/// The terminal viewer's image placement: kitty chunks and the zoomed view's crop.
@Suite("Terminal viewer drawing")
struct TerminalViewerDrawingTests {
    @Test func kittyImagesAreRawRGBAInChunksThatKeepTheCursor() throws {
        let image = RenderedImage(width: 40, height: 40, pixels: [UInt8](repeating: 200, count: 40 * 40 * 4))
        let text = String(decoding: TerminalViewer.kitty(image), as: UTF8.self)
        let chunks = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
        #expect(chunks.count == 3)  // 6400 bytes → 8536 base64 characters → 4096 + 4096 + 344
        #expect(chunks[0].hasPrefix("\u{1B}_Ga=T,f=32,s=40,v=40,C=1,q=2,m=1;"))
        #expect(chunks.last!.hasPrefix("\u{1B}_Gm=0;"))
        let payload = chunks.map { String($0[$0.index(after: $0.firstIndex(of: ";")!)...]) }.joined()
        #expect(Data(base64Encoded: payload) == Data(image.pixels))
    }

    @Test func aZoomedPageIsCroppedWherePanPoints() {
        var pixels: [UInt8] = []
        for y in 0..<10 { for x in 0..<10 { pixels += [UInt8(x), UInt8(y), 0, 255] } }
        let image = RenderedImage(width: 10, height: 10, pixels: pixels)
        let topLeft = TerminalViewer.crop(image, to: (width: 4, height: 4), pan: (x: 0, y: 0))
        #expect(topLeft.width == 4 && topLeft.pixel(x: 0, y: 0).red == 0)
        let bottomRight = TerminalViewer.crop(image, to: (width: 4, height: 4), pan: (x: 1, y: 1))
        #expect(bottomRight.pixel(x: 0, y: 0).red == 6 && bottomRight.pixel(x: 3, y: 3).green == 9)
        #expect(TerminalViewer.crop(image, to: (width: 20, height: 20), pan: (x: 0.5, y: 0.5)) == image)
    }
}
