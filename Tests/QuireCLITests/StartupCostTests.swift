import ArgumentParser
import Foundation
@testable import QuireCLI
import QuireTestSupport
import Testing

/// What every `quire` process pays before it does anything: a file manager starts one per
/// thumbnail. The binary must not link Foundation proper (CoreFoundation's initialiser runs
/// in every process) or ICU, nor the libraries Quire loads only when a family needs them.
@Suite struct StartupCostTests {
    static func neededLibraries(_ binary: String) throws -> [String] {
        let result = ProcessRunner.run(["/usr/bin/readelf", "-d", binary], timeout: 30)
        try #require(result.status == 0, "\(result.standardError)")
        return result.standardOutputText.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test func quireLinksNeitherFoundationProperNorLazyLibraries() throws {
        let needed = try Self.neededLibraries(QuireBinary.path)
        #expect(needed.contains { $0.hasPrefix("libgio-2.0") })   // the check reads real entries
        for prefix in ["libpoppler", "libcairo", "libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libicu", "libgdk_pixbuf",
                       "libcups", "librsvg", "libspectre", "libarchive", "libqpdf", "libpangocairo", "libgs", "libgtk-4", "libgdk-4"] {
            #expect(!needed.contains { $0.hasPrefix(prefix) }, "quire links \(prefix): \(needed)")
        }
    }

    /// The Splash shim is C++: it must not bring a Swift runtime (a second one, the toolchain's
    /// shared libswiftCore, found through a RUNPATH outside /usr) into `quire`, nor depend on
    /// anything GNOME's thumbnail sandbox cannot see.
    @Test func splashShimNeedsNoSwiftRuntime() throws {
        let shim = URL(fileURLWithPath: QuireBinary.path).deletingLastPathComponent()
            .appendingPathComponent("libQuirePopplerSplash.so").path
        let needed = try Self.neededLibraries(shim)
        #expect(needed.contains { $0.hasPrefix("libpoppler-cpp") })   // the check reads real entries
        #expect(!needed.contains { $0.hasPrefix("libswift") || $0.hasPrefix("libdispatch") || $0.hasPrefix("libFoundation") },
                "the shim needs \(needed)")
        let dynamic = ProcessRunner.run(["/usr/bin/readelf", "-d", shim], timeout: 30)
        for line in dynamic.standardOutputText.split(separator: "\n") where line.contains("PATH)") {
            #expect(!line.contains("/opt") && !line.contains("swift"), "the shim searches \(line)")
        }
    }

    /// A command without an explicit name gets one from `String(describing:)` of its type, which
    /// the parser evaluates for every command on every start: ~1.3 M instructions of
    /// protocol-conformance lookups each (a quarter of `quire --version` with three unnamed).
    @Test func everyCommandNamesItself() {
        func check(_ command: ParsableCommand.Type) {
            #expect(command.configuration.commandName != nil, "\(command) has no commandName")
            command.configuration.subcommands.forEach(check)
        }
        check(QuireCommand.self)
        #expect(QuireCommand.configuration.subcommands.count > 10)   // the walk reads the real tree
    }

    /// `quire --version` answers before the parser (``QuireMain``) with what the parser says.
    @Test func versionShortPathMatchesTheParser() {
        let result = ProcessRunner.run([QuireBinary.path, "--version"], timeout: 30)
        #expect(result.status == 0)
        #expect(result.standardOutputText == QuireCommand.configuration.version + "\n")
        #expect(QuireCommand.configuration.version == QuireVersion.string)
    }
}
