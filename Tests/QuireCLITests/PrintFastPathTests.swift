import Foundation
import Quire
@testable import QuireCLI
import QuireTestSupport
import Testing

/// `quire print` in its common forms without the argument parser (``FastPathTable``'s print line): taken
/// exactly, everything else left to the parser, and the same output, errors, exit status and job
/// attributes either way — against the real test-bed cupsd and IPP printer.
@Suite struct PrintFastPathTests {
    static func argv(_ words: String...) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func argv(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func noEnvironment(_ name: String) -> String? { nil }

    /// The print request the table reads from `argv`, or nil.
    static func parse(_ argv: [[UInt8]], environment: (String) -> String? = noEnvironment) -> PrintRequest? {
        switch FastPathTable.request(for: argv, environment: environment) {
        case .print(let request): return request
        default: return nil
        }
    }

    @Test func takesTheCommonForms() throws {
        let request = try #require(Self.parse(
            Self.argv("quire", "print", "-d", "office", "-P", "2-3,5", "-n", "2", "--sides", "long", "-t", "T 1", "a.pdf", "b c.pdf"),
            environment: Self.noEnvironment))
        #expect(request.destination == "office")
        #expect(request.pages == "2-3,5")
        #expect(request.copies == 2)
        #expect(request.sides == "long")
        #expect(request.title == "T 1")
        #expect(request.files == [DocumentPath("a.pdf"), DocumentPath("b c.pdf")])
        #expect(request.seconds == 60 && request.maximumFileSize == LimitOptions.defaultMaximumFileSize)
        #expect(!request.wait && !request.dryRun && request.preview == nil && request.extraOptions.isEmpty)
        let long = try #require(Self.parse(
            Self.argv("quire", "print", "a.pdf", "--destination", "office", "--pages", "7", "--copies", "03", "--title", "x"),
            environment: Self.noEnvironment))
        #expect(long.destination == "office" && long.pages == "7" && long.copies == 3 && long.title == "x")
        #expect(long.files == [DocumentPath("a.pdf")])
        let plain = try #require(Self.parse(Self.argv("quire", "print", "a.pdf"), environment: Self.noEnvironment))
        #expect(plain.destination == nil && plain.pages == nil && plain.copies == nil && plain.sides == nil)
        // File names are argv bytes, as the parser path maps them back (RawArguments).
        let raw: [[UInt8]] = [Array("quire".utf8), Array("print".utf8), [0x66, 0xFF]]
        #expect(Self.parse(raw, environment: Self.noEnvironment)?.files == [DocumentPath(bytes: [0x66, 0xFF])])
        // Words the parser reads as file names too: "--" anywhere, "help", an empty name.
        #expect(Self.parse(Self.argv("quire", "print", "-d", "P", "--", "-n", "help"))?.files == [DocumentPath("-n"), DocumentPath("help")])
        #expect(Self.parse(Self.argv("quire", "print", "a.pdf", "--", "b.pdf"))?.files == [DocumentPath("a.pdf"), DocumentPath("b.pdf")])
        #expect(Self.parse(Self.argv("quire", "print", "a.pdf", ""))?.files == [DocumentPath("a.pdf"), DocumentPath("")])
    }

    @Test func leavesEverythingElseToTheParser() {
        let others = [
            Self.argv("quire", "print"),
            Self.argv("quire", "print", "-d", "office"),
            Self.argv("quire", "print", "-d", "P", "--"),
            Self.argv("quire", "print", "-dP", "a.pdf"),
            Self.argv("quire", "print", "-d=P", "a.pdf"),
            Self.argv("quire", "print", "--destination=P", "a.pdf"),
            Self.argv("quire", "print", "-d", "P", "-d", "Q", "a.pdf"),
            Self.argv("quire", "print", "-d", "P", "--destination", "Q", "a.pdf"),
            Self.argv("quire", "print", "-d", "-P", "a.pdf"),
            Self.argv("quire", "print", "-d", "", "a.pdf"),
            Self.argv("quire", "print", "a.pdf", "-d"),
            Self.argv("quire", "print", "-n", "0", "a.pdf"),
            Self.argv("quire", "print", "-n", "-1", "a.pdf"),
            Self.argv("quire", "print", "-n", "+2", "a.pdf"),
            Self.argv("quire", "print", "-n", "two", "a.pdf"),
            Self.argv("quire", "print", "-n", "99999999999999999999", "a.pdf"),
            Self.argv("quire", "print", "--color", "a.pdf"),
            Self.argv("quire", "print", "-o", "media=A4", "a.pdf"),
            Self.argv("quire", "print", "--dry-run", "a.pdf"),
            Self.argv("quire", "print", "--wait", "a.pdf"),
            Self.argv("quire", "print", "--timeout", "60", "a.pdf"),
            Self.argv("quire", "print", "--max-file-size", "1G", "a.pdf"),
            Self.argv("quire", "print", "-h"),
            Self.argv("quire", "print", "-"),
            Self.argv("quire", "info", "a.pdf"),
            Self.argv("quire", "jobs", "-d", "P"),
        ]
        for argv in others {
            #expect(Self.parse(argv, environment: Self.noEnvironment) == nil,
                    "\(argv.map { String(decoding: $0, as: UTF8.self) })")
        }
        let invalidUTF8: [[UInt8]] = [Array("quire".utf8), Array("print".utf8), Array("-t".utf8), [0xFF], Array("a.pdf".utf8)]
        #expect(Self.parse(invalidUTF8, environment: Self.noEnvironment) == nil)
        for variable in ["QUIRE_MAX_FILE_SIZE", "QUIRE_TIMEOUT", "QUIRE_MAX_PAGES"] {
            #expect(Self.parse(Self.argv("quire", "print", "a.pdf"), environment: { $0 == variable ? "5" : nil }) == nil)
        }
    }

}

