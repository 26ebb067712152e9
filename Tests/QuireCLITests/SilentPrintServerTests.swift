#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuirePrint
import Testing
import QuireTestSupport

/// A print server that accepts connections but never answers (issue 41, item 6): every CUPS
/// call is bounded. `can-print` and `actions` give up after the interactive limit, saying "the
/// print system does not answer" (not "no printers"); `printers` says the same with exit status
/// 69; `print --timeout N` gives up after N s. Each command is checked to have ended by the limit
/// it should use (``expectBounded(_:by:_:)``), not by a wall-clock figure: the figure itself (an
/// answer within 2 s on a quiet machine) is measured by bench/silent-server-bench.sh.
@Suite("a print server that accepts and never answers", .serialized)
struct SilentPrintServerTests {
    /// A loopback port that listens and never accepts: the kernel completes each connection
    /// (its backlog), the request is sent, and no byte ever comes back.
    final class SilentListener {
        let fd: Int32
        let port: Int

        init() throws {
            let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard socketFD >= 0, bound == 0, listen(socketFD, 128) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
            }
            fd = socketFD
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(fd) }

        func environment() -> [String: String] {
            var env = ProcessInfo.processInfo.environment
            env["CUPS_SERVER"] = "127.0.0.1:\(port)"
            env["LPDEST"] = nil
            env["PRINTER"] = nil
            env["NO_COLOR"] = "1"
            return env
        }
    }

    static let notAnswering = "the print system does not answer"

    /// What starting and ending a `quire` process may add to its own limit on a loaded machine
    /// (a debug build, the rest of the suite running beside it).
    static let processSlack = 4.0

    /// `result` ended by the time limit `limit`: it waited at least that long (the silent server,
    /// not something else, ended it) and not much longer — less than the limit plus
    /// ``processSlack``, which stays below the next longer limit (``PrintSystem/defaultTimeout``,
    /// used when none is given), so the limit that applied is the one named.
    static func expectBounded(_ result: ProcessRunner.Result, by limit: Double, _ what: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(limit + processSlack < PrintSystem.defaultTimeout, "\(limit) s cannot be told from the default limit", sourceLocation: sourceLocation)
        #expect(!result.timedOut, "\(what) did not end", sourceLocation: sourceLocation)
        #expect(result.elapsed >= limit * 0.95 && result.elapsed < limit + processSlack,
                "\(what) took \(result.elapsed) s, not its \(limit)-s limit", sourceLocation: sourceLocation)
    }

    @Test func canPrintAndActionsAnswerWithinTwoSeconds() throws {
        let listener = try SilentListener()
        let dir = TemporaryDirectory()
        let pdf = dir.file("report.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let env = listener.environment()
        // The fast path (plain `can-print FILE`) and the parsed command (with a limit option).
        for arguments in [["can-print", pdf], ["can-print", "--max-file-size", "100M", pdf, pdf]] {
            let result = QuireBinary.run(arguments, timeout: 30, environment: env)
            #expect(result.status == 1, "\(arguments)")
            Self.expectBounded(result, by: PrintSystem.interactiveTimeout, "\(arguments)")
        }
        let actions = QuireBinary.run(["actions", pdf], timeout: 30, environment: env)
        #expect(actions.status == 0, "\(actions.standardError)")
        #expect(actions.standardOutputText.contains("Print      no: \(Self.notAnswering)\n"), "\(actions.standardOutputText)")
        #expect(!actions.standardOutputText.contains("no printers"))
        Self.expectBounded(actions, by: PrintSystem.interactiveTimeout, "actions")
    }

    @Test func printersSaysTheServerDoesNotAnswerWithStatus69() throws {
        let listener = try SilentListener()
        let env = listener.environment()
        let result = QuireBinary.run(["printers", "--timeout", "1"], timeout: 60, environment: env)
        #expect(result.status == 69)
        #expect(result.errorLines.count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("quire: \(Self.notAnswering)"), "\(result.standardError)")
        #expect(!result.standardOutputText.contains("No printers"))
        Self.expectBounded(result, by: 1, "printers --timeout 1")
        let json = QuireBinary.run(["printers", "--json", "--timeout", "1"], timeout: 60, environment: env)
        #expect(json.status == 69)
        #expect(json.standardOutputText.isEmpty)
    }

    @Test func printReturnsWithinItsTimeout() throws {
        let listener = try SilentListener()
        let dir = TemporaryDirectory()
        let pdf = dir.file("report.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let env = listener.environment()
        for arguments in [["print", "--timeout", "3", pdf], ["print", "--timeout", "3", "-d", "office", pdf],
                          ["print", "--timeout", "3", "--dry-run", pdf], ["print", "--timeout", "3", "--number-up", "2", pdf]] {
            let result = QuireBinary.run(arguments, timeout: 60, environment: env)
            #expect(result.status == 69, "\(arguments): \(result.standardError)")
            #expect(result.errorLines.count == 1, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(Self.notAnswering), "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("no printers"), "\(arguments)")
            Self.expectBounded(result, by: 3, "\(arguments)")
        }
    }

    @Test func aStoppedSchedulerIsBoundedToo() throws {
        let bed = try CUPSTestBed(.full)
        let pdf = bed.directory.file("report.pdf")
        try TestPDF.write(pages: 1, to: pdf)
        let env = bed.environment()
        // Answers while running.
        #expect(QuireBinary.run(["can-print", pdf], environment: env).status == 0)
        try bed.pauseScheduler()
        defer { try? bed.resumeScheduler() }
        let canPrint = QuireBinary.run(["can-print", pdf], timeout: 30, environment: env)
        #expect(canPrint.status == 1)
        Self.expectBounded(canPrint, by: PrintSystem.interactiveTimeout, "can-print")
        let actions = QuireBinary.run(["actions", pdf], timeout: 30, environment: env)
        #expect(actions.standardOutputText.contains("Print      no: \(Self.notAnswering)\n"), "\(actions.standardOutputText)")
        Self.expectBounded(actions, by: PrintSystem.interactiveTimeout, "actions")
        let printed = QuireBinary.run(["print", "--timeout", "5", pdf], timeout: 60, environment: env)
        #expect(printed.status == 69, "\(printed.standardError)")
        #expect(printed.standardError.contains(Self.notAnswering), "\(printed.standardError)")
        Self.expectBounded(printed, by: 5, "print --timeout 5")
        let printers = QuireBinary.run(["printers", "--timeout", "2"], timeout: 60, environment: env)
        #expect(printers.status == 69)
        #expect(printers.standardError.contains(Self.notAnswering), "\(printers.standardError)")
        Self.expectBounded(printers, by: 2, "printers --timeout 2")
        // Resumed, it answers again.
        try bed.resumeScheduler()
        #expect(QuireBinary.run(["can-print", pdf], environment: env).status == 0)
    }
}
