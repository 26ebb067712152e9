import Foundation

/// A private single-node Slurm cluster (munged, slurmctld, slurmd on loopback) for one test,
/// started and stopped with `Tests/Support/slurm-testbed.sh`. Clients reach it with
/// ``environment(_:)`` (`SLURM_CONF`).
public final class SlurmTestBed: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let directory: TemporaryDirectory
    /// The bed's slurm.conf.
    public let configuration: String

    public static var script: String {
        Samples.repositoryRoot.appendingPathComponent("Tests/Support/slurm-testbed.sh").path
    }

    public init() throws {
        // A short name: slurmd's step sockets live below it, and a Unix socket path has 108 bytes.
        directory = TemporaryDirectory("qs")
        let result = ProcessRunner.run(["/bin/bash", Self.script, "start", directory.path], timeout: 120)
        guard result.status == 0 else {
            _ = ProcessRunner.run(["/bin/bash", Self.script, "stop", directory.path], timeout: 60)
            throw Failure(description: "Slurm test bed did not start (status \(result.status)): \(result.standardError)")
        }
        guard let line = result.standardOutputText.split(separator: "\n").first(where: { $0.hasPrefix("SLURM_CONF=") }) else {
            throw Failure(description: "Slurm test bed wrote no SLURM_CONF: \(result.standardOutputText)")
        }
        configuration = String(line.dropFirst("SLURM_CONF=".count))
    }

    deinit {
        _ = ProcessRunner.run(["/bin/bash", Self.script, "stop", directory.path], timeout: 60)
    }

    /// The test process's environment pointed at the bed, plus `extra`.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in environment.keys where key.hasPrefix("SLURM_") { environment.removeValue(forKey: key) }
        environment["SLURM_CONF"] = configuration
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// The bed's daemon logs (for failure messages).
    public func logs() -> String {
        ["slurmctld.log", "slurmd.log"].map { name in
            let text = (try? String(contentsOfFile: directory.path + "/log/" + name, encoding: .utf8)) ?? ""
            return "== \(name)\n" + text.split(separator: "\n").suffix(15).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
