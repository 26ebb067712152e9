import Foundation
import QuireTestSupport
import Testing

/// Delimited text through the `quire` binary: `info` says rows, columns with their kinds,
/// separator and encoding (and `--json`'s `table`), `thumbnail` and `preview` draw the table,
/// and hostile tables end in one line and a sysexits status, never a hang.
@Suite("Tables through the command line")
struct TableCommandTests {
    @Test func infoSaysRowsColumnsSeparatorAndEncoding() throws {
        let result = QuireBinary.run(["info", Samples.path("tables/people.csv"), Samples.path("tables/utf16.csv"),
                                      Samples.path("tables/latin1-semicolon.csv"), Samples.path("tables/measures.tsv")], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let out = result.standardOutputText
        for line in ["Rows:       500 rows", "Columns:    5", "    id:       integer", "    born:     date", "    height:   decimal",
                     "Separator:  comma (header row)", "Encoding:   UTF-8", "Encoding:   UTF-16 LE", "Rows:       100 rows",
                     "Separator:  semicolon (header row)", "Encoding:   Latin-1", "    Montant:  decimal", "tab (header row)", "    temperature:  decimal"] {
            #expect(out.contains(line), "\(line) missing from:\n\(out)")
        }
    }

    @Test func infoJSONHasTheTable() throws {
        let result = QuireBinary.run(["info", "--json", Samples.path("tables/people.csv")], timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput)) as? [[String: Any]])
        let table = try #require(records.first?["table"] as? [String: Any])
        #expect(table["rows"] as? Int == 500)
        #expect(table["rowsExact"] as? Bool == true)
        #expect(table["delimiter"] as? String == "comma")
        #expect(table["encoding"] as? String == "UTF-8")
        #expect(table["header"] as? Bool == true)
        let columns = try #require(table["columns"] as? [[String: Any]])
        #expect(columns.map { $0["name"] as? String } == ["id", "name", "born", "height", "city"])
        #expect(columns.map { $0["kind"] as? String } == ["integer", "text", "date", "decimal", "text"])
        #expect(columns[1]["width"] as? Int == 11)
    }

    @Test func thumbnailAndPreviewDrawTheTable() throws {
        let scratch = TemporaryDirectory()
        let thumbnail = scratch.file("thumb.png")
        let made = QuireBinary.run(["thumbnail", Samples.path("tables/people.csv"), thumbnail], timeout: 60)
        #expect(made.status == 0, "\(made.standardError)")
        let png = try Data(contentsOf: URL(fileURLWithPath: thumbnail))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let pdf = scratch.file("table.pdf")
        let preview = QuireBinary.run(["preview", Samples.path("tables/quoted-newlines.csv"), "--format", "pdf", "-o", pdf], timeout: 60)
        #expect(preview.status == 0, "\(preview.standardError)")
        #expect(CUPSTestBed.pageCount(ofPDF: pdf) == 1)
    }

    @Test func hostileTablesAreOneLineAndBounded() throws {
        let scratch = TemporaryDirectory()
        let oneLine = scratch.file("one-line.csv")
        try Data(repeating: UInt8(ascii: "x"), count: 3 << 20).write(to: URL(fileURLWithPath: oneLine))
        let zeros = scratch.file("zeros.csv")
        try Data(repeating: 0, count: 8192).write(to: URL(fileURLWithPath: zeros))
        let started = Date()
        for (path, reason) in [(oneLine, "its first line is longer than 1 MiB: not a table to show"),
                               (zeros, "not delimited text: 8192 NUL bytes in its first 8192 bytes (binary data)")] {
            for command in [["info", path], ["thumbnail", path, scratch.file("out.png")]] {
                let result = QuireBinary.run(command, timeout: 60)
                #expect(result.status == 65, "\(command): \(result.status) \(result.standardError)")
                #expect(result.errorLines == ["quire: \(path): \(reason)"])
            }
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.png")), "nothing written")
        // A row of megabytes after two good rows: the table is the two rows, and says where it stops.
        let cut = QuireBinary.run(["info", Samples.path("tables/long-line.csv")], timeout: 60)
        #expect(cut.status == 0, "\(cut.standardError)")
        #expect(cut.standardOutputText.contains("Rows:       2 rows") && cut.standardOutputText.contains("Cut:        the table stops at byte 21"))
        let nul = QuireBinary.run(["info", Samples.path("tables/nul-byte.csv")], timeout: 60)
        #expect(nul.status == 0 && nul.standardOutputText.contains("Rows:       2 rows"), "one NUL byte is a character: \(nul.standardError)")
        #expect(Date().timeIntervalSince(started) < 30)
    }

    /// A file larger than the memory limit lets map (a 2 GB line in a 2 GiB worker): one line
    /// naming the limit, exit 65 (a sparse file: no disk used).
    @Test func aFileBeyondTheMemoryLimitIsOneLine() throws {
        let scratch = TemporaryDirectory()
        let big = scratch.file("big.csv")
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        let result = QuireBinary.run(["info", "--memory-limit", "200", big], timeout: 60)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.errorLines == ["quire: \(big): the file (314572800 bytes) cannot be mapped within the memory limit (Cannot allocate memory) (--memory-limit)"])
    }
}