/// The print line of ``FastPathTable`` and the parser give the same output, errors, exit status and job attributes.
@Suite("quire print's common forms, fast path and parser alike (real cupsd)")
final class PrintFastPathAgreementTests {
    static func argv(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }
    static func noEnvironment(_ name: String) -> String? { nil }

    let bed: CUPSTestBed
    let sixPages: String

    init() throws {
        bed = try CUPSTestBed(.full)
        sixPages = bed.directory.file("six.pdf")
        try TestPDF.write(pages: 6, to: sixPages)
    }

    static func parse(_ argv: [[UInt8]], environment: (String) -> String?) -> PrintRequest? {
        PrintFastPathTests.parse(argv, environment: environment)
    }

    /// Runs `arguments` as given (the fast path must take them) and through the parser (with
    /// `--timeout 60`, the default, which the fast path leaves to it).
    func both(_ arguments: [String]) -> (fast: ProcessRunner.Result, parsed: ProcessRunner.Result) {
        #expect(Self.parse(Self.argv(["quire"] + arguments), environment: Self.noEnvironment) != nil)
        #expect(Self.parse(Self.argv(["quire"] + arguments + ["--timeout", "60"]), environment: Self.noEnvironment) == nil)
        let env = bed.environment()
        return (QuireBinary.run(arguments, environment: env), QuireBinary.run(arguments + ["--timeout", "60"], environment: env))
    }

