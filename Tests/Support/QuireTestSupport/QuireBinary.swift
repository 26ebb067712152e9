import Foundation

/// The built `quire` executable under test.
public enum QuireBinary {
    /// `$QUIRE_BINARY`, else `quire` beside the test runner, else `.build/debug/quire`.
    public static let path: String = {
        // Resolved: a sandbox binds the program's real directory (`.build-static/release` is a link).
        if let override = ProcessInfo.processInfo.environment["QUIRE_BINARY"], !override.isEmpty {
            return URL(fileURLWithPath: override).resolvingSymlinksInPath().path
        }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("quire").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir.deleteLastPathComponent()
        }
        return Samples.repositoryRoot.appendingPathComponent(".build/debug/quire").path
    }()

    /// Runs `quire` with string arguments, with a TMPDIR of its own (see ``privateTemporary(_:)``).
    public static func run(_ arguments: [String], timeout: Double = 30,
                           environment: [String: String]? = nil) -> ProcessRunner.Result {
        privateTemporary(environment) { ProcessRunner.run([path] + arguments, environment: $0, timeout: timeout) }
    }

    /// Runs `quire` with raw byte arguments (for file names that are not UTF-8).
    public static func run(bytes arguments: [[UInt8]], timeout: Double = 30) -> ProcessRunner.Result {
        privateTemporary(nil) { ProcessRunner.run(bytes: [Array(path.utf8)] + arguments, environment: $0, timeout: timeout) }
    }

    /// Runs `body` with `environment` (the test process's when nil) whose TMPDIR is a new empty
    /// directory, removed afterwards — unless the caller chose a TMPDIR of its own. Tests run in
    /// parallel: what one run leaves in TMPDIR (an office killed on its time-out) must not be
    /// seen, swept or counted by another.
    public static func privateTemporary<Result>(_ environment: [String: String]?,
                                                _ body: ([String: String]) -> Result) -> Result {
        let inherited = ProcessInfo.processInfo.environment
        var chosen = environment ?? inherited
        if environment == nil { chosen["NO_COLOR"] = "1" }   // as ProcessRunner does for an inherited environment
        if let own = environment?["TMPDIR"], own != inherited["TMPDIR"] {
            return body(chosen)
        }
        let temporary = TemporaryDirectory("quire-tmpdir")
        chosen["TMPDIR"] = temporary.path
        return withExtendedLifetime(temporary) { body(chosen) }
    }
}

/// A temporary directory removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "quire-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        // Restore permissions a test may have removed, then remove everything (names may not
        // be UTF-8, so let chmod/rm walk the tree; no shell is involved).
        _ = ProcessRunner.run(["/bin/chmod", "-R", "u+rwx", url.path], timeout: 30)
        _ = ProcessRunner.run(["/bin/rm", "-rf", url.path], timeout: 30)
    }

    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }
}
