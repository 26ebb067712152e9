import Foundation
@testable import QuireRender
import QuireTypes
import Testing

/// The table reader on the generated samples (Samples/table-samples.py): encodings, separators,
/// RFC 4180 quoting, header and column kinds, the lazy row index and the hostile files.
@Suite struct DelimitedTableTests {
    static func table(_ name: String, tabSeparated: Bool = false) throws -> DelimitedTable {
        try DelimitedTable(file: try SampleFiles.open("tables/" + name), tabSeparated: tabSeparated)
    }

    @Test func commaSeparatedWithHeaderAndKinds() throws {
        let table = try Self.table("people.csv")
        #expect(table.encoding == .utf8)
        #expect(table.delimiterName == "comma")
        #expect(table.hasHeader)
        #expect(table.columns.map(\.name) == ["id", "name", "born", "height", "city"])
        #expect(table.columns.map(\.kind) == [.integer, .text, .date, .decimal, .text])
        #expect(table.columns[0].kind.isNumeric && !table.columns[1].kind.isNumeric)
        #expect(table.columns[1].width == "Person 0001".count)
        #expect(table.columns[4].width == "Paris, France".count, "the quoted comma is part of the cell")
        #expect(table.rows(0..<2) == [["1", "Person 0001", "1951-02-02", "157.1", "Lyon"],
                                      ["2", "Person 0002", "1952-03-03", "164.2", "Kraków"]])
        #expect(table.rows(4..<5)[0][4] == "Paris, France")
        #expect(table.countRows(budget: 5) == TableRowCount(rows: 500, isExact: true))
        #expect(table.rows(499..<510).count == 1, "the last row, and nothing past the end")
    }

    @Test func separatorsAndEncodings() throws {
        let tsv = try Self.table("measures.tsv", tabSeparated: true)
        #expect(tsv.delimiterName == "tab")
        #expect(tsv.columns.map(\.kind) == [.text, .decimal, .integer])

        let latin = try Self.table("latin1-semicolon.csv")
        #expect(latin.encoding == .latin1)
        #expect(latin.delimiterName == "semicolon")
        #expect(latin.columns.map(\.name) == ["Nom", "Ville", "Montant"])
        #expect(latin.rows(1..<2) == [["Élève 1", "Besançon", "1,01"]])
        #expect(latin.columns[2].kind == .decimal, "a decimal comma where the separator is not a comma")

        for (name, encoding) in [("utf16.csv", TableEncoding.utf16LittleEndian), ("utf16be.csv", .utf16BigEndian)] {
            let table = try Self.table(name)
            #expect(table.encoding == encoding, "\(name)")
            #expect(table.columns.map(\.name) == ["id", "name", "born", "height", "city"], "\(name)")
            #expect(table.rows(1..<2) == [["2", "Person 0002", "1952-03-03", "164.2", "Kraków"]], "\(name)")
            #expect(table.countRows(budget: 5).rows == 100, "\(name)")
        }

        let bom = try Self.table("bom.csv")
        #expect(bom.encoding == .utf8WithBOM)
        #expect(bom.columns.first?.name == "id", "the mark is not part of the first name")

        let pipes = try Self.table("pipes.psv")
        #expect(pipes.delimiterName == "pipe")
        #expect(pipes.columns.count == 5)
    }

    @Test func quotedCellsHoldLineEndsSeparatorsAndQuotes() throws {
        let table = try Self.table("quoted-newlines.csv")
        #expect(table.rows(0..<4) == [["1", "first line\nsecond line", "Ann"],
                                      ["2", "she said \"hi\", then left", "Bob"],
                                      ["3", "a\r\nwindows break", "Cy"],
                                      ["4", "plain", "Di"]])
        #expect(table.countRows(budget: 5) == TableRowCount(rows: 4, isExact: true))
    }

    @Test func raggedRowsArePaddedOrCut() throws {
        let table = try Self.table("ragged.csv")
        #expect(table.columns.count == 5, "as wide as the widest sampled row")
        #expect(table.rows(0..<4) == [["1", "2", "", "", ""], ["3", "4", "5", "6", "7"], ["8", "", "", "", ""], ["9", "10", "11", "", ""]])
    }

    @Test func noHeaderWhenTheFirstRowIsData() throws {
        let table = try Self.table("no-header.csv")
        #expect(!table.hasHeader)
        #expect(table.columns.map(\.name) == ["Column 1", "Column 2", "Column 3"])
        #expect(table.rows(0..<1) == [["1", "1", "0.143"]])
        #expect(table.columns.map(\.kind) == [.integer, .integer, .decimal])
    }

    @Test func aNulByteIsACharacterNotTheEnd() throws {
        let table = try Self.table("nul-byte.csv")
        #expect(table.rows(0..<2) == [["1", "before\u{0}after"], ["2", "plain"]])
    }

    @Test func binaryDataIsNotATable() throws {
        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("zeros.csv").path
        try Data(repeating: 0, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect {
            try DelimitedTable(file: try InputFile(path: DocumentPath(path)))
        } throws: { error in
            (error as? DocumentError)?.kind == .damaged && (error as? DocumentError)?.reason.contains("NUL bytes") == true
        }
    }

    @Test func aLineOfMegabytesEndsTheTableBoundedly() throws {
        let long = try Self.table("long-line.csv")
        let started = Date()
        #expect(long.rows(0..<50) == [["1", "one"], ["2", "two"]])
        #expect(long.countRows(budget: 5) == TableRowCount(rows: 2, isExact: true))
        #expect(long.stopReason?.contains("longer than 1 MiB") == true)
        let unclosed = try Self.table("unclosed-quote.csv")
        #expect(unclosed.rows(0..<50) == [["1", "one"]])
        #expect(unclosed.stopReason != nil)
        #expect(Date().timeIntervalSince(started) < 2)

        let directory = try SampleFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("one-line.csv").path
        try Data(repeating: UInt8(ascii: "x"), count: 3 << 20).write(to: URL(fileURLWithPath: path))
        #expect {
            try DelimitedTable(file: try InputFile(path: DocumentPath(path)))
        } throws: { error in
            (error as? DocumentError)?.kind == .limitExceeded && (error as? DocumentError)?.reason.contains("first line is longer") == true
        }
    }

    @Test func aLatin1ByteAfterTheSampleIsReplacedNotFatal() throws {
        let table = try Self.table("mixed-encoding.csv")
        #expect(table.encoding == .utf8)
        let row = try #require(table.rows(4999..<5000).first)
        #expect(row[1] == "Caf\u{FFFD} 5000", "the byte that is not UTF-8 is shown replaced: \(row)")
        let all = table.countRows(budget: 5)
        #expect(all == TableRowCount(rows: 10_000, isExact: true))
    }

    @Test func rowsAreIndexedLazilyAndCountedInTheBackground() throws {
        let table = try Self.table("many-rows.csv")
        // The first screen reads only the start of the file.
        #expect(table.rows(0..<40).count == 40)
        let early = table.index.progress
        #expect(!early.isComplete)
        #expect(early.scanned <= TableRowIndex.chunkBytes + 4096, "scanned \(early.scanned) bytes for the first screen")
        let estimate = table.rowCount
        #expect(!estimate.isExact)
        #expect(estimate.description.hasPrefix("about "))
        // Row 99,999 (the last) is found from the checkpoints, whatever was read before.
        #expect(table.rows(99_999..<100_005) == [["100000", "Person 100000", "1950-05-13", "150.0", "Bergen"]])
        #expect(table.rows(64..<65) == [["65", "Person 0065", "1965-06-10", "155.5", "Paris, France"]])
        table.startCounting()
        let deadline = Date().addingTimeInterval(10)
        while !table.rowCount.isExact && Date() < deadline { usleep(10_000) }
        #expect(table.rowCount == TableRowCount(rows: 100_000, isExact: true))
        #expect(table.rowCount.description == "100,000 rows")
    }

    @Test func kindsOfCells() {
        #expect(ColumnKind.of("42", decimalComma: false) == .integer)
        #expect(ColumnKind.of("-3.5e2", decimalComma: false) == .decimal)
        #expect(ColumnKind.of("3,5", decimalComma: false) == .text)
        #expect(ColumnKind.of("3,5", decimalComma: true) == .decimal)
        #expect(ColumnKind.of("2024-02-29", decimalComma: false) == .date)
        #expect(ColumnKind.of("2024-02-29T10:30:00", decimalComma: false) == .date)
        #expect(ColumnKind.of("31/12/1999", decimalComma: false) == .date)
        #expect(ColumnKind.of("2024-13-01", decimalComma: false) == .text)
        #expect(ColumnKind.of("", decimalComma: false) == nil)
        #expect(ColumnKind.common([.integer, .decimal]) == .decimal)
        #expect(ColumnKind.common([.integer, .text]) == .text)
        #expect(TableRowCount(rows: 9_876_543, isExact: false).description == "about 9,900,000 rows")
    }
}
