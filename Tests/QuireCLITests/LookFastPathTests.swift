import Foundation
import QuireArguments
@testable import QuireCLI
import QuireTestSupport
import QuireTypes
import Testing
import QuireRenderService

/// `quire look`'s short path to the window (``FastPathTable``'s look line): it takes exactly
/// `quire look [--no-resume] [--] FILE...` and leaves everything else to the argument parser.
@Suite struct LookFastPathTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func noEnvironment(_ name: String) -> String? { nil }

    static func request(_ argv: [[UInt8]], environment: (String) -> String? = noEnvironment) -> FastPathRequest? {
        FastPathTable.request(for: argv, environment: environment)
    }

    @Test func takesThePlainForms() {
        #expect(Self.request(Self.argv("quire", "look", "a.pdf")) == .look(files: [DocumentPath("a.pdf")], resume: true))
        #expect(Self.request(Self.argv("quire", "look", "--no-resume", "a.pdf", "b.png"))
                == .look(files: [DocumentPath("a.pdf"), DocumentPath("b.png")], resume: false))
        #expect(Self.request(Self.argv("quire", "look", "a.pdf", "--no-resume")) == .look(files: [DocumentPath("a.pdf")], resume: false))
        // Argument bytes are kept exactly, invalid UTF-8 included.
        let raw: [[UInt8]] = [Array("quire".utf8), Array("look".utf8), [0x66, 0xFF, 0x0A]]
        #expect(Self.request(raw) == .look(files: [DocumentPath(bytes: [0x66, 0xFF, 0x0A])], resume: true))
        // After "--" any name, as the parser reads it; an empty name is a (missing) file to both.
        #expect(Self.request(Self.argv("quire", "look", "--", "-a.pdf")) == .look(files: [DocumentPath("-a.pdf")], resume: true))
        #expect(Self.request(Self.argv("quire", "look", "a.pdf", "")) == .look(files: [DocumentPath("a.pdf"), DocumentPath("")], resume: true))
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
            Self.argv("quire", "look", "-a.pdf"),
        ]
        for form in others {
            #expect(Self.request(form) == nil, "\(form.map { String(decoding: $0, as: UTF8.self) })")
        }
        #expect(Self.request(Self.argv("quire", "info", "a.pdf")) != .look(files: [DocumentPath("a.pdf")], resume: true))
        // A limit set in the environment goes through the parser (which reads and checks it).
        #expect(Self.request(Self.argv("quire", "look", "a.pdf"),
                             environment: { $0 == Limit.allCases[0].environmentVariable ? "10" : nil }) == nil)
    }

    /// The line quire writes for the window (the short path's and the parsed command's) is the
    /// one quire-look reads back (``LookWindowArguments``): odd names, the worker's own options.
    @Test func theWindowReadsTheLineQuireWrites() throws {
        let paths = [DocumentPath("-a.pdf"), DocumentPath("--"), DocumentPath(bytes: [0x66, 0xFF]), DocumentPath("")]
        let worker = ["/usr/bin/quire", WorkerCommand.subcommand, "--max-pixels", "100000000"]
        let words = LookWindowLauncher.arguments(paths: paths, password: "-p", resume: false, renderWorker: worker,
                                                 timeout: 45, printSheet: true)
        #expect(words.contains(Array("--".utf8)) && words.contains(Array("45".utf8)))
        let read = try LookWindowArguments.parse([Array("quire-look".utf8)] + words)
        #expect(read == .window(LookWindowArguments(files: paths.map(\.bytes), password: "-p", resume: false, printSheet: true,
                                                    renderWorker: worker, timeout: 45)))
        let plain = try LookWindowArguments.parse([Array("quire-look".utf8)] + LookWindowLauncher.arguments(
            paths: [DocumentPath("a.pdf")], password: nil, resume: true, renderWorker: nil, timeout: LookCommand.defaultTimeout))
        #expect(plain == .window(LookWindowArguments(files: [Array("a.pdf".utf8)], timeout: 30)))
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
