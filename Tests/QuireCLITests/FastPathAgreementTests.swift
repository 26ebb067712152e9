import ArgumentParser
import Quire
@testable import QuireCLI
import Testing
import QuireTestSupport
import QuireRenderService

/// Every line ``FastPathTable`` takes, swift-argument-parser reads as the same request: the same
/// files (as bytes: the parsed `String`s mapped back to `argv` as ``RawArguments`` does), sizes,
/// options and defaults, and nothing more. Lines are the hand-picked ones below plus a few
/// thousand drawn (with a fixed seed) from each command's words: options it takes and does not,
/// values of each kind, `--`, names starting with `-`, empty names, `help`, names that are not
/// UTF-8. The one known difference is kept as it always was and checked as such: `-s128`
/// (thumbnail size attached to `-s`), which the short path has always taken and the parser
/// refuses.
@Suite struct FastPathAgreementTests {
    static func noEnvironment(_ name: String) -> String? { nil }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static let notUTF8: [UInt8] = [0x66, 0xFF, 0x0A, 0x2E, 0x70, 0x64, 0x66]

    /// What the parser makes of a line.
    enum Reading: Equatable, CustomStringConvertible {
        /// A request the short path could run.
        case request(FastPathRequest)
        /// A command, but asking more than any short path's request holds.
        case other(String)
        /// The parser's message (help, a usage error).
        case message(String)

        var description: String {
            switch self {
            case .request(let request): return "\(request)"
            case .other(let text): return "other: \(text)"
            case .message(let text): return "message: \(text)"
            }
        }
    }

    /// Parses `argv` (the whole command line) with swift-argument-parser, as `quire` would.
    static func parserReading(_ argv: [[UInt8]]) -> Reading {
        let words = argv.dropFirst().map { String(decoding: $0, as: UTF8.self) }
        let path = { (name: String) in RawArguments.path(name, in: argv) }
        do {
            let command = try QuireCommand.parseAsRoot(Array(words))
            switch command {
            case let thumbnail as ThumbnailCommand:
                guard !thumbnail.batchOptions.batch, !thumbnail.batchOptions.mergeSummaries, thumbnail.password == nil,
                      try standard(thumbnail.limits),
                      thumbnail.batchOptions.timeout == Double(ThumbnailBatchOptions.defaultTimeout) else {
                    return .other("thumbnail with more options")
                }
                return .request(.thumbnail(input: path(thumbnail.input).bytes, output: path(thumbnail.output).bytes,
                                           size: thumbnail.size))
            case let info as InfoCommand:
                guard !info.json, info.password == nil, info.timeoutOption == nil, try standard(info.limits) else {
                    return .other("info with more options")
                }
                return .request(.info(info.files.map(path)))
            case let canPrint as CanPrintCommand:
                guard try standard(canPrint.limits) else { return .other("can-print with limits") }
                return .request(.canPrint(canPrint.files.map(path)))
            case let look as LookCommand:
                guard !look.service, !look.terminal, !look.openPrintSheet, look.password == nil,
                      look.timeout == LookCommand.defaultTimeout, try standard(look.limits) else {
                    return .other("look with more options")
                }
                return .request(.look(files: look.files.map(path), resume: !look.noResume))
            case let print as PrintCommand:
                var request = try print.request()
                request.files = print.files.map(path)
                request.preview = print.preview.map(path)
                return .request(.print(request))
            default:
                return .other("\(type(of: command))")
            }
        } catch {
            let message = QuireCommand.message(for: error)
            if QuireCommand.exitCode(for: error) == .success, message == QuireVersion.string { return .request(.version) }
            return .message(message)
        }
    }

    static func standard(_ limits: LimitOptions) throws -> Bool {
        try limits.maximumFileSize() == LimitOptions.defaultMaximumFileSize && limits.renderLimits() == .standard
    }

    /// `-s` with the size in the same word.
    static func hasAttachedShortSize(_ argv: [[UInt8]]) -> Bool {
        guard let terminator = argv.firstIndex(of: bytes("--")) ?? Optional(argv.count) else { return false }
        return argv[2..<max(2, terminator)].contains { $0.count > 2 && $0.starts(with: bytes("-s")) }
    }

