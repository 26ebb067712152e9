import Foundation

/// A private CUPS scheduler for one test, started and stopped with `Tests/Support/cups-testbed.sh`
/// (cupsd on a free loopback port, an IPP Everywhere printer that keeps what it receives, and
/// the queues quire-office (default), quire-rejecting, quire-stopped).
///
/// Stopped (exactly the processes it started) when the value is released.
public final class CUPSTestBed: @unchecked Sendable {
    public enum Kind: String, Sendable {
        /// cupsd + printer + three queues.
        case full = "start"
        /// The full bed plus quire-colour, a second IPP printer that prints in colour (the
        /// full bed's printer is monochrome only).
        case colour = "start-colour"
        /// cupsd with no printers.
        case empty = "start-empty"
        /// No scheduler: the server address points at a port where nothing listens.
        case dead = "dead"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let kind: Kind
    public let directory: TemporaryDirectory
    /// "127.0.0.1:PORT".
    public let server: String
    /// Where the printer keeps each received document (`*.pdf`/`*.prn`) and its attributes (`*.env`).
    public let received: String

    public static var script: String {
        Samples.repositoryRoot.appendingPathComponent("Tests/Support/cups-testbed.sh").path
    }

    public init(_ kind: Kind = .full) throws {
        self.kind = kind
        directory = TemporaryDirectory("quire-cups")
        let result = ProcessRunner.run(["/bin/bash", Self.script, kind.rawValue, directory.path], timeout: 60)
        guard result.status == 0 else {
            _ = ProcessRunner.run(["/bin/bash", Self.script, "stop", directory.path], timeout: 30)
            throw Failure(description: "test bed did not start (status \(result.status)): \(result.standardError)")
        }
        var values: [String: String] = [:]
        for line in result.standardOutputText.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let server = values["CUPS_SERVER"], let received = values["TESTBED_RECEIVED"] else {
            throw Failure(description: "test bed wrote no CUPS_SERVER: \(result.standardOutputText)")
        }
        self.server = server
        self.received = received
    }

    deinit {
        _ = ProcessRunner.run(["/bin/bash", Self.script, "stop", directory.path], timeout: 30)
    }

    /// Makes every queue reject jobs with `reason`.
    public func rejectAll(reason: String) throws {
        let result = ProcessRunner.run(["/bin/bash", Self.script, "reject-all", directory.path, reason], timeout: 30)
        guard result.status == 0 else { throw Failure(description: "reject-all failed: \(result.standardError)") }
    }

    /// Kills the bed's cupsd (as a crash or `systemctl stop cups` would); the printer stays.
    public func stopScheduler() throws {
        try script("stop-scheduler")
    }

    /// Stops the bed's cupsd with SIGSTOP: connections are still accepted (by the kernel), but
    /// nothing answers — a hung scheduler. ``resumeScheduler()`` (or the bed's end) resumes it.
    public func pauseScheduler() throws {
        try script("pause-scheduler")
    }

    /// Resumes a cupsd stopped by ``pauseScheduler()``.
    public func resumeScheduler() throws {
        try script("resume-scheduler")
    }

    /// Starts cupsd again on the same port with the same queues and spool (jobs survive).
    public func startScheduler() throws {
        try script("start-scheduler")
    }

    /// Runs a CUPS admin tool against this bed, e.g. `admin("lpadmin", "-x", "quire-office")`,
    /// `admin("cupsdisable", "-r", "out of toner", "quire-office")`, `admin("cancel", "7")`.
    public func admin(_ tool: String, _ arguments: String...) throws {
        try script(["admin", tool] + arguments)
    }

    private func script(_ mode: String) throws { try script([mode]) }

    private func script(_ arguments: [String]) throws {
        let result = ProcessRunner.run(["/bin/bash", Self.script, arguments[0], directory.path] + arguments.dropFirst(),
                                       timeout: 60)
        guard result.status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed (status \(result.status)): \(result.standardError)")
        }
    }

    /// The environment for a `quire` child process talking to this scheduler: no LPDEST/PRINTER,
    /// HOME inside the bed (so the user's lpoptions do not count), plus `extra`.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LPDEST"] = nil
        env["PRINTER"] = nil
        env["NO_COLOR"] = "1"
        env["CUPS_SERVER"] = server
        env["HOME"] = directory.file("home")
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// A document the printer received, with its job attributes.
    public struct Received: Sendable {
        /// The document as received.
        public let path: String
        /// `IPP_*` job attributes (e.g. `IPP_COPIES`, `IPP_SIDES`, `IPP_JOB_NAME`).
        public let attributes: [String: String]
    }

    /// Everything received so far.
    public func receivedDocuments() -> [Received] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: received)) ?? []
        return names.filter { $0.hasSuffix(".env") }.sorted().compactMap { name in
            guard let text = try? String(contentsOfFile: received + "/" + name, encoding: .utf8) else { return nil }
            var attributes: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                attributes[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            guard let document = attributes["DOCUMENT"] else { return nil }
            return Received(path: document, attributes: attributes)
        }
    }

    /// Waits (up to `timeout` seconds) for the document of the job titled `title`.
    public func waitForDocument(titled title: String, timeout: Double = 30) -> Received? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let found = receivedDocuments().first(where: { $0.attributes["IPP_JOB_NAME"] == title }) {
                return found
            }
            usleep(100_000)
        }
        return nil
    }

    /// Page count of a received PDF, read with `pdfinfo` (poppler-utils).
    public static func pageCount(ofPDF path: String) -> Int? {
        let result = ProcessRunner.run(["/usr/bin/pdfinfo", path], timeout: 30)
        guard result.status == 0 else { return nil }
        for line in result.standardOutputText.split(separator: "\n") where line.hasPrefix("Pages:") {
            return Int(line.dropFirst("Pages:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
