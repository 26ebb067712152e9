import Foundation
@testable import QuireCLI
import QuireTestSupport
import QuireTypes
import Testing

/// `quire look`'s short path to the window (``LookFastPath``): it takes exactly
/// `quire look [--no-resume] FILE...` and leaves everything else to the argument parser.
@Suite struct LookFastPathTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func noEnvironment(_ name: String) -> String? { nil }

    @Test func takesThePlainForms() {
        #expect(LookFastPath.parse(Self.argv("quire", "look", "a.pdf"), environment: Self.noEnvironment)
                == .init(resume: true, files: [DocumentPath("a.pdf")]))
        #expect(LookFastPath.parse(Self.argv("quire", "look", "--no-resume", "a.pdf", "b.png"), environment: Self.noEnvironment)
                == .init(resume: false, files: [DocumentPath("a.pdf"), DocumentPath("b.png")]))
        #expect(LookFastPath.parse(Self.argv("quire", "look", "a.pdf", "--no-resume"), environment: Self.noEnvironment)?.resume == false)
        // Argument bytes are kept exactly, invalid UTF-8 included.
        let raw: [[UInt8]] = [Array("quire".utf8), Array("look".utf8), [0x66, 0xFF, 0x0A]]
        #expect(LookFastPath.parse(raw, environment: Self.noEnvironment)?.files == [DocumentPath(bytes: [0x66, 0xFF, 0x0A])])
    }

    @Test func leavesEverythingElseToTheParser() {
        let others = [
            Self.argv("quire", "look"),                                     // no file
            Self.argv("quire", "look", "--no-resume"),
            Self.argv("quire", "look", "--no-resume", "--no-resume", "a.pdf"),
            Self.argv("quire", "look", "--terminal", "a.pdf"),
            Self.argv("quire", "look", "--print", "a.pdf"),
            Self.argv("quire", "look", "--password", "x", "a.pdf"),
            Self.argv("quire", "look", "--timeout", "5", "a.pdf"),
            Self.argv("quire", "look", "--no-isolation", "a.pdf"),
            Self.argv("quire", "look", "--service"),
            Self.argv("quire", "look", "--help"),
            Self.argv("quire", "look", "--", "-a.pdf"),
            Self.argv("quire", "look", "a.pdf", ""),
            Self.argv("quire", "info", "a.pdf"),
        ]
        for form in others {
            #expect(LookFastPath.parse(form, environment: Self.noEnvironment) == nil, "\(form.map { String(decoding: $0, as: UTF8.self) })")
        }
        // A limit set in the environment goes through the parser (which reads and checks it).
        #expect(LookFastPath.parse(Self.argv("quire", "look", "a.pdf"),
                                   environment: { $0 == Limit.allCases[0].environmentVariable ? "10" : nil }) == nil)
    }

    /// A missing file on the short path (a display named, so the short path is taken; the window
    /// is never started) gives the parser's one-line error and exit status 66, as the parsed
    /// form (`--timeout` sends it through the parser) does.
    @Test func aMissingFileGetsTheSameOneLineErrorOnBothPaths() throws {
        let missing = Samples.path("missing.pdf")
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = ":4242"
        environment["WAYLAND_DISPLAY"] = nil
        let short = QuireBinary.run(["look", missing], environment: environment)
        let parsed = QuireBinary.run(["look", "--timeout", "5", missing], environment: environment)
        #expect(short.status == 66)
        #expect(parsed.status == 66)
        #expect(short.standardError == "quire: \(missing): No such file or directory\n")
        #expect(short.standardError == parsed.standardError)
    }
}