    /// Checks one line; returns whether the short path took it.
    @discardableResult
    static func check(_ argv: [[UInt8]]) -> Bool {
        guard let fast = FastPathTable.request(for: argv, environment: noEnvironment) else { return false }
        let reading = parserReading(argv)
        let line = argv.map { String(decoding: $0, as: UTF8.self) }
        if argv[1] == bytes("thumbnail"), hasAttachedShortSize(argv) {
            // The known difference: taken here, refused by the parser.
            // (Its message depends on where the word stands: "Unknown option '-s128'", or "Give
            // INPUT and OUTPUT" when it counts the word among the files.)
            guard case .message(let message) = reading, message.hasPrefix("Unknown option '-s") || message.hasPrefix("Give INPUT") else {
                Issue.record("\(line): the parser took -sN (\(reading)); the table's note is stale")
                return true
            }
            return true
        }
        #expect(reading == .request(fast), "\(line): short path \(fast), parser \(reading)")
        return true
    }

    static let handPicked: [[String]] = [
        ["--version"],
        ["thumbnail", "in.pdf", "out.png"],
        ["thumbnail", "-s", "128", "in.pdf", "out.png"],
        ["thumbnail", "in.pdf", "--size", "4096", "out.png"],
        ["thumbnail", "--size=1", "in.pdf", "out.png"],
        ["thumbnail", "-s", "0128", "file:///tmp/in.pdf", "out.png"],
        ["thumbnail", "-s", "64", "--", "-in.pdf", "--size"],
        ["thumbnail", "help", ""],
        ["can-print", "a.pdf"],
        ["can-print", "--", "a.pdf", "-b.pdf"],
        ["can-print", "a.pdf", "--", "--", "help", ""],
        ["info", "a.pdf", "b c.png", "help", ""],
        ["info", "--", "-a.pdf"],
        ["look", "a.pdf"],
        ["look", "a.pdf", "--no-resume", "b.pdf"],
        ["look", "--no-resume", "--", "-a.pdf", "--no-resume"],
        ["print", "a.pdf"],
        ["print", "-d", "office", "-P", "2-3,5", "-n", "2", "--sides", "long", "-t", "T 1", "a.pdf", "b c.pdf"],
        ["print", "a.pdf", "--destination", "office", "--pages", "7", "--copies", "03", "--title", "x"],
        ["print", "--sides", "sideways", "-P", "0", "a.pdf"],          // the command reports these, either way
        ["print", "-n", "9223372036854775807", "a.pdf"],
        ["print", "-t", "é", "--", "-d", "help", ""],
    ]

    @Test func handPickedLinesAreReadAlike() {
        #expect(FastPathTable.limitIsSet(Terminal.environment) == false, "the test's own environment sets a QUIRE_ limit")
        for line in Self.handPicked {
            #expect(Self.check([Self.bytes("quire")] + line.map(Self.bytes)), "not taken: \(line)")
        }
        // Names that are not UTF-8 reach both as the same bytes.
        let raw: [[UInt8]] = [Self.bytes("quire"), Self.bytes("info"), Self.notUTF8, Self.bytes("a.pdf")]
        #expect(Self.check(raw))
        #expect(Self.check([Self.bytes("quire"), Self.bytes("print"), Self.bytes("-d"), Self.bytes("P"), Self.notUTF8]))
        #expect(Self.check([Self.bytes("quire"), Self.bytes("thumbnail"), Self.notUTF8, Self.bytes("o.png")]))
    }

