import Foundation
@testable import QuireCLI
import QuireTestSupport
import Testing

/// The plain forms `quire can-print FILE` and `quire info FILE...` (``PlainFormFastPath``): taken
/// exactly, everything else left to the argument parser, and the same answers either way.
@Suite struct PlainFormFastPathTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func noEnvironment(_ name: String) -> String? { nil }

    @Test func takesThePlainForms() {
        #expect(PlainFormFastPath.parse(Self.argv("quire", "can-print", "a.pdf"), environment: Self.noEnvironment)
                == .canPrint(Array("a.pdf".utf8)))
        #expect(PlainFormFastPath.parse(Self.argv("quire", "info", "a.pdf", "b c.png"), environment: Self.noEnvironment)
                == .info([Array("a.pdf".utf8), Array("b c.png".utf8)]))
        let raw: [[UInt8]] = [Array("quire".utf8), Array("info".utf8), [0x66, 0xFF]]
        #expect(PlainFormFastPath.parse(raw, environment: Self.noEnvironment) == .info([[0x66, 0xFF]]))
    }

    @Test func leavesEverythingElseToTheParser() {
        let others = [
            Self.argv("quire", "can-print"),
            Self.argv("quire", "can-print", "a.pdf", "b.pdf"),
            Self.argv("quire", "can-print", "--max-file-size", "1M", "a.pdf"),
            Self.argv("quire", "can-print", "--", "-a.pdf"),
            Self.argv("quire", "info"),
            Self.argv("quire", "info", "--json", "a.pdf"),
            Self.argv("quire", "info", "a.pdf", "--password", "x"),
            Self.argv("quire", "info", "-h"),
            Self.argv("quire", "info", "help"),
            Self.argv("quire", "info", ""),
            Self.argv("quire", "actions", "a.pdf"),
            Self.argv("quire", "--version"),
        ]
        for argv in others {
            #expect(PlainFormFastPath.parse(argv, environment: Self.noEnvironment) == nil,
                    "\(argv.map { String(decoding: $0, as: UTF8.self) })")
        }
        for variable in ["QUIRE_MAX_FILE_SIZE", "QUIRE_TIMEOUT", "QUIRE_MAX_PAGES"] {
            #expect(PlainFormFastPath.parse(Self.argv("quire", "info", "a.pdf"), environment: { $0 == variable ? "5" : nil }) == nil)
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
    }
}
