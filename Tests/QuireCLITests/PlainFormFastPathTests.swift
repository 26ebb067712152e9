import Foundation
import Quire
@testable import QuireCLI
import QuireTestSupport
import Testing

/// The plain forms `quire can-print FILE` and `quire info FILE...` (``FastPathTable``): taken
/// exactly, everything else left to the argument parser, and the same answers either way.
@Suite struct PlainFormFastPathTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func noEnvironment(_ name: String) -> String? { nil }

    static func request(_ argv: [[UInt8]], environment: (String) -> String? = noEnvironment) -> FastPathRequest? {
        FastPathTable.request(for: argv, environment: environment)
    }
    static func paths(_ names: String...) -> [DocumentPath] { names.map(DocumentPath.init) }

    @Test func takesThePlainForms() {
        #expect(Self.request(Self.argv("quire", "can-print", "a.pdf"))
                == .canPrint(Self.paths("a.pdf")))
        // Nemo's condition: the selection after "--", names starting with "-" included.
        #expect(Self.request(Self.argv("quire", "can-print", "--", "a.pdf", "-b.pdf"))
                == .canPrint(Self.paths("a.pdf", "-b.pdf")))
        #expect(Self.request(Self.argv("quire", "can-print", "a.pdf", "b c.pdf"))
                == .canPrint(Self.paths("a.pdf", "b c.pdf")))
        #expect(Self.request(Self.argv("quire", "info", "a.pdf", "b c.png"))
                == .info(Self.paths("a.pdf", "b c.png")))
        let raw: [[UInt8]] = [Array("quire".utf8), Array("info".utf8), [0x66, 0xFF]]
        #expect(Self.request(raw) == .info([DocumentPath(bytes: [0x66, 0xFF])]))
        // Words the parser reads as file names too: "--" anywhere, "help", an empty name.
        #expect(Self.request(Self.argv("quire", "can-print", "a.pdf", "--", "-b.pdf")) == .canPrint(Self.paths("a.pdf", "-b.pdf")))
        #expect(Self.request(Self.argv("quire", "can-print", "--", "a.pdf", "")) == .canPrint(Self.paths("a.pdf", "")))
        #expect(Self.request(Self.argv("quire", "info", "help", "--", "-x")) == .info(Self.paths("help", "-x")))
        #expect(Self.request(Self.argv("quire", "info", "")) == .info(Self.paths("")))
    }

    @Test func leavesEverythingElseToTheParser() {
        let others = [
            Self.argv("quire", "can-print"),
            Self.argv("quire", "can-print", "--"),
            Self.argv("quire", "can-print", "--max-file-size", "1M", "a.pdf"),
            Self.argv("quire", "can-print", "-a.pdf"),
            Self.argv("quire", "info"),
            Self.argv("quire", "info", "--json", "a.pdf"),
            Self.argv("quire", "info", "a.pdf", "--password", "x"),
            Self.argv("quire", "info", "-h"),
            Self.argv("quire", "info", "--"),
            Self.argv("quire", "actions", "a.pdf"),
            Self.argv("quire", "--version", "a.pdf"),
        ]
        for argv in others {
            #expect(Self.request(argv) == nil,
                    "\(argv.map { String(decoding: $0, as: UTF8.self) })")
        }
        for variable in ["QUIRE_MAX_FILE_SIZE", "QUIRE_TIMEOUT", "QUIRE_MAX_PAGES"] {
            #expect(Self.request(Self.argv("quire", "info", "a.pdf"), environment: { $0 == variable ? "5" : nil }) == nil)
        }
    }

    /// `--timeout 60` is the default, and any option sends the command through the parser: the
    /// two runs must print the same cards, the same errors and exit alike.
    @Test func infoSaysTheSameEitherWay() {
        let files = ["document.pdf", "photo.jpg", "hello.c", "truncated.pdf", "encrypted.pdf", "missing.pdf"].map(Samples.path)
        let plain = QuireBinary.run(["info"] + files)
        let parsed = QuireBinary.run(["info", "--timeout", "60"] + files)
        #expect(plain.status != 0 && plain.status == parsed.status)
        #expect(plain.standardOutputText.contains("PDF") && plain.standardOutput == parsed.standardOutput)
        #expect(plain.errorLines.count >= 2 && plain.standardError == parsed.standardError)
    }

    @Test func canPrintSaysTheSameEitherWay() throws {
        let bed = try CUPSTestBed(.full)
        let pdf = Samples.path("document.pdf")
        let env = bed.environment()
        let answers = { () -> (Int32, Int32) in
            (QuireBinary.run(["can-print", pdf], environment: env).status,
             QuireBinary.run(["can-print", "--max-file-size", "1G", pdf], environment: env).status)
        }
        let accepting = answers()
        #expect(accepting.0 == 0 && accepting.1 == 0)
        try bed.rejectAll(reason: "closed")
        let rejecting = answers()
        #expect(rejecting.0 == 1 && rejecting.1 == 1)
        #expect(QuireBinary.run(["can-print", Samples.path("missing.pdf")], environment: env).status == 1)
        // A selection, as Nemo's condition passes it: yes only when every file can print.
        try bed.admin("cupsaccept", "quire-office")
        #expect(QuireBinary.run(["can-print", "--", pdf, pdf], environment: env).status == 0)
        #expect(QuireBinary.run(["can-print", "--", pdf, Samples.path("archives/project.zip")], environment: env).status == 1)
        #expect(QuireBinary.run(["can-print", "--max-file-size", "1G", "--", pdf, Samples.path("archives/project.zip")], environment: env).status == 1)
    }
}
