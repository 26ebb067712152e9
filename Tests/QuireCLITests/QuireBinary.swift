import Foundation

/// Runs the built `quire` binary (found beside the test bundle, or in .build/debug) with a
/// wall-clock limit, capturing its output.
enum QuireBinary {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = root.appendingPathComponent("Samples/generated")

    static let url: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("quire")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return root.appendingPathComponent(".build/debug/quire")
    }()

    /// Generates Samples/generated once per process if it is missing or incomplete.
    static let samplesReady: Bool = {
        if FileManager.default.fileExists(atPath: samples.appendingPathComponent("garbage.ps").path),
           FileManager.default.fileExists(atPath: samples.appendingPathComponent("thousand-pages.pdf").path) {
            return true
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("Samples/generate.sh").path]
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static func sample(_ name: String) -> String {
        precondition(samplesReady, "Samples/generate.sh failed")
        return samples.appendingPathComponent(name).path
    }

    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: String
        let timedOut: Bool
        /// Lines of standard error.
        var errorLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// Runs quire with `arguments`; kills it after `timeout` seconds.
    static func run(_ arguments: [String], timeout: TimeInterval = 30, environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes concurrently so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var stdout = Data(), stderr = Data()
        group.enter()
        DispatchQueue.global().async { stdout = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { stderr = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(10_000)
        }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self), timedOut: timedOut)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
