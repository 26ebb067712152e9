import Foundation
import QuireTestSupport
import Testing

/// C is wrapped at the edge: each C library's system-library target (`Sources/C*`) is imported
/// by exactly one Swift module, its wrapper.
@Suite struct PackageStructureTests {
    @Test func eachCLibraryHasOneWrapperModule() throws {
        let sources = Samples.repositoryRoot.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        let cModules = Set(targets.filter { $0.hasPrefix("C") && $0.dropFirst().first?.isUppercase == true })
        #expect(cModules.contains("CGIO") && cModules.contains("CPoppler"))
        var importers: [String: Set<String>] = [:]
        for target in targets where !cModules.contains(target) {
            let directory = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: directory.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { continue }
                    let module = String(words[index + 1])
                    if cModules.contains(module) { importers[module, default: []].insert(target) }
                }
            }
        }
        #expect(importers["CGIO"] == ["QuireGIO"])
        for (module, modules) in importers {
            #expect(modules.count == 1, "\(module) is imported by \(modules.sorted())")
        }
    }

    /// Processes start through one type (`ChildProcess` in QuireSystem): no other module calls
    /// `posix_spawn`, `execv`, `fork` or `system`, or reads `/proc/self/exe` by hand.
    @Test func programsStartOnlyThroughQuireSystem() throws {
        let sources = Samples.repositoryRoot.appendingPathComponent("Sources")
        var offenders: [String] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) where target != "QuireSystem" {
            let directory = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: directory.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    for call in ["posix_spawn(", "posix_spawnp(", "execv(", "execvp(", "execve(", "fork()", "system(", "\"/proc/self/exe\""]
                    where code.contains(call) {
                        offenders.append("\(target)/\(file):\(number + 1): \(call)")
                    }
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
