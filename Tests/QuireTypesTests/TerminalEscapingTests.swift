import QuireTypes
import Testing

/// `TerminalEscaping`, the one escaping of text from files before a terminal (issue 41).
/// `fuzz-terminal-escaping` checks its properties on any bytes; these pin the written forms.
@Suite struct TerminalEscapingTests {
    @Test func terminalSequencesAreShownNotKept() {
        let osc = "t\u{1B}]0;PWNED\u{07}x\u{1B}]52;c;UA==\u{07}"
        #expect(TerminalEscaping.escaped(osc) == #"t\x1B]0;PWNED\x07x\x1B]52;c;UA==\x07"#)
        #expect(TerminalEscaping.escaped(Array(osc.utf8)) == TerminalEscaping.escaped(osc))
        // C1 controls (8-bit CSI, OSC) as scalars, an invalid byte of the same value as a byte.
        #expect(TerminalEscaping.escaped("a\u{9B}31m\u{9D}") == #"a\u{9b}31m\u{9d}"#)
        #expect(TerminalEscaping.escaped([0x61, 0x9B, 0xFF]) == #"a\x9B\xFF"#)
        #expect(TerminalEscaping.escaped("line\nnext\ttab\r\u{2028}") == #"line\nnext\ttab\r\u{2028}"#)
    }

    @Test func backslashesAreDoubledForNamesOnly() {
        #expect(TerminalEscaping.escaped(#"a\b"#) == #"a\\b"#)
        #expect(TerminalEscaping.escaped(#"a\b"#, backslashes: false) == #"a\b"#)
        // A message quoting an escaped name passes through an error line unchanged.
        let name = TerminalEscaping.escaped("evil\u{1B}[2J.pdf")
        #expect(TerminalEscaping.escaped("quire: \(name): damaged", backslashes: false) == "quire: \(name): damaged")
        #expect(DocumentPath(bytes: Array("x\u{1B}y".utf8)).description == #"x\x1By"#)
    }

    @Test func plainTextIsUnchanged() {
        for text in ["", "Report 2026.pdf", "Ünïcødé — 日本語 🎉", "tab-free, newline-free"] {
            #expect(TerminalEscaping.escaped(text) == text)
            #expect(TerminalEscaping.escaped(Array(text.utf8)) == text)
        }
    }
}
