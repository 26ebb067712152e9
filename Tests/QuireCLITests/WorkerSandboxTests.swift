#if canImport(Glibc)
import Glibc
#endif
import Foundation
import QuireTestSupport
import Testing

/// The batch workers' confinement, probed from inside a worker (`QUIRE_TEST_WORKER_PROBE_*`
/// make it try to create files and open a TCP connection, and report what happened). In the
/// serialized batch suite: the worker-count checks there must not see these workers.
extension ThumbnailBatchTests {
    /// A TCP listener on 127.0.0.1 (connections complete in the kernel's backlog; none is accepted).
    final class LoopbackListener {
        let descriptor: Int32
        let port: UInt16

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && listen(fd, 16) == 0
                        && getsockname(fd, pointer, &length) == 0
                }
            }
            descriptor = fd
            try #require(fd >= 0 && bound, "cannot listen on 127.0.0.1")
            port = UInt16(bigEndian: address.sin_port)
        }

        deinit { close(descriptor) }
    }

    /// The `probe` reason the worker reported for `name`.
    static func probeReason(_ run: (result: ProcessRunner.Result, files: [[String: Any]], summary: [String: Any]),
                            _ name: String) -> String {
        let record = run.files.first { ($0["path"] as? String)?.hasSuffix("/" + name) == true }
        #expect(record?["kind"] as? String == "probe", "\(run.result.standardOutputText) \(run.result.standardError)")
        return record?["reason"] as? String ?? ""
    }

    static func sandbox(_ run: (result: ProcessRunner.Result, files: [[String: Any]], summary: [String: Any])) -> [String: Any] {
        run.summary["sandbox"] as? [String: Any] ?? [:]
    }

    @Test func aSandboxedWorkerCannotWriteOutsideItsOutputNorReachTheNetwork() throws {
        let fixture = try Fixture(["doc.pdf": "document.pdf"])
        try FileManager.default.createDirectory(atPath: fixture.cacheHome, withIntermediateDirectories: true)
        let listener = try LoopbackListener()
        let targets = [fixture.directory.file("escape-in-tmp"), fixture.cacheHome + "/escape-in-cache",
                       fixture.tree + "/escape-beside-input",
                       NSHomeDirectory() + "/.quire-sandbox-escape-\(UUID().uuidString)"]
        defer { for target in targets { unlink(target) } }
        let probe = ["QUIRE_TEST_WORKER_PROBE_WRITE": targets.joined(separator: ":"),
                     "QUIRE_TEST_WORKER_PROBE_CONNECT": String(listener.port)]

        // Control: without the sandbox the same worker can do both (so the probe itself works).
        let open = fixture.run(["--no-sandbox", "-r", fixture.tree], extra: probe)
        let openReason = Self.probeReason(open, "doc.pdf")
        #expect(openReason.contains("write \(targets[0]): created"), "\(openReason)")
        #expect(openReason.contains("connect \(listener.port): connected"), "\(openReason)")
        for target in targets { unlink(target) }

        // Sandboxed (bwrap is a test dependency, so it must be in use here).
        try FileManager.default.removeItem(atPath: fixture.thumbnails)
        let confined = fixture.run(["-r", fixture.tree], extra: probe)
        #expect(Self.sandbox(confined)["used"] as? Bool == true, "\(Self.sandbox(confined))")
        let reason = Self.probeReason(confined, "doc.pdf")
        for target in targets {
            #expect(reason.contains("write \(target): "), "\(reason)")
            // /tmp inside the sandbox is a private tmpfs: a write there may succeed but never
            // reaches the host. Everywhere else the write itself fails.
            if !target.hasPrefix("/tmp/") {
                #expect(!reason.contains("write \(target): created"), "\(reason)")
            }
            #expect(access(target, F_OK) != 0, "\(target) was created from inside the sandbox")
        }
        #expect(reason.contains("connect \(listener.port): "), "\(reason)")
        #expect(!reason.contains("connect \(listener.port): connected"), "\(reason)")
    }

    @Test func aSandboxedWorkerReadsOnlyTheSystemAndTheBatchInputs() throws {
        let fixture = try Fixture(["doc.pdf": "document.pdf"])
        // A private file outside the batch's inputs (in the fixture directory, beside the tree)
        // and one inside them.
        let secret = fixture.directory.file("secret.txt")
        try "private".write(toFile: secret, atomically: true, encoding: .utf8)
        let input = fixture.tree + "/doc.pdf"
        let probe = ["QUIRE_TEST_WORKER_PROBE_READ": [secret, input, "/usr/share/mime/mime.cache"].joined(separator: ":")]

        let open = fixture.run(["--no-sandbox", "-r", fixture.tree], extra: probe)
        #expect(Self.probeReason(open, "doc.pdf").contains("read \(secret): read"), "control: the probe reads")

        try? FileManager.default.removeItem(atPath: fixture.thumbnails)
        let confined = fixture.run(["-r", fixture.tree], extra: probe)
        #expect(Self.sandbox(confined)["used"] as? Bool == true)
        let reason = Self.probeReason(confined, "doc.pdf")
        #expect(reason.contains("read \(secret): "), "\(reason)")
        #expect(!reason.contains("read \(secret): read"), "a file outside the inputs is invisible: \(reason)")
        #expect(reason.contains("read \(input): read"), "\(reason)")
        #expect(reason.contains("read /usr/share/mime/mime.cache: read"), "\(reason)")
    }

    @Test(arguments: [["QUIRE_BWRAP": "/nonexistent/bwrap"], ["PATH": "/nonexistent"], ["QUIRE_BWRAP": "/bin/false"]])
    func aMissingOrBrokenBwrapDegradesToResourceLimitsWithANotice(_ environment: [String: String]) throws {
        let fixture = try Fixture(["doc.pdf": "document.pdf", "notes.txt": "notes.txt"])
        let run = fixture.run(["-r", fixture.tree], extra: environment)
        #expect(run.result.status == 0, "\(run.result.standardError)")
        #expect(run.summary["generated"] as? Int == 2)
        let sandbox = Self.sandbox(run)
        #expect(sandbox["used"] as? Bool == false)
        #expect(sandbox["kind"] as? String == "none")
        #expect((sandbox["notice"] as? String)?.contains("resource limits only") == true, "\(sandbox)")
        #expect((sandbox["reason"] as? String)?.isEmpty == false)
        #expect(run.result.standardError.contains("quire: warning: workers are not sandboxed"), "\(run.result.standardError)")

        // The text output says it too, with --verbose.
        try FileManager.default.removeItem(atPath: fixture.thumbnails)
        let verbose = QuireBinary.run(["thumbnail", "--batch", "--verbose", "-r", fixture.tree], timeout: 120,
                                      environment: fixture.environment(environment))
        #expect(verbose.status == 0)
        #expect(verbose.standardOutputText.contains("sandbox: none, resource limits only ("), "\(verbose.standardOutputText)")
    }

    @Test func noSandboxIsNotADegradationNotice() throws {
        let fixture = try Fixture(["notes.txt": "notes.txt"])
        let run = fixture.run(["--no-sandbox", "-r", fixture.tree])
        #expect(run.result.status == 0)
        #expect(run.summary["generated"] as? Int == 1)
        #expect(Self.sandbox(run)["used"] as? Bool == false)
        #expect(Self.sandbox(run)["reason"] as? String == "--no-sandbox")
        #expect(Self.sandbox(run)["notice"] == nil || Self.sandbox(run)["notice"] is NSNull)
        #expect(!run.result.standardError.contains("not sandboxed"))
    }
}
