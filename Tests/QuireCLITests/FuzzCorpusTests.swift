import Foundation
import QuireTestSupport
import Testing

/// Every saved fuzzing input (crash regressions and seeds in `Fuzz/corpus/<target>/`) replayed
/// through the plain (non-libFuzzer) build of its target: the one beside `quire` where that
/// build made it, else the debug build's (`swift build --build-tests` builds every target;
/// `make release` builds only what ships): each must run to the end and exit 0 (a crash, a
/// failed precondition or a hang fails the test).
@Suite struct FuzzCorpusTests {
    static let corpus = Samples.repositoryRoot.appendingPathComponent("Fuzz/corpus")

    static func replayBinary(_ target: String) -> String {
        let beside = URL(fileURLWithPath: QuireBinary.path).deletingLastPathComponent().appendingPathComponent("fuzz-" + target).path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return Samples.repositoryRoot.appendingPathComponent(".build/debug/fuzz-" + target).path
    }

    @Test(arguments: ["sniff", "open", "thumbnail", "print-options", "desktop-entry", "previewer-uri", "terminal-replies", "terminal-escaping"])
    func savedInputsReplayCleanly(target: String) throws {
        let directory = Self.corpus.appendingPathComponent(target)
        let inputs = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            .map { directory.appendingPathComponent($0).path }
        try #require(!inputs.isEmpty, "Fuzz/corpus/\(target) has no inputs")
        let binary = Self.replayBinary(target)
        try #require(FileManager.default.isExecutableFile(atPath: binary), "\(binary) is not built")
        let result = ProcessRunner.run([binary] + inputs, timeout: 300)
        #expect(!result.timedOut)
        #expect(result.signal == nil, "\(result.standardError.suffix(2000))")
        #expect(result.status == 0, "\(result.standardError.suffix(2000))")
    }
}
