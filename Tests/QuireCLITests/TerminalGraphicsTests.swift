import Foundation
import Testing
@testable import QuireCLI
@testable import QuireTerminalViewer
import Quire

@Suite struct TerminalGraphicsTests {
    @Test func protocolComesFromWhatTheTerminalSays() {
        #expect(TerminalGraphics.detect(["TERM": "xterm-kitty"]) == .kitty)
        #expect(TerminalGraphics.detect(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"]) == .kitty)
        #expect(TerminalGraphics.detect(["TERM_PROGRAM": "iTerm.app"]) == .iterm)
        #expect(TerminalGraphics.detect(["TERM": "foot"]) == .sixel)
        #expect(TerminalGraphics.detect(["TERM": "xterm-256color"]) == .blocks)
        #expect(TerminalGraphics.detect(["TERM": "xterm-kitty", "QUIRE_GRAPHICS": "blocks"]) == .blocks)
    }

    /// 2×2: red over blue in column 0, green over transparent in column 1.
    static let image = RenderedImage(width: 2, height: 2, pixels: [
        255, 0, 0, 255, 0, 255, 0, 255,
        0, 0, 255, 255, 0, 0, 0, 0,
    ])

    @Test func halfBlocksCarryBothPixelsOfACell() {
        let text = String(decoding: TerminalGraphics.halfBlocks(Self.image), as: UTF8.self)
        #expect(text == "\u{1B}[38;2;255;0;0;48;2;0;0;255m▀\u{1B}[0;38;2;0;255;0m▀\u{1B}[0m\n")
    }

    @Test func kittyAndITermWrapAPNG() throws {
        let kitty = String(decoding: try TerminalGraphics.encode(Self.image, as: .kitty), as: UTF8.self)
        #expect(kitty.hasPrefix("\u{1B}_Ga=T,f=100,m=0;iVBORw0KGgo"))
        #expect(kitty.hasSuffix("\u{1B}\\\n"))
        let iterm = String(decoding: try TerminalGraphics.encode(Self.image, as: .iterm), as: UTF8.self)
        #expect(iterm.hasPrefix("\u{1B}]1337;File=inline=1;size="))
        #expect(iterm.hasSuffix("\u{07}\n"))
    }

    @Test func sixelPaintsEachColourRegister() {
        let text = String(decoding: TerminalGraphics.sixel(Self.image), as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}Pq\"1;1;2;2"))
        #expect(text.hasSuffix("\u{1B}\\"))
        // Red is register 180 (5·36), blue 5, green 30: red and blue in column 0 rows 0 and 1.
        #expect(text.contains("#180@?$"))   // red: bit 0 in column 0, nothing in column 1
        #expect(text.contains("#5A?$"))     // blue: bit 1 in column 0
        #expect(text.contains("#30?@$"))    // green: bit 0 in column 1
    }
}