    /// A small deterministic generator (SplitMix64), so a failure names a line that fails again.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let words: [String: [String]] = [
        "--version": ["--", "x", "-h", "--version"],
        "thumbnail": ["-s", "128", "64", "--size", "--size=256", "-s32", "0", "5000", "+12", "large", "in.pdf", "out.png",
                      "--", "-x.png", "", "help", "--timeout", "15", "--password", "p", "-h", "--batch", "file:///tmp/a.pdf"],
        "can-print": ["a.pdf", "b c.pdf", "--", "-b.pdf", "", "help", "--json", "--max-file-size", "1G", "-h", "-",
                      "--version"],
        "info": ["a.pdf", "b c.pdf", "--", "-b.pdf", "", "help", "--json", "--password", "x", "--timeout", "60",
                 "--max-pages", "3", "-h", "-"],
        "look": ["a.pdf", "b.pdf", "--no-resume", "--", "-a.pdf", "", "help", "--terminal", "--print", "--password", "x",
                 "--timeout", "5", "30", "--no-isolation", "--service", "-h"],
        "print": ["-d", "P", "-n", "2", "03", "0", "-1", "--copies", "-P", "2-3", "--pages", "--sides", "long", "-t",
                  "T 1", "--title", "a.pdf", "b.pdf", "--", "-x.pdf", "", "help", "-o", "media=A4", "--dry-run",
                  "--timeout", "60", "-dP", "--destination=P", "-h", "-"],
    ]

    @Test(arguments: ["--version", "thumbnail", "can-print", "info", "look", "print"])
    func drawnLinesAreReadAlike(command: String) throws {
        var generator = Generator(state: UInt64(command.utf8.reduce(7) { $0 &* 31 &+ Int($1) }.magnitude))
        let pool = try #require(Self.words[command]).map(Self.bytes) + [Self.notUTF8]
        var taken = 0, left = 0
        for _ in 0..<1500 {
            let length = Int.random(in: 0...6, using: &generator)
            let line = (0..<length).map { _ in pool.randomElement(using: &generator)! }
            if Self.check([Self.bytes("quire"), Self.bytes(command)] + line) { taken += 1 } else { left += 1 }
        }
        // Both kinds of line were drawn: the check compared something.
        #expect(taken >= (command == "--version" ? 1 : 30) && left >= 100, "taken \(taken), left \(left)")
    }

    /// A limit in the environment sends every form whose command reads limits to the parser,
    /// which reads and checks it; `--version` reads none.
    @Test func aLimitInTheEnvironmentGoesToTheParser() {
        let lines: [[String]] = [["thumbnail", "in.pdf", "out.png"], ["can-print", "a.pdf"], ["info", "a.pdf"],
                                 ["look", "a.pdf"], ["print", "a.pdf"]]
        for line in lines {
            let argv = [Self.bytes("quire")] + line.map(Self.bytes)
            #expect(FastPathTable.request(for: argv, environment: Self.noEnvironment) != nil, "\(line)")
            for limit in Limit.allCases {
                #expect(FastPathTable.request(for: argv, environment: { $0 == limit.environmentVariable ? "1" : nil }) == nil,
                        "\(line) with \(limit.environmentVariable)")
            }
            // Set but empty is not set.
            #expect(FastPathTable.request(for: argv, environment: { $0.hasPrefix("QUIRE_") ? "" : nil }) != nil, "\(line)")
        }
        let version = [Self.bytes("quire"), Self.bytes("--version")]
        #expect(FastPathTable.request(for: version, environment: { _ in "1" }) == .version)
        // The render worker's limits are the options its parent gives it, never the environment
        // it inherits: its line stays its own whatever is set.
        let worker = [Self.bytes("quire"), Self.bytes(WorkerCommand.subcommand)]
        #expect(FastPathTable.request(for: worker, environment: { _ in "1" }) == .lookRenderWorker(worker))
    }

    /// The render worker's line goes whole to its own parser (RenderWorkerEntry).
    /// Anything but the options Quire starts its worker with is refused in one line, exit 64,
    /// before a worker starts (no handshake is written).
    @Test func aRenderWorkerLineQuireDoesNotWriteIsAUsageError() {
        for extra in [["--max-pixels"], ["--shell", "1"], ["--max-pixels", "x"], ["--cpu-limit", "1", "--cpu-limit", "2"]] {
            let result = QuireBinary.run([WorkerCommand.subcommand] + extra)
            #expect(result.status == 64, "\(extra): \(result.status)")
            #expect(result.errorLines.count == 1 && result.standardError.contains("Quire's own worker"), "\(extra): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "no handshake for a line it refuses")
        }
    }

    @Test func theRenderWorkerGetsItsWholeLine() {
        let argv = [Self.bytes("/usr/bin/quire"), Self.bytes(WorkerCommand.subcommand), Self.bytes("--max-pixels"),
                    Self.bytes("100"), [], Self.notUTF8]
        #expect(FastPathTable.request(for: argv, environment: Self.noEnvironment) == .lookRenderWorker(argv))
    }

    /// Each command word listed has a row that takes a line.
    @Test func eachCommandWordHasARow() {
        #expect(Set(FastPathTable.commands) == ["--version", "thumbnail", "can-print", "info", WorkerCommand.subcommand, "look", "print"])
        for command in FastPathTable.commands {
            let operands = command == "--version" ? [] : command == "thumbnail" ? ["in.pdf", "out.png"] : ["a.pdf"]
            let argv = [Self.bytes("quire"), Self.bytes(command)] + operands.map(Self.bytes)
            #expect(FastPathTable.request(for: argv, environment: Self.noEnvironment) != nil, "\(command)")
        }
        #expect(FastPathTable.request(for: [Self.bytes("quire"), Self.bytes("actions"), Self.bytes("a.pdf")], environment: Self.noEnvironment) == nil)
        #expect(FastPathTable.request(for: [Self.bytes("quire")], environment: Self.noEnvironment) == nil)
    }
}
