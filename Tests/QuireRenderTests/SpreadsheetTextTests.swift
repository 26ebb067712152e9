@testable import QuireRender
import Testing

/// How delimited text is read before Calc lays it out: the separator of the first line, RFC 4180
/// quoting, numbers, and the XML handed to Calc.
@Suite struct SpreadsheetTextTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func separatorIsTheFirstLinesMostFrequent() {
        #expect(SpreadsheetText.separator(in: Self.bytes("a,b,c\n1;2;3;4;5\n")) == UInt8(ascii: ","))
        #expect(SpreadsheetText.separator(in: Self.bytes("a;b;\"x,y,z\"\n")) == UInt8(ascii: ";"), "commas inside quotes do not count")
        #expect(SpreadsheetText.separator(in: Self.bytes("a\tb\tc,d\n")) == UInt8(ascii: "\t"))
        #expect(SpreadsheetText.separator(in: Self.bytes("one column\n")) == UInt8(ascii: ","))
    }

    @Test func recordsFollowRFC4180() {
        let text = "\u{FEFF}name,note\r\n\"Paris, France\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",\n,last"
        let records = SpreadsheetText.records(Self.bytes(text), separator: UInt8(ascii: ","))
        #expect(records.map { $0.map { String(decoding: $0, as: UTF8.self) } } == [
            ["name", "note"], ["Paris, France", "say \"hi\""], ["two\nlines", ""], ["", "last"],
        ])
    }

    @Test func plainNumbersOnly() {
        for number in ["7", "-12", "+3.25", ".5", "1e5", "2.5E-3"] { #expect(SpreadsheetText.isPlainNumber(Self.bytes(number)), "\(number)") }
        for text in ["", "-", "1,234", "1.2.3", "12a", "e5", "1e", "0x10"] { #expect(!SpreadsheetText.isPlainNumber(Self.bytes(text)), "\(text)") }
    }

    @Test func flatSpreadsheetIsEscapedXML() {
        let flat = String(decoding: SpreadsheetText.flatSpreadsheet(Self.bytes("a<b,7\n\"x&y\u{1}\",\n"), separator: UInt8(ascii: ","), sheet: "t\"1"),
                          as: UTF8.self)
        #expect(flat.contains("table:name=\"t&quot;1\""))
        #expect(flat.contains("<text:p>a&lt;b</text:p>"))
        #expect(flat.contains("office:value-type=\"float\" office:value=\"7\""))
        #expect(flat.contains("<text:p>x&amp;y</text:p>"), "control characters dropped: \(flat)")
        #expect(flat.components(separatedBy: "<table:table-row>").count == 3)
    }
}
