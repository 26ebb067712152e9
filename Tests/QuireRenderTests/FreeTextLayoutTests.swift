import QuireRender
import Testing

/// How a text box is set (``FreeTextLayout``): Helvetica's widths, wrapping at spaces within the
/// room left by the padding, a word too long for a line broken, typed line breaks kept, the
/// characters WinAnsi has and those it has not, and PDF string escapes.
@Suite struct FreeTextLayoutTests {
    @Test func widthsAreHelveticasMetrics() {
        // H 722, e 556, l 222, l 222, o 556 (thousandths of the size).
        #expect(abs(FreeTextLayout.width(of: "Hello", fontSize: 10) - 22.78) < 1e-9)
        // é is 556 like e; the euro sign (WinAnsi 0x80) 556; an en dash 556.
        #expect(FreeTextLayout.width(of: "é€–", fontSize: 1) == FreeTextLayout.width(of: "eee", fontSize: 1))
    }

    @Test func textIsWrappedAtSpacesWithinTheBox() throws {
        let size = 10.0
        let room = FreeTextLayout.width(of: "one two", fontSize: size)
        let layout = try #require(FreeTextLayout(text: "one two three four", fontSize: size, maximumWidth: room + 2 * FreeTextLayout.padding))
        // "three four" (4,280 thousandths) is wider than "one two" (3,502): each word on its own line.
        #expect(layout.lines == ["one two", "three", "four"])
        #expect(layout.lines.allSatisfy { FreeTextLayout.width(of: $0, fontSize: size) <= room })
        #expect(layout.width <= room + 2 * FreeTextLayout.padding + 1e-9)
        #expect(abs(layout.height - (Double(layout.lines.count) * 1.2 * size + 2 * FreeTextLayout.padding)) < 1e-9)
        #expect(abs(layout.baseline(1) - layout.baseline(0) - 1.2 * size) < 1e-9)
    }

    @Test func aWordLongerThanTheBoxIsBrokenAndLineBreaksAreKept() throws {
        let layout = try #require(FreeTextLayout(text: "Donaudampfschifffahrt\n\nend", fontSize: 10, maximumWidth: 60))
        let room = 60 - 2 * FreeTextLayout.padding
        #expect(layout.lines.count >= 4 && layout.lines.suffix(2) == ["", "end"], "\(layout.lines)")
        #expect(layout.lines.dropLast(2).joined() == "Donaudampfschifffahrt")
        #expect(layout.lines.allSatisfy { FreeTextLayout.width(of: $0, fontSize: 10) <= room })
    }

    @Test func onlyWinAnsiCharactersCanBeSet() {
        #expect(FreeTextLayout.unencodable("Grüße, naïve café — 5 € “quoted”") == nil)
        #expect(FreeTextLayout.unencodable("price 5 ₽") == "₽")
        #expect(FreeTextLayout.unencodable("日本") == "日")
        #expect(FreeTextLayout.unencodable("tab\there") == "\t")
        #expect(FreeTextLayout(text: "日本", fontSize: 12, maximumWidth: 200) == nil)
        #expect(FreeTextLayout(text: "", fontSize: 12, maximumWidth: 200) == nil)
        #expect(FreeTextLayout(text: "big", fontSize: 145, maximumWidth: 200) == nil)
    }

    @Test func literalsAreEscapedAndInWinAnsi() {
        #expect(FreeTextLayout.literal("a(b)c\\") == Array("(a\\(b\\)c\\\\)".utf8))
        #expect(FreeTextLayout.literal("é€") == [UInt8(ascii: "("), 0xE9, 0x80, UInt8(ascii: ")")])
    }
}
