@testable import QuireArguments
import Testing

/// quire-look's command line: what `quire look` writes reads back as the same arguments, and
/// a line quire-look cannot read gives the messages it always gave.
@Suite struct LookWindowArgumentsTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func readsTheWindowsLine() throws {
        let line = Self.argv("quire-look", "--password", "-secret", "--no-resume", "--print",
                             "--render-worker-argument", "/usr/bin/quire", "--render-worker-argument", "__look-render-worker",
                             "--render-worker-argument", "--max-pixels", "--render-worker-argument", "100",
                             "--timeout", "2.5", "--", "-a.pdf", "", "--")
        let expected = LookWindowArguments(
            files: [Self.bytes("-a.pdf"), [], Self.bytes("--")], password: "-secret", resume: false, printSheet: true,
            renderWorker: ["/usr/bin/quire", "__look-render-worker", "--max-pixels", "100"], timeout: 2.5)
        #expect(try LookWindowArguments.parse(line) == .window(expected))
        // Defaults, files before any option, the last --password and --timeout win.
        let plain = try LookWindowArguments.parse(Self.argv("quire-look", "a.pdf", "--timeout", "5", "b c.pdf", "--timeout", "7",
                                                            "--password", "x", "--password", ""))
        #expect(plain == .window(LookWindowArguments(files: [Self.bytes("a.pdf"), Self.bytes("b c.pdf")], password: "", timeout: 7)))
        #expect(try LookWindowArguments.parse(Self.argv("quire-look", "a.pdf"))
                == .window(LookWindowArguments(files: [Self.bytes("a.pdf")])))
    }

    /// `--csv-as-spreadsheet` goes to the window and reads back.
    @Test func csvAsSpreadsheetRoundTrips() throws {
        var window = LookWindowArguments(files: [Self.bytes("t.csv")])
        window.csvAsSpreadsheet = true
        let words = window.arguments()
        #expect(words.contains(Self.bytes("--csv-as-spreadsheet")))
        #expect(try LookWindowArguments.parse([Self.bytes("quire-look")] + words) == .window(window))
        #expect(try LookWindowArguments.parse(Self.argv("quire-look", "t.csv")) == .window(LookWindowArguments(files: [Self.bytes("t.csv")])))
    }

    @Test func theServiceLineIsReadFromItsOwnDescription() throws {
        let worker = ["/usr/bin/quire", "__render-worker", "--max-pixels", "100"]
        let service = PreviewerServiceArguments(idleTimeout: 5, renderWorker: worker, timeout: 12)
        // What quire look --service writes is what quire-look reads back.
        #expect(try LookWindowArguments.parse([Self.bytes("quire-look")] + service.arguments()) == .service(service))
        #expect(try LookWindowArguments.parse(Self.argv("quire-look", "--service")) == .service(PreviewerServiceArguments()))
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("--bogus"))) {
            try LookWindowArguments.parse(Self.argv("quire-look", "--service", "--idle-timeout", "5", "--bogus"))
        }
        #expect(throws: ArgumentMismatch.self) {
            try LookWindowArguments.parse(Self.argv("quire-look", "--service", "--idle-timeout", "0"))
        }
        // Only as the first word: later it is an unknown option of the window.
        #expect(throws: ArgumentMismatch.unknownOption(Self.bytes("--service"))) {
            try LookWindowArguments.parse(Self.argv("quire-look", "a.pdf", "--service"))
        }
    }

    /// The messages quire-look has always printed (after "quire look: "), for the first word
    /// that does not fit.
    @Test func mismatchesSayWhatQuireLookSaid() {
        let cases: [([String], String)] = [
            (["--password"], "--password needs a value"),
            (["a.pdf", "--render-worker-argument"], "--render-worker-argument needs a value"),
            (["--timeout"], "--timeout needs a number of seconds"),
            (["--timeout", "0.5", "a.pdf"], "--timeout needs a number of seconds"),
            (["--timeout", "abc", "a.pdf"], "--timeout needs a number of seconds"),
            (["--timeout", "-5", "a.pdf"], "--timeout needs a number of seconds"),
            (["--timeout", "x", "--bogus", "a.pdf"], "--timeout needs a number of seconds"),
            (["--bogus", "--timeout", "x", "a.pdf"], "unknown option --bogus"),
            (["-", "a.pdf"], "unknown option -"),
            (["-a.pdf"], "unknown option -a.pdf"),
            ([], "give at least one file"),
            (["--no-resume", "--print", "--"], "give at least one file"),
        ]
        for (words, message) in cases {
            do {
                let invocation = try LookWindowArguments.parse([Self.bytes("quire-look")] + words.map(Self.bytes))
                Issue.record("\(words) read as \(invocation)")
            } catch {
                #expect(error.description == message, "\(words)")
            }
        }
    }

    /// What `arguments()` writes, `parse` reads back unchanged: names that look like options,
    /// empty ones, bytes that are not UTF-8, the render worker's own options, odd passwords.
    @Test(arguments: [
        LookWindowArguments(files: [Self.bytes("a.pdf")]),
        LookWindowArguments(files: [Self.bytes("-x.pdf"), Self.bytes("--"), [], [0x66, 0xFF, 0x0A]], password: "--print",
                            resume: false, printSheet: true,
                            renderWorker: ["/proc/self/exe", "__look-render-worker", "--max-pixels", "100000000"], timeout: 45),
        LookWindowArguments(files: [Self.bytes("--timeout")], password: "", timeout: 1.5),
        LookWindowArguments(files: [Self.bytes("b c.pdf")], renderWorker: ["", "-"], timeout: 1),
    ])
    func writtenLinesReadBack(arguments: LookWindowArguments) throws {
        #expect(try LookWindowArguments.parse([Self.bytes("quire-look")] + arguments.arguments()) == .window(arguments))
    }

    /// quire has always passed whole seconds as an integer.
    @Test func wholeSecondsAreWrittenAsIntegers() {
        let words = LookWindowArguments(files: [Self.bytes("a")], timeout: 30).arguments()
        #expect(words == Self.argv("--timeout", "30", "--", "a"))
        #expect(LookWindowArguments(files: [], timeout: 2.5).arguments() == Self.argv("--timeout", "2.5", "--"))
    }
}
