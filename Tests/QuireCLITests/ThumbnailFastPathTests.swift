import Foundation
import Quire
@testable import QuireCLI
import QuireTestSupport
import Testing

/// The thumbnailer contract's short path (``FastPathTable``'s thumbnail line): it takes exactly
/// `quire thumbnail [-s N] IN OUT` and leaves everything else to the argument parser, and what
/// it writes is what the parsed command writes.
@Suite struct ThumbnailFastPathTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func noEnvironment(_ name: String) -> String? { nil }

    static func request(_ argv: [[UInt8]], environment: (String) -> String? = noEnvironment) -> FastPathRequest? {
        FastPathTable.request(for: argv, environment: environment)
    }

    @Test func takesTheContractForms() {
        let expected = FastPathRequest.thumbnail(input: Array("in.pdf".utf8), output: Array("out.png".utf8), size: 128)
        for form in [Self.argv("quire", "thumbnail", "-s", "128", "in.pdf", "out.png"),
                     Self.argv("quire", "thumbnail", "--size", "128", "in.pdf", "out.png"),
                     Self.argv("quire", "thumbnail", "-s128", "in.pdf", "out.png"),
                     Self.argv("quire", "thumbnail", "--size=128", "in.pdf", "out.png"),
                     Self.argv("quire", "thumbnail", "in.pdf", "out.png", "-s", "128")] {
            #expect(Self.request(form) == expected)
        }
        #expect(Self.request(Self.argv("quire", "thumbnail", "in.pdf", "out.png"))
                == .thumbnail(input: Array("in.pdf".utf8), output: Array("out.png".utf8), size: 256))
        // Argument bytes are kept exactly, invalid UTF-8 included.
        let raw: [[UInt8]] = [Array("quire".utf8), Array("thumbnail".utf8), [0x66, 0xFF, 0x0A], Array("o.png".utf8)]
        #expect(Self.request(raw) == .thumbnail(input: [0x66, 0xFF, 0x0A], output: Array("o.png".utf8), size: 256))
        // After "--", names starting with "-", as the parser reads them.
        #expect(Self.request(Self.argv("quire", "thumbnail", "-s", "64", "--", "-in.pdf", "out.png"))
                == .thumbnail(input: Array("-in.pdf".utf8), output: Array("out.png".utf8), size: 64))
    }

    @Test func leavesEverythingElseToTheParser() {
        let others = [
            Self.argv("quire", "thumbnail", "in.pdf"),                                  // one file
            Self.argv("quire", "thumbnail", "a", "b", "c"),                             // three
            Self.argv("quire", "thumbnail", "-s", "large", "in.pdf", "out.png"),        // flavor name
            Self.argv("quire", "thumbnail", "-s", "0", "in.pdf", "out.png"),            // out of range
            Self.argv("quire", "thumbnail", "-s", "5000", "in.pdf", "out.png"),
            Self.argv("quire", "thumbnail", "-s", "+12", "in.pdf", "out.png"),
            Self.argv("quire", "thumbnail", "-s", "128", "-s", "256", "in.pdf", "out.png"),
            Self.argv("quire", "thumbnail", "--password", "x", "in.pdf", "out.png"),
            Self.argv("quire", "thumbnail", "--batch", "in.pdf", "out.png"),
            Self.argv("quire", "thumbnail", "--", "-s", "128", "in.pdf", "out.png"),   // three files after "--"
            Self.argv("quire", "thumbnail", "-in.pdf", "out.png"),
            Self.argv("quire", "thumbnail", "--help", "in.pdf"),
            Self.argv("quire", "thumbnail", "in.pdf", "out.png", "-s"),
            Self.argv("quire", "preview", "in.pdf", "out.png"),
        ]
        for argv in others {
            #expect(Self.request(argv) == nil,
                    "\(argv.map { String(decoding: $0, as: UTF8.self) })")
        }
        // A limit or time limit in the environment: the parser reads and checks it.
        for variable in ["QUIRE_MAX_PIXELS", "QUIRE_TIMEOUT", "QUIRE_MAX_FILE_SIZE"] {
            #expect(Self.request(Self.argv("quire", "thumbnail", "in.pdf", "out.png"),
                                 environment: { $0 == variable ? "10" : nil }) == nil)
        }
    }

    /// Both paths, end to end: `-s 128` takes the short path, `--timeout 15` (the default
    /// value) forces the parser; the files must be byte-identical, and so must the failures.
    @Test(arguments: ["document.pdf", "photo-rotated.jpg", "drawing.svg", "hello.c", "document.odt"])
    func shortAndParsedPathsWriteTheSameFile(name: String) throws {
        let scratch = TemporaryDirectory()
        let short = scratch.file("short.png"), parsed = scratch.file("parsed.png")
        let first = QuireBinary.run(["thumbnail", "-s", "128", Samples.path(name), short])
        let second = QuireBinary.run(["thumbnail", "-s", "128", "--timeout", "15", Samples.path(name), parsed])
        #expect(first.status == 0 && second.status == 0, "\(first.standardError) \(second.standardError)")
        let a = try Data(contentsOf: URL(fileURLWithPath: short)), b = try Data(contentsOf: URL(fileURLWithPath: parsed))
        #expect(a.count > 100 && a == b)
    }

    @Test func shortAndParsedPathsFailAlike() throws {
        let scratch = TemporaryDirectory()
        let output = scratch.file("never-written.png")
        for name in ["truncated.pdf", "encrypted.pdf", "pixel-bomb.png", "missing.pdf"] {
            let first = QuireBinary.run(["thumbnail", Samples.path(name), output])
            let second = QuireBinary.run(["thumbnail", "--timeout", "15", Samples.path(name), output])
            #expect(first.status != 0 && first.status == second.status, "\(name)")
            #expect(first.standardError == second.standardError && first.errorLines.count == 1, "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "nothing written")
    }

    /// The short path's per-file limit is the default 15 s (what a file manager gets): an endless
    /// PostScript file ends with status 75 and the same one line as the parsed command's
    /// `--timeout`, from the timer signal on the thread doing the work (``Watchdog/limiting``),
    /// and leaves no output behind. The parsed path (a pool thread) is in ThumbnailCommandTests.
    @Test func shortPathGivesUpAfterTheDefaultLimit() throws {
        let scratch = TemporaryDirectory()
        let endless = Samples.path("infinite-loop.ps"), output = scratch.file("out.png")
        let result = QuireBinary.run(["thumbnail", "-s", "128", endless, output], timeout: 60)
        #expect(!result.timedOut && result.elapsed >= 14.5, "ended after \(result.elapsed) s")
        #expect(result.status == 75, "\(result.standardError)")
        #expect(result.errorLines == ["quire: \(endless): gave up after 15 s, the per-file time limit (--timeout)"])
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