    /// "request id is quire-office-12 (1 file(s))" without the job number.
    static func withoutJobNumbers(_ text: String) -> String {
        text.replacing(/-[0-9]+ \(/, with: "-N (")
    }

    func jobCount() -> Int {
        QuireBinary.run(["jobs", "--all"], environment: bed.environment()).standardOutputText.split(separator: "\n").count
    }

    @Test func jobsArriveAlikeWithTheSameAttributes() throws {
        var received: [CUPSTestBed.Received] = []
        for (index, arguments) in [["print", "-d", "quire-office", "-P", "2-4", "-n", "3", "--sides", "long", "-t"],
                                   ["print", "--pages", "5-", "--copies", "2", "--sides", "one-sided", "--title"]].enumerated() {
            let fast = QuireBinary.run(arguments + ["fast-\(index)", sixPages], environment: bed.environment())
            let parsed = QuireBinary.run(arguments + ["parsed-\(index)", sixPages, "--timeout", "60"], environment: bed.environment())
            #expect(Self.parse(Self.argv(["quire"] + arguments + ["fast-\(index)", sixPages]), environment: Self.noEnvironment) != nil)
            #expect(fast.status == 0 && parsed.status == 0)
            #expect(fast.standardError.isEmpty && parsed.standardError.isEmpty)
            #expect(fast.standardOutputText.hasPrefix("request id is quire-office-"))
            #expect(Self.withoutJobNumbers(fast.standardOutputText) == Self.withoutJobNumbers(parsed.standardOutputText))
            received.append(try #require(bed.waitForDocument(titled: "fast-\(index)")))
            received.append(try #require(bed.waitForDocument(titled: "parsed-\(index)")))
        }
        let keys = ["IPP_COPIES", "IPP_SIDES", "IPP_PAGE_RANGES", "IPP_MEDIA", "IPP_PRINT_COLOR_MODE", "IPP_DOCUMENT_FORMAT"]
        for pair in [(received[0], received[1]), (received[2], received[3])] {
            for key in keys { #expect(pair.0.attributes[key] == pair.1.attributes[key], "\(key)") }
            #expect(CUPSTestBed.pageCount(ofPDF: pair.0.path) == CUPSTestBed.pageCount(ofPDF: pair.1.path))
        }
        #expect(received[0].attributes["IPP_COPIES"] == "3" && received[0].attributes["IPP_SIDES"] == "two-sided-long-edge")
        #expect(CUPSTestBed.pageCount(ofPDF: received[0].path) == 3)
        #expect(received[2].attributes["IPP_COPIES"] == "2" && CUPSTestBed.pageCount(ofPDF: received[2].path) == 2)
    }

    @Test func errorsAndWarningsAreTheSameAndBadRangesSendNothing() throws {
        let cases: [(arguments: [String], status: Int32, message: String)] = [
            (["print", "-d", "quire-office", "-P", "7", sixPages], 64, "beyond the last page (the document has 6 pages)"),
            (["print", "-P", "0", sixPages], 64, "pages are numbered from 1"),
            (["print", "-d", "nope", sixPages], 64, "nope: no such printer (available: quire-office, quire-rejecting, quire-stopped)"),
            // The document's error wins over the printer's, as when they ran one after the other.
            (["print", "-d", "nope", "-P", "9", sixPages], 64, "beyond the last page"),
            (["print", "-d", "nope", bed.directory.file("missing.pdf")], 66, "no such file"),
            (["print", "-d", "quire-rejecting", sixPages], 69, "quire-rejecting: the printer is not accepting jobs (closed for maintenance)"),
            (["print", "--sides", "sideways", sixPages], 64, "--sides sideways: expected one-sided"),
            (["print", "-n", "1000000", sixPages], 64, "quire-office: cannot print 1000000 copies"),
            (["print", Samples.path("archives/project.zip")], 65, "project.zip"),
        ]
        for (arguments, status, message) in cases {
            let (fast, parsed) = both(arguments)
            #expect(fast.status == status, "\(arguments)")
            #expect(fast.status == parsed.status, "\(arguments)")
            #expect(fast.standardOutput.isEmpty && parsed.standardOutput.isEmpty, "\(arguments)")
            #expect(fast.errorLines.count == 1 && fast.standardError == parsed.standardError, "\(arguments)")
            #expect(fast.standardError.contains(message), "\(fast.standardError)")
        }
        #expect(jobCount() == 0)
        let (fast, parsed) = both(["print", "-d", "quire-stopped", "-t", "stopped", sixPages])
        #expect(fast.status == 0 && parsed.status == 0)
        #expect(fast.standardError.hasPrefix("quire: warning: quire-stopped is stopped (paper jam in tray 2)"))
        #expect(fast.standardError == parsed.standardError)
        #expect(Self.withoutJobNumbers(fast.standardOutputText) == Self.withoutJobNumbers(parsed.standardOutputText))
        #expect(jobCount() == 2)
    }

    /// A print server that takes the connection and never answers (libcups would wait 60 s): a bad
    /// page range is still reported at once, with no job — the lookup running beside the range
    /// check is not waited for. (QuireBinary.run gives up after 30 s.)
    @Test func aDocumentErrorDoesNotWaitForASilentServer() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(bound == 0 && listen(listener, 16) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        var env = bed.environment()
        env["CUPS_SERVER"] = "127.0.0.1:\(port)"
        let result = QuireBinary.run(["print", "-d", "quire-office", "-P", "9", sixPages], environment: env)
        #expect(result.status == 64)
        #expect(result.standardError.contains("beyond the last page (the document has 6 pages)"))
    }

    @Test func withoutAScheduler() throws {
        let dead = try CUPSTestBed(.dead)
        let env = dead.environment()
        let fast = QuireBinary.run(["print", "-P", "2", sixPages], environment: env)
        let parsed = QuireBinary.run(["print", "-P", "2", sixPages, "--timeout", "60"], environment: env)
        #expect(fast.status == 69 && parsed.status == 69)
        #expect(fast.standardError.contains("the print system is not running") && fast.standardError == parsed.standardError)
        // A bad range is still the document's error, reported first.
        let range = QuireBinary.run(["print", "-P", "8", sixPages], environment: env)
        #expect(range.status == 64 && range.standardError.contains("beyond the last page"))
    }
}
